"""Play: one game at the table, route ``/play/<game id>``.

The frame every game shares: title, undo/redo, the referee's last refusal with
its rule link, and a link to the rules; the body is the game's own table
component.  The session is reopened from history on every visit, so a reload
of the browser tab or a restart of the app resumes exactly where it was.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.scoreline import ScoreboardContext, scoreline_title, use_scoreboard
from companion.components.thumb_screen import is_full_screen, scoreline_of
from companion.routes import rule_route
from companion.services import use_services
from companion.session import GameSession
from companion.storage import GameRepository, StorageError
from companion.ui import go, icon_button, labelled
from companion.views.rummoli_table import RummoliTable
from companion.views.rummy_table import RummyTable
from companion.views.umtali_table import UmtaliTable

TABLES = {"umtali": UmtaliTable, "rummy": RummyTable, "rummoli": RummoliTable}


def refusal_banner(session: GameSession) -> ft.Control | None:
    """The referee's last "no", with a link to the rule it cites."""
    err = session.error
    if err is None:
        return None
    parts: list[ft.Control] = [
        ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
        ft.Text(err.message, color=ft.Colors.ERROR, expand=True, selectable=True),
    ]
    if err.rule:
        parts.append(
            ft.TextButton(f"Rule {err.rule}", on_click=lambda _, r=err.rule: go(rule_route(r)))
        )
    parts.append(icon_button(ft.Icons.CLOSE, "Dismiss", lambda _: session.clear_error()))
    return labelled(
        ft.Container(
            # no wrap: an expanding Text inside a wrapping Row grows without bound
            content=ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            border_radius=8,
            padding=8,
        ),
        f"Refused: {err.message}" + (f" (rule {err.rule})" if err.rule else ""),
        "refusal",
    )


def _open(repo: GameRepository, gid: str) -> GameSession | str:
    """The game's session, or why it cannot be opened (in plain words)."""
    try:
        return GameSession.open(repo, gid)
    except StorageError as exc:
        return f"This game cannot be opened: {exc}"


@ft.component
def PlayView() -> ft.View:
    services = use_services()
    gid = ft.use_route_params().get("gid", "")
    opened = ft.use_memo(lambda: _open(services.repo, gid), [gid])
    if isinstance(opened, str):
        return ft.View(
            route=f"/play/{gid}",
            appbar=ft.AppBar(title=ft.Text("Game")),
            controls=[
                ft.Text(opened, selectable=True),
                ft.Button("Home", icon=ft.Icons.HOME, on_click=lambda _: go("/")),
            ],
        )
    session = opened
    ft.use_state(session)  # subscribe: re-render whenever the session changes
    scoreboard = use_scoreboard()  # the collapsed scoreboard, open or folded

    def undo(_: Any) -> None:
        session.undo()
        services.history_changed()

    def redo(_: Any) -> None:
        session.redo()
        services.history_changed()

    stored = session.stored
    table = TABLES[stored.game]
    title: ft.Control = ft.Text(
        f"{stored.game.title()}: {' · '.join(stored.players)}",
        size=16,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    # a one-thumb table fills the screen itself: its board scrolls, its entry and its
    # bar (verdict, refusal, Undo, action) stay put -- the frame must not scroll it;
    # its collapsed scoreboard takes the title slot (a tap opens the score sheet)
    full = is_full_screen(table)
    words = scoreline_of(table)
    if words is not None:
        title = scoreline_title(words(session.summary), scoreboard)
    body: list[ft.BaseControl] = []
    banner = None if full else refusal_banner(session)
    if banner is not None:
        body.append(banner)
    body.append(ScoreboardContext(scoreboard, lambda: table(session)))
    actions: list[ft.Control] = []
    if not full:  # else Undo is in the table's bar, within reach of the thumb
        actions.append(
            icon_button(ft.Icons.UNDO, "Undo", undo, "undo", disabled=not session.can_undo)
        )
    actions += [
        icon_button(ft.Icons.REDO, "Redo", redo, "redo", disabled=not session.can_redo),
        icon_button(
            ft.Icons.FACT_CHECK, "Check a meld", lambda _: go(f"/check?gid={gid}"), "check"
        ),
        icon_button(
            ft.Icons.MENU_BOOK, "Rules", lambda _: go(f"/rules/{stored.game}"), "game-rules"
        ),
    ]
    return ft.View(
        route=f"/play/{gid}",
        appbar=ft.AppBar(title=title, actions=actions, title_spacing=0 if full else None),
        scroll=None if full else ft.ScrollMode.AUTO,
        padding=ft.Padding(12, 4, 12, 6) if full else 12,
        controls=body,
    )
