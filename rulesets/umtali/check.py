"""Umtali's check of cards without a table (``companion check umtali``, the meld checker).

Plain Python over :mod:`rulesets.umtali.melds` -- the functions the live game
referees with, so the two agree under every house rule (A-U5) -- returning a
:class:`~rulesets.judgement.Judgement`; nothing here imports pydantic, so a
script's check pays only for the meld rules (``benchmarks/cli_start.py``).

>>> from rulesets.cards import parse_cards
>>> check(parse_cards("5H 6H 7H")).points
3
>>> j = check(parse_cards("8H"), onto=parse_cards("5H 6H 7H"))
>>> j.legal, j.kind, j.points
(True, 'extension', 1)
>>> check(parse_cards("9S 9D"), going_out=True).kind
'pair'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rulesets.cards import Card, format_cards
from rulesets.errors import IllegalActionError, IncompleteActionError
from rulesets.judgement import Judgement
from rulesets.umtali.melds import (
    RULES_MD,
    MeldKind,
    MeldRules,
    accepted_cards,
    anchor_kind,
    card_points,
    check_anchor,
    classify_play,
    compulsory_discard,
    extension_rule,
    meld_points,
    meld_rule,
    no_breaking,
    notes_said,
    unchecked,
)
from rulesets.words import plural, quote_cards

if TYPE_CHECKING:
    from rulesets.umtali.house_rules import UmtaliRules

__all__ = ["PACK_RULE", "house_rules", "check"]

#: one pack, no jokers: a card listed twice breaks it.
PACK_RULE: Final = "U1.1"


def check(
    cards: Sequence[Card],
    *,
    onto: Sequence[Card] | None = None,
    going_out: bool = False,
    hand: Sequence[Card] | None = None,
    rules: MeldRules | None = None,
) -> Judgement:
    """Putting ``cards`` down (or extending ``onto`` with them): legal or not, and why.

    ``hand`` is the player's hand (the played cards are added if missing);
    without it the no-breaking rule U7 cannot be checked and the judgement says so.
    ``rules`` are the house rules (default: RULES.md's, :data:`~.melds.RULES_MD`).
    An ``onto`` of two cards that are no marriage is taken to be the going-out
    player's pair, which only the opponent's final turn may extend (U8.3).
    """
    r = rules or RULES_MD
    cards = tuple(cards)
    held = None if hand is None else frozenset(hand) | frozenset(cards)
    try:
        if onto:
            return _extension(cards, tuple(onto), held, r)
        return _meld(cards, going_out, held, r)
    except IllegalActionError as exc:
        return Judgement(
            legal=False,
            rule=exc.rule or "U5",
            reason=exc.reason,
            words=exc.own_words,
            cards=tuple(str(c) for c in cards),
            incomplete=isinstance(exc, IncompleteActionError),
        )


def _extension(
    cards: tuple[Card, ...], onto: tuple[Card, ...], held: frozenset[Card] | None, r: MeldRules
) -> Judgement:
    head = f"{quote_cards(cards)} onto {quote_cards(onto)}"
    kind = anchor_kind(onto, r)
    if len(cards) != 1:
        raise IllegalActionError(
            f"{head}: extensions are one card at a time (each becomes its own single)",
            rule="U6.1",
        )
    card = cards[0]
    if card.is_joker:
        raise IllegalActionError(f"{head}: Umtali uses no jokers", rule="U1.1")
    if card in onto:
        raise IllegalActionError(f"{head}: that card is already in the anchor", rule="U1.1")
    check_anchor(card, kind, onto, r, pair_open=True)
    notes = list(no_breaking(cards, held, r, head))
    note_words: list[str] = []
    if kind is MeldKind.PAIR:  # (the rule in the note is for check's printout)
        note_words = ["a pair is extendable only in the opponent's final turn"]
    note_words += notes_said(notes)
    if kind is MeldKind.PAIR:
        notes.insert(0, "a pair is extendable only in the opponent's final turn (U8.3)")
    pts = card_points(card)
    return Judgement(
        legal=True,
        kind="extension",
        points=pts,
        rule=extension_rule(kind),
        reason=f'"{card}" extends {quote_cards(onto)} ({kind.value}): it becomes a single '
        f"on your side worth {plural(pts, 'point')}",
        cards=(str(card),),
        notes=tuple(notes),
        note_words=tuple(note_words),
        unchecked=unchecked(notes),
    )


def _meld(
    cards: tuple[Card, ...], going_out: bool, held: frozenset[Card] | None, r: MeldRules
) -> Judgement:
    head = quote_cards(cards)
    kind = classify_play(cards, r, going_out=going_out)
    notes: tuple[str, ...] = ()
    if kind is MeldKind.PAIR:
        notes = no_breaking(cards, held, r, head)
    if held is not None and going_out:
        rest = held - set(cards)
        if len(rest) > 1:
            raise IllegalActionError(
                f"{head}: {format_cards(sorted(rest))} would still be in hand; going "
                "out leaves at most one card to discard",
                rule="U8.1",
            )
        for last in rest:  # the going-out discard (U8.1), not a card that could go down
            if kind is MeldKind.PAIR:  # the pair and the discard in one action
                compulsory_discard(last, held, (), r, head)
            else:  # the meld first, then the discard (it may take the discard)
                compulsory_discard(last, rest, accepted_cards(kind, cards, r), r, head)
    pts = meld_points(kind, cards)
    return Judgement(
        legal=True,
        kind=kind.value,
        points=pts,
        rule=meld_rule(kind),
        reason=f"{head} is a {kind.value}: {plural(pts, 'point')} on your side",
        cards=tuple(str(c) for c in cards),
        notes=notes,
        note_words=notes_said(notes),
        unchecked=unchecked(notes),
    )


def house_rules() -> type[UmtaliRules]:
    """The game's house-rules model (pydantic), imported only when it is asked for:
    ``companion check --rules`` reads and checks the switches with it."""
    from rulesets.umtali.house_rules import UmtaliRules

    return UmtaliRules
