"""Cards are read once, at the edge: an action's card fields hold Card values, so the
judge, the push, the report and the words never read text again.

Before, one meld picked on the Rummy log was read from text 36 times on its way
from the picker to the table (each judge, the push, its verdict, the hub's line,
each chip drawn).  Now an action built from Card values is read 0 times, and one
read from a record once per card, when it is built, however often it is judged.
Its stored JSON is the text it always was ("10H": same order, same field names).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import rulesets.cards as cards_module
from rulesets import load_ruleset
from rulesets.cards import Card, parse_card, parse_cards
from rulesets.errors import CardParseError, RecordError
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
        meld = rummy.Meld(player="Cy", cards=picked)
        lay = rummy.LayOff(player="Cy", cards=picked, meld=0)
        assert g.judge(meld).legal and not g.judge(lay).legal
        g.push(meld)
        assert meld.words() == "Cy meld 7♥ 8♥ 9♥"
    assert read == []
    assert meld.cards == picked and all(type(c) is Card for c in meld.cards)


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
        meld = umtali.Meld(player="Bob", cards=(five, six, seven))
        assert g.judge(meld).legal
        g.push(meld)
        ext = umtali.Extend(player="Ann", card=eight, anchor=("Bob", 0))
        assert g.judge(ext).legal
        g.push(ext)
    assert read == []


def test_m5_a_rummoli_lay_from_a_card_keeps_its_value() -> None:
    ten = Card.parse("10S")
    lay = rummoli.Lay(player="Ann", card=ten)
    with text_reads() as read:
        assert lay.card is ten and lay.words() == "Ann lay 10♠"
    assert read == []


@pytest.mark.parametrize(
    "build,texts",
    [
        (lambda c: umtali.Meld(player="Ann", cards=c), {"cards": ["5H", "6H", "7H"]}),
        (lambda c: rummy.LayOff(player="Ann", cards=c, meld=2), {"cards": ["5H", "6H", "7H"]}),
        (
            lambda c: umtali.GoOut(player="Ann", pair=c[:2], discard=c[2]),
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


def test_u1_1_a_doubled_card_is_kept_and_refused_when_judged() -> None:
    """A card picked twice is refused as before, when the action is judged, not when
    it is built (an entry being picked may still be wrong), by the one-pack rule."""
    g = load_ruleset("umtali").new_game(["Ann", "Bob"], None)
    g.push(umtali.StartHand(dealer="Bob"))
    twice = umtali.Meld(player="Ann", cards=(Card.parse("5H"), Card.parse("5H")))
    assert twice.to_json()["cards"] == ["5H", "5H"]
    verdict = g.judge(twice)
    assert not verdict.legal and verdict.rule == "U1.1"
    assert verdict.reason == '"5H 5H": 5H is listed twice'


def test_r1_1_a_doubled_card_in_a_rummy_meld_is_refused_by_the_one_pack_rule() -> None:
    g = _rummy_table()
    verdict = g.judge({"type": "meld", "player": "Cy", "cards": ["7H", "8H", "7h"]})
    assert not verdict.legal and verdict.rule == "R1.1"
    assert verdict.reason == '"7H 8H 7H": 7H is listed twice'


def test_m1_1_a_doubled_card_in_a_widow_hand_is_refused_by_the_one_pack_rule() -> None:
    g = load_ruleset("rummoli").new_game(["Ann", "Bob", "Cy"], None)
    for entry in ({"type": "start", "chips": [50, 50, 50]}, {"type": "deal"}):
        g.push(entry)
    hand = ["2C", "2C", *[f"{r}H" for r in range(2, 11)], "JH", "QH"]
    verdict = g.judge({"type": "widow", "player": "Ann", "hand": hand})
    assert not verdict.legal and verdict.rule == "M1.1", verdict
    assert "2C is listed twice" in verdict.reason


def test_u1_1_a_card_that_is_no_card_raises_the_card_error_where_it_is_read() -> None:
    """Text that is no card raises the error family's CardParseError (a ValueError)
    repeating the input, never pydantic's ValidationError: built directly, read from
    a record, or judged."""
    for build in (
        lambda: umtali.Meld(player="Ann", cards=("5H", "XX")),
        lambda: umtali.parse_action({"type": "meld", "player": "Ann", "cards": ["5H", "XX"]}),
        lambda: rummy.Discard(player="Ann", card="XX"),
        lambda: rummoli.Widow(player="Ann", hand=["5H", "XX"]),
    ):
        with pytest.raises(CardParseError) as info:
            build()
        assert not isinstance(info.value, ValidationError)
        assert str(info.value) == "\"XX\": unknown suit 'X' (use S, H, D, C or ♠♥♦♣)"
    g = load_ruleset("umtali").new_game(["Ann", "Bob"], None)
    g.push(umtali.StartHand(dealer="Bob"))
    verdict = g.judge({"type": "meld", "player": "Ann", "cards": ["5H", "XX"]})
    assert not verdict.legal and verdict.reason.startswith('"XX": unknown suit')


def test_a_malformed_card_field_is_still_a_record_error() -> None:
    """A card field of the wrong shape (a number, one string for a list) is a broken
    record, as it always was, not a card typo."""
    with pytest.raises(RecordError, match="cards: Input should be a valid string"):
        umtali.parse_action({"type": "meld", "player": "Ann", "cards": [5]})
    with pytest.raises(RecordError, match="cards: Input should be a valid tuple"):
        rummy.parse_action({"type": "meld", "player": "Ann", "cards": "5H 6H 7H"})


# ----------------------------------------------------------------------------- property

#: the fields of every game's actions that hold cards (one card, a list, lists by player)
CARD_FIELDS = frozenset(
    {"cards", "card", "pair", "discard", "upcard", "hand", "hands", "remaining"}
)


def _spellings(card: Card) -> list[str | Card]:
    """Every way the edge may give ``card``: its text, lower case, T for ten, a suit
    symbol, or the Card value itself."""
    text = str(card)
    out: list[str | Card] = [text, text.lower(), card, card.symbol]
    if text.startswith("10"):
        out += ["T" + text[2:], "t" + text[2:].lower()]
    return out


def _respell(value: Any, pick: Callable[[list[str | Card]], str | Card]) -> Any:
    if isinstance(value, str):
        return pick(_spellings(parse_card(value)))
    if isinstance(value, list):
        return [_respell(v, pick) for v in value]
    if isinstance(value, dict):
        return {k: _respell(v, pick) for k, v in value.items()}
    return value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["umtali", "rummy", "rummoli"]),
    st.integers(min_value=0, max_value=2**16),
    st.data(),
)
def test_any_action_round_trips_and_stores_todays_text(game: str, seed: int, data: Any) -> None:
    """For any action of a random game, its cards given in any spelling the edge uses:
    ``model_validate(model_dump(mode="json"))`` gives the action back, the fields hold
    Card values, and the JSON is the record's text byte for byte (same order, same names)."""
    ruleset = load_ruleset(game)
    record = ruleset.random_record(seed)
    stored = data.draw(st.sampled_from(record.actions))

    def choose(options: list[str | Card]) -> str | Card:
        return data.draw(st.sampled_from(options))

    given_in = {k: _respell(v, choose) if k in CARD_FIELDS else v for k, v in stored.items()}
    action = ruleset.parse_action(given_in)
    dumped = action.model_dump(mode="json")
    assert json.dumps(dumped, ensure_ascii=False) == json.dumps(
        ruleset.parse_action(stored).to_json(), ensure_ascii=False
    )
    assert {k: dumped[k] for k in stored} == stored  # today's text, as stored
    assert type(action).model_validate(dumped) == action
    in_python = action.model_dump()
    assert {k: in_python[k] for k in CARD_FIELDS & set(dumped)} == {
        k: dumped[k] for k in CARD_FIELDS & set(dumped)
    }  # Python mode gives the same text
    for name in CARD_FIELDS & set(type(action).model_fields):
        assert all(type(c) is Card for c in _leaves(getattr(action, name))), name


def _leaves(value: Any) -> Iterator[Any]:
    """Every card in a card field (None, a missing hand, is none)."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, tuple | list):
        for item in value:
            yield from _leaves(item)
    elif value is not None:
        yield value
