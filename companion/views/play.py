"""Play: one game at the table, route ``/play/<game id>``.

The frame every game shares: title, undo/redo, the referee's last refusal with
its rule link, what another device just did ("Bob: meld 5♥ 6♥ 7♥"), a note
after this device was offline, "I am …" at a table of several devices, and a
link to the rules; the body is the game's own table component.

Every device showing a game shares one live game (:mod:`companion.hub`); this
screen marks the revision the *device* shows (``session.mark_shown``, once the
browser answered a round trip sent after the redraw), so an entry, undo or redo
made on it is judged against what the person saw -- not against what the server
drew last, which a tap already on its way never showed.  Leaving the screen
stops hearing of changes.  A reload of the browser tab or a restart of the app resumes exactly
where it was.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.access import Capability
from companion.components.kit.common import choice, rule_link, rule_words, said
from companion.components.kit.phone import keep_awake
from companion.components.kit.scoreline import (
    Scoreboard,
    ScoreboardContext,
    scoreline_title,
    use_scoreboard,
)
from companion.components.kit.thumb_screen import (
    NOTE_SLOT,
    FrameNotesContext,
    NoteSlotContext,
    is_full_screen,
    scoreline_of,
)
from companion.components.kit.ui import go, icon_button, labelled, tap_target
from companion.services import Services, use_services
from companion.session import GameSession
from companion.storage import StorageError

#: each game's table component: ``companion.views.<game>_table.<Game>Table``
TABLES = {"umtali": "UmtaliTable", "rummy": "RummyTable", "rummoli": "RummoliTable"}


def table_component(game: str) -> Callable[[GameSession], ft.Control]:
    """The table screen of ``game``, imported when a game of it is first opened (a game's
    screen is only loaded when needed, and one that fails to load breaks only itself)."""
    module = importlib.import_module(f"companion.views.{game}_table")
    component: Callable[[GameSession], ft.Control] = getattr(module, TABLES[game])
    return component


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
        parts.append(rule_link(err.rule, "refusal-rule"))  # its title, opened over the table
    parts.append(icon_button(ft.Icons.CLOSE, "Dismiss", lambda _: session.clear_error()))
    return labelled(
        ft.Container(
            # no wrap: an expanding Text inside a wrapping Row grows without bound
            content=ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            border_radius=8,
            padding=8,
        ),
        f"Refused: {err.message}" + (f" ({rule_words(err.rule)})" if err.rule else ""),
        "refusal",
    )


def _whole_note(words: str) -> None:
    """A note's whole words in a sheet over the screen (its line may be cut short)."""
    page = ft.context.page
    page.show_dialog(
        ft.BottomSheet(
            content=ft.Container(
                ft.Column(
                    [
                        said(ft.Text(words), words, "note-sheet-words"),
                        ft.Row(
                            [
                                ft.Semantics(
                                    content=ft.FilledButton(
                                        "Close", on_click=lambda _: page.pop_dialog(), height=44
                                    ),
                                    identifier="note-sheet-close",
                                )
                            ],
                            alignment=ft.MainAxisAlignment.END,
                        ),
                    ],
                    tight=True,
                    spacing=8,
                ),
                padding=16,
            ),
            show_drag_handle=True,
            size_constraints=ft.BoxConstraints(max_width=640),
        )
    )


def _note_line(session: GameSession, offline: str, notice: str) -> list[ft.Control]:
    """The one note a one-thumb table shows in its slot, one line tall: "you were
    offline" (which says what others did meanwhile), else what another device just
    did.  A tap on it shows the whole words; the accessibility label reads them all."""
    if offline:
        words, label, ident, icon = offline, offline, "back-online", ft.Icons.WIFI
    elif notice:
        words, ident, icon = notice, "table-news", ft.Icons.GROUPS
        label = f"Table: {words}"
    else:
        return []
    line = tap_target(
        ft.Container(
            ft.Row(
                [
                    ft.Icon(icon, size=18),
                    ft.Text(
                        words,
                        size=14,
                        italic=ident == "table-news",
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        expand=True,
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            on_click=lambda _: _whole_note(words),
            bgcolor=ft.Colors.TERTIARY_CONTAINER if offline else None,
            border_radius=8,
            padding=ft.Padding.symmetric(horizontal=8),
            height=NOTE_SLOT,
        ),
        label,
        ident,
        expand=True,
    )
    parts: list[ft.Control] = [line]
    if offline:
        parts.append(icon_button(ft.Icons.CLOSE, "Dismiss", lambda _: session.dismiss_offline()))
    return [ft.Row(parts, height=NOTE_SLOT, vertical_alignment=ft.CrossAxisAlignment.CENTER)]


def _news(session: GameSession) -> list[ft.Control]:
    """What another device just did, and what this one missed while offline."""
    out: list[ft.Control] = []
    if session.offline:
        words = session.offline
        out.append(
            said(
                ft.Container(
                    ft.Row(
                        [
                            ft.Icon(ft.Icons.WIFI),
                            ft.Text(words, expand=True),
                            icon_button(
                                ft.Icons.CLOSE, "Dismiss", lambda _: session.dismiss_offline()
                            ),
                        ]
                    ),
                    bgcolor=ft.Colors.TERTIARY_CONTAINER,
                    border_radius=8,
                    padding=8,
                ),
                words,
                "back-online",
            )
        )
    if session.notice:
        words = session.notice
        out.append(
            said(
                ft.Row([ft.Icon(ft.Icons.GROUPS, size=18), ft.Text(words, size=14, italic=True)]),
                f"Table: {words}",
                "table-news",
            )
        )
    return out


def _seat_chips(
    services: Services, session: GameSession, after: Callable[[], Any]
) -> list[ft.Control]:
    mine = session.seat
    table = services.table

    def sit(player: str | None, _: Any = None) -> None:
        refusal = services.set_seat(player)
        if refusal:
            session.refuse(refusal)  # nothing changed: the seat stays with its phone
        after()

    def chip(player: str) -> ft.Control:
        holder = table.seat_holder(player) if table is not None else None
        taken = holder is not None and holder is not services.device
        words = f"{player} (taken)" if taken else player
        label = f"I am {player}: taken on another phone" if taken else f"I am {player}"
        tap = functools.partial(sit, player)
        return choice(words, mine == player, tap, f"seat-{player}", label)

    chips = [chip(p) for p in session.players]
    chips.append(choice("Just watching", mine is None, functools.partial(sit, None), "seat-none"))
    return chips


def _seats(services: Services, session: GameSession) -> ft.Control | None:
    """ "I am …": which player this device belongs to (at a table of several devices)."""
    if not services.device.at_table:
        return None
    chips = _seat_chips(services, session, lambda: None)
    return ft.Row([ft.Text("This device:", size=14), *chips], wrap=True, spacing=6, run_spacing=6)


def _seat_button(services: Services, session: GameSession) -> ft.Control | None:
    """ "I am …" in the app bar, for a table that fills the screen: one tap opens the
    choice in a sheet over the table (a row of chips would take a phone's board)."""
    if not services.device.at_table:
        return None
    mine = session.seat
    label = f"This device: {mine}. Change" if mine else "This device: just watching. Change"

    def open_sheet(_: Any) -> None:
        page = ft.context.page
        chips = _seat_chips(services, session, page.pop_dialog)
        page.show_dialog(
            ft.BottomSheet(
                content=ft.Container(
                    ft.Column(
                        [
                            ft.Text("This device is", size=16, weight=ft.FontWeight.BOLD),
                            ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
                        ],
                        tight=True,
                        spacing=8,
                    ),
                    padding=16,
                ),
                show_drag_handle=True,
                size_constraints=ft.BoxConstraints(max_width=640),
            )
        )

    return icon_button(
        ft.Icons.PERSON if mine else ft.Icons.PERSON_OUTLINE, label, open_sheet, "seat"
    )


@ft.component
def _more_menu(
    session: GameSession, services: Services, can_redo: bool, gid: str, game: str
) -> ft.Control:
    """Redo, the meld checker and the game's rules, in one menu of the app bar."""

    def redo(_: Any) -> None:
        session.redo()
        services.history_changed()

    items = [
        ft.PopupMenuItem(content="Redo", icon=ft.Icons.REDO, on_click=redo, disabled=not can_redo),
        ft.PopupMenuItem(
            content="Check a meld",
            icon=ft.Icons.FACT_CHECK,
            on_click=lambda _: go(f"/check?gid={gid}"),
        ),
        ft.PopupMenuItem(
            content="Rules", icon=ft.Icons.MENU_BOOK, on_click=lambda _: go(f"/rules/{game}")
        ),
    ]
    return ft.Semantics(
        identifier="more",
        content=ft.PopupMenuButton(
            icon=ft.Icon(ft.Icons.MORE_VERT, semantics_label="More: redo, check a meld, rules"),
            items=items,
        ),
    )


#: the menu, drawn again only when Redo turns on or off (``session``: the screen's
#: handle, not the observable session -- a component given that would subscribe to it)
MoreMenu: Callable[..., ft.Control] = ft.memo(_more_menu)  # type: ignore[no-untyped-call]


def use_shown(services: Services, session: GameSession) -> None:
    """Mark the revision this device shows once the browser confirms it drew it.

    The server redraws a screen the moment another device changes the game; the
    browser shows that a little later.  A tap sent in between was made on the
    screen before, and must be judged against that (two people pressing Undo at
    once mean the same last entry).  So the revision counts as shown only after a
    round trip sent behind the redraw comes back (:meth:`Services.round_trip`).
    """
    session.follow_screen()
    revision = session.table_revision

    async def confirmed() -> None:
        if await services.round_trip():
            session.mark_shown(revision)

    ft.use_effect(confirmed, [session, revision])


def _open(services: Services, gid: str) -> GameSession | str:
    """The game's session, or why it cannot be opened (in plain words)."""
    try:
        return services.open_game(gid)
    except StorageError as exc:
        return f"This game cannot be opened: {exc}"


@ft.component
def _live_title(
    session: GameSession, words: Callable[[Any], tuple[str, str]], scoreboard: Scoreboard
) -> ft.Control:
    """The collapsed scoreboard in the title slot: drawn from the session it follows (a
    component given the observable session re-renders when it changes, alone: the
    frame around it is not drawn again), memoized inside (:func:`scoreline_title`)."""
    return scoreline_title(words(session.summary), scoreboard)


@ft.component
def _live_seat(session: GameSession, handle: GameSession, services: Services) -> ft.Control:
    """ "I am …" in the app bar, following the session (whose seat this device holds)."""
    seat = _seat_button(services, handle)
    assert seat is not None  # drawn only at a table (``services.device.at_table``)
    return seat


@ft.component
def _live_menu(
    session: GameSession, handle: GameSession, services: Services, gid: str, game: str
) -> ft.Control:
    """The app bar's menu, following the session (Redo turns on and off)."""
    return MoreMenu(handle, services, session.can_redo, gid, game, key="more")


@ft.component
def _note_slot(offline: str, notice: str, reserve: bool, handle: GameSession) -> ft.Control:
    """The frame's note in its slot of fixed height (see ``thumb_screen.FrameNotes``)."""
    notes = _note_line(handle, offline, notice)
    return ft.Container(
        ft.Column(notes, spacing=0),
        height=NOTE_SLOT,
        clip_behavior=ft.ClipBehavior.HARD_EDGE,
        visible=bool(notes) or reserve,
    )


#: the note slot, drawn again only when its words change
NoteSlot: Callable[..., ft.Control] = ft.memo(_note_slot)  # type: ignore[no-untyped-call]


@ft.component
def _live_notes(session: GameSession, handle: GameSession, reserve: bool) -> ft.Control:
    """The note slot, following the session's notes (another device's news, "you were
    offline"): a change re-renders this, and the slot only if its words changed."""
    return NoteSlot(session.offline, session.notice, reserve, handle, key="note-slot")


@ft.component
def _live_table(
    session: GameSession,
    table: Callable[[GameSession], ft.Control],
    handle: GameSession,
    services: Services,
) -> ft.Control:
    """The game's table, drawn again on every change of the session it follows (the
    table component gets the handle, so it is drawn once per change, by this)."""
    use_shown(services, session)  # a tap is judged against what the device showed
    return table(handle)


#: the frame's live parts, given a key (a component takes one)
LiveTitle: Callable[..., ft.Control] = _live_title
LiveSeat: Callable[..., ft.Control] = _live_seat
LiveMenu: Callable[..., ft.Control] = _live_menu
LiveTable: Callable[..., ft.Control] = _live_table


@ft.component
def PlayView() -> ft.View:
    services = use_services()
    gid = ft.use_route_params().get("gid", "")
    opened = ft.use_memo(lambda: _open(services, gid), [gid])

    def follow() -> Any:
        if isinstance(opened, str):
            return None
        services.opened(opened)
        return opened.close  # leaving the screen stops hearing of changes

    ft.use_effect(follow, [gid])

    def awake() -> Any:
        keep_awake(True)  # the phone stays on while a game is open at the table
        return functools.partial(keep_awake, False)

    ft.use_effect(awake, [gid])
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
    meta = session.meta
    table = table_component(meta.game)
    # a one-thumb table fills the screen itself: its board scrolls, its entry and its
    # bar (verdict, refusal, Undo, action) stay put -- the frame must not scroll it;
    # its collapsed scoreboard takes the title slot (a tap opens the score sheet)
    full = is_full_screen(table)
    # The frame of a one-thumb table is drawn once: the parts that show the session
    # (the title, the seat, the menu, the note, the table) are components given the
    # observable session, each re-rendered alone when it changes -- at a table every
    # device redraws on every entry anyone makes, and the frame around them (the app
    # bar, the table's place) stays as it was.  Another frame follows the session
    # whole (its banner, news and buttons are drawn here).
    ft.use_state(None if full else session)
    handle = ft.use_memo(session.handle, [gid])  # for the table: not observable
    scoreboard = use_scoreboard()  # the collapsed scoreboard, open or folded
    if full:
        return _full_frame(services, session, handle, table, scoreboard, gid)

    def undo(_: Any) -> None:
        session.undo()
        services.history_changed()

    def redo(_: Any) -> None:
        session.redo()
        services.history_changed()

    title = ft.Text(
        f"{meta.game.title()}: {' · '.join(meta.players)}",
        size=16,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    body: list[ft.BaseControl] = []
    seats = _seats(services, session)
    if seats is not None:
        body.append(seats)
    body.extend(_news(session))
    banner = refusal_banner(session)
    if banner is not None:
        body.append(banner)
    body.append(
        ScoreboardContext(scoreboard, lambda: _live_table(session, table, handle, services))
    )
    actions: list[ft.Control] = _table_action(services)
    actions += [
        icon_button(ft.Icons.UNDO, "Undo", undo, "undo", disabled=not session.can_undo),
        icon_button(ft.Icons.REDO, "Redo", redo, "redo", disabled=not session.can_redo),
        icon_button(
            ft.Icons.FACT_CHECK, "Check a meld", lambda _: go(f"/check?gid={gid}"), "check"
        ),
        icon_button(ft.Icons.MENU_BOOK, "Rules", lambda _: go(f"/rules/{meta.game}"), "game-rules"),
    ]
    return ft.View(
        route=f"/play/{gid}",
        appbar=ft.AppBar(title=title, actions=actions),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=body,
    )


def _table_action(services: Services) -> list[ft.Control]:
    """The host's way back to the table's PIN and join code."""
    if services.table is not None and services.can(Capability.RUN_TABLE):
        return [
            icon_button(
                ft.Icons.QR_CODE, "Table: PIN and join code", lambda _: go("/table"), "table"
            )
        ]
    return []


def _full_frame(
    services: Services,
    session: GameSession,
    handle: GameSession,
    table: Callable[[GameSession], ft.Control],
    scoreboard: Scoreboard,
    gid: str,
) -> ft.View:
    """The frame of a one-thumb table: the scoreboard in the title, the seat and the rare
    actions in the app bar, the note slot and the table below it."""
    game = session.meta.game
    words = scoreline_of(table)
    assert words is not None  # a table that fills the screen gives its scoreboard's words
    actions: list[ft.Control] = []
    if services.device.at_table:  # the seat in the app bar
        actions.append(LiveSeat(session, handle, services, key="seat-button"))
    actions += _table_action(services)
    # Undo is in the table's bar, within reach of the thumb; the rare actions fold
    # into one menu, so the collapsed scoreboard has room for a table of 4-8 players
    actions.append(LiveMenu(session, handle, services, gid, game, key="more-menu"))
    reserve = services.table is not None  # several devices: notes come and go
    notes = functools.partial(_live_notes, session, handle)
    body = ScoreboardContext(
        scoreboard,
        lambda: FrameNotesContext(
            notes,
            lambda: NoteSlotContext(
                reserve, lambda: LiveTable(session, table, handle, services, key="table")
            ),
        ),
    )
    return ft.View(
        route=f"/play/{gid}",
        appbar=ft.AppBar(
            title=LiveTitle(session, words, scoreboard, key="title"),
            actions=actions,
            title_spacing=0,
        ),
        scroll=None,
        padding=ft.Padding(12, 4, 12, 6),
        controls=[body],
    )
