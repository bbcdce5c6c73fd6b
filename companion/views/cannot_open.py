"""The screen shown instead of the app when the history must not be opened.

A data folder saved by a newer Rummy Companion, or marked with a format no
version writes, is refused and left untouched (``open_repository``); so is a
folder that cannot be used at all.  Rather than a server that will not start,
the person sees what happened and what to do.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import flet as ft

from companion.components.kit.ui import heading, labelled
from companion.storage import NewerVersionError, StorageError, UnknownFormatError


def _what_to_do(error: StorageError, data_dir: Path) -> list[str]:
    other = "companion --data-dir <another folder>"
    if isinstance(error, NewerVersionError):
        return [
            "Update Rummy Companion to its newest version, then start it again: your games "
            "are all still there.",
            f"To use this version meanwhile, start it with another data folder: {other}",
        ]
    if isinstance(error, UnknownFormatError):
        return [
            f"If files were copied into {data_dir} by hand, put back the ones that were there "
            "before, or move them elsewhere.",
            f"Or start with another data folder: {other}",
        ]
    return [
        f"Check that {data_dir} is a folder you may write to, with free space.",
        f"Or start with another data folder: {other}",
    ]


@ft.component
def CannotOpenView(message: str, steps: list[str]) -> ft.View:
    controls: list[ft.BaseControl] = [
        heading("Your game history cannot be opened"),
        labelled(
            ft.Text(message, selectable=True, size=15),
            message,
            "cannot-open-message",
        ),
        ft.Text("What to do", size=16, weight=ft.FontWeight.BOLD),
        *[labelled(ft.Text(f"• {step}", selectable=True, size=15), step) for step in steps],
        ft.Text("Nothing was changed.", size=15),
    ]
    return ft.View(route="/", padding=16, scroll=ft.ScrollMode.AUTO, controls=controls)


def cannot_open(data_dir: Path, error: StorageError, theme: ft.Theme) -> Callable[[ft.Page], None]:
    """The Flet entry point that shows :class:`CannotOpenView` on every page."""
    message = str(error)
    if "nothing was changed" not in message.lower():
        message += " Nothing in the folder was changed."
    steps = _what_to_do(error, data_dir)

    def main(page: ft.Page) -> None:
        page.title = "Rummy Companion"
        page.theme = theme
        page.dark_theme = theme
        page.theme_mode = ft.ThemeMode.SYSTEM
        page.render_views(CannotOpenView, message, steps)

    return main
