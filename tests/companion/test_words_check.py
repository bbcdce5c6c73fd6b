"""The words check the browser tests run on every screen catches what the issue saw."""

from __future__ import annotations

import pytest

from tests.browser.words import word_problems


@pytest.mark.parametrize(
    "text",
    [
        "(house rule ace_high_or_low allows it)",
        "one_round: one betting round with a limit",
        "per_pot: one per pot",
        "See R7.joker_swap",
        "Ann: 1 points",
        "Bob pays 1 chips",
        "Room for 1 more players.",
        "Bet: 3 chip",
        "-1 points",
    ],
)
def test_the_issues_examples_are_caught(text: str) -> None:
    assert word_problems([text]), text


@pytest.mark.parametrize(
    "text",
    [
        "House rules: Ace high or low",
        "Rule R7 · Rummy",
        "Rule U5.1 · Umtali",
        "A-U14 Our ruling: a marriage is worth 20",
        "Sequence: 1 point",
        "Ann 12 · Bob 7",
        "Total 21 points, 11 chips",
        "Q-K-A is not a run; ace-2-3 is",
        "Rummy: 2 to 6 players, in seating order (clockwise).",
        "10 points for a 10-point card",
        "Started today 09:05",
    ],
)
def test_words_people_use_pass(text: str) -> None:
    assert word_problems([text]) == []
