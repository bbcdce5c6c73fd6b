"""Cards are read once, at the edge: an action keeps the Card values of its card
fields, so the judge, the push, the report and the words never read the text again.

Before, one meld picked on the Rummy log was read from text 36 times on its way
from the picker to the table (each judge, the push, its verdict, the hub's line,
each chip drawn).  Now an action built from Card values (``of_cards``) is read
0 times, and one read from a record once per card, however often it is judged.
Its stored JSON is the text it always was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

import rulesets.cards as cards_module
from rulesets import load_ruleset
from rulesets.cards import Card, parse_cards
from rulesets.errors import CardParseError, DuplicateCardError
from rulesets.protocol import Action
from rulesets.rummoli import actions as rummoli
from rulesets.rummy import actions as rummy
from rulesets.umtali import actions as umtali


@contextmanager
def text_reads() -> Iterator[list[str]]:
    """Every card read from text (``parse_card`` given a string) while inside."""
    read: list[str] = []
    code = cards_module.parse_card.__code__

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is code and isinstance(frame.f_locals["text"], str):
            read.append(frame.f_locals["text"])

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield read
    finally:
        sys.setprofile(old)


def _rummy_table() -> Any:
    g = load_ruleset("rummy").new_game(["Ann", "Bob", "Cy"], None)
    g.push(rummy.StartHand(dealer="Ann"))
    g.push(rummy.Meld(player="Bob", cards=("2S", "3S", "4S")))
    return g


def test_r2_a_meld_built_from_cards_is_never_read_from_text() -> None:
    g = _rummy_table()
    picked = parse_cards("7H 8H 9H")  # the edge: the picker's cards, read once
    with text_reads() as read:
        meld = rummy.Meld.of_cards(player="Cy", cards=picked)
        lay = rummy.LayOff.of_cards(player="Cy", cards=picked, meld=0)
        assert g.judge(meld).legal and not g.judge(lay).legal
        g.push(meld)
        assert meld.words() == "Cy meld 7♥ 8♥ 9♥"
    assert read == []


def test_r2_a_recorded_meld_is_read_once_however_often_it_is_judged() -> None:
    g = _rummy_table()
    with text_reads() as read:
        meld = load_ruleset("rummy").parse_action(
            {"type": "meld", "player": "Cy", "cards": ["7H", "8H", "9H"]}
        )
        for _ in range(3):
            assert g.judge(meld).legal
        g.push(meld)
        meld.words()
    assert read == ["7H", "8H", "9H"]


def test_u5_an_umtali_meld_and_extension_from_cards_are_never_read_from_text() -> None:
    g = load_ruleset("umtali").new_game(["Ann", "Bob"], None)
    g.push(umtali.StartHand(dealer="Ann"))
    five, six, seven, eight = parse_cards("5H 6H 7H 8H")
    with text_reads() as read:
        meld = umtali.Meld.of_cards(player="Bob", cards=(five, six, seven))
        assert g.judge(meld).legal
        g.push(meld)
        ext = umtali.Extend.of_cards(player="Ann", card=eight, anchor=("Bob", 0))
        assert g.judge(ext).legal
        g.push(ext)
    assert read == []


def test_m5_a_rummoli_lay_from_a_card_keeps_its_value() -> None:
    ten = Card.parse("10S")
    lay = rummoli.Lay.of_cards(player="Ann", card=ten)
    with text_reads() as read:
        assert lay.card_value is ten and lay.words() == "Ann lay 10♠"
    assert read == []


@pytest.mark.parametrize(
    "build,texts",
    [
        (lambda c: umtali.Meld.of_cards(player="Ann", cards=c), {"cards": ["5H", "6H", "7H"]}),
        (
            lambda c: rummy.LayOff.of_cards(player="Ann", cards=c, meld=2),
            {"cards": ["5H", "6H", "7H"]},
        ),
        (
            lambda c: umtali.GoOut.of_cards(player="Ann", pair=c[:2], discard=c[2]),
            {"pair": ["5H", "6H"], "discard": "7H"},
        ),
    ],
)
def test_an_action_from_cards_stores_the_same_json_as_from_text(
    build: Callable[[tuple[Card, ...]], Action], texts: dict[str, Any]
) -> None:
    """The record is byte for byte what the text-built action stores."""
    action = build(parse_cards("5h 6♥ 7H"))
    from_text = type(action).model_validate({**action.to_json(), **texts})
    assert action.to_json() == from_text.to_json() and action == from_text
    assert {k: action.to_json()[k] for k in texts} == texts


def test_a_copy_with_other_cards_reads_its_own() -> None:
    meld = umtali.Meld.of_cards(player="Ann", cards=parse_cards("5H 6H 7H"))
    other = meld.model_copy(update={"cards": ("9S", "9D", "9C")})
    assert other.card_values == parse_cards("9S 9D 9C")
    assert meld.card_values == parse_cards("5H 6H 7H")


def test_u1_1_bad_or_doubled_cards_still_raise_when_the_referee_reads_them() -> None:
    """A card typed twice or a non-card is refused as before, when the action is judged,
    not when it is built (an entry being picked may still be wrong)."""
    twice = umtali.Meld.of_cards(player="Ann", cards=(Card.parse("5H"), Card.parse("5H")))
    assert twice.cards == ("5H", "5H")
    with pytest.raises(DuplicateCardError):
        _ = twice.card_values
    bad = umtali.Meld(player="Ann", cards=("5H", "XX"))
    for _ in range(2):  # an error is not kept: every look raises
        with pytest.raises(CardParseError):
            _ = bad.card_values
    assert bad.words() == "Ann meld 5♥ XX"  # words never fail; damaged text as written
