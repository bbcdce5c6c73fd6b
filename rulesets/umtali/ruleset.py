"""The :class:`~rulesets.protocol.Ruleset` object for Umtali (what the CLI and app call).

``check`` judges cards without a table through the same functions the live
game uses (:mod:`rulesets.umtali.melds`), so the two agree under every house
rule (A-U5).

>>> from rulesets.cards import parse_cards
>>> RULESET.check(parse_cards("5H 6H 7H")).points
3
>>> v = RULESET.check(parse_cards("8H"), onto=parse_cards("5H 6H 7H"))
>>> v.legal, v.kind, v.points
(True, 'extension', 1)
>>> RULESET.check(parse_cards("9S 9D"), going_out=True).kind
'pair'
>>> RULESET.score(parse_cards("KH QH")).points
20
>>> RULESET.opening(["Ann", "Bob"], "Ann").text  # doctest: +ELLIPSIS
'Ann deals 10 each; Bob plays first. A card that makes a meld with cards still held ...'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from rulesets.cards import Card, Rank, format_cards
from rulesets.errors import HouseRuleError, IllegalActionError, RulesetError
from rulesets.facade import RulesetBase, left_of_dealer
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
from rulesets.umtali.actions import Extend, GoOut, Meld, StartHand, UmtaliAction, parse_action
from rulesets.umtali.check import PACK_RULE, check
from rulesets.umtali.game import UmtaliGame
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.melds import (
    U4_4_OPENING,
    U7_ENTER_HAND,
    U7_OPENING,
    MeldKind,
    card_points,
    meld_rule,
)
from rulesets.umtali.simulate import random_record
from rulesets.umtali.suggest import PlanAction, Suggestion, suggest_table
from rulesets.words import quote_cards

__all__ = ["RULESET", "UmtaliRuleset"]


def _rules(rules: HouseRulesBase | dict[str, Any] | None) -> UmtaliRules:
    if rules is None:
        return UmtaliRules()
    if isinstance(rules, UmtaliRules):
        return rules
    data = rules if isinstance(rules, dict) else rules.model_dump()
    try:
        return UmtaliRules.model_validate(data)
    except ValidationError:
        raise HouseRuleError(f"{rules!r}: not Umtali house rules") from None


def _plural(n: int) -> str:
    return Units.POINTS.of(n)


class UmtaliRuleset(RulesetBase[UmtaliGame, UmtaliAction]):
    """Umtali for two players: melds, single-card extensions, marriages and jacks."""

    name = "umtali"
    title = "Umtali"
    summary = (
        "Two-player rummy from Zimbabwe: 4 hands, meld on your own side, extend any "
        "meld with single cards, marriages score 20."
    )
    min_players = 2
    max_players = 2
    house_rules: type[HouseRulesBase] = UmtaliRules
    game_class = UmtaliGame
    action_parser = staticmethod(parse_action)
    record_maker = staticmethod(random_record)
    hand_word = "Hand"
    pack_rule = PACK_RULE
    starting_stack: int | None = None
    checker = CheckerFacts(
        going_out=True,
        rest_of_hand="Rest of my hand (checks the no-breaking rule)",
        whole_hand="The best melding of this hand this turn, and whether it goes out.",
        unchecked_words=U7_ENTER_HAND,
    )

    # ------------------------------------------------------------------ facts
    def jokers(self, rules: HouseRulesBase | None = None) -> bool:
        """Umtali is played without jokers (U1.1)."""
        return False

    def units(self, rules: HouseRulesBase | None = None) -> Units:
        """Umtali totals are points on your own side (U9)."""
        return Units.POINTS

    def higher_is_better(self, rules: HouseRulesBase | None = None) -> bool:
        """The higher total wins (U2.1)."""
        return True

    def opening(
        self,
        players: Sequence[str],
        dealer: str,
        *,
        rules: HouseRulesBase | dict[str, Any] | None = None,
    ) -> Opening:
        """The cut decides the first dealer (U2.2); the non-dealer plays first (U3.3).

        What a verdict cannot check without the player's hand is said here, once for
        the game, under the house rules that make it so: the no-breaking rule (U7.2)
        and compulsory melding (U4.4).
        """
        r = _rules(rules)
        first = left_of_dealer(players, dealer)
        deal = (
            f"{dealer} deals 11 cards to {first} and 10 to {dealer}, with no upcard; "
            f"{first} plays first, without drawing."
            if r.deal_eleven_ten
            else f"{dealer} deals 10 each; {first} plays first."
        )
        caveats = [
            words
            for on, words in ((r.no_breaking, U7_OPENING), (r.compulsory_melding, U4_4_OPENING))
            if on
        ]
        return Opening(dealer=dealer, first=first, text=" ".join([deal, *caveats]), rule="U3.3")

    def opening_actions(
        self, players: Sequence[str], dealer: str, *, chips: Sequence[int] | None = None
    ) -> list[Action]:
        """A new game's record opens with the first hand's deal."""
        return [StartHand(dealer=self.opening(players, dealer).dealer)]

    def game_rules(self, rules: HouseRulesBase | dict[str, Any] | None) -> UmtaliRules:
        return _rules(rules)

    # ------------------------------------------------------------------ checks
    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """Verdict on putting ``cards`` down (or extending ``onto`` with them): the
        judgement of :func:`rulesets.umtali.check.check`."""
        return Verdict.of(
            check(cards, onto=onto, going_out=going_out, hand=hand, rules=_rules(rules))
        )

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """U9 points of cards lying on a side, each as a single; exactly K+Q of one suit
        is read as a marriage melded as one (20).

        >>> from rulesets.cards import parse_cards
        >>> RULESET.score(parse_cards("10S 3H KH QH")).points  # 5 + 1 + 5 + 5
        16
        >>> RULESET.score(parse_cards("KS QH")).points  # two suits: no marriage (U9.2)
        10
        """
        _rules(rules)
        cards = tuple(cards)
        for c in cards:
            if c.is_joker:
                raise IllegalActionError(
                    f"{quote_cards(cards)}: Umtali uses no jokers", rule="U1.1"
                )
        if (
            len(cards) == 2
            and cards[0].suit == cards[1].suit
            and {
                cards[0].rank,
                cards[1].rank,
            }
            == {Rank.KING, Rank.QUEEN}
        ):
            return ScoreReport(
                points=20,
                rule="U9.2",
                breakdown=((format_cards(cards), 20),),
                # our ruling A-U14: "counts double" is 20 for the pair, not 40
                notes=(
                    f"{format_cards(cards, symbols=True)} melded together are one marriage:"
                    " 20 points, not 40",
                ),
            )
        breakdown = tuple((str(c), card_points(c)) for c in cards)
        notes: tuple[str, ...] = ()
        suits_kq = [
            s
            for s in {c.suit for c in cards}
            if {c.rank for c in cards if c.suit == s} >= {Rank.KING, Rank.QUEEN}
        ]
        if suits_kq:
            notes = (
                "K and Q among other cards count as singles (5 + 5); score a marriage on "
                "its own for 20",
            )
        return ScoreReport(
            points=sum(p for _, p in breakdown), rule="U9.1", breakdown=breakdown, notes=notes
        )

    # ------------------------------------------------------------------ advice
    def suggest(
        self,
        hand: Sequence[Card],
        *,
        rules: HouseRulesBase | None = None,
        game: Game | None = None,
        player: str | None = None,
    ) -> Advice:
        """The best plays for ``hand`` this turn, exact (:func:`suggest_table`); at a live
        table (``game`` and ``player``) against the melds already down.

        >>> from rulesets.cards import parse_cards
        >>> a = RULESET.suggest(parse_cards("5H 6H 7H KS QS 2C"))
        >>> [(v.kind, v.points) for v in a.plays], a.points, a.can_go_out, a.left
        ([('marriage', 20), ('sequence', 3), ('go_out', 0)], 23, True, ())
        """
        cards = tuple(hand)
        if game is not None:
            if not isinstance(game, UmtaliGame):
                raise RulesetError(f"{type(game).__name__}: not an Umtali game")
            who = player if player is not None else (game.turn or game.players[0])
            sug = game.suggest(who, cards)
        else:
            sug = suggest_table(
                [[], []], 0, cards, rules=_rules(rules), players=("You", "Opponent")
            )
        return _advice(sug)


def _play_verdict(act: PlanAction, kinds: dict[tuple[Card, ...], tuple[str, int]]) -> Verdict:
    if isinstance(act, Meld):
        kind, pts = kinds.get(act.cards, ("meld", 0))
        return Verdict(
            legal=True,
            kind=kind,
            points=pts,
            rule=meld_rule(MeldKind(kind)),
            reason=f'meld "{format_cards(act.cards)}" as a {kind}: {_plural(pts)}',
            cards=tuple(map(str, act.cards)),
        )
    if isinstance(act, Extend):
        pts = card_points(act.card)
        return Verdict(
            legal=True,
            kind="extension",
            points=pts,
            rule="U6.2",
            reason=f'play "{act.card}" onto {act.anchor[0]}\'s meld #{act.anchor[1] + 1}: '
            f"{_plural(pts)}",
            cards=(str(act.card),),
        )
    return _out_verdict(act)


def _out_verdict(act: GoOut) -> Verdict:
    parts = []
    pts = 0
    if act.pair:
        pts = sum(card_points(c) for c in act.pair)
        parts.append(f'lay the pair "{format_cards(act.pair)}" ({_plural(pts)})')
    if act.discard:
        parts.append(f'discard "{act.discard}"')
    return Verdict(
        legal=True,
        kind="go_out",
        points=pts,
        rule="U8.1",
        reason="go out: " + (", ".join(parts) if parts else "nothing left in hand"),
        cards=tuple(map(str, act.pair)),
    )


def _advice(sug: Suggestion) -> Advice:
    """An exact :class:`Suggestion` as the protocol's :class:`Advice`."""
    kinds = {tuple(p.cards): (p.kind, p.points) for p in sug.plays}
    plays = tuple(_play_verdict(a, kinds) for a in sug.best)
    out = bool(sug.best) and isinstance(sug.best[-1], GoOut)
    reason = f"Best this turn: {_plural(sug.best_points)} on your side"
    if out:
        reason += " and you go out"
    elif not sug.best:
        reason = "Nothing to meld yet"
    notes = list(sug.notes)
    if not out and sug.go_out is not None and sug.go_out_points is not None:
        notes.append(f"Going out is possible too, for {_plural(sug.go_out_points)}")
    return Advice(
        plays=plays,
        left=tuple(str(c) for c in sug.kept),
        points=sug.best_points,
        can_go_out=out,
        reason=reason,
        notes=tuple(notes),
    )


RULESET = UmtaliRuleset()
_PROTOCOL: Ruleset = RULESET  # mypy checks the registry's promise here
