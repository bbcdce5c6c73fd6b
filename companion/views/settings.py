"""Settings: theme, data folder, backup (JSON / CSV / import), demo games, players,
and each game's default house rules (with the shipped presets).

Backups go through Flet's FilePicker: in the browser ``save_file`` downloads the
bytes and ``pick_files(with_data=True)`` hands the chosen file's bytes back to
Python (no upload folder needed); on the desktop they are native dialogs.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Any

import flet as ft

from companion.backup import (
    backup_file_name,
    export_csv_bytes,
    export_json_bytes,
    import_backup_bytes,
)
from companion.components.house_rules import HouseRulesEditor
from companion.components.kit.ui import labelled
from companion.components.problems import ProblemsPanel
from companion.demo import load_demo
from companion.preferences import (
    default_rules,
    describe_rules,
    save_default_rules,
    save_theme,
)
from companion.presets import load_presets
from companion.services import Services, use_services, use_ui
from companion.storage import StorageError
from rulesets import GAMES, RulesetError, load_ruleset


def _section(title: str) -> ft.Control:
    return ft.Text(title, size=18, weight=ft.FontWeight.BOLD)


def _button(text: str, icon: Any, on_click: Any, ident: str, *, filled: bool = False) -> ft.Control:
    cls = ft.FilledTonalButton if filled else ft.OutlinedButton
    return labelled(cls(text, icon=icon, on_click=on_click), text, ident, button=True)


def _notify(message: str) -> None:
    ft.context.page.show_dialog(ft.SnackBar(ft.Text(message), duration=ft.Duration(seconds=6)))


async def _save(kind: str, data: bytes) -> str:
    name = backup_file_name(kind)
    picker = ft.FilePicker()
    path = await picker.save_file(
        dialog_title="Save backup" if kind == "json" else "Save hands as CSV",
        file_name=name,
        file_type=ft.FilePickerFileType.CUSTOM,
        allowed_extensions=[kind],
        src_bytes=data,
    )
    if ft.context.page.web:
        return f"Downloaded {name}."
    return f"Saved {path}." if path else "Not saved."


async def _pick_backup() -> tuple[str, bytes] | None:
    picker = ft.FilePicker()
    files = await picker.pick_files(
        dialog_title="Import a backup",
        file_type=ft.FilePickerFileType.CUSTOM,
        allowed_extensions=["json"],
        with_data=True,
        cancel_upload_on_window_blur=False,
    )
    if not files:
        return None
    f = files[0]
    if f.bytes is not None:
        return f.name, f.bytes
    if f.path:
        return f.name, Path(f.path).read_bytes()
    return None


@ft.component
def RulesDialogBody(services: Services, game: str) -> ft.Control:
    """The default house rules of ``game``, saved as they change, plus the presets."""
    data_dir = services.repo.data_dir
    initial: dict[str, Any] = default_rules(data_dir, game)
    rules, set_rules = ft.use_state(initial)
    problem, set_problem = ft.use_state("")

    def apply(new: dict[str, Any]) -> None:
        set_rules(dict(new))
        if data_dir is None:
            return
        try:
            save_default_rules(data_dir, game, new)
        except RulesetError as exc:
            set_problem(f"Not saved: {exc.words}")
        except OSError as exc:
            set_problem(f"Not saved: {exc}")
        else:
            set_problem("")

    shipped = load_presets(game, data_dir)
    preset_buttons: list[ft.Control] = [
        labelled(
            ft.OutlinedButton(
                p.name,
                on_click=functools.partial(lambda r, _: apply(dict(r)), p.rules),
            ),
            f"Preset {p.name}: {p.note}",
            f"settings-preset-{game}-{i}",
            button=True,
        )
        for i, p in enumerate(shipped)
    ]
    return ft.Column(
        [
            ft.Text("Presets", weight=ft.FontWeight.W_500),
            ft.Row(preset_buttons, wrap=True, spacing=6, run_spacing=6),
            *[ft.Text(f"{p.name}: {p.note}", size=12) for p in shipped],
            ft.Text(problem, color=ft.Colors.ERROR) if problem else ft.Container(),
            ft.Divider(height=1),
            HouseRulesEditor(game, rules, apply, ident=f"settings-rule-{game}"),
        ],
        spacing=8,
        tight=True,
    )


def _modal(
    dialog: str,
    problem: str,
    players: list[str],
    services: Services,
    on_typed: Any,
    rename: Any,
    merge: Any,
    close: Any,
) -> ft.AlertDialog | None:
    """The open dialog (rename, merge, default house rules), if any."""
    kind, _, arg = dialog.partition(":")
    modal: ft.AlertDialog | None = None
    trouble: list[ft.Control] = [ft.Text(problem, color=ft.Colors.ERROR)] if problem else []
    if kind == "rename":
        modal = ft.AlertDialog(
            title=ft.Text(f"Rename {arg}"),
            content=ft.Column(
                [
                    labelled(
                        ft.TextField(
                            label="New name", value=arg, on_change=on_typed, autofocus=True
                        ),
                        "New name",
                        "settings-rename-field",
                    ),
                    *trouble,
                ],
                tight=True,
            ),
            actions=[
                ft.TextButton("Cancel", on_click=close),
                labelled(
                    ft.FilledButton("Rename", on_click=functools.partial(rename, arg)),
                    "Rename",
                    "settings-rename-ok",
                    button=True,
                ),
            ],
            on_dismiss=close,
        )
    elif kind == "merge":
        modal = ft.AlertDialog(
            title=ft.Text(f"Merge {arg} into…"),
            content=ft.Column(
                [
                    ft.Text(f"All of {arg}'s games will belong to the player you pick."),
                    *[
                        labelled(
                            ft.OutlinedButton(other, on_click=functools.partial(merge, arg, other)),
                            f"Merge into {other}",
                            f"settings-merge-into-{other}",
                            button=True,
                        )
                        for other in players
                        if other != arg
                    ],
                    *trouble,
                ],
                tight=True,
                spacing=6,
            ),
            actions=[ft.TextButton("Cancel", on_click=close)],
            on_dismiss=close,
        )
    elif kind == "rules" and arg in GAMES:
        modal = ft.AlertDialog(
            title=ft.Text(f"{load_ruleset(arg).title}: default house rules"),
            scrollable=True,
            content=ft.Container(width=520, content=RulesDialogBody(services, arg)),
            actions=[
                labelled(
                    ft.FilledButton("Done", on_click=close),
                    "Done",
                    "settings-rules-done",
                    button=True,
                )
            ],
            on_dismiss=close,
        )
    return modal


def _players_section(players: list[str], open_dialog: Any) -> list[ft.Control]:
    """Each player, with Rename and Merge."""
    controls: list[ft.Control] = []
    if not players:
        controls.append(ft.Text("No players yet.", size=14))
    for name in players:
        controls.append(
            ft.Semantics(
                identifier=f"settings-player-{name}",
                container=True,
                content=ft.Row(
                    [
                        ft.Text(name, size=15, expand=True),
                        _button(
                            "Rename",
                            ft.Icons.EDIT,
                            functools.partial(open_dialog, f"rename:{name}"),
                            f"settings-rename-{name}",
                        ),
                        _button(
                            "Merge",
                            ft.Icons.MERGE,
                            functools.partial(open_dialog, f"merge:{name}"),
                            f"settings-merge-{name}",
                        ),
                    ],
                    spacing=6,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            )
        )
    return controls


def _rules_tiles(data_dir: Path | None, open_dialog: Any) -> list[ft.Control]:
    """Each game's default house rules, in words, opening their editor."""
    controls: list[ft.Control] = []
    for game in GAMES:
        current = default_rules(data_dir, game)
        summary = describe_rules(game, current)
        title = load_ruleset(game).title
        controls.append(
            labelled(
                ft.ListTile(
                    title=ft.Text(f"{title} house rules"),
                    subtitle=ft.Text(summary, max_lines=3),
                    trailing=ft.Icon(ft.Icons.TUNE),
                    on_click=functools.partial(open_dialog, f"rules:{game}"),
                ),
                f"{title} house rules: {summary}",
                f"settings-rules-{game}",
                button=True,
            )
        )
    return controls


@ft.component
def SettingsView() -> ft.View:
    services = use_services()
    ui = use_ui()
    revision = ui.history_revision
    dialog, set_dialog = ft.use_state("")
    typed = ft.use_ref("")
    last, set_last = ft.use_state("")
    problem, set_problem = ft.use_state("")
    players = ft.use_memo(lambda: [p.name for p in services.repo.list_players()], [revision])

    def report(message: str) -> None:
        set_last(message)
        _notify(message)

    def set_theme(value: bool | None) -> None:
        ui.dark = value
        data_dir = services.repo.data_dir
        if data_dir is not None:
            with contextlib.suppress(OSError):
                save_theme(data_dir, value)  # remembered for the next start

    async def export_json(_: object) -> None:
        try:
            report(await _save("json", export_json_bytes(services.repo)))
        except (OSError, StorageError, ValueError) as exc:
            report(f"Export failed: {exc}")

    async def export_csv(_: object) -> None:
        try:
            report(await _save("csv", export_csv_bytes(services.repo)))
        except (OSError, StorageError, ValueError) as exc:
            report(f"Export failed: {exc}")

    async def import_json(_: object) -> None:
        try:
            picked = await _pick_backup()
            if picked is None:
                report("No file chosen.")
                return
            name, data = picked
            line = import_backup_bytes(services.repo, data)
        except (OSError, StorageError, ValueError) as exc:
            report(f"Import failed: {exc}")
            return
        services.history_changed()
        report(f"{name}: {line}")

    def demo(_: object) -> None:
        line = load_demo(services.repo)
        services.history_changed()
        report(line)

    def close(_: object = None) -> None:
        set_dialog("")

    def open_dialog(kind: str, _: object = None) -> None:
        typed.current = ""
        set_problem("")
        set_dialog(kind)

    def on_typed(e: ft.Event[ft.TextField]) -> None:
        typed.current = e.control.value or ""

    def rename(old: str, _: object = None) -> None:
        new = (typed.current or "").strip()
        try:
            services.repo.rename_player(old, new)
        except StorageError as exc:
            set_problem(f"Not renamed: {exc}")
            return
        set_dialog("")
        services.history_changed()
        report(f"{old} is now {new}.")

    def merge(source: str, target: str, _: object = None) -> None:
        try:
            services.repo.merge_players(source, target)
        except StorageError as exc:
            set_problem(f"Not merged: {exc}")
            return
        set_dialog("")
        services.history_changed()
        report(f"{source}'s games now belong to {target}.")

    modal = _modal(dialog, problem, players, services, on_typed, rename, merge, close)
    ft.use_dialog(modal)

    theme = ui.dark
    controls: list[ft.BaseControl] = [
        _section("Appearance"),
        ft.Row(
            [
                labelled(
                    (ft.FilledButton if theme is value else ft.OutlinedButton)(
                        text,
                        icon=icon,
                        on_click=functools.partial(lambda v, _: set_theme(v), value),
                    ),
                    f"{text} theme",
                    f"settings-theme-{text.lower()}",
                    button=True,
                    selected=theme is value,
                )
                for text, value, icon in (
                    ("System", None, ft.Icons.BRIGHTNESS_AUTO),
                    ("Light", False, ft.Icons.LIGHT_MODE),
                    ("Dark", True, ft.Icons.DARK_MODE),
                )
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
        _section("Data"),
        labelled(
            ft.Text(f"Data folder: {services.config.data_dir}", selectable=True, size=14),
            f"Data folder: {services.config.data_dir}",
            "settings-data-dir",
        ),
        ft.Row(
            [
                _button(
                    "Export backup (JSON)", ft.Icons.SAVE_ALT, export_json, "settings-export-json"
                ),
                _button(
                    "Export hands (CSV)", ft.Icons.TABLE_CHART, export_csv, "settings-export-csv"
                ),
                _button("Import backup", ft.Icons.UPLOAD_FILE, import_json, "settings-import"),
                _button("Load demo games", ft.Icons.CASINO, demo, "settings-load-demo"),
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
        ft.Text(
            "A backup holds every game, player and deleted game; importing adds the games "
            "that are not here yet.",
            size=13,
        ),
    ]
    if last:
        controls.append(
            ft.Semantics(
                identifier="settings-last-result",
                container=True,
                content=ft.Text(last, size=14, weight=ft.FontWeight.W_500),
            )
        )
    controls += [_section("Problems"), ProblemsPanel(services)]
    controls.append(_section("Default house rules"))
    controls.append(ft.Text("New games start with these; the meld checker uses them too.", size=13))
    controls += _rules_tiles(services.repo.data_dir, open_dialog)
    controls += [_section("Players"), *_players_section(players, open_dialog)]
    return ft.View(
        route="/settings",
        appbar=ft.AppBar(title=ft.Text("Settings")),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=controls,
    )
