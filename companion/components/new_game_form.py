"""The new-game form's state, and what stops a game from starting -- per control.

Pure UI state (an observable dataclass) and small functions over it; the rules come
from the game's ruleset (player limits, chips, the opening, the referee's own refusal),
never from here.  Each problem is kept with the control that caused it, so the screen
shows it there: the player limit next to the players, the dealer error at the dealer
choice, a chips error at that player's chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.common import rule_words
from rulesets import HouseRuleError, RulesetError
from rulesets.protocol import Action, Ruleset

__all__ = [
    "NewGameForm",
    "Problems",
    "add_player",
    "check",
    "limits_text",
    "move_up",
    "remove_player",
    "room_text",
]


@dataclass(frozen=True)
class Problems:
    """What stops the game from starting, by the control that can fix it."""

    players: str = ""
    dealer: str = ""
    chips: Mapping[str, str] = field(default_factory=dict)  # player -> problem
    rules: str = ""
    general: str = ""

    def __bool__(self) -> bool:
        return bool(self.players or self.dealer or self.chips or self.rules or self.general)

    @property
    def first(self) -> str | None:
        """The panel of the first problem on the screen, top to bottom."""
        if self.players or self.chips:
            return "players"
        if self.dealer:
            return "dealer"
        if self.rules:
            return "rules"
        return None


@ft.observable
@dataclass
class NewGameForm:
    """Everything typed or chosen on the new-game screen."""

    game: str
    rules: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    dealer: str = ""
    chips: dict[str, str] = field(default_factory=dict)  # player -> as typed
    typed: str = ""  # the name being typed
    problems: Problems = field(default_factory=Problems)
    rules_open: bool = False
    rules_note: str = ""  # "Preset Family chosen." in the house-rules editor


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def limits_text(ruleset: Ruleset) -> str:
    """``"2 to 6 players"``, ``"2 players"``: the game's limits, before anyone is added."""
    lo, hi = ruleset.min_players, ruleset.max_players
    return _count(lo, "player") if lo == hi else f"{lo} to {hi} players"


def room_text(ruleset: Ruleset, seated: int) -> str:
    """What is still possible, shown under the name field as players are added."""
    lo, hi = ruleset.min_players, ruleset.max_players
    if seated >= hi:
        return f"The table is full: {ruleset.title} is for at most {_count(hi, 'player')}."
    if seated < lo:
        need = lo - seated
        return f"Add {_count(need, 'more player') if seated else _count(need, 'player')}" + (
            f" (up to {hi})." if hi > lo else "."
        )
    return f"Room for {_count(hi - seated, 'more player')}."


def add_player(form: NewGameForm, name: str, ruleset: Ruleset) -> bool:
    """Seat ``name`` as typed (spaces tidied, case kept); False, with the reason kept at the
    players, when the name is taken or the table is full."""
    name = " ".join(name.split())
    if not name:
        return False
    if any(p.casefold() == name.casefold() for p in form.players):
        form.problems = Problems(players=f"{name} is already playing.")
        return False
    if len(form.players) >= ruleset.max_players:
        form.problems = Problems(
            players=f"{ruleset.title} is for at most {_count(ruleset.max_players, 'player')}."
        )
        return False
    form.players = [*form.players, name]
    form.problems = Problems()
    return True


def remove_player(form: NewGameForm, name: str) -> None:
    form.players = [p for p in form.players if p != name]
    form.chips = {p: v for p, v in form.chips.items() if p != name}
    if form.dealer == name:
        form.dealer = ""
    form.problems = Problems()


def move_up(form: NewGameForm, index: int) -> None:
    if 0 < index < len(form.players):
        seats = list(form.players)
        seats[index - 1], seats[index] = seats[index], seats[index - 1]
        form.players = seats


def stacks(form: NewGameForm, ruleset: Ruleset) -> list[int] | None:
    """Starting chips per player (games played with chips), or None; -1 where the
    typed value is not a whole number."""
    if ruleset.starting_stack is None:
        return None
    default = str(ruleset.starting_stack)
    out = []
    for p in form.players:
        raw = form.chips.get(p, default).strip()
        out.append(int(raw) if raw.isdigit() else -1)
    return out


def _own_problems(form: NewGameForm, ruleset: Ruleset) -> Problems:
    lo, hi = ruleset.min_players, ruleset.max_players
    players = ""
    if not lo <= len(form.players) <= hi:
        players = f"{ruleset.title} needs {limits_text(ruleset)} (you have {len(form.players)})."
    chips = {
        p: f"Starting chips must be a whole number, not “{form.chips.get(p, '').strip()}”."
        for p, n in zip(form.players, stacks(form, ruleset) or [], strict=False)
        if n < 0
    }
    dealer = "" if form.dealer in form.players else "Pick the first dealer, or draw one."
    return Problems(players=players, dealer=dealer, chips=chips)


def check(form: NewGameForm, ruleset: Ruleset) -> tuple[Problems, Sequence[Action]]:
    """What stops the game from starting, each at its control; else its opening actions.

    The form's own checks first (numbers, a dealer); then the referee builds the game
    and its opening, and any refusal is shown with the house rules (a rule it refuses)
    or at the Start button (anything else), with its rule ID.
    """
    own = _own_problems(form, ruleset)
    if own:
        return own, []
    try:
        live = ruleset.new_game(form.players, form.rules)
        opening = ruleset.opening_actions(form.players, form.dealer, chips=stacks(form, ruleset))
        for action in opening:
            live.push(action)
    except HouseRuleError as exc:
        return Problems(rules=_said(exc)), []
    except RulesetError as exc:
        return Problems(general=_said(exc)), []
    return Problems(), opening


def _said(exc: RulesetError) -> str:
    return exc.words + (f" ({rule_words(exc.rule)})" if exc.rule else "")
