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
    Primary,
    TableUi,
    entry_bar,
    note_row,
    section,
    summary_of,
    table_screen,
    table_top,
    use_ui,
)
from companion.components.rummoli.statement import history, settlement
from companion.session import GameSession
from rulesets.rummoli import Deal, End

__all__ = ["IdlePanel"]


@ft.observable
@dataclass
class IdleUi(Draft):
    shown: str | None = None  #: whose statement is open


@ft.component
def IdlePanel(session: GameSession, table: TableUi, sheet: bool = False) -> ft.Control:
    summary = summary_of(session)
    detail = summary.detail
    players = summary.players
    hands = summary.hands
    ui = use_ui(IdleUi).fresh(len(session.actions))
    top = table_top(session, table, sheet)
    board: list[ft.Control] = [*note_row(detail.note("short"), "short-of-chips"), top.board]
    board += [top.stacks, top.chips]
    if hands:

        def show(who: str) -> None:
            ui.shown = who

        board.append(settlement(hands[-1], players, summary.totals, shown=ui.shown, show=show))
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
    return table_screen(board=board, entry=[], bar=bar, top=top)
