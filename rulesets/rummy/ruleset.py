"""The :class:`~rulesets.protocol.Ruleset` object for basic Rummy (what the CLI and app call).

>>> from rulesets.cards import parse_cards
>>> RULESET.check(parse_cards("QH KH AH")).legal
False
>>> RULESET.check(parse_cards("QH KH AH"), rules=RummyRules(ace_high_or_low=True)).kind
'run'
>>> RULESET.score(parse_cards("KS 7D AC")).points
18
>>> RULESET.opening(["Ann", "Bob", "Cy"], "Bob").text
"Bob deals; Cy, on the dealer's left, plays first."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from rulesets.cards import Card
from rulesets.errors import RulesetError
from rulesets.facade import RulesetBase
from rulesets.protocol import (
    Action,
    Advice,
    CheckerFacts,
    Game,
    HouseRulesBase,
    Opening,
    Ruleset,
    ScoreReport,
    Units,
    Verdict,
)
from rulesets.rummy import game as game_module
from rulesets.rummy.actions import RummyAction, StartHand, parse_action
from rulesets.rummy.check import PACK_RULE, check
from rulesets.rummy.game import RummyGame
from rulesets.rummy.house_rules import RummyRules, coerce_rules, house_rule
from rulesets.rummy.melds import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    card_value,
)
from rulesets.rummy.simulate import random_record
from rulesets.rummy.suggest import advise
from rulesets.seats import left_of

__all__ = ["RULESET", "RummyRuleset"]


class RummyRuleset(RulesetBase[RummyGame, RummyAction]):
    """Basic Rummy for 2-6 players: melds, lay-offs, penalty points (RULES.md section 2)."""

    name = "rummy"
    title = "Rummy"
    summary = (
        "Basic Rummy for 2-6 players: meld sets and runs, lay off, go out; losers add "
        "their cards to a penalty total and the lowest total at 100 wins."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    house_rules: type[HouseRulesBase] = RummyRules
    game_class = RummyGame
    action_parser = staticmethod(parse_action)
    record_maker = staticmethod(random_record)
    hand_word = "Hand"
    pack_rule = PACK_RULE
    starting_stack: int | None = None
    checker = CheckerFacts(
        rest_of_hand="Rest of my hand (empty: I go out)",
        whole_hand="The melds that leave the fewest penalty points in this hand.",
    )

    # ---- facts ----------------------------------------------------------------------

    def jokers(self, rules: HouseRulesBase | None = None) -> bool:
        """Jokers are in the pack only with the "Jokers" house rule (R7)."""
        return bool(coerce_rules(rules).jokers)

    def units(self, rules: HouseRulesBase | None = None) -> Units:
        """Penalty points, or points with "Winner takes all" or "Cash"."""
        return game_module.units(coerce_rules(rules))

    def higher_is_better(self, rules: HouseRulesBase | None = None) -> bool:
        """Lower is better with penalty points (R6.3); higher with points won or cash."""
        return game_module.higher_is_better(coerce_rules(rules))

    def opening(
        self,
        players: Sequence[str],
        dealer: str,
        *,
        rules: HouseRulesBase | dict[str, Any] | None = None,
    ) -> Opening:
        """Who deals and who plays first (R1.4: clockwise from the dealer's left); no
        house rule changes it (``winner_deals`` picks later dealers, not the first)."""
        del rules
        left = left_of(players, dealer)
        return Opening(
            dealer=dealer,
            first=left,
            text=f"{dealer} deals; {left}, on the dealer's left, plays first.",
            rule="R1.4",
        )

    def opening_actions(
        self, players: Sequence[str], dealer: str, *, chips: Sequence[int] | None = None
    ) -> list[Action]:
        """The first deal (R1.2: the first dealer is chosen at the table)."""
        del chips  # Rummy is played without chips
        left_of(players, dealer)  # the dealer is one of the players
        return [StartHand(dealer=dealer)]

    # ---- stateless checks -------------------------------------------------------------

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """Verdict on a meld, or on a lay-off ``onto`` a meld on the table: the
        judgement of :func:`rulesets.rummy.check.check`.

        >>> from rulesets.cards import parse_cards
        >>> RULESET.check(parse_cards("10C"), onto=parse_cards("10S 10D 10H")).kind
        'set'
        >>> v = RULESET.check(parse_cards("7H 8H 9H"), hand=parse_cards("9H 2C"))
        >>> v.legal, v.rule
        (False, 'R1.1')
        """
        judgement = check(
            cards, onto=onto, going_out=going_out, hand=hand, rules=coerce_rules(rules)
        )
        return Verdict.of(judgement)

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """Penalty points of a hand (R6.1).

        >>> from rulesets.cards import parse_cards
        >>> RULESET.score(parse_cards("KS 7D AC"), rules=RummyRules(ace_high_or_low=True)).points
        32
        """
        r = coerce_rules(rules)
        breakdown = tuple((str(c), card_value(c, r)) for c in cards)
        notes = (
            (f"an ace counts 15 ({house_rule('ace_high_or_low')})",) if r.ace_high_or_low else ()
        )
        return ScoreReport(
            points=sum(v for _, v in breakdown), rule="R6.1", breakdown=breakdown, notes=notes
        )

    def suggest(
        self,
        hand: Sequence[Card],
        *,
        rules: HouseRulesBase | None = None,
        game: Game | None = None,
        player: str | None = None,
    ) -> Advice:
        """The best plays for ``hand`` (exact): with ``game``, this turn at that table --
        lay-offs onto its melds, one new meld unless "Several melds a turn"; with
        ``player`` too, what that player may still do this turn.

        >>> from rulesets.cards import parse_cards
        >>> a = RULESET.suggest(parse_cards("7H 8H 9H KS"))
        >>> a.plays[0].cards, a.left, a.points, a.can_go_out
        (('7H', '8H', '9H'), ('KS',), 10, True)
        """
        if not isinstance(game, RummyGame):
            if game is not None:
                raise RulesetError(f"{type(game).__name__}: not a Rummy game")
            return advise(hand, coerce_rules(rules))
        play = game._hand
        table = tuple(m.shape for m in game.table)
        owners = tuple(m.owner for m in game.table)
        melds_allowed = None
        melded = False
        if player is not None and play is not None:
            melded = player in play.melded
            if play.turns and player == play.turn and not game.rules.multi_meld:
                melds_allowed = 0 if play.melds_this_turn else 1
        return advise(
            hand,
            game.rules,
            table=table,
            owners=owners,
            melds_allowed=melds_allowed,
            melded=melded,
        )


RULESET: Final = RummyRuleset()

if TYPE_CHECKING:  # mypy proves the ruleset and its games satisfy the protocols

    def _ruleset() -> Ruleset:
        return RULESET

    def _game(game: RummyGame) -> Game:
        return game
