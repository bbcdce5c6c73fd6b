"""Problems with the history: files that could not be read, set aside and kept.

The store moves any file it cannot read to its quarantine folder with a note
(:meth:`~companion.storage.GameRepository.problem_reports`).  Settings lists
them (:func:`ProblemsPanel`): each with its note, "Save a copy" of the damaged
file, and "Dismiss" (the file itself is kept).  Home shows
:func:`problems_banner` while any is left.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import flet as ft

from companion.components.kit.common import button, said
from companion.components.kit.ui import go
from companion.services import Services
from companion.storage import Problem, StorageError

__all__ = ["ProblemsPanel", "open_problems", "problems_banner"]


def open_problems(services: Services) -> tuple[list[Problem], list[str]]:
    """Files set aside (not dismissed), and this session's notes about files left untouched."""
    reports = services.repo.problem_reports()
    kept = {p.note for p in reports}
    others = [note for note in services.repo.problems if note not in kept]
    return reports, others


def headline(problem: Problem) -> str:
    """What the damaged file was, in a few words (the note has the details).

    >>> headline(Problem(id="x", note="", file_name="games_ab12.log", when=""))
    'The latest entries of a game could not be read'
    """
    name = problem.file_name
    if name.startswith("games_"):
        if name.endswith(".log"):
            return "The latest entries of a game could not be read"
        return "A game could not be read"
    if name.startswith("trash_"):
        return "A deleted game could not be read"
    if name.startswith("index_"):
        month = name.removeprefix("index_").removesuffix(".json")
        return f"The list of games started in {month} could not be read, and was rebuilt"
    return {
        "players.json": "The player list could not be read",
        "preferences.json": "Your settings (theme, default house rules) could not be read",
        "journal.json": "A change cut short by a crash could not be finished",
        "format.json": "The history's format marker could not be read, and was recreated",
    }.get(name, f"A file could not be read ({name})")


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _problem_card(
    n: int, problem: Problem, save: Callable[..., Any], dismiss: Callable[..., Any]
) -> ft.Control:
    title = headline(problem)
    return ft.Card(
        content=ft.Container(
            padding=12,
            content=ft.Column(
                [
                    said(
                        ft.Column(
                            [
                                ft.Text(title, size=15, weight=ft.FontWeight.BOLD),
                                ft.Text(f"Set aside {_when(problem.when)}", size=12, italic=True),
                                ft.Text(problem.note, size=12, selectable=True),
                            ],
                            spacing=4,
                            tight=True,
                        ),
                        f"Problem: {title}. {problem.note}",
                        f"settings-problem-{n}",
                    ),
                    ft.Row(
                        [
                            button(
                                "Save a copy",
                                save,
                                f"settings-problem-save-{n}",
                                icon=ft.Icons.SAVE_ALT,
                                label=f"Save a copy of the damaged file {problem.file_name}",
                            ),
                            button(
                                "Dismiss",
                                dismiss,
                                f"settings-problem-dismiss-{n}",
                                icon=ft.Icons.CHECK,
                                label="Dismiss this problem (the damaged file is kept)",
                            ),
                        ],
                        wrap=True,
                        spacing=8,
                        run_spacing=8,
                    ),
                ],
                spacing=8,
                tight=True,
            ),
        )
    )


@ft.component
def ProblemsPanel(services: Services) -> ft.Control:
    """Every damaged file of the history with its note, to save a copy of or dismiss."""
    _ = services.ui.history_revision  # re-read when history changes
    reports, others = open_problems(services)
    result, set_result = ft.use_state("")

    async def save(problem: Problem) -> None:
        try:
            name, data = services.repo.problem_file(problem.id)
            path = await ft.FilePicker().save_file(
                dialog_title="Save a copy of the damaged file",
                file_name=f"rummy-companion-damaged-{name}",
                src_bytes=data,
            )
        except (OSError, StorageError) as exc:
            set_result(f"Not saved: {exc}")
            return
        if ft.context.page.web:
            set_result(f"Downloaded a copy of {problem.file_name}.")
        else:
            set_result(f"Saved {path}." if path else "Not saved.")

    def dismiss(problem: Problem) -> None:
        try:
            services.repo.dismiss_problem(problem.id)
        except (OSError, StorageError) as exc:
            set_result(f"Not dismissed: {exc}")
            return
        set_result("Dismissed. The damaged file stays in the data folder's quarantine.")
        services.history_changed()

    controls: list[ft.Control] = []
    if not reports and not others:
        controls.append(
            said(
                ft.Text("None: every file of the history could be read.", size=14),
                "No problems: every file of the history could be read.",
                "settings-problems-none",
            )
        )
    else:
        controls.append(
            ft.Text(
                "These files could not be read. Each was set aside and kept; the rest of the "
                "history works as usual.",
                size=13,
            )
        )
    for n, problem in enumerate(reports):

        async def on_save(_: object, p: Problem = problem) -> None:
            await save(p)

        def on_dismiss(_: object, p: Problem = problem) -> None:
            dismiss(p)

        controls.append(_problem_card(n, problem, on_save, on_dismiss))
    for n, note in enumerate(others):
        controls.append(
            said(ft.Text(note, size=14, selectable=True), f"Problem: {note}", f"settings-note-{n}")
        )
    if result:
        controls.append(said(ft.Text(result, size=14), result, "settings-problems-result"))
    return ft.Column(controls, spacing=8, tight=True)


def problems_banner(count: int) -> ft.Control:
    """Home's notice while some of the history could not be read."""
    words = "1 file" if count == 1 else f"{count} files"
    text = (
        f"{words} of your history could not be read. They were set aside and kept; "
        "the rest works as usual."
    )
    return ft.Card(
        content=ft.Container(
            padding=12,
            content=ft.Column(
                [
                    ft.Row(
                        [
                            ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ERROR),
                            said(ft.Text(text, size=14), text, "home-problems", expand=True),
                        ],
                        spacing=8,
                        vertical_alignment=ft.CrossAxisAlignment.START,
                    ),
                    button(
                        "See problems",
                        lambda _: go("/settings"),
                        "home-see-problems",
                        label="See the problems in Settings",
                    ),
                ],
                spacing=8,
                tight=True,
            ),
        )
    )
