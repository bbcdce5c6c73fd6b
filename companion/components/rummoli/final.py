"""The game is over: the shared ending (``GameOver``: the result, the places, Home,
Share, New game same players) with Rummoli's own parts -- the final poker's results
and statements -- and the score sheet with every round."""

from __future__ import annotations

import flet as ft

from companion.components.kit.game_over import GameOver
from companion.components.kit.ui import slug
from companion.components.rummoli.parts import (
    poker_result,
    score_sheet,
    section,
    statement_card,
    summary_of,
)
from companion.components.rummoli.statement import history
from companion.session import GameSession

__all__ = ["OverPanel"]


@ft.component
def OverPanel(session: GameSession) -> ft.Control:
    summary = summary_of(session)
    players = list(summary.players)
    final: list[ft.Control] = []
    for f in summary.detail.final:
        final += poker_result(f, f"final-{slug(f.pot)}")
    entries = [e for e in summary.ledger if e.kind == "final_poker"]
    for p in players:
        if any(e.player == p for e in entries):
            final.append(statement_card(p, entries, f"final-statement-{slug(p)}"))
    extras = [section("Final poker", final, "final-poker")] if final else []
    rounds: list[ft.Control] = [score_sheet(summary)]
    if summary.hands:
        rounds.append(history(summary.hands, players))
    return GameOver(session, sheet=rounds, extras=extras)
