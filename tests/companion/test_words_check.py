"""The words check the browser tests run on every screen catches what the issue saw."""

from __future__ import annotations

import pytest

from companion.rulebook import house_rules
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummy.house_rules import RummyRules
from tests.browser.words import house_rule_problems, word_problems


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
        "Refused.. try again",
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


@pytest.mark.parametrize(
    "text",
    [
        "Marriage scores double (A-U17)",
        "Take two from the pile (U4.2 variant, PGC)",
        "a player who cannot start pays 1 chip to the centre (M5.5)",
        "8-9-10 (regional, A-M19)",
        "only a hand without pay cards (M2.2-M2.4)",
        "lay off 5H 6H 7H",
        "record it with go_out",
    ],
)
def test_house_rule_words_catch_the_issues_examples(text: str) -> None:
    assert house_rule_problems(text), text


@pytest.mark.parametrize(
    "text",
    ["Ace high or low", "a 10-point card", "lay off 5♥ 6♥ 7♥", "Q-K-A is a run (ace high)"],
)
def test_house_rule_words_pass(text: str) -> None:
    assert house_rule_problems(text) == []


@pytest.mark.parametrize("rules", [RummyRules, RummoliRules], ids=["rummy", "rummoli"])
def test_every_house_rule_is_worded_for_players(rules: type) -> None:
    """Every switch's title, explanation and value names, as the new-game screen shows
    them (issue 18: no "(A-U17)", no "(U4.2 variant, PGC)")."""
    texts = [*rules.TITLES.values(), *rules.EXPLAIN.values()]
    texts += list(getattr(rules, "VALUE_TITLES", {}).values())
    problems = [p for t in texts for p in house_rule_problems(t)]
    assert problems == []


@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_the_rulebooks_house_rule_notes_are_worded_for_players(game: str) -> None:
    """The rules screen's notes on each house rule: no "(R7)", "(A-R15)" tags (the
    rule they touch is linked beside them)."""
    notes = house_rules(game)
    assert notes
    assert [p for h in notes for p in house_rule_problems(h.text)] == []
