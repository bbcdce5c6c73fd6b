from __future__ import annotations

import flet as ft

from companion.components.kit.ui import go


@ft.component
def NotFoundView() -> ft.View:
    return ft.View(
        route="/404",
        appbar=ft.AppBar(title=ft.Text("Not found")),
        controls=[
            ft.Text("There is no such screen."),
            ft.Button("Home", icon=ft.Icons.HOME, on_click=lambda _: go("/")),
        ],
    )
