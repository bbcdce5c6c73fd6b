"""Home: continue (or abandon) a game in progress, start one of the three games, or
check a meld, look up a rule, look back at the history.

The games in progress come first, newest played first, each with its players, how far
it has got and when it was started; at most :data:`SHOWN_IN_PROGRESS` of them, the rest
are one tap away in the history ("All games").  Abandoning one moves it to the trash,
with Undo in the snackbar.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import flet as ft

from companion import rulebook
from companion.access import Capability
from companion.components.kit.common import readable, tag
from companion.components.kit.ui import go, icon_button, labelled
from companion.components.problems import open_problems, problems_banner
from companion.routes import with_back
from companion.services import Services, use_history, use_services, use_ui
from companion.storage import GameListItem, GameRepository, StorageError, StoredGame
from rulesets import RulesetError, load_ruleset

#: how many games in progress home shows (the history has them all)
SHOWN_IN_PROGRESS = 3


def when(iso: str, now: datetime | None = None) -> str:
    """A start time as people say it: "today 18:40", "yesterday 09:05", "Sat 28 Nov 18:40".

    >>> now = datetime(2026, 11, 30, 12, 0).astimezone()
    >>> when(now.replace(hour=9, minute=5).isoformat(), now)
    'today 09:05'
    >>> when((now - timedelta(days=2)).isoformat(), now)
    'Sat 28 Nov 12:00'
    """
    try:
        at = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso[:16]
    today = (now or datetime.now().astimezone()).date()
    clock = at.strftime("%H:%M")
    if at.date() == today:
        return f"today {clock}"
    if at.date() == today - timedelta(days=1):
        return f"yesterday {clock}"
    day = at.strftime("%a %d %b").replace(" 0", " ")
    return f"{day} {clock}" if at.year == today.year else f"{day} {at.year} {clock}"


def progress(item: GameListItem, stored: StoredGame | None = None) -> str:
    """How far a game in progress has got: "Hand 3", "Round 2".

    The number is that of the hand being played: the hands finished, plus one.  A
    Rummoli round is in the summary's hands from its deal on, marked unfinished
    until it is settled, so it is not counted twice ("Round 3" during round 2).
    """
    try:
        word = load_ruleset(item.game).hand_word
    except RulesetError:
        word = "Hand"
    done = item.hands
    hands = (stored.summary or {}).get("hands") if stored is not None else None
    if isinstance(hands, list):
        done = sum(1 for h in hands if not (isinstance(h, dict) and h.get("finished") is False))
    return f"{word} {done + 1}"


def _title(game: str) -> str:
    try:
        return load_ruleset(game).title
    except RulesetError:
        return game.title()


def _scores(item: GameListItem) -> str:
    """ "Ann 12 · Bob 7" -- or just the names before anything is scored."""
    if item.totals:
        return " · ".join(f"{p} {item.totals.get(p, 0)}" for p in item.players)
    return ", ".join(item.players)


def _abandon(services: Services, item: GameListItem) -> None:
    page = ft.context.page
    title = _title(item.game)
    try:
        services.repo.delete_game(item.id)
    except StorageError as exc:
        page.show_dialog(ft.SnackBar(ft.Text(f"Not abandoned: {exc}")))
        return
    services.history_changed()

    def undo(_: object) -> None:
        try:
            services.repo.restore_game(item.id)
        except StorageError as exc:
            page.show_dialog(ft.SnackBar(ft.Text(f"Could not bring it back: {exc}")))
            return
        services.history_changed()

    page.show_dialog(
        ft.SnackBar(
            ft.Text(f"{title} game of {', '.join(item.players)} abandoned."),
            action=ft.SnackBarAction("Undo", on_click=undo),
            duration=ft.Duration(seconds=10),
            show_close_icon=True,
        )
    )


def _in_progress_tile(
    services: Services, item: GameListItem, stored: StoredGame | None = None
) -> ft.Control:
    title = _title(item.game)
    where = progress(item, stored)
    started = when(item.created)
    who = ", ".join(item.players)
    texts = ft.Column(
        [
            ft.Text(f"{title} · {where}", size=16, weight=ft.FontWeight.BOLD),
            ft.Text(_scores(item), size=15, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
            ft.Text(f"Started {started}", size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ],
        spacing=2,
        tight=True,
    )
    body = ft.Container(
        # the texts are read once, in the tile's label; the tap stays on the tile
        content=ft.Semantics(content=texts, exclude_semantics=True),
        padding=ft.Padding.symmetric(horizontal=12, vertical=10),
        on_click=lambda _, gid=item.id: go(f"/play/{gid}"),
        ink=True,
        border_radius=12,
    )
    return ft.Container(
        content=ft.Row(
            [
                ft.MergeSemantics(  # one node: the label and the tile's tap
                    content=labelled(
                        body,
                        f"Continue {title}: {who}. {where}, started {started}",
                        f"continue-{item.id}",
                        button=True,
                    ),
                    expand=True,
                ),
                # the destructive action sits apart, at the far end, and can be undone
                *(
                    [
                        icon_button(
                            ft.Icons.DELETE_OUTLINE,
                            f"Abandon the {title} game of {who}",
                            lambda _, it=item: _abandon(services, it),
                            f"abandon-{item.id}",
                        )
                    ]
                    if services.can(Capability.DELETE)  # the host's (a phone is refused anyway)
                    else []
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=4,
        ),
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=12,
    )


def _damaged_tile(item: GameListItem) -> ft.Control:
    """A game in progress whose file could not be read: marked, and where to look."""
    title = _title(item.game)
    who = ", ".join(item.players)
    label = f"{title} with {who} could not be read: see the problems in Settings"
    return labelled(
        ft.ListTile(
            leading=ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR),
            title=ft.Text(f"{title}: could not be read"),
            subtitle=ft.Text(f"{who} — see Settings › Problems", max_lines=2),
            on_click=lambda _: go("/settings"),
        ),
        label,
        f"damaged-{item.id}",
        button=True,
    )


def _opened(repo: GameRepository, item: GameListItem) -> StoredGame | None:
    """Open the game's file now, so damage shows on Home at once, not when it is tapped
    (None: it could not be read)."""
    try:
        return repo.get_game(item.id)
    except StorageError:
        return None


def _in_progress(services: Services, games: list[GameListItem]) -> list[ft.Control]:
    if not games:
        return [
            ft.Text(
                "Keep score, check melds and settle chips while you play with real cards.",
                size=15,
            )
        ]
    shown = games[:SHOWN_IN_PROGRESS]
    more = len(games) - len(shown)
    controls: list[ft.Control] = [
        ft.Text("Games in progress", size=16, weight=ft.FontWeight.BOLD),
        *(
            _in_progress_tile(services, g, stored) if stored is not None else _damaged_tile(g)
            for g, stored in ((g, _opened(services.repo, g)) for g in shown)
        ),
    ]
    controls.append(
        tag(
            ft.TextButton(
                f"All games ({more} more in progress)" if more else "All games",
                icon=ft.Icons.HISTORY,
                on_click=lambda _: go("/history"),
                height=44,
            ),
            "all-games",
        )
    )
    return controls


def _game_buttons(game: rulebook.GameInfo) -> ft.Control:
    """Short words on the buttons (the card names the game); full names for screen readers."""
    new = ft.FilledButton(
        ft.Text("New game", semantics_label=f"New {game.title} game"),
        icon=ft.Icons.PLAY_ARROW,
        on_click=lambda _, g=game.id: go(f"/new/{g}"),
        height=44,
    )
    rules = ft.OutlinedButton(
        ft.Text("Rules", semantics_label=f"{game.title} rules"),
        icon=ft.Icons.MENU_BOOK,
        on_click=lambda _, g=game.id: go(with_back(f"/rules/{g}", "/")),
        height=44,
    )
    return ft.Row([tag(new, f"new-{game.id}"), tag(rules, f"rules-of-{game.id}")], wrap=True)


def _game_card(game: rulebook.GameInfo) -> ft.Control:
    heading = ft.Row(
        [
            ft.Text(game.title, size=22, weight=ft.FontWeight.BOLD),
            ft.Text(f"{game.players} players", size=14, italic=True),
        ],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    body = ft.Column([heading, ft.Text(game.summary, size=15), _game_buttons(game)], spacing=8)
    return ft.Semantics(
        identifier=f"game-{game.id}",
        container=True,
        content=ft.Card(content=ft.Container(padding=16, content=body)),
    )


def _more_row(may_configure: bool = True) -> ft.Control:
    return ft.Row(
        [
            ft.OutlinedButton(
                "Check a meld", icon=ft.Icons.FACT_CHECK, on_click=lambda _: go("/check"), height=44
            ),
            ft.OutlinedButton(
                "History", icon=ft.Icons.HISTORY, on_click=lambda _: go("/history"), height=44
            ),
            *(
                [
                    ft.OutlinedButton(
                        "Settings",
                        icon=ft.Icons.SETTINGS,
                        on_click=lambda _: go("/settings"),
                        height=44,
                    )
                ]
                if may_configure  # host-only: not drawn on a phone
                else []
            ),
        ],
        wrap=True,
        spacing=8,
        run_spacing=8,
    )


def _hosting(services: Services) -> list[ft.Control]:
    """At a table, the host's way to the table screen (PIN and join code)."""
    if services.table is None or not services.can(Capability.RUN_TABLE):
        return []
    return [
        icon_button(ft.Icons.QR_CODE, "Table: PIN and join code", lambda _: go("/table"), "table")
    ]


@ft.component
def HomeView() -> ft.View:
    services = use_services()
    ui = use_ui()
    _ = use_history()  # re-read the list when any device changes the history
    # Under a game Home stays in the view stack (below /play/...): every entry that moves
    # a game's line in the history would read and draw this list again on every phone
    # at the table, for a screen nobody sees.  Hidden, it keeps the view it last drew
    # (Flet skips a retained control without comparing it); on top again, it reads anew.
    kept: ft.MutableRef[ft.View | None] = ft.use_ref(None)
    hidden = ft.use_route_location() != ft.use_view_path()
    if hidden and isinstance(kept.current, ft.View):
        return kept.current
    listed = services.repo.list_games(limit=100)
    in_progress = sorted(
        (g for g in listed if g.status == "in_progress"), key=lambda g: g.updated, reverse=True
    )

    def toggle_theme(_: ft.Event[ft.IconButton]) -> None:
        page = ft.context.page
        currently_dark = (
            ui.dark if ui.dark is not None else page.platform_brightness == ft.Brightness.DARK
        )
        ui.dark = not currently_dark

    dark_now = bool(ui.dark)
    controls: list[ft.Control] = [
        *_in_progress(services, in_progress),
        *(_game_card(g) for g in rulebook.games()),
        _more_row(services.can(Capability.SETTINGS)),
    ]
    reports, others = open_problems(services)  # after the games in progress were opened
    if reports or others:
        controls.insert(0, problems_banner(len(reports) + len(others)))
    view = ft.View(
        route="/",
        appbar=ft.AppBar(
            title=ft.Text("Rummy Companion"),
            actions=[
                *_hosting(services),
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
        controls=[readable(controls, spacing=10)],
    )
    kept.current = view
    return view
