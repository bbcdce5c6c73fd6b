"""The Flet app: routes, theme, and the services every screen can reach.

Screens are ``@ft.component`` functions in ``companion/views``; each returns an
``ft.View``.  The Router keeps the browser URL and the system back button in
step with the screen shown.

At a table (:mod:`companion.access`) the app is behind a gate: a browser
session sees the PIN screen until it joins (PIN, stored device token or the
host link), and host-only addresses (settings, the table screen) show a
phone a refusal instead of the screen -- the screen's code never runs for it,
and the history it would call refuses a phone anyway.  Each browser session
also hears when it reconnects, so games on screen catch up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

import flet as ft

from companion.access import Capability, Table
from companion.config import AppConfig
from companion.hub import HistoryListing, TableHub
from companion.preferences import saved_theme
from companion.preload import preload_in_background
from companion.services import Services, ServicesContext
from companion.storage import StorageError, open_repository
from companion.views.home import HomeView
from companion.views.join import ClientTokens, JoinView, TokenStore, arrive
from companion.views.not_found import NotFoundView

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


#: the screens a first start does not show, imported the first time one is opened
#: (their modules, and what they import -- the QR code, the referees' screens -- cost
#: a good part of the server's start-up CPU): route component -> (view module, name)
LATER = {
    "NewGameView": "new_game",
    "PlayView": "play",
    "CheckerView": "checker",
    "HistoryView": "history",
    "GameDetailView": "history",
    "SettingsView": "settings",
    "TableView": "table",
    "RulesView": "rules",
    "RulesGameView": "rules",
    "RuleSectionView": "rules",
}


def later(name: str) -> Callable[[], ft.View]:
    """The route component ``name`` of :data:`LATER`, imported when the route is first shown.

    The Router calls a route's component with no arguments; this calls the real
    one, so the screen's node (and its state) is the real component's own."""
    module = f"companion.views.{LATER[name]}"

    def screen() -> ft.View:
        view: Callable[[], ft.View] = getattr(importlib.import_module(module), name)
        return view()

    screen.__name__ = screen.__qualname__ = name
    return screen


@ft.component
def HostOnlySettings() -> ft.View:
    from companion.views.table import host_only_view

    return host_only_view("/settings", "Settings", Capability.SETTINGS)


def routes(services: Services | None = None) -> list[ft.Route]:
    """Every screen.  Children stack on their parent, so Back returns to it.

    A device that may not change settings gets a refusal at ``/settings``.
    """
    may_configure = services is None or services.can(Capability.SETTINGS)
    settings = later("SettingsView") if may_configure else HostOnlySettings
    return [
        ft.Route(
            path="/",
            component=HomeView,
            children=[
                ft.Route(path="new/:game", component=later("NewGameView")),
                ft.Route(path="play/:gid", component=later("PlayView")),
                ft.Route(path="check", component=later("CheckerView")),
                ft.Route(
                    path="history",
                    component=later("HistoryView"),
                    children=[ft.Route(path=":gid", component=later("GameDetailView"))],
                ),
                ft.Route(path="settings", component=settings),
                ft.Route(path="table", component=later("TableView")),
                ft.Route(
                    path="rules",
                    component=later("RulesView"),
                    children=[
                        ft.Route(
                            path=":game",
                            component=later("RulesGameView"),
                            children=[ft.Route(path=":rule", component=later("RuleSectionView"))],
                        ),
                    ],
                ),
            ],
        ),
    ]


@ft.component
def App(services: Services, tokens: TokenStore | None = None) -> ft.Control:
    page = ft.context.page
    ui, _ = ft.use_state(services.ui)  # re-render (and re-theme) when the UI state changes
    gate, _ = ft.use_state(services.gate)  # ... and when this device joins or is dropped
    store = ft.use_memo(lambda: tokens or ClientTokens(), [])
    dark = ui.dark
    page.theme_mode = (
        ft.ThemeMode.SYSTEM if dark is None else (ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT)
    )

    async def come_in() -> None:
        route = await arrive(services, store, page.route)
        if route is not None:
            page.navigate(route)

    ft.use_effect(come_in if services.table is not None else (lambda: None), [])
    if gate.state != "in":
        return JoinView(services, store)
    return ServicesContext(
        services,
        lambda: ft.Router(routes(services), not_found=NotFoundView, manage_views=True),
    )


def open_hub(config: AppConfig, *, deferred: bool = False) -> TableHub:
    """The history of ``config`` opened with its hub of live games and its listing.

    ``deferred``: history-list lines are saved on the listing's own worker thread
    (the app serving devices), not on the tap's path; :meth:`TableHub.close` saves
    those still waiting.  Raises :class:`StorageError` if the history cannot be opened.
    """
    repo = open_repository(config.data_dir)
    return TableHub(repo, listing=HistoryListing(deferred=deferred))


def build_main(
    config: AppConfig,
    hub: TableHub | None = None,
    *,
    table: Table | None = None,
    join_urls: Sequence[str] = (),
    tokens: Callable[[], TokenStore] | None = None,
    deferred: bool = False,
) -> Callable[[ft.Page], None]:
    """The per-browser-session entry point Flet calls with each new page.

    The history is opened once, here, with its hub of live games (or ``hub`` is
    given: a server that keeps the history open itself, the phone build, tests),
    and that one hub goes to every session's services -- the host's and each
    phone's alike -- so every device showing a game shares its live game.  A
    history that must not be opened (newer or unknown format, unusable folder)
    gets a screen saying what to do instead; pokerkit loads in the background
    once the first screen is built (:mod:`companion.preload`).  With a
    ``table``, every session starts at the gate (see the module docstring).
    ``tokens`` replaces the client storage of device tokens (tests).  ``deferred``:
    the hub opened here saves history-list lines off the tap's path (see
    :func:`open_hub`).
    """
    if hub is None:
        try:
            hub = open_hub(config, deferred=deferred)
        except StorageError as exc:
            from companion.views.cannot_open import cannot_open

            return cannot_open(config.data_dir, exc, theme())
    shared = hub

    def main(page: ft.Page) -> None:
        page.title = "Rummy Companion"
        page.fonts = FONTS
        page.theme = theme()
        page.dark_theme = theme()
        page.theme_mode = ft.ThemeMode.SYSTEM
        if table is None:
            services = Services(config=config, hub=shared)
        else:
            services = Services.at_table(config, shared, table, tuple(join_urls))
            services.client = page.client_ip or ""
        services.watch(page)
        services.ui.dark = saved_theme(config.data_dir)
        page.on_disconnect = lambda _: services.went_offline()
        page.on_connect = lambda _: services.came_back()
        page.on_app_lifecycle_state_change = lambda _: (
            services.came_into_view() if page.app_visible else None
        )
        page.render_views(App, services, tokens() if tokens is not None else None)
        preload_in_background()  # after the first screen: it competes for the CPU

    return main
