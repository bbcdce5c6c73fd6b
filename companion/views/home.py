"""Home: continue a game, start one of the three games, or check, look up, look back."""

from __future__ import annotations

import flet as ft

from companion import rulebook
from companion.access import Capability
from companion.services import use_services, use_ui
from companion.storage import GameListItem
from companion.ui import go, icon_button, labelled


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
                                ft.FilledButton(
                                    f"New {game.title} game",
                                    icon=ft.Icons.PLAY_ARROW,
                                    on_click=lambda _, g=game.id: go(f"/new/{g}"),
                                ),
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


def _continue_tile(item: GameListItem) -> ft.Control:
    title = item.game.title()
    who = ", ".join(item.players)
    totals = ", ".join(f"{p} {v}" for p, v in item.totals.items())
    label = f"Continue {title}: {who}"
    return labelled(
        ft.ListTile(
            leading=ft.Icon(ft.Icons.PLAY_CIRCLE),
            title=ft.Text(f"Continue {title}"),
            subtitle=ft.Text(f"{who}" + (f" — {totals}" if totals else ""), max_lines=2),
            on_click=lambda _, gid=item.id: go(f"/play/{gid}"),
        ),
        label,
        f"continue-{item.id}",
        button=True,
    )


@ft.component
def HomeView() -> ft.View:
    services = use_services()
    ui = use_ui()
    _ = ui.history_revision  # re-read the list when history changes
    in_progress = [g for g in services.repo.list_games(limit=20) if g.status == "in_progress"][:5]

    def toggle_theme(_: ft.Event[ft.IconButton]) -> None:
        page = ft.context.page
        currently_dark = (
            ui.dark if ui.dark is not None else page.platform_brightness == ft.Brightness.DARK
        )
        ui.dark = not currently_dark

    dark_now = bool(ui.dark)
    table_button: list[ft.Control] = []
    if services.table is not None and services.can(Capability.RUN_TABLE):
        table_button.append(
            icon_button(
                ft.Icons.QR_CODE, "Table: PIN and join code", lambda _: go("/table"), "table"
            )
        )
    controls: list[ft.BaseControl] = []
    if in_progress:
        controls.append(ft.Text("Games in progress", size=16, weight=ft.FontWeight.BOLD))
        controls.extend(_continue_tile(g) for g in in_progress)
    else:
        controls.append(
            ft.Text(
                "Keep score, check melds and settle chips while you play with real cards.",
                size=15,
            )
        )
    controls.extend(_game_card(g) for g in rulebook.games())
    controls.append(
        ft.Row(
            [
                ft.OutlinedButton(
                    "Check a meld", icon=ft.Icons.FACT_CHECK, on_click=lambda _: go("/check")
                ),
                ft.OutlinedButton(
                    "History", icon=ft.Icons.HISTORY, on_click=lambda _: go("/history")
                ),
                ft.OutlinedButton(
                    "Settings", icon=ft.Icons.SETTINGS, on_click=lambda _: go("/settings")
                ),
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
    )
    for problem in services.repo.problems:
        controls.append(ft.Text(problem, color=ft.Colors.ERROR, selectable=True))
    return ft.View(
        route="/",
        appbar=ft.AppBar(
            title=ft.Text("Rummy Companion"),
            actions=[
                *table_button,
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
        controls=controls,
    )
