"""Between rounds: the last round's settlement, then deal the next round or end the game.

"Deal round N" is the button in the bar; "End the game" sits up in the table,
well away from it.
"""

from __future__ import annotations

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
from rulesets.rummoli import Deal, End

__all__ = ["IdleUi", "idle_panel"]


@ft.observable
@dataclass
class IdleUi(Draft):
    shown: str | None = None  #: whose statement is open

    def show(self, who: str) -> None:
        """Open ``who``'s statement (a bound method: the same callable at every render,
        so the settlement's memoized tabs are not drawn again for it)."""
        self.shown = who


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
    board.append(
        section(
            "Or end the game",
            [
                *note_row(detail.note("end"), "ending"),
                button(
                    "End the game",
                    lambda _: session.add(End()),
                    "end-game",
                    icon=ft.Icons.FLAG,
                    disabled=not session.can(End()),
                ),
            ],
            "next-round",
        )
    )
    if len(hands) > 1:
        board.append(history(hands[:-1], players))
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
