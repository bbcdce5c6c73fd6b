"""The panels of the new-game screen: players, first dealer, house rules, Start.

Each panel shows its own problems (``NewGameForm.problems``) right under the control
that caused them.  Each takes the observable form as an argument, so it re-renders
itself when the form changes.  Start sits in a bar pinned to the bottom of the screen, so it is
always in reach without scrolling; the 11-17 house-rule switches are folded into one
"House rules: standard (change)" row that opens the editor.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import flet as ft

from companion.access import Capability, NotAllowed
from companion.components.house_rules import HouseRulesEditor
from companion.components.kit.common import READABLE_WIDTH, said, tag
from companion.components.kit.ui import icon_button, labelled
from companion.components.new_game_form import (
    NewGameForm,
    add_player,
    limits_text,
    move_up,
    remove_player,
    room_text,
)
from companion.preferences import changed_only, describe_rules
from companion.presets import Preset, load_presets, save_preset
from companion.services import Services
from rulesets import HouseRuleError
from rulesets.protocol import Ruleset

__all__ = ["DealerPanel", "HouseRulesDialog", "HouseRulesRow", "PlayersPanel", "StartBar"]


def scroll_key(name: str) -> ft.ScrollKey:
    """A panel's key, so the screen can scroll a problem into view (``scroll_to``)."""
    return ft.ScrollKey(name)  # type: ignore[call-arg]  # (a flet value class)


def problem_line(text: str, ident: str) -> ft.Control:
    """A problem, in red, right where it belongs (nothing when there is none)."""
    if not text:
        return ft.Container(key=f"{ident}-none")
    return said(
        ft.Row(
            [
                ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=18),
                ft.Text(text, color=ft.Colors.ERROR, expand=True),
            ],
            spacing=6,
        ),
        text,
        ident,
    )


def _heading(text: str) -> ft.Control:
    return ft.Text(text, size=16, weight=ft.FontWeight.BOLD)


def _player_row(form: NewGameForm, ruleset: Ruleset, index: int, name: str) -> ft.Control:
    row: list[ft.Control] = [ft.Text(f"{index + 1}. {name}", size=16, expand=True)]
    if ruleset.starting_stack is not None:
        bad = form.problems.chips.get(name, "")

        def typed_chips(e: ft.Event[ft.TextField], who: str = name) -> None:
            form.chips = {**form.chips, who: e.control.value or ""}

        row.append(
            labelled(
                ft.TextField(
                    value=form.chips.get(name, str(ruleset.starting_stack)),
                    width=90,
                    dense=True,
                    label="Chips",
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=typed_chips,
                    border_color=ft.Colors.ERROR if bad else None,
                ),
                f"Starting chips for {name}",
                f"chips-{name}",
            )
        )
    row += [
        icon_button(
            ft.Icons.ARROW_UPWARD,
            f"Move {name} up",
            lambda _, i=index: move_up(form, i),
            disabled=index == 0,
        ),
        icon_button(ft.Icons.CLOSE, f"Remove {name}", lambda _, p=name: remove_player(form, p)),
    ]
    line = ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)
    if name not in form.problems.chips:
        return line
    return ft.Column([line, problem_line(form.problems.chips[name], f"chips-error-{name}")])


def _add_row(form: NewGameForm, ruleset: Ruleset) -> ft.Control:
    full = len(form.players) >= ruleset.max_players

    def typed(e: ft.Event[ft.TextField]) -> None:
        form.typed = e.control.value or ""

    def add(_: Any = None) -> None:
        if add_player(form, form.typed, ruleset):
            form.typed = ""

    return ft.Row(
        [
            ft.TextField(
                value=form.typed,
                label="Player name",
                helper=room_text(ruleset, len(form.players)),
                dense=True,
                expand=True,
                on_change=typed,
                on_submit=add,
                disabled=full,
            ),
            tag(
                ft.FilledTonalButton(
                    ft.Text("Add", semantics_label="Add player"),
                    icon=ft.Icons.PERSON_ADD,
                    on_click=add,
                    height=44,
                    disabled=full,
                ),
                "add-player",
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _saved_players(form: NewGameForm, ruleset: Ruleset, saved: list[str]) -> ft.Control:
    seated = {p.casefold() for p in form.players}
    offers = [p for p in saved if p.casefold() not in seated][:12]
    if not offers or len(form.players) >= ruleset.max_players:
        return ft.Container()
    return ft.Row(
        [
            labelled(
                ft.Chip(
                    label=ft.Text(p),
                    leading=ft.Icon(ft.Icons.PERSON),
                    on_click=lambda _, p=p: add_player(form, p, ruleset),
                ),
                f"Add saved player {p}",
                f"saved-{p}",
                button=True,
            )
            for p in offers
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )


@ft.component
def PlayersPanel(form: NewGameForm, ruleset: Ruleset, saved: list[str]) -> ft.Control:
    """Who plays, in seating order; the game's limits are shown before anyone is added."""
    return ft.Column(
        [
            _heading("Players"),
            ft.Text(
                f"{ruleset.title}: {limits_text(ruleset)}, in seating order (clockwise).",
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
            *(_player_row(form, ruleset, i, p) for i, p in enumerate(form.players)),
            _add_row(form, ruleset),
            problem_line(form.problems.players, "players-error"),
            _saved_players(form, ruleset, saved),
        ],
        spacing=6,
        key=scroll_key("players"),
    )


@ft.component
def DealerPanel(form: NewGameForm, ruleset: Ruleset) -> ft.Control:
    """The first dealer: picked, or drawn at random; the opening in the referee's words,
    under the house rules chosen (what the game's verdicts cannot check is said there)."""

    def pick(e: ft.Event[ft.RadioGroup]) -> None:
        form.dealer = e.control.value or ""
        form.problems = replace(form.problems, dealer="")

    def draw(_: Any) -> None:
        if form.players:
            form.dealer = random.choice(form.players)
            form.problems = replace(form.problems, dealer="")

    choices: ft.Control = (
        ft.RadioGroup(
            value=form.dealer or None,
            on_change=pick,
            content=ft.Row([ft.Radio(value=p, label=p) for p in form.players], wrap=True),
        )
        if form.players
        else ft.Text("Add the players first.", color=ft.Colors.ON_SURFACE_VARIANT)
    )
    controls: list[ft.Control] = [
        _heading("First dealer"),
        choices,
        ft.OutlinedButton(
            "Draw the dealer at random",
            icon=ft.Icons.CASINO,
            on_click=draw,
            disabled=not form.players,
            height=44,
        ),
        problem_line(form.problems.dealer, "dealer-error"),
    ]
    if form.dealer in form.players:
        try:
            text = ruleset.opening(form.players, form.dealer, rules=form.rules).text
        except HouseRuleError:  # a number half typed in the house rules (Start names it)
            text = ruleset.opening(form.players, form.dealer).text
        controls.append(said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, "opening"))
    return ft.Column(controls, spacing=6, key=scroll_key("dealer"))


def rules_words(form: NewGameForm, presets: list[Preset]) -> str:
    """``"standard"``, a preset's name, or the switches that differ, in words."""
    changed = changed_only(form.game, form.rules)
    if not changed:
        return "standard"
    named = next((p.name for p in presets if changed_only(form.game, p.rules) == changed), None)
    return named or describe_rules(form.game, form.rules)


@ft.component
def HouseRulesRow(form: NewGameForm, data_dir: Any) -> ft.Control:
    """One row, "House rules: standard (change)"; the switches open in a dialog."""
    words = rules_words(form, load_presets(form.game, data_dir))

    def open_editor(_: Any) -> None:
        form.rules_open = True

    row = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Row(
                [
                    ft.Icon(ft.Icons.TUNE),
                    ft.Text(f"House rules: {words}", size=15, expand=True),
                    ft.Text("Change", color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_500),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
        padding=ft.Padding.symmetric(horizontal=8, vertical=12),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=12,
        on_click=open_editor,
        ink=True,
    )
    return ft.Column(
        [
            ft.MergeSemantics(
                content=labelled(row, f"House rules: {words}. Change", "house-rules", button=True)
            ),
            problem_line(form.problems.rules, "rules-error"),
        ],
        spacing=6,
        key=scroll_key("rules"),
    )


def _presets_row(form: NewGameForm, presets: list[Preset]) -> ft.Control:
    def choose(preset: Preset) -> None:
        form.rules = dict(preset.rules)
        form.rules_note = f"House rules: {preset.name}."

    return ft.Row(
        [
            labelled(
                ft.Chip(label=ft.Text(p.name), on_click=lambda _, p=p: choose(p)),
                f"Preset {p.name}: {p.note}",
                f"preset-{p.name}",
                button=True,
            )
            for p in presets
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )


@ft.component
def HouseRulesDialog(form: NewGameForm, data_dir: Any, services: Services) -> ft.Control:
    """The house-rules editor, in a sheet over the form while ``form.rules_open``:
    presets, every switch, save as a preset (the host's: a phone at the table may
    choose this game's rules, not change the table's presets).  (In the page it
    takes no room.)"""
    presets_rev, set_presets_rev = ft.use_state(0)
    name = ft.use_ref("")
    _ = presets_rev
    presets = load_presets(form.game, data_dir)

    def set_rules(rules: dict[str, Any]) -> None:
        form.rules = dict(rules)

    def save(_: Any) -> None:
        try:
            services.require(Capability.SETTINGS)
            save_preset(form.game, name.current or "", form.rules, data_dir)
        except (ValueError, OSError, NotAllowed) as exc:
            form.rules_note = f"Preset not saved: {exc}"
            return
        set_presets_rev(presets_rev + 1)
        form.rules_note = f"Saved the preset “{(name.current or '').strip()}”."

    def typed_name(e: ft.Event[ft.TextField]) -> None:
        name.current = e.control.value or ""

    def close(_: Any = None) -> None:
        form.rules_open = False

    body = [
        _presets_row(form, presets),
        ft.Text(form.rules_note, size=13) if form.rules_note else ft.Container(),
        HouseRulesEditor(form.game, form.rules, set_rules, ident=f"{form.game}-rules"),
    ]
    if services.can(Capability.SETTINGS):
        body.append(
            ft.Row(
                [
                    ft.TextField(
                        label="Preset name", dense=True, expand=True, on_change=typed_name
                    ),
                    ft.OutlinedButton("Save preset", icon=ft.Icons.SAVE, on_click=save),
                ]
            )
        )
    done = tag(ft.FilledButton("Done", on_click=close, height=44), "house-rules-done")
    sheet = ft.Container(
        padding=ft.Padding.only(left=16, right=16, bottom=12),
        content=ft.Column(
            [
                ft.Text("House rules", size=20, weight=ft.FontWeight.BOLD),
                # the switches scroll; the title and Done stay in reach.  The scrollbar
                # gets its own gutter: over the rows it covered the switches' edge
                ft.Column(
                    [ft.Container(ft.Column(body), padding=ft.Padding.only(right=12))],
                    scroll=ft.ScrollMode.AUTO,
                    expand=True,
                    expand_loose=True,
                ),
                ft.Divider(height=1),
                ft.Row([done], alignment=ft.MainAxisAlignment.END),
            ],
            tight=True,
            spacing=8,
        ),
    )
    ft.use_dialog(
        ft.BottomSheet(
            content=sheet,
            scrollable=True,
            show_drag_handle=True,
            on_dismiss=close,
            size_constraints=ft.BoxConstraints(max_width=READABLE_WIDTH),
        )
        if form.rules_open
        else None
    )
    return ft.Container(height=0)


@ft.component
def StartBar(form: NewGameForm, title: str, on_start: Callable[[Any], None]) -> ft.Control:
    """Start, pinned to the bottom of the screen, with any problem that is nobody's control."""
    start = tag(
        ft.FilledButton(
            f"Start {title}", icon=ft.Icons.PLAY_ARROW, on_click=on_start, height=48, expand=True
        ),
        "start",
        expand=True,
    )
    return ft.Container(
        content=ft.Row(
            [
                ft.Container(
                    ft.Column(
                        [problem_line(form.problems.general, "start-error"), ft.Row([start])],
                        spacing=6,
                        tight=True,
                    ),
                    width=READABLE_WIDTH,
                    expand=True,
                    expand_loose=True,
                )
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        padding=ft.Padding.symmetric(horizontal=12, vertical=10),
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
    )
