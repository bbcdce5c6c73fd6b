"""Rummy's check of cards without a table (``companion check rummy``, the meld checker).

Plain Python over :mod:`rulesets.rummy.melds` -- the functions the live game
referees with -- returning a :class:`~rulesets.judgement.Judgement`; nothing
here imports pydantic, so a script's check pays only for the meld rules
(``benchmarks/cli_start.py``).

>>> from rulesets.cards import parse_cards
>>> check(parse_cards("QH KH AH")).legal
False
>>> check(parse_cards("QH KH AH"), rules=PlainMeldRules(ace_high_or_low=True)).kind
'run'
>>> check(parse_cards("10C"), onto=parse_cards("10S 10D 10H")).kind
'set'
>>> j = check(parse_cards("7H 8H 9H"), hand=parse_cards("9H 2C"))
>>> j.legal, j.rule
(False, 'R1.1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rulesets.cards import Card
from rulesets.errors import IllegalActionError
from rulesets.judgement import Judgement
from rulesets.rummy.melds import (
    MUST_DISCARD_TO_GO_OUT,
    RULES_MD,
    MeldRules,
    PlainMeldRules,
    analyse_meld,
    extend_meld,
    hand_value,
    layoff_reason,
    meld_reason,
    named,
)
from rulesets.words import card_words as quote

if TYPE_CHECKING:
    from rulesets.rummy.house_rules import RummyRules

__all__ = ["PACK_RULE", "house_rules", "PlainMeldRules", "check"]

#: one pack (jokers aside): a card listed twice breaks it.
PACK_RULE: Final = "R1.1"


def _check_rest(cards: tuple[Card, ...], hand: Sequence[Card]) -> None:
    """R1.1: one pack, so a card cannot be both played and kept."""
    clash = set(cards) & {c for c in hand if not c.is_joker}
    if clash:
        card = sorted(clash)[0]
        raise IllegalActionError(
            f"{quote(cards)}: {card.symbol} is also listed in the rest of the hand {quote(hand)};"
            " a pack holds each card once",
            rule="R1.1",
        )


def check(
    cards: Sequence[Card],
    *,
    onto: Sequence[Card] | None = None,
    going_out: bool = False,
    hand: Sequence[Card] | None = None,
    rules: MeldRules | None = None,
) -> Judgement:
    """A meld, or a lay-off ``onto`` a meld on the table: legal or not, and why.

    ``hand`` is the rest of the player's hand (an empty one means the play goes
    out); ``going_out`` says so directly.  Jokers' meanings are in ``notes``.
    ``rules`` are the house rules (default: the seed rules, :data:`~.melds.RULES_MD`).
    """
    r = rules or RULES_MD
    cards = tuple(cards)
    try:
        if hand is not None:
            _check_rest(cards, hand)
            going_out = going_out or not hand
        if going_out and r.must_discard_to_go_out:
            raise IllegalActionError(
                f"{quote(cards)}: the last card must be discarded"
                f" ({named(MUST_DISCARD_TO_GO_OUT)})",
                rule="R7",
            )
        if onto is not None:
            base = analyse_meld(tuple(onto), r)
            shape = extend_meld(base, cards, r)
            reason = layoff_reason(cards, base, shape)
            rule = "R3.3"
        else:
            shape = analyse_meld(cards, r)
            reason = meld_reason(shape)
            rule = "R2.1" if shape.kind == "set" else "R2.2"
    except IllegalActionError as exc:
        return Judgement(
            legal=False,
            rule=exc.rule or "R2",
            reason=exc.reason,
            words=exc.own_words,
            cards=tuple(map(str, cards)),
        )
    jokers = shape.stands_for()
    notes = jokers + (("going out: the hand ends at once (R4.1)",) if going_out else ())
    said = jokers + (("going out: the hand ends at once",) if going_out else ())
    return Judgement(
        legal=True,
        kind=shape.kind,
        points=hand_value(cards, r),
        rule=rule,
        reason=reason,
        cards=tuple(map(str, shape.cards)),
        notes=notes,
        note_words=said,
    )


def house_rules() -> type[RummyRules]:
    """The game's house-rules model (pydantic), imported only when it is asked for:
    ``companion check --rules`` reads and checks the switches with it."""
    from rulesets.rummy.house_rules import RummyRules

    return RummyRules
