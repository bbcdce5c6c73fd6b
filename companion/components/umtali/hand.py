"""My hand: the acting player enters their private hand (never saved); verdicts then
check the no-breaking rule against it, and the referee suggests the best line.

The hand is picked on the entry's card grid ("My hand" mode); the referee's
exact search (:meth:`UmtaliGame.suggest`) is made once per render by the table
(:func:`suggest_for`) and shown on the board (:func:`suggestion_panel`); the
entry bar offers "Record this line", judged like any entry.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.umtali.sheet import action_text
from companion.components.umtali.ui import TableUi, sees_private
from companion.session import GameSession
from rulesets import RulesetError
from rulesets.cards import format_cards
from rulesets.protocol import Units, Verdict
from rulesets.umtali import Suggestion, UmtaliGame, UmtaliSummary

POINTS = Units.POINTS

__all__ = ["hand_note", "suggest_for", "suggestion_panel"]


def hand_note(ui: TableUi, summary: UmtaliSummary, *, shown: bool = True) -> list[ft.Control]:
    """On the board: that verdicts are checked against the acting player's private hand
    (``shown``: this device may show that player's hand)."""
    private = ui.private(summary, shown=shown)
    if not private or ui.mode == "hand":
        return []
    who = ui.acting(summary)
    n = len(private)
    text = f"Checked against {who}'s private hand ({n} card{'s' if n != 1 else ''})."
    return [ft.Text(text, size=12, italic=True)]


def suggest_for(
    session: GameSession, summary: UmtaliSummary, ui: TableUi
) -> tuple[Suggestion | None, Verdict | None]:
    """In "My hand" with a hand entered: the referee's best line, or why there is none."""
    private = ui.private(summary, shown=sees_private(session, ui.acting(summary)))
    game = session.game
    if ui.mode != "hand" or not private or not isinstance(game, UmtaliGame):
        return None, None
    try:
        return game.suggest(ui.acting(summary), private), None
    except RulesetError as exc:
        return None, Verdict(legal=False, rule=exc.rule or "U", reason=exc.reason, words=exc.words)


def _lines(sug: Suggestion) -> list[ft.Control]:
    lines: list[ft.Control] = []
    if sug.best:
        lines.append(
            ft.Text(
                f"Best melding this turn: {POINTS.of(sug.best_points)}", weight=ft.FontWeight.BOLD
            )
        )
        lines += [ft.Text(f"• {action_text(a)}") for a in sug.best]
        if sug.kept:
            lines.append(ft.Text(f"Kept: {format_cards(sug.kept, symbols=True)}"))
    else:
        lines.append(ft.Text("Nothing in this hand can go down now."))
    if sug.can_go_out and sug.go_out and sug.go_out != sug.best:
        lines.append(ft.Text(f"Going out is possible ({POINTS.of(sug.go_out_points or 0)}):"))
        lines += [ft.Text(f"• {action_text(a)}") for a in sug.go_out]
    elif not sug.can_go_out:
        lines.append(ft.Text("This hand cannot go out this turn."))
    if sug.plays:
        lines.append(ft.Text("Legal plays now (no-breaking rule applied):"))
        lines += [
            ft.Text(f"• {action_text(p.action)}: {p.points}", size=13) for p in sug.plays[:12]
        ]
    lines += [ft.Text(n, size=12, italic=True) for n in sug.notes]
    return lines


def suggestion_panel(ui: TableUi, summary: UmtaliSummary, sug: Suggestion | None) -> list[Any]:
    """On the board in "My hand": what the hand is for, then the referee's best line."""
    who = ui.acting(summary)
    intro = ft.Text(
        f"{who}: enter your hand privately on the cards below. It is not saved. Verdicts then "
        "also check the no-breaking rule against it, and you get the best melding.",
        size=13,
    )
    if sug is None:
        return [intro]
    lines = _lines(sug)
    lines.append(
        ft.TextButton(
            "Hide my hand",
            icon=ft.Icons.VISIBILITY_OFF,
            on_click=lambda _: setattr(ui, "hand", []),
        )
    )
    box = ft.Semantics(
        content=ft.Container(
            content=ft.Column(lines, spacing=4),
            padding=8,
            border_radius=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        ),
        identifier="suggestion",
        container=True,
    )
    return [box]
