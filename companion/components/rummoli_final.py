"""The game is over: the standings, the final poker's results and statements, the rounds."""

from __future__ import annotations

import flet as ft

from companion.components.common import said
from companion.components.rummoli_parts import (
    TableUi,
    entry_bar,
    note_row,
    poker_result,
    section,
    statement_card,
    summary_of,
    table_screen,
    table_top,
)
from companion.components.rummoli_statement import history
from companion.session import GameSession
from companion.ui import slug

__all__ = ["OverPanel"]


def _standing(place: int, name: str, chips: int, won: bool) -> ft.Control:
    words = f"{place}. {name}: {chips} chips" + (" (winner)" if won else "")
    return said(
        ft.Row(
            [
                ft.Icon(
                    ft.Icons.EMOJI_EVENTS if won else ft.Icons.PERSON,
                    color=ft.Colors.AMBER if won else None,
                ),
                ft.Text(words, size=18, weight=ft.FontWeight.BOLD if won else ft.FontWeight.NORMAL),
            ]
        ),
        words,
        f"standing-{slug(name)}",
    )


@ft.component
def OverPanel(session: GameSession, table: TableUi, sheet: bool = False) -> ft.Control:
    summary = summary_of(session)
    players = list(summary.players)
    totals = summary.totals
    ranked = sorted(players, key=lambda p: (-totals.get(p, 0), players.index(p)))
    rows = [
        _standing(place, p, totals.get(p, 0), p in summary.winners)
        for place, p in enumerate(ranked, start=1)
    ]
    win = summary.detail.note("win")
    rows += note_row(win, "most-chips")
    top = table_top(session, table, sheet)
    board: list[ft.Control] = [section("Standings", rows, "standings"), top.board, top.stacks]
    board.append(top.chips)
    final: list[ft.Control] = []
    for f in summary.detail.final:
        final += poker_result(f, f"final-{slug(f.pot)}")
    entries = [e for e in summary.ledger if e.kind == "final_poker"]
    for p in players:
        if any(e.player == p for e in entries):
            final.append(statement_card(p, entries, f"final-statement-{slug(p)}"))
    if final:
        board.append(section("Final poker", final, "final-poker"))
    if summary.hands:
        board.append(history(summary.hands, players))
    bar = entry_bar(session, None, None, hint=win, ident="over-verdict")
    return table_screen(board=board, entry=[], bar=bar, top=top)
