"""New game screen (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft


@ft.component
def NewGameView() -> ft.View:
    return ft.View(route="/new", appbar=ft.AppBar(title=ft.Text("New game")), controls=[])
