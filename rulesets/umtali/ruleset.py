"""The :class:`~rulesets.protocol.Ruleset` object for Umtali (what the CLI and app call).

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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.cards import Card, Rank, format_cards
from rulesets.errors import HouseRuleError, IllegalActionError
from rulesets.protocol import GameRecord, HouseRulesBase, ScoreReport, Verdict
from rulesets.umtali.core import (
    MeldKind,
    UmtaliRules,
    breaking_meld,
    card_points,
    check_anchor,
    classify_meld,
    classify_pair,
    meld_points,
    meld_rule,
)
from rulesets.umtali.game import U7_UNCHECKED, UmtaliGame
from rulesets.umtali.simulate import random_record

__all__ = ["RULESET", "UmtaliRuleset"]


def _rules(rules: HouseRulesBase | None) -> UmtaliRules:
    if rules is None:
        return UmtaliRules()
    if isinstance(rules, UmtaliRules):
        return rules
    try:
        return UmtaliRules.model_validate(rules.model_dump())
    except Exception:
        raise HouseRuleError(f"{rules!r}: not Umtali house rules") from None


def _q(cards: Sequence[Card]) -> str:
    return f'"{format_cards(cards)}"'


def _anchor_kind(onto: Sequence[Card]) -> MeldKind:
    if len(onto) == 1:
        return MeldKind.JACK if onto[0].r is Rank.JACK else MeldKind.SINGLE
    if len(onto) == 2 and onto[0].rank is onto[1].rank:
        return MeldKind.PAIR
    return classify_meld(onto)


class UmtaliRuleset:
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

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """Verdict on putting ``cards`` down (or extending ``onto`` with them).

        ``hand`` is the player's hand (the played cards are added if missing);
        without it the no-breaking rule U7 cannot be checked and the verdict says so.
        An ``onto`` of two same-rank cards is taken to be the going-out player's
        pair, which only the opponent's final turn may extend (U8.3).
        """
        r = _rules(rules)
        cards = tuple(cards)
        notes: list[str] = []
        try:
            for c in cards + tuple(onto or ()):
                if c.is_joker:
                    raise IllegalActionError(f"{_q(cards)}: Umtali uses no jokers", rule="U1.1")
            if onto:
                onto = tuple(onto)
                kind = _anchor_kind(onto)
                if len(cards) != 1:
                    raise IllegalActionError(
                        f"{_q(cards)} onto {_q(onto)}: extensions are one card at a time "
                        "(each becomes its own single)",
                        rule="U6.1",
                    )
                card = cards[0]
                if card in onto:
                    raise IllegalActionError(
                        f'"{card}" onto {_q(onto)}: that card is already in the anchor', rule="U1.1"
                    )
                check_anchor(card, kind, onto, r, pair_open=True)
                if kind is MeldKind.PAIR:
                    notes.append("a pair is extendable only in the opponent's final turn (U8.3)")
                self._u7(cards, hand, r, notes)
                pts = card_points(card)
                return Verdict(
                    legal=True,
                    kind="extension",
                    points=pts,
                    rule="U8.3" if kind is MeldKind.PAIR else "U6.2",
                    reason=f'"{card}" extends {_q(onto)} ({kind.value}): it becomes a single '
                    f"on your side worth {pts} point{'s' if pts != 1 else ''}",
                    cards=tuple(str(c) for c in cards),
                    notes=tuple(notes),
                )
            if going_out and len(cards) == 2 and cards[0].rank is cards[1].rank:
                kind = classify_pair(cards, r)
                self._u7(cards, hand, r, notes)
            else:
                kind = classify_meld(cards)
            if hand is not None and going_out:
                rest = set(hand) - set(cards)
                if len(rest) > 1:
                    raise IllegalActionError(
                        f"{_q(cards)}: {format_cards(sorted(rest))} would still be in hand; going "
                        "out leaves at most one card to discard",
                        rule="U8.1",
                    )
            pts = meld_points(kind, cards)
            return Verdict(
                legal=True,
                kind=kind.value,
                points=pts,
                rule=meld_rule(kind),
                reason=f"{_q(cards)} is a {kind.value}: {pts} points on your side",
                cards=tuple(str(c) for c in cards),
                notes=tuple(notes),
            )
        except IllegalActionError as exc:
            return Verdict(
                legal=False,
                rule=exc.rule or "U5",
                reason=exc.reason,
                cards=tuple(str(c) for c in cards),
                notes=tuple(notes),
            )

    @staticmethod
    def _u7(
        cards: Sequence[Card], hand: Sequence[Card] | None, r: UmtaliRules, notes: list[str]
    ) -> None:
        if hand is None:
            notes.append(U7_UNCHECKED)
            return
        if not r.no_breaking:
            return
        held = set(hand) | set(cards)
        for c in cards:
            meld = breaking_meld(c, held - {c})
            if meld is not None:
                raise IllegalActionError(
                    f"{_q(cards)}: {c} forms {_q(meld)} with cards still in your hand; "
                    "meld that first",
                    rule="U7.2",
                )

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """U9 points of cards lying on a side, each as a single; exactly K+Q of one suit
        is read as a marriage melded as one (20).

        >>> from rulesets.cards import parse_cards
        >>> RULESET.score(parse_cards("10S 3H KH QH")).points  # 5 + 1 + 5 + 5
        16
        """
        _rules(rules)
        cards = tuple(cards)
        for c in cards:
            if c.is_joker:
                raise IllegalActionError(f"{_q(cards)}: Umtali uses no jokers", rule="U1.1")
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
                notes=("K+Q of one suit melded as one marriage: 20 (A-U14)",),
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
                "its own for 20 (U9.2)",
            )
        return ScoreReport(
            points=sum(p for _, p in breakdown), rule="U9.1", breakdown=breakdown, notes=notes
        )

    def replay(self, record: GameRecord) -> dict[str, Any]:
        """The common replay summary of an Umtali :class:`GameRecord`."""
        return UmtaliGame.from_record(record).summary()

    def random_record(self, seed: int) -> GameRecord:
        """A random legal complete game."""
        return random_record(seed)


RULESET = UmtaliRuleset()
