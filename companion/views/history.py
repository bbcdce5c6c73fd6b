"""History screen (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft


@ft.component
def HistoryView() -> ft.View:
    return ft.View(route="/history", appbar=ft.AppBar(title=ft.Text("History")), controls=[])


@ft.component
def GameDetailView() -> ft.View:
    return ft.View(route="/history", appbar=ft.AppBar(title=ft.Text("Game")), controls=[])
