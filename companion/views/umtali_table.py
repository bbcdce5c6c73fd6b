"""The UmtaliTable screen body (being built; replaced by its owner)."""

from __future__ import annotations

import flet as ft

from companion.session import GameSession


@ft.component
def UmtaliTable(session: GameSession) -> ft.Control:
    totals = session.summary.get("totals", {})
    return ft.Column([ft.Text(f"{p}: {v}") for p, v in totals.items()])
