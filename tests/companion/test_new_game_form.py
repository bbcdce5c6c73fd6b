"""The new-game form keeps each problem with the control that caused it, in words.

A small stand-in ruleset gives the facts the form asks for (limits, chips, the
referee's refusal), so these run whatever state the engines are in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.components.kit.common import rule_words
from companion.components.new_game_form import (
    NewGameForm,
    add_player,
    check,
    limits_text,
    move_up,
    remove_player,
    room_text,
)
from rulesets import HouseRuleError, RulesetError


@dataclass
class FakeGame:
    players: tuple[str, ...]
    actions: list[Any] = field(default_factory=list)

    def push(self, action: Any, *, hand: Any = None) -> Any:
        self.actions.append(action)
        return action


@dataclass
class FakeRuleset:
    title: str = "Rummy"
    min_players: int = 2
    max_players: int = 6
    starting_stack: int | None = None
    refuse: RulesetError | None = None

    def new_game(self, players: Sequence[str], rules: Any = None) -> FakeGame:
        if self.refuse is not None:
            raise self.refuse
        return FakeGame(tuple(players))

    def opening_actions(
        self, players: Sequence[str], dealer: str, *, chips: Sequence[int] | None = None
    ) -> list[Any]:
        return [{"type": "start", "dealer": dealer, "chips": chips}]


def _form(players: list[str], dealer: str = "", **kw: Any) -> NewGameForm:
    return NewGameForm(game="rummy", players=list(players), dealer=dealer, **kw)


def test_limits_are_words_before_anyone_is_added() -> None:
    assert limits_text(FakeRuleset()) == "2 to 6 players"
    assert limits_text(FakeRuleset(title="Umtali", max_players=2)) == "2 players"
    assert room_text(FakeRuleset(), 0) == "Add 2 players (up to 6)."
    assert room_text(FakeRuleset(), 1) == "Add 1 more player (up to 6)."
    assert room_text(FakeRuleset(), 5) == "Room for 1 more player."
    assert room_text(FakeRuleset(), 6) == "The table is full: Rummy is for at most 6 players."


def test_a_name_keeps_the_case_it_was_typed_in() -> None:
    form = _form([])
    assert add_player(form, "  ann   de  Vries ", FakeRuleset())
    assert form.players == ["ann de Vries"]


def test_the_player_limit_shows_at_the_players() -> None:
    umtali = FakeRuleset(title="Umtali", max_players=2)
    form = _form(["Ann", "Bob"])
    assert not add_player(form, "Cy", umtali)
    assert form.problems.players == "Umtali is for at most 2 players."
    assert form.problems.first == "players" and not form.problems.dealer


def test_a_name_already_seated_is_refused_at_the_players() -> None:
    form = _form(["Ann"])
    assert not add_player(form, "ANN", FakeRuleset())
    assert form.problems.players == "ANN is already playing."


def test_too_few_players_is_said_at_the_players_with_the_count() -> None:
    problems, opening = check(_form(["Ann"], dealer="Ann"), FakeRuleset())
    assert problems.players == "Rummy needs 2 to 6 players (you have 1)."
    assert problems.first == "players" and opening == []


def test_no_dealer_is_said_at_the_dealer_choice() -> None:
    problems, _ = check(_form(["Ann", "Bob"]), FakeRuleset())
    assert problems.dealer == "Pick the first dealer, or draw one."
    assert not problems.players and problems.first == "dealer"


def test_bad_chips_are_said_at_that_players_chips() -> None:
    ruleset = FakeRuleset(title="Rummoli", max_players=8, starting_stack=50)
    form = _form(["Ann", "Bob"], dealer="Ann", chips={"Bob": "4x"})
    problems, _ = check(form, ruleset)
    assert dict(problems.chips) == {"Bob": "Starting chips must be a whole number, not “4x”."}
    form.chips = {"Bob": "40"}
    problems, opening = check(form, ruleset)
    assert not problems
    assert opening == [{"type": "start", "dealer": "Ann", "chips": [50, 40]}]


@pytest.mark.parametrize(
    ("refusal", "where"),
    [
        (HouseRuleError("a target of 0 ends the game at once", rule="R6.3"), "rules"),
        (RulesetError("the referee says no", rule="R1.1"), "general"),
    ],
)
def test_the_referees_refusal_is_shown_with_its_rule(refusal: RulesetError, where: str) -> None:
    problems, opening = check(_form(["Ann", "Bob"], dealer="Ann"), FakeRuleset(refuse=refusal))
    said = getattr(problems, where)
    assert said == f"{refusal.words} ({rule_words(refusal.rule or '')})"
    assert said.endswith(f", rule {refusal.rule})")  # the rule's title, then its ID
    assert opening == []


def test_removing_the_dealer_clears_the_dealer_and_moving_keeps_everyone() -> None:
    form = _form(["Ann", "Bob", "Cy"], dealer="Bob", chips={"Bob": "10"})
    move_up(form, 2)
    assert form.players == ["Ann", "Cy", "Bob"]
    move_up(form, 0)
    assert form.players == ["Ann", "Cy", "Bob"]
    remove_player(form, "Bob")
    assert form.players == ["Ann", "Cy"] and form.dealer == "" and "Bob" not in form.chips


def test_m4_2_the_opening_stands_while_a_house_rule_is_half_typed() -> None:
    """The opening words follow the house rules chosen (issue 18); a number being typed
    in the house-rules sheet ("bet limit: 1x") is not a rule yet.  The dealer panel
    under the sheet drew itself again on every keystroke and the referee refused the
    rules: the panel fell over.  Meanwhile it says the default rules' opening; the form
    names the bad rule when the game is started."""
    from companion.components.new_game_parts import DealerPanel
    from rulesets.rummoli.ruleset import RULESET
    from tests.companion.flet_harness import HeadlessScreen, render_headless

    form = NewGameForm(
        game="rummoli", rules={"bet_limit": "1x"}, players=["Ann", "Bob", "Cy"], dealer="Ann"
    )
    with pytest.raises(HouseRuleError):
        RULESET.opening(form.players, "Ann", rules=form.rules)

    async def opening(sc: HeadlessScreen) -> None:
        assert sc.label("opening") == RULESET.opening(form.players, "Ann").text
        form.rules = {"bet_limit": 12}
        await sc.flush()
        assert sc.label("opening") == RULESET.opening(form.players, "Ann", rules=form.rules).text

    render_headless(DealerPanel, form, RULESET, scenario=opening, screen=HeadlessScreen)
