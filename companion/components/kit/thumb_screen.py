"""The one-thumb table layout: a still entry under a scrolling board, the bar at the bottom.

::

    ┌──────────────────────────────┐
    │ app bar: scoreboard (2 lines)│  the play frame's
    │ head: (optional)             │  fixed
    │ board: sides, sheet, results │  scrolls, takes what is left
    │ entry: acting, mode, strip,  │  fixed (nothing in it moves
    │        the card grid         │   when a card is tapped)
    │ bar: verdict · Undo · action │  pinned to the bottom
    └──────────────────────────────┘

The board takes whatever height is left and scrolls on its own, so what
changes there (a new meld, an opened score sheet) never moves the entry or
the bar, and the entry never has to be scrolled to.  On a desktop the whole
column is at most :data:`TABLE_WIDTH` wide, centred.

The play frame gives a table that uses this layout the whole screen below its
app bar (no page scroll), and shows its collapsed scoreboard in the app bar's
title slot: the table says so, and gives the scoreboard's words, with
:func:`fills_screen`.

A table on the kit, in short (see ``companion/views/umtali_table.py``)::

    @fills_screen(lambda s: (totals_words(s.players, s.totals), turn_words(s)))
    @ft.component
    def MyTable(session: GameSession) -> ft.Control:
        board = use_scoreboard()           # open: show the score sheet on the board
        ...
        return thumb_screen(
            board=[*(sheet if board.open else []), sides],
            entry=[acting_row(...), chosen_strip(...), CompactPicker(..., strip=False)],
            bar=EntryBar(session, verdict, Primary("Add", "add-x", press, enabled=ok)),
        )

``press`` returns what ``session.add`` returned; the bar ticks (or buzzes) the
phone for it.  Keep every tappable control of ``entry`` and ``bar`` the same size
whatever is picked (``tests/browser/layout.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import flet as ft

__all__ = [
    "TABLE_WIDTH",
    "NOTE_SLOT",
    "FrameNotesContext",
    "NoteSlotContext",
    "fills_screen",
    "is_full_screen",
    "scoreline_of",
    "thumb_screen",
]

#: px: the widest a table's column grows on a desktop (a suit of 13 cards fits a row)
TABLE_WIDTH = 720

#: the tables laid out by thumb_screen, and the words of each one's collapsed scoreboard
_FULL_SCREEN: dict[str, Callable[[Any], tuple[str, str]]] = {}
F = TypeVar("F", bound=Callable[..., Any])


def _name(component: Callable[..., Any]) -> str:
    return f"{component.__module__}.{component.__qualname__}"


def fills_screen(scoreline: Callable[[Any], tuple[str, str]]) -> Callable[[F], F]:
    """Mark a table component as laid out by :func:`thumb_screen` (it fills the screen;
    the frame must not scroll it).  ``scoreline(summary)`` gives the two lines of its
    collapsed scoreboard, which the frame shows in its title slot."""

    def mark(component: F) -> F:
        _FULL_SCREEN[_name(component)] = scoreline
        return component

    return mark


def is_full_screen(component: Callable[..., Any]) -> bool:
    """Whether ``component`` fills the screen itself (see :func:`fills_screen`)."""
    return _name(component) in _FULL_SCREEN


def scoreline_of(component: Callable[..., Any]) -> Callable[[Any], tuple[str, str]] | None:
    """The scoreboard words of a table marked with :func:`fills_screen`."""
    return _FULL_SCREEN.get(_name(component))


#: the frame's notes: the controls themselves, or what draws the whole slot given
#: whether it is kept empty (the play frame's: a component that follows the session
#: itself, so a new note redraws the slot and not the table)
Notes = tuple[ft.Control, ...] | Callable[[bool], ft.Control]
_NO_NOTES: Notes = ()
#: what the play frame has to say above a table (another device's news, "you were
#: offline"): on a one-thumb table it goes in a slot of its own at the top of the fixed
#: part (:func:`FrameNotes`), one line tall, so a note never moves what is below it
FrameNotesContext = ft.create_context(_NO_NOTES)
#: whether a one-thumb table keeps its note slot even with nothing to say: at a table
#: of several devices (where notes come and go all game long) it does, so a note that
#: comes or goes moves nothing; a screen alone gets news only from another window of
#: its own, and keeps its height for the board
NoteSlotContext = ft.create_context(False)

#: px: the height of the note slot (one line of words and a Dismiss button)
NOTE_SLOT = 48


@ft.component
def FrameNotes() -> ft.Control:
    """The play frame's note (FrameNotesContext) in a slot of fixed height at the top of
    a one-thumb table: a note appearing, changing or dismissed never moves the head, the
    board, the entry or the bar (the slot is there before it comes, see NoteSlotContext).
    The note itself is one line; it opens its whole words when tapped."""
    notes = ft.use_context(FrameNotesContext)
    reserve = ft.use_context(NoteSlotContext)
    if callable(notes):  # the frame draws the slot (and follows its notes) itself
        return notes(reserve)
    return ft.Container(
        ft.Column(list(notes), spacing=0),
        height=NOTE_SLOT,
        clip_behavior=ft.ClipBehavior.HARD_EDGE,
        visible=bool(notes) or reserve,
    )


def thumb_screen(
    *,
    head: Sequence[ft.Control] = (),
    board: Sequence[ft.Control] = (),
    entry: Sequence[ft.Control] = (),
    bar: ft.Control | None = None,
    board_ident: str = "board",
) -> ft.Control:
    """The frame's note slot and ``head`` (fixed), ``board`` (scrolls, fills what is
    left), ``entry`` (fixed), ``bar`` (pinned at the bottom), in a column that fills
    the screen."""
    column: list[ft.Control] = [FrameNotes(), *head]
    column.append(
        ft.Semantics(
            content=ft.Column(list(board), scroll=ft.ScrollMode.AUTO, spacing=8, expand=True),
            identifier=board_ident,
            container=True,
            expand=True,
        )
    )
    column += entry
    if bar is not None:
        column.append(bar)
    return ft.Row(
        [
            ft.Container(
                ft.Column(column, spacing=4, expand=True),
                width=TABLE_WIDTH,
                expand=True,
                expand_loose=True,  # up to TABLE_WIDTH, the whole width of a phone
            )
        ],
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        expand=True,
    )
