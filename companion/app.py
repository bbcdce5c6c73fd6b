"""The Flet app: routes, theme, and the services every screen can reach.

Screens are ``@ft.component`` functions in ``companion/views``; each returns an
``ft.View``.  The Router keeps the browser URL and the system back button in
step with the screen shown.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.config import AppConfig
from companion.services import Services, ServicesContext
from companion.views.home import HomeView
from companion.views.not_found import NotFoundView
from companion.views.rules import RuleSectionView, RulesGameView, RulesView

SEED_COLOR = "#2E7D32"  # card-table green


def routes() -> list[ft.Route]:
    return [
        ft.Route(
            path="/",
            component=HomeView,
            children=[
                ft.Route(
                    path="rules",
                    component=RulesView,
                    children=[
                        ft.Route(
                            path=":game",
                            component=RulesGameView,
                            children=[ft.Route(path=":rule", component=RuleSectionView)],
                        ),
                    ],
                ),
            ],
        ),
    ]


@ft.component
def App(services: Services) -> ft.Control:
    page = ft.context.page
    ui, _ = ft.use_state(services.ui)  # re-render (and re-theme) when the UI state changes
    dark = ui.dark
    page.theme_mode = (
        ft.ThemeMode.SYSTEM if dark is None else (ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT)
    )
    return ServicesContext(
        services,
        lambda: ft.Router(routes(), not_found=NotFoundView, manage_views=True),
    )


def build_main(config: AppConfig) -> Callable[[ft.Page], None]:
    """The per-browser-session entry point Flet calls with each new page."""

    def main(page: ft.Page) -> None:
        page.title = "Rummy Companion"
        page.theme = ft.Theme(color_scheme_seed=SEED_COLOR)
        page.dark_theme = ft.Theme(color_scheme_seed=SEED_COLOR)
        page.theme_mode = ft.ThemeMode.SYSTEM
        services = Services(config=config)
        page.render_views(App, services)

    return main
