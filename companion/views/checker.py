"""Check a meld screen (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft


@ft.component
def CheckerView() -> ft.View:
    return ft.View(route="/check", appbar=ft.AppBar(title=ft.Text("Check a meld")), controls=[])
