"""Between rounds: the last round's settlement, then deal the next round or end the game.

"Deal round N" is the button in the bar; "End the game" sits up in the table,
well away from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from companion.components.kit.common import button
from companion.components.kit.entry_bar import Adds
from companion.components.rummoli.parts import (
    Draft,
    Panel,
    Primary,
    entry_bar,
    note_row,
    section,
    summary_of,
)
from companion.components.rummoli.statement import history, settlement
from companion.session import GameSession
from rulesets.rummoli import Deal, End, RummoliHand
from rulesets.rummoli.notes import Note

__all__ = ["IdleUi", "idle_panel"]


@ft.observable
@dataclass
class IdleUi(Draft):
    shown: str | None = None  #: whose statement is open

    def show(self, who: str) -> None:
        """Open ``who``'s statement (a bound method: the same callable at every render,
        so the settlement's memoized tabs are not drawn again for it)."""
        self.shown = who


@ft.component
def _end_game(session: GameSession, note: Note | None, can_end: bool) -> ft.Control:
    return section(
        "Or end the game",
        [
            *note_row(note, "ending"),
            button(
                "End the game",
                lambda _: session.add(End()),
                "end-game",
                icon=ft.Icons.FLAG,
                disabled=not can_end,
            ),
        ],
        "next-round",
    )


#: "Or end the game", drawn again only when its note or whether the game may end changes
#: (``session`` is the table's handle: the same object at every render)
EndGame: Callable[..., ft.Control] = ft.memo(_end_game)  # type: ignore[no-untyped-call]


@ft.component
def _history(hands: tuple[RummoliHand, ...], players: tuple[str, ...]) -> ft.Control:
    return history(hands, players)


#: the earlier rounds, drawn again only when a round is added (or undone): not for a
#: chip put on a stack between rounds, nor for the deal's undo on a screen that keeps it
History: Callable[..., ft.Control] = ft.memo(_history)  # type: ignore[no-untyped-call]


def idle_panel(session: GameSession, draft: IdleUi) -> Panel:
    """The last round's settlement and the end of the game under the table, the
    next deal in the bar."""
    summary = summary_of(session)
    detail = summary.detail
    players = summary.players
    hands = summary.hands
    ui = draft.fresh(len(session.actions))
    board: list[ft.Control] = []
    if hands:
        board.append(settlement(hands[-1], players, summary.totals, shown=ui.shown, show=ui.show))
    board.append(EndGame(session, detail.note("end"), session.can(End()), key="next-round"))
    if len(hands) > 1:
        board.append(History(tuple(hands[:-1]), tuple(players), key="earlier-rounds"))
    number = len(hands) + 1
    dealer = detail.next_dealer or summary.dealer
    deal = session.judge(Deal())
    bar = entry_bar(
        session,
        None if deal.legal else deal,
        Primary(
            f"Deal round {number}: {dealer} deals",
            "deal",
            Adds(session, Deal()),
            enabled=deal.legal,
            icon=ft.Icons.STYLE,
        ),
        hint=detail.note("ante"),
        ident="deal-verdict",
    )
    return Panel(above=note_row(detail.note("short"), "short-of-chips"), bar=bar, below=board)
