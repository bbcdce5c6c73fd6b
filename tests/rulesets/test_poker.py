"""Poker judging (M4, M7.2): best five, names, ranking, ties; cross-checked with pokerkit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.cards import DECK, Card, parse_cards
from rulesets.errors import CardParseError, DuplicateCardError, IllegalActionError, RulesetError
from rulesets.poker import CATEGORIES, best_five, evaluate, judge, split_pot


def _pk(cards: list[Card]) -> str:
    return "".join(("T" if c.r.value == "10" else c.r.value) + c.s.value.lower() for c in cards)


def test_cli_example_straight_flush_beats_full_house() -> None:
    j = judge([parse_cards("AS KS QS JS 10S 2H"), parse_cards("9C 9D 9H 2S 2C 4H")])
    assert j.winners == (0,)
    assert j.winner_names == ("hand 1",)
    assert j.hands[0].label == "Straight flush"
    assert j.hands[0].name == "Royal flush"
    assert j.hands[1].name == "Full house, 9s over 2s"
    assert j.hands[0].best == ("AS", "KS", "QS", "JS", "10S")
    data = j.to_json()
    assert data["winners"] == [0] and data["hands"][1]["best"] == ["9C", "9D", "9H", "2S", "2C"]


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("2C 5D 9H JS KD", "High card, king high"),
        ("2C 2D 9H JS KD", "One pair, 2s"),
        ("JS JD 2C 5H 9D", "One pair, Jacks"),
        ("2C 2D 9H 9S KD", "Two pair, 9s and 2s"),
        ("QC QD QH JS KD", "Three of a kind, Queens"),
        ("AC 2D 3H 4S 5D", "Straight, 5 high"),
        ("10C JD QH KS AD", "Straight, ace high"),
        ("2H 5H 9H JH KH", "Flush, king high"),
        ("8S 8H 8D 3C 3D", "Full house, 8s over 3s"),
        ("7S 7H 7D 7C 3D", "Four of a kind, 7s"),
        ("5H 6H 7H 8H 9H", "Straight flush, 9 high"),
    ],
)
def test_m4_3_standard_rankings_and_names(cards: str, name: str) -> None:
    h = evaluate(cards)
    assert h.name == name
    assert h.label == name.split(",")[0]


def test_m4_3_royal_flush_is_named_royal_flush() -> None:
    # the ace-high straight flush has its own name; its category stays "Straight flush"
    for cards in ("AS KS QS JS 10S", "10H JH QH KH AH 2C 3D", "AD KD QD JD 10D 9D"):
        h = evaluate(cards)
        assert (h.name, h.label) == ("Royal flush", "Straight flush"), cards
    assert evaluate("KS QS JS 10S 9S").name == "Straight flush, king high"
    assert evaluate("5C 4C 3C 2C AC").name == "Straight flush, 5 high"
    j = judge(["AS KS QS JS 10S", "KH QH JH 10H 9H"], ["Ann", "Bob"])
    assert j.winner_names == ("Ann",) and "Ann: Royal flush" in j.describe()


def test_m4_3_categories_rank_in_order() -> None:
    hands = [
        "2C 5D 9H JS KD",
        "2C 2D 9H JS KD",
        "2C 2D 9H 9S KD",
        "QC QD QH JS KD",
        "AC 2D 3H 4S 5D",
        "2H 5H 9H JH KH",
        "8S 8H 8D 3C 3D",
        "7S 7H 7D 7C 3D",
        "5H 6H 7H 8H 9H",
    ]
    strengths = [evaluate(h).strength for h in hands]
    assert strengths == sorted(strengths)
    assert [evaluate(h).label for h in hands] == list(CATEGORIES)


def test_a_m3_m4_1_best_five_of_a_large_hand() -> None:
    eighteen = "2C 3C 4C 5C 6D 7H 8S 9S 10S JD QD KH AH AD 2S 3S 4S 6S"
    h = evaluate(eighteen)
    assert h.label == "Flush"  # spades: 2 3 4 6 8 9 10 -> 10 9 8 6 4
    assert h.best == ("10S", "9S", "8S", "6S", "4S")
    assert len(h.cards) == 18


def test_m4_4_exact_tie_lists_every_winner() -> None:
    j = judge(["2H 2D 5S 6S 9C", "2S 2C 5H 6H 9D", "KS 3D 4H 7C 8D"], ["Ann", "Bob", "Cy"])
    assert j.winners == (0, 1)
    assert j.winner_names == ("Ann", "Bob")
    assert "Tie" in j.describe()


def test_m4_4_split_pot_remainder() -> None:
    assert split_pot(7, 2) == (3, 1)
    assert split_pot(9, 3) == (3, 0)
    with pytest.raises(IllegalActionError):
        split_pot(5, 0)


def test_m4_1_fewer_than_five_cards_is_illegal() -> None:
    with pytest.raises(IllegalActionError) as info:
        evaluate("AS KS QS")
    assert info.value.rule == "M4.1"
    assert "AS KS QS" in str(info.value)


def test_bad_input_raises_the_error_family() -> None:
    with pytest.raises(DuplicateCardError):
        judge(["AS KS QS JS 10S", "AS 2D 3D 4D 5D"])
    with pytest.raises(CardParseError):
        judge(["AS KS QS JS 1X"])
    with pytest.raises(IllegalActionError):
        judge(["AS KS QS JS JK"])
    with pytest.raises(IllegalActionError):
        judge(["AS KS QS JS 10S"], ["Ann", "Bob"])
    with pytest.raises(RulesetError):
        judge([])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=9, unique=True))
def test_best_five_matches_pokerkit_exhaustive_search(cards: list[Card]) -> None:
    from pokerkit import StandardHighHand

    ours = evaluate(cards)
    theirs = StandardHighHand.from_game(_pk(cards))
    assert ours.strength == theirs.entry.index
    assert ours.label == theirs.entry.label.value
    assert set(ours.best) <= {str(c) for c in cards}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=16, unique=True))
def test_showdown_winners_match_pokerkit(cards: list[Card]) -> None:
    from pokerkit import StandardHighHand

    a, b = cards[: len(cards) // 2], cards[len(cards) // 2 :]
    ha, hb = StandardHighHand.from_game(_pk(a)), StandardHighHand.from_game(_pk(b))
    expected = (0,) if ha > hb else (1,) if hb > ha else (0, 1)
    assert judge([a, b]).winners == expected


def test_m4_1_best_five_picks_the_best_kicker_and_wheel() -> None:
    assert [str(c) for c in best_five("AS AD KS KD QS QD 2C")] == ["AS", "AD", "KS", "KD", "QS"]
    wheel = [str(c) for c in best_five("AH 2D 3C 4S 5H KD QC")]
    assert sorted(wheel) == sorted(["AH", "2D", "3C", "4S", "5H"])
    # a steel wheel: the ace plays low in the straight flush, and is among the five
    steel = [str(c) for c in best_five("AH 2H 3H 4H 5H 9C KH")]
    assert steel == ["5H", "4H", "3H", "2H", "AH"]
    # two trips make a full house with the lower trips as the pair
    assert evaluate("9S 9H 9D 4S 4H 4D KC").name == "Full house, 9s over 4s"
