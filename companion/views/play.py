"""Game screen (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft


@ft.component
def PlayView() -> ft.View:
    return ft.View(route="/play", appbar=ft.AppBar(title=ft.Text("Game")), controls=[])
