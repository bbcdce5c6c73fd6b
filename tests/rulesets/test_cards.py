"""Card notation: parsing, printing, round trips and clear errors."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import CardParseError, DuplicateCardError, RulesetError
from rulesets.cards import (
    DECK,
    JOKER,
    Card,
    Color,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    standard_deck,
)

cards = st.sampled_from(DECK)


def test_deck_has_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert len(standard_deck(jokers=2)) == 54


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10♥", "10h", " 10H ", "10♡", "10♥️"])
def test_ten_of_hearts_spellings(text: str) -> None:
    assert parse_card(text) == Card(Rank.TEN, Suit.HEARTS)


def test_str_is_canonical_ascii_and_symbol_is_for_display() -> None:
    card = parse_card("th")
    assert str(card) == "10H"
    assert card.symbol == "10♥"
    assert card.words == "ten of hearts"
    assert repr(card) == "Card('10H')"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Q♠ K♠", ["QS", "KS"]),
        ("qs,ks", ["QS", "KS"]),
        ("qs, ks;  ah", ["QS", "KS", "AH"]),
        (["5h", "6h 7h"], ["5H", "6H", "7H"]),
        ("", []),
    ],
)
def test_parse_lists(text: str | list[str], expected: list[str]) -> None:
    assert [str(c) for c in parse_cards(text)] == expected


def test_jokers_parse_and_may_repeat() -> None:
    assert parse_card("JK") is JOKER or parse_card("JK") == JOKER
    assert parse_card("🃏").is_joker
    assert parse_card("joker").is_joker
    assert str(JOKER) == "JK"
    assert JOKER.symbol == "🃏"
    assert len(parse_cards("JK 🃏 5H")) == 3


def test_unknown_suit_message_names_token_and_choices() -> None:
    with pytest.raises(CardParseError) as info:
        parse_card("1X")
    assert str(info.value) == "\"1X\": unknown suit 'X' (use S, H, D, C or ♠♥♦♣)"


def test_unknown_rank_message() -> None:
    with pytest.raises(CardParseError, match=r"\"1H\": unknown rank '1'"):
        parse_card("1H")


@pytest.mark.parametrize("text", ["", "H", "Q", "11H", "QQ", "ZZZ"])
def test_garbage_is_a_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


def test_duplicates_in_one_list_are_an_error() -> None:
    with pytest.raises(DuplicateCardError, match="QH is listed twice"):
        parse_cards("QH 5S qh")
    assert len(parse_cards("QH qh", allow_duplicates=True)) == 2


def test_error_family_is_value_error() -> None:
    assert issubclass(CardParseError, RulesetError)
    assert issubclass(RulesetError, ValueError)


def test_colors_and_ranks() -> None:
    assert Suit.HEARTS.color is Color.RED
    assert Suit.CLUBS.color is Color.BLACK
    assert Color.RED.opposite is Color.BLACK
    assert Rank.ACE.low == 1 and Rank.ACE.high == 14
    assert Rank.KING.low == Rank.KING.high == 13
    assert Rank.from_low(10) is Rank.TEN


def test_sorting_is_suit_then_rank_jokers_last() -> None:
    assert [str(c) for c in sorted(parse_cards("JK 2H AS KS AH"))] == ["AS", "KS", "AH", "2H", "JK"]


@given(cards)
def test_parse_str_round_trip(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(card.symbol) == card
    assert parse_card(str(card).lower()) == card


@given(st.lists(cards, unique=True, max_size=52), st.sampled_from([" ", ",", ", ", "  "]))
def test_list_round_trip(hand: list[Card], sep: str) -> None:
    assert list(parse_cards(format_cards(hand, sep=sep))) == hand
    assert list(parse_cards(format_cards(hand, symbols=True))) == hand


@given(st.text(max_size=12))
def test_any_text_parses_or_raises_the_family(text: str) -> None:
    with contextlib.suppress(RulesetError):
        parse_cards(text)
