"""My hand: the acting player enters their private hand (never saved); verdicts then
check the no-breaking rule against it, and the referee suggests the best line.

The suggestion is the referee's exact search (:meth:`UmtaliGame.suggest`); its
line is recorded as it stands ("Record this line"), judged like any entry.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.common import verdict_line
from companion.components.picker import CardPicker
from companion.components.umtali_sheet import action_text
from companion.components.umtali_ui import Table, TableUi, on_table
from rulesets import RulesetError
from rulesets.cards import Card, format_cards
from rulesets.protocol import Units, Verdict
from rulesets.umtali import Suggestion, UmtaliGame, UmtaliSummary

POINTS = Units.POINTS

__all__ = ["UmtaliMyHand", "hand_note"]

#: CardPicker with a ``key`` (Flet components take one): each picker keeps its own typed text.
Picker: Any = CardPicker


def hand_note(ui: TableUi, summary: UmtaliSummary) -> list[ft.Control]:
    """Under a verdict: that it was checked against the acting player's private hand."""
    private = ui.private(summary)
    if not private:
        return []
    who = ui.acting(summary)
    n = len(private)
    text = f"Checked against {who}'s private hand ({n} card{'s' if n != 1 else ''})."
    return [ft.Text(text, size=12, italic=True)]


def _lines(sug: Suggestion, record: Any) -> list[ft.Control]:
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
        lines.append(
            ft.FilledTonalButton(
                "Record this line",
                icon=ft.Icons.PLAYLIST_ADD_CHECK,
                on_click=lambda _, line=sug.best: record(line),
            )
        )
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


@ft.component
def UmtaliMyHand(table: Table) -> ft.Control:
    """The private hand of the acting player and the referee's best line for it."""
    session, summary, ui = table.session, table.summary, table.ui
    who = ui.acting(summary)
    private = ui.private(summary)

    def enter(cards: list[Card]) -> None:
        ui.owner = ui.acting(summary)
        ui.hand = cards

    def record(line: tuple[Any, ...]) -> None:
        if session.add_many(line) is None:
            ui.after_entry(line, summary)

    picker = Picker(
        private,
        enter,
        ident="hand",
        key="picker-hand",
        label="My hand",
        unavailable=on_table(summary),
        max_cards=11,
    )
    intro = ft.Text(
        f"{who}: enter your hand privately. It is not saved. Verdicts then also check "
        "the no-breaking rule against it, and you get the best melding."
    )
    game = session.game
    if not private or not isinstance(game, UmtaliGame):
        return _layout([intro, picker], [])
    try:
        sug = game.suggest(who, private)
    except RulesetError as exc:
        refused = Verdict(legal=False, rule=exc.rule or "U", reason=exc.reason)
        return _layout([intro, picker], [verdict_line(refused)])
    lines = _lines(sug, record)
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
    return _layout([intro, picker], [box])


def _layout(left: list[ft.Control], right: list[ft.Control]) -> ft.Control:
    """Phone: one column; desktop: the picker left, the answer right."""
    return ft.ResponsiveRow(
        [
            ft.Column(left, spacing=8, col={"xs": 12, "md": 7}),
            ft.Column(right, spacing=8, col={"xs": 12, "md": 5}),
        ],
        spacing=12,
        run_spacing=8,
    )
