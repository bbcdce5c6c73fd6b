"""Settings screen (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft


@ft.component
def SettingsView() -> ft.View:
    return ft.View(route="/settings", appbar=ft.AppBar(title=ft.Text("Settings")), controls=[])
