"""Home: the three games, one tap from their rules."""

from __future__ import annotations

import flet as ft

from companion import rulebook
from companion.services import use_ui
from companion.ui import go, icon_button


def _game_card(game: rulebook.GameInfo) -> ft.Control:
    return ft.Semantics(
        identifier=f"game-{game.id}",
        container=True,
        content=ft.Card(
            content=ft.Container(
                padding=16,
                content=ft.Column(
                    [
                        ft.Row(
                            [
                                ft.Text(game.title, size=22, weight=ft.FontWeight.BOLD),
                                ft.Text(f"{game.players} players", size=14, italic=True),
                            ],
                            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                            vertical_alignment=ft.CrossAxisAlignment.CENTER,
                        ),
                        ft.Text(game.summary, size=15),
                        ft.Row(
                            [
                                ft.OutlinedButton(
                                    f"{game.title} rules",
                                    icon=ft.Icons.MENU_BOOK,
                                    on_click=lambda _, g=game.id: go(f"/rules/{g}"),
                                ),
                            ],
                            wrap=True,
                        ),
                    ],
                    spacing=8,
                ),
            ),
        ),
    )


@ft.component
def HomeView() -> ft.View:
    ui = use_ui()

    def toggle_theme(_: ft.Event[ft.IconButton]) -> None:
        page = ft.context.page
        currently_dark = (
            ui.dark if ui.dark is not None else page.platform_brightness == ft.Brightness.DARK
        )
        ui.dark = not currently_dark

    dark_now = bool(ui.dark)
    return ft.View(
        route="/",
        appbar=ft.AppBar(
            title=ft.Text("Rummy Companion"),
            actions=[
                icon_button(
                    ft.Icons.LIGHT_MODE if dark_now else ft.Icons.DARK_MODE,
                    "Light theme" if dark_now else "Dark theme",
                    toggle_theme,
                    "theme-toggle",
                ),
                ft.TextButton("Rules", icon=ft.Icons.MENU_BOOK, on_click=lambda _: go("/rules")),
            ],
        ),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=[
            ft.Text(
                "Keep score, check melds and settle chips while you play with real cards.",
                size=15,
            ),
            *[_game_card(g) for g in rulebook.games()],
        ],
    )
