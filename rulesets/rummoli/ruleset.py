"""The :class:`~rulesets.protocol.Ruleset` object for Rummoli (what the CLI and app call).

>>> from rulesets.cards import parse_cards
>>> RULESET.check(parse_cards("2C 5H JD")).reason
'holds the pay card(s) JD, so may not take the widow'
>>> RULESET.score(parse_cards("2C 5H JD")).points
3
>>> print(RULESET.opening(["Ann", "Bob", "Cy"], "Cy").text)
Cy deals; Ann, on the dealer's left, opens the poker betting.
>>> RULESET.opening_actions(["Ann", "Bob"], "Bob")[0].to_json()
{'type': 'start', 'chips': [50, 50], 'dealer': 'Bob'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.cards import Card, parse_cards
from rulesets.errors import HouseRuleError
from rulesets.facade import RulesetBase
from rulesets.protocol import (
    Advice,
    CheckerFacts,
    Game,
    HouseRulesBase,
    Opening,
    ScoreReport,
    Units,
    Verdict,
)
from rulesets.rummoli.actions import RummoliAction, Start, parse_action
from rulesets.rummoli.board import (
    ANTE,
)
from rulesets.rummoli.check import PACK_RULE, check
from rulesets.rummoli.game import RummoliGame
from rulesets.rummoli.house_rules import RummoliRules, as_rules
from rulesets.rummoli.simulate import random_record
from rulesets.rummoli.suggest import suggest
from rulesets.seats import left_of

__all__ = ["RULESET", "RummoliRuleset"]


def _rules(rules: HouseRulesBase | None) -> RummoliRules:
    if rules is not None and not isinstance(rules, RummoliRules):
        raise HouseRuleError(f"{type(rules).__name__}: not Rummoli house rules")
    return as_rules(rules)


class RummoliRuleset(RulesetBase[RummoliGame, RummoliAction]):
    """The Rummoli referee behind :func:`rulesets.load_ruleset`."""

    name = "rummoli"
    title = "Rummoli"
    summary = (
        "Nine pots of chips: poker for the Poker pot, then a stops game where pay cards "
        "collect their pots and the first player out takes the centre."
    )
    min_players = 2
    max_players = 8
    house_rules: type[HouseRulesBase] = RummoliRules
    game_class = RummoliGame
    action_parser = staticmethod(parse_action)
    record_maker = staticmethod(random_record)
    hand_word = "Round"
    pack_rule = PACK_RULE
    #: chips each player starts with unless the table says otherwise
    starting_stack: int | None = 50
    #: chips each player antes before every deal: 1 into each of the 9 pots (M1.3)
    ante = ANTE
    checker = CheckerFacts(
        modes=("hand",),
        whole_hand=(
            "Tap your whole hand: whether it may take the widow, which pay cards it holds, "
            "and its best poker hand."
        ),
        hand_verdict=True,
        legal_words="May take the widow",
        illegal_words="May not take the widow",
        plain_headline=True,
    )

    def jokers(self, rules: HouseRulesBase | None = None) -> bool:
        """Rummoli is played without jokers (M1.1)."""
        return False

    def units(self, rules: HouseRulesBase | None = None) -> Units:
        return Units.CHIPS

    def higher_is_better(self, rules: HouseRulesBase | None = None) -> bool:
        return True

    # ---- opening a game
    def opening(
        self,
        players: Sequence[str],
        dealer: str,
        *,
        rules: HouseRulesBase | dict[str, Any] | None = None,
    ) -> Opening:
        """The dealer deals; the player on their left opens the poker betting (M4.2), or,
        with a showdown and no betting, the best poker hand starts (M4.3)."""
        left = left_of(players, dealer)
        if as_rules(rules).poker_betting == "showdown":
            then = "the poker hands are shown without betting, and the best one starts the play."
        else:
            then = f"{left}, on the dealer's left, opens the poker betting."
        return Opening(dealer=dealer, first=left, text=f"{dealer} deals; {then}", rule="M4.2")

    def opening_actions(
        self, players: Sequence[str], dealer: str, *, chips: Sequence[int] | None = None
    ) -> list[RummoliAction]:
        """The ``start`` action: each player's starting chips and the first dealer."""
        stacks = list(chips) if chips is not None else [self.starting_stack or 0] * len(players)
        left_of(players, dealer)  # the dealer is one of the players
        return [Start(chips=stacks, dealer=dealer)]

    # ---- stateless checks
    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """May a player holding ``cards`` swap for or bid on the widow? (M2.2-M2.4):
        the judgement of :func:`rulesets.rummoli.check.check`."""
        judgement = check(cards, onto=onto, going_out=going_out, hand=hand, rules=_rules(rules))
        return Verdict.of(judgement)

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """Chips owed for cards still held when a player goes out: 1 each (M6.1)."""
        _rules(rules)
        hand_cards = parse_cards(list(cards))
        return ScoreReport(
            points=len(hand_cards),
            rule="M6.1",
            breakdown=tuple((str(c), 1) for c in hand_cards),
            notes=("paid to the player who went out (A-M11)",),
        )

    def suggest(
        self,
        hand: Sequence[Card],
        *,
        rules: HouseRulesBase | None = None,
        game: Game | None = None,
        player: str | None = None,
    ) -> Advice:
        """The best poker five, the pay cards held, and at a live table the card to lay."""
        live = game if isinstance(game, RummoliGame) else None
        return suggest(hand, rules=_rules(rules) if rules else None, game=live, player=player)


RULESET = RummoliRuleset()
