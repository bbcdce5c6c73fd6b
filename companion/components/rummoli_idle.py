"""Between rounds: the last round's settlement, then deal the next round or end the game."""

from __future__ import annotations

import flet as ft

from companion.components.common import button, verdict_line
from companion.components.rummoli_parts import note_row, section, summary_of
from companion.components.rummoli_statement import history, settlement
from companion.session import GameSession
from rulesets.rummoli import Deal, End

__all__ = ["IdlePanel"]


@ft.component
def IdlePanel(session: GameSession) -> ft.Control:
    summary = summary_of(session)
    detail = summary.detail
    players = summary.players
    hands = summary.hands
    out: list[ft.Control] = []
    if hands:
        out.append(settlement(hands[-1], players, summary.totals))
    number = len(hands) + 1
    dealer = detail.next_dealer or summary.dealer
    deal = session.judge(Deal())
    rows: list[ft.Control] = [
        *note_row(detail.note("ante"), "ante"),
        *note_row(detail.note("short"), "short-of-chips"),
        *([] if deal.legal else [verdict_line(deal, ident="deal-verdict")]),
        button(
            f"Deal round {number}: {dealer} deals",
            lambda _: session.add(Deal()),
            "deal",
            filled=True,
            icon=ft.Icons.STYLE,
            disabled=not deal.legal,
        ),
        *note_row(detail.note("end"), "ending"),
        button(
            "End the game",
            lambda _: session.add(End()),
            "end-game",
            icon=ft.Icons.FLAG,
            disabled=not session.can(End()),
        ),
    ]
    out.append(section(f"Round {number}", rows, "next-round"))
    if len(hands) > 1:
        out.append(history(hands[:-1], players))
    return ft.Column(out, spacing=10)
