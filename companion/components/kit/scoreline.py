"""The collapsed scoreboard: the totals and whose turn it is, in the app bar; tap to expand.

"Ann 12 · Bob 7" over "Hand 2 of 4 · Bob to play" -- two short lines in the
play frame's title slot, so a table loses no height to it.  A tap opens the
full board (the table's score sheet, and its rare actions) at the top of the
table's scrolling part; a second tap folds it.  The entry below never moves
(see :mod:`companion.components.kit.thumb_screen`).

* The words come from the typed summary: each table gives a function
  ``summary -> (totals line, turn line)`` when it registers with
  :func:`~companion.components.kit.thumb_screen.fills_screen`; :func:`totals_words`
  and :func:`turn_words` make the usual ones.
* Open or folded is a :class:`Scoreboard` the frame provides
  (:data:`ScoreboardContext`) and the table reads (:func:`use_scoreboard`); a
  table drawn alone (a test) gets one of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import flet as ft

from rulesets.protocol import Summary

__all__ = [
    "Scoreboard",
    "ScoreboardContext",
    "scoreline_label",
    "scoreline_title",
    "totals_words",
    "turn_words",
    "use_scoreboard",
]


@ft.observable
@dataclass
class Scoreboard:
    """Whether the full board (score sheet) is open under the collapsed line."""

    open: bool = False

    def toggle(self) -> None:
        self.open = not self.open


_NO_BOARD: Scoreboard | None = None
ScoreboardContext = ft.create_context(_NO_BOARD)


def _own() -> Scoreboard:
    return Scoreboard()


def use_scoreboard() -> Scoreboard:
    """The frame's scoreboard (or one of the component's own), subscribed to."""
    shared = ft.use_context(ScoreboardContext)
    own = ft.use_memo(_own, [])
    board = shared if shared is not None else own
    ft.use_state(board)  # re-render when it opens or folds
    return board


def totals_words(players: Sequence[str], totals: Mapping[str, int]) -> str:
    """ "Ann 12 · Bob 7" (every player, in seat order, names as typed).

    >>> totals_words(("Ann", "Bob"), {"Ann": 12, "Bob": -3})
    'Ann 12 · Bob -3'
    """
    return " · ".join(f"{p} {totals.get(p, 0)}" for p in players)


def turn_words(summary: Summary) -> str:
    """ "Hand 2 · Bob to play" from the fields every summary has (a game may say more).

    >>> from rulesets.protocol import Summary, Units
    >>> s = Summary(game="x", players=("Ann", "Bob"), phase="play", finished=False,
    ...             totals={}, units=Units.POINTS, higher_is_better=True, hand=2, turn="Bob")
    >>> turn_words(s)
    'Hand 2 · Bob to play'
    """
    if summary.finished:
        return "Game over"
    parts = [
        f"{summary.HAND_WORD} {summary.hand}" if summary.hand else "",
        f"{summary.turn} to play" if summary.turn else "",
    ]
    return " · ".join(p for p in parts if p)


def scoreline_label(lines: tuple[str, str], expanded: bool) -> str:
    """What a screen reader says for the line (and what tests read)."""
    said = [w.rstrip(".") for w in lines if w]  # a line that ends a sentence keeps one stop
    return ". ".join([*said, f"{'Hide' if expanded else 'Show'} the score sheet"])


def top_size(top: str) -> int:
    """The totals line's font size: smaller for a longer table, so 4-8 players' totals
    still fit a phone's app bar (a tap shows the whole sheet either way).

    >>> top_size("Ann 12 · Bob 7"), top_size("Ann 0 · Bob 0 · Cy 0 · Dee 0"), top_size("x" * 44)
    (15, 13, 12)
    """
    return 15 if len(top) <= 24 else 13 if len(top) <= 36 else 12


def scoreline_title(
    lines: tuple[str, str], board: Scoreboard, *, ident: str = "scoreline"
) -> ft.Control:
    """The two-line scoreboard for the app bar's title; a tap opens or folds the board.

    Memoized: drawn again only when its words change or the board opens or folds (an
    entry that moves no total and not the turn leaves it as it was on every device)."""
    return ScorelineTitle(lines, board.open, board.toggle, ident, key=ident)


@ft.component
def _scoreline(
    lines: tuple[str, str], expanded: bool, toggle: Callable[[], None], ident: str
) -> ft.Control:
    top, bottom = lines
    # the tap joins the labelled node; only the words inside are hidden (read once)
    line = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Row(
                [
                    ft.Column(
                        [
                            ft.Text(
                                top,
                                size=top_size(top),
                                weight=ft.FontWeight.BOLD,
                                max_lines=1,
                                overflow=ft.TextOverflow.ELLIPSIS,
                            ),
                            ft.Text(
                                bottom, size=12, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS
                            ),
                        ],
                        spacing=0,
                        tight=True,
                        expand=True,
                        alignment=ft.MainAxisAlignment.CENTER,
                    ),
                    ft.Icon(ft.Icons.EXPAND_LESS if expanded else ft.Icons.EXPAND_MORE, size=20),
                ],
                spacing=2,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
        height=48,
        padding=ft.Padding.symmetric(horizontal=6),
        border_radius=8,
        on_click=lambda _: toggle(),
        ink=True,
    )
    return ft.Semantics(
        content=line,
        label=scoreline_label(lines, expanded),
        identifier=ident,
        key=ident,
        button=True,
        expanded=expanded,
        container=True,
    )


#: the scoreline (``toggle`` is the board's bound method: equal from render to render)
ScorelineTitle: Callable[..., ft.Control] = ft.memo(_scoreline)  # type: ignore[no-untyped-call]
