"""New game: players (saved or typed), house rules (with presets), first dealer.

Route ``/new/<game>``.  Starting records the opening action at once, so the
game is in history (and offered as "Continue") from its first second.
"""

from __future__ import annotations

import random
from typing import Any

import flet as ft

from companion import rulebook
from companion.components.house_rules import HouseRulesEditor
from companion.preferences import default_rules
from companion.presets import Preset, load_presets, save_preset
from companion.services import use_services
from companion.session import GameSession
from companion.storage import StorageError
from companion.ui import go, icon_button, labelled
from rulesets import RulesetError, load_ruleset
from rulesets.protocol import Action, Ruleset


def _stacks(ruleset: Ruleset, players: list[str], chips: dict[str, str]) -> list[int] | None:
    """Starting chips per player (games played with chips), or None."""
    if ruleset.starting_stack is None:
        return None
    default = str(ruleset.starting_stack)
    return [int(raw) if (raw := chips.get(p, default).strip()).isdigit() else -1 for p in players]


def _problems(
    ruleset: Ruleset, players: list[str], dealer: str, chips: dict[str, str], rules: dict[str, Any]
) -> tuple[list[str], list[Action]]:
    """What stops the game from starting (in the referee's words), else its opening actions."""
    lo, hi = ruleset.min_players, ruleset.max_players
    out: list[str] = []
    if not lo <= len(players) <= hi:
        need = str(lo) if lo == hi else f"{lo} to {hi}"
        out.append(f"{ruleset.title} needs {need} players (you have {len(players)}).")
    stacks = _stacks(ruleset, players, chips)
    for p, n in zip(players, stacks or [], strict=False):
        if n < 0:
            out.append(f"{p}: starting chips “{chips.get(p, '').strip()}” is not a whole number.")
    if not dealer:
        out.append("Pick the first dealer, or draw one at random.")
    if out:
        return out, []
    try:
        live = ruleset.new_game(players, rules)
        opening = ruleset.opening_actions(players, dealer, chips=stacks)
        for action in opening:
            live.push(action)
    except RulesetError as exc:
        return [exc.reason + (f" ({exc.rule})" if exc.rule else "")], []
    return [], opening


@ft.component
def NewGameView() -> ft.View:
    services = use_services()
    game = ft.use_route_params().get("game", "")
    info = next((g for g in rulebook.games() if g.id == game), None)
    players, set_players = ft.use_state(list[str]())
    dealer, set_dealer = ft.use_state("")
    initial_rules: dict[str, Any] = ft.use_memo(
        lambda: default_rules(services.config.data_dir, game), [game]
    )
    rules, set_rules = ft.use_state(initial_rules)
    chips, set_chips = ft.use_state(dict[str, str]())
    message, set_message = ft.use_state("")
    preset_name = ft.use_ref("")
    typed_name = ft.use_ref("")
    typed, set_typed = ft.use_state("")
    presets_rev, set_presets_rev = ft.use_state(0)

    if info is None:
        return ft.View(
            route=f"/new/{game}",
            appbar=ft.AppBar(title=ft.Text("New game")),
            controls=[ft.Text(f"There is no game called “{game}”.")],
        )
    ruleset = load_ruleset(game)
    lo, hi = ruleset.min_players, ruleset.max_players
    saved = [p.name for p in services.repo.list_players()]
    presets = load_presets(game, services.config.data_dir)
    _ = presets_rev

    def add_player(name: str) -> None:
        name = " ".join(name.split())
        if not name:
            return
        if any(p.casefold() == name.casefold() for p in players):
            set_message(f"{name} is already playing.")
            return
        if len(players) >= hi:
            set_message(f"{info.title} is for at most {hi} players.")
            return
        set_message("")
        set_players([*players, name])

    def add_typed(_: Any = None) -> None:
        add_player(typed_name.current or "")
        typed_name.current = ""
        set_typed("")

    def on_name(e: ft.Event[ft.TextField]) -> None:
        typed_name.current = e.control.value or ""
        set_typed(typed_name.current)

    def remove(name: str) -> None:
        set_players([p for p in players if p != name])
        if dealer == name:
            set_dealer("")

    def move_up(i: int) -> None:
        if i > 0:
            new = list(players)
            new[i - 1], new[i] = new[i], new[i - 1]
            set_players(new)

    def draw_dealer(_: Any) -> None:
        if players:
            set_dealer(random.choice(players))

    def apply_preset(preset: Preset) -> None:
        set_rules(dict(preset.rules))
        set_message(f"House rules: {preset.name}.")

    def save_current_preset(_: Any) -> None:
        try:
            save_preset(game, preset_name.current or "", rules, services.config.data_dir)
        except (ValueError, OSError) as exc:
            set_message(f"Preset not saved: {exc}")
            return
        set_presets_rev(presets_rev + 1)
        set_message(f"Saved the preset “{(preset_name.current or '').strip()}”.")

    def start(_: Any) -> None:
        problems, opening = _problems(ruleset, players, dealer, chips, rules)
        if problems:
            set_message(" ".join(problems))
            return
        try:
            for p in players:
                if p not in saved:
                    services.repo.add_player(p)
            session = GameSession.start(services.repo, game, players, rules, opening)
        except (StorageError, RulesetError) as exc:
            set_message(f"Could not start the game: {exc}")
            return
        services.history_changed()
        go(f"/play/{session.game_id}")

    player_rows: list[ft.Control] = []
    for i, p in enumerate(players):
        row: list[ft.Control] = [
            ft.Text(f"{i + 1}. {p}", size=16, expand=True),
        ]
        if ruleset.starting_stack is not None:
            row.append(
                labelled(
                    ft.TextField(
                        value=chips.get(p, str(ruleset.starting_stack)),
                        width=90,
                        dense=True,
                        label="Chips",
                        keyboard_type=ft.KeyboardType.NUMBER,
                        on_change=lambda e, p=p: set_chips({**chips, p: e.control.value or ""}),
                    ),
                    f"Starting chips for {p}",
                    f"chips-{p}",
                )
            )
        row += [
            icon_button(ft.Icons.ARROW_UPWARD, f"Move {p} up", lambda _, i=i: move_up(i)),
            icon_button(ft.Icons.CLOSE, f"Remove {p}", lambda _, p=p: remove(p)),
        ]
        player_rows.append(ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER))

    suggestions = [p for p in saved if p not in players]
    opening_text = ruleset.opening(players, dealer).text if dealer in players else ""
    need = str(lo) if lo == hi else f"{lo}–{hi}"

    controls: list[ft.BaseControl] = [
        ft.Text(f"Players ({need}), in seating order clockwise", weight=ft.FontWeight.BOLD),
        *player_rows,
        ft.Row(
            [
                ft.TextField(
                    value=typed,
                    label="Player name",
                    dense=True,
                    expand=True,
                    on_change=on_name,
                    on_submit=add_typed,
                ),
                ft.FilledTonalButton("Add", icon=ft.Icons.PERSON_ADD, on_click=add_typed),
            ]
        ),
    ]
    if suggestions:
        controls.append(
            ft.Row(
                [
                    labelled(
                        ft.Chip(
                            label=ft.Text(p),
                            leading=ft.Icon(ft.Icons.PERSON),
                            on_click=lambda _, p=p: add_player(p),
                        ),
                        f"Add saved player {p}",
                        f"saved-{p}",
                        button=True,
                    )
                    for p in suggestions[:12]
                ],
                wrap=True,
            )
        )
    controls += [
        ft.Divider(),
        ft.Text("First dealer", weight=ft.FontWeight.BOLD),
        ft.RadioGroup(
            value=dealer or None,
            on_change=lambda e: set_dealer(e.control.value or ""),
            content=ft.Row([ft.Radio(value=p, label=p) for p in players], wrap=True),
        )
        if players
        else ft.Text("Add the players first."),
        ft.OutlinedButton(
            "Draw the dealer at random",
            icon=ft.Icons.CASINO,
            on_click=draw_dealer,
            disabled=not players,
        ),
    ]
    if opening_text:
        controls.append(
            labelled(
                ft.Text(opening_text, size=16, weight=ft.FontWeight.W_500), opening_text, "opening"
            )
        )
    controls += [
        ft.Divider(),
        ft.Text("House rules", weight=ft.FontWeight.BOLD),
        ft.Row(
            [
                labelled(
                    ft.Chip(label=ft.Text(p.name), on_click=lambda _, p=p: apply_preset(p)),
                    f"Preset {p.name}: {p.note}",
                    f"preset-{p.name}",
                    button=True,
                )
                for p in presets
            ],
            wrap=True,
        ),
        HouseRulesEditor(game, rules, set_rules, ident=f"{game}-rules"),
        ft.Row(
            [
                ft.TextField(
                    label="Preset name",
                    dense=True,
                    expand=True,
                    on_change=lambda e: setattr(preset_name, "current", e.control.value or ""),
                ),
                ft.OutlinedButton("Save preset", icon=ft.Icons.SAVE, on_click=save_current_preset),
            ]
        ),
    ]
    if message:
        controls.append(
            labelled(ft.Text(message, color=ft.Colors.ERROR), message, "new-game-message")
        )
    controls.append(
        ft.FilledButton(f"Start {info.title}", icon=ft.Icons.PLAY_ARROW, on_click=start, height=48)
    )
    return ft.View(
        route=f"/new/{game}",
        appbar=ft.AppBar(title=ft.Text(f"New {info.title} game")),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=controls,
    )
