"""The Flet app: routes, theme, and the services every screen can reach.

Screens are ``@ft.component`` functions in ``companion/views``; each returns an
``ft.View``.  The Router keeps the browser URL and the system back button in
step with the screen shown.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.config import AppConfig
from companion.preferences import saved_theme
from companion.preload import preload_in_background
from companion.services import Services, ServicesContext
from companion.storage import GameRepository, StorageError, open_repository
from companion.views.cannot_open import cannot_open
from companion.views.checker import CheckerView
from companion.views.history import GameDetailView, HistoryView
from companion.views.home import HomeView
from companion.views.new_game import NewGameView
from companion.views.not_found import NotFoundView
from companion.views.play import PlayView
from companion.views.rules import RuleSectionView, RulesGameView, RulesView
from companion.views.settings import SettingsView

SEED_COLOR = "#2E7D32"  # card-table green
#: The web client's bundled fonts have no ♠♥♦♣: a 5 KB subset of DejaVu Sans
#: (assets/fonts) supplies them, as a fallback for every text style.
SUIT_FONT = "CardSuits"
FONTS = {SUIT_FONT: "fonts/card-suits.ttf"}
_TEXT_STYLES = [
    f"{kind}_{size}"
    for kind in ("display", "headline", "title", "body", "label")
    for size in ("large", "medium", "small")
]


def theme() -> ft.Theme:
    """The app theme: table green, with the suit-symbol font behind every text style."""
    # The colour must be named: a theme text style without one is painted black,
    # even on a dark background.
    style = ft.TextStyle(font_family_fallback=[SUIT_FONT], color=ft.Colors.ON_SURFACE)
    text_theme = ft.TextTheme(**{name: style for name in _TEXT_STYLES})
    return ft.Theme(
        color_scheme_seed=SEED_COLOR,
        text_theme=text_theme,
        primary_text_theme=text_theme,
    )


def routes() -> list[ft.Route]:
    """Every screen.  Children stack on their parent, so Back returns to it."""
    return [
        ft.Route(
            path="/",
            component=HomeView,
            children=[
                ft.Route(path="new/:game", component=NewGameView),
                ft.Route(path="play/:gid", component=PlayView),
                ft.Route(path="check", component=CheckerView),
                ft.Route(
                    path="history",
                    component=HistoryView,
                    children=[ft.Route(path=":gid", component=GameDetailView)],
                ),
                ft.Route(path="settings", component=SettingsView),
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


def build_main(config: AppConfig, repo: GameRepository | None = None) -> Callable[[ft.Page], None]:
    """The per-browser-session entry point Flet calls with each new page.

    The history is opened once, here, and shared by every session.  A history
    that must not be opened (newer or unknown format, unusable folder) gets a
    screen saying what to do instead; pokerkit loads in the background.
    """
    try:
        shared_repo = repo if repo is not None else open_repository(config.data_dir)
    except StorageError as exc:
        return cannot_open(config.data_dir, exc, theme())
    preload_in_background()

    def main(page: ft.Page) -> None:
        page.title = "Rummy Companion"
        page.fonts = FONTS
        page.theme = theme()
        page.dark_theme = theme()
        page.theme_mode = ft.ThemeMode.SYSTEM
        services = Services(config=config, repo=shared_repo)
        services.ui.dark = saved_theme(config.data_dir)
        page.render_views(App, services)

    return main
