"""The Rummy table's bottom bar: the referee's line and the action, under the thumb.

Until the shared thumb kit's EntryBar is on main this is the Rummy table's own:
a verdict area of reserved height (it never pushes anything), then one row with
a secondary slot of fixed width on the left and the primary action (52 px high)
filling the rest, so the primary action never moves or changes size.
"""

from __future__ import annotations

import flet as ft

from companion.components.common import READABLE_WIDTH

__all__ = ["BAR_BUTTON_HEIGHT", "LEFT_WIDTH", "LINE_HEIGHT", "bar", "bar_lines"]

BAR_BUTTON_HEIGHT = 52
LEFT_WIDTH = 132
LINE_HEIGHT = 18  # one line of the verdict area (13-14 px text)


def bar_lines(players: int) -> int:
    """Lines reserved for the verdict: a hand's preview wraps with many players."""
    return 4 if players <= 3 else 5


def bar(verdict: ft.Control, left: ft.Control, primary: ft.Control, *, lines: int) -> ft.Control:
    """The bar: ``verdict`` in ``lines`` reserved lines, ``left`` and ``primary`` below."""
    body = ft.Column(
        [
            ft.Container(verdict, height=lines * LINE_HEIGHT + 4, alignment=ft.Alignment.TOP_LEFT),
            ft.Row(
                [
                    ft.Container(left, width=LEFT_WIDTH, height=BAR_BUTTON_HEIGHT),
                    ft.Container(primary, expand=True, height=BAR_BUTTON_HEIGHT),
                ],
                spacing=8,
            ),
        ],
        spacing=6,
    )
    return ft.Container(
        ft.Row(
            [ft.Container(body, width=READABLE_WIDTH, expand=True, expand_loose=True)],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
        padding=ft.Padding.only(left=12, right=12, top=8, bottom=10),
    )
