"""The Umtali table: both sides as melds, live verdicts, going out, leftovers, 4 hands.

A thin view over the live referee held by the session: everything shown comes
from the typed :class:`~rulesets.umtali.UmtaliSummary` (sides, running points,
whose turn it is, the dealer, the hand scores, who deals next and why) or from
the referee's verdict on the entry being picked; every entry goes through
``session.add``.  The panels are components of their own:

* :mod:`companion.components.umtali_sides` -- status line and both sides;
* :mod:`companion.components.umtali_entry` -- acting player, mode, entry, verdict;
* :mod:`companion.components.umtali_hand` -- the private hand and the best line;
* :mod:`companion.components.umtali_sheet` -- the score sheet and the hand editor.

UI state (the half-made entry, the private hand, the hand being edited) is one
observable :class:`~companion.components.umtali_ui.TableUi`.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.common import rule_link, tag
from companion.components.umtali_entry import UmtaliEntry
from companion.components.umtali_sheet import UmtaliHandEditor, hands_sheet, start_edit
from companion.components.umtali_sides import UmtaliSides, game_result, hand_result
from companion.components.umtali_ui import Table, TableUi
from companion.session import GameSession
from companion.ui import labelled
from rulesets.umtali import StartHand, UmtaliSummary

__all__ = ["UmtaliTable"]


def _next_hand(session: GameSession, summary: UmtaliSummary, ui: TableUi) -> ft.Control:
    """Between hands: the last hand's result, who deals next (and why), the deal button."""
    parts: list[ft.Control] = []
    if summary.hands:
        parts.append(hand_result(summary.hands[-1], summary.players))
    n = len(summary.hands) + 1
    deal = summary.detail.next_deal
    if deal is not None:
        text = f"{summary.detail.hand_label}: {deal.text}."
        parts.append(labelled(ft.Text(text, size=16), text, "next-hand"))

    def start(_: Any) -> None:
        # dealer None = "whoever the rules say" (U2.3): an edited earlier hand that
        # changes who deals moves this deal with it
        if session.add(StartHand(dealer=None)) is None:
            ui.editing = None
            ui.mode = "meld"
            ui.hand = []
            ui.reset_entry()

    button = ft.FilledButton(f"Start hand {n}", icon=ft.Icons.PLAY_ARROW, on_click=start, height=48)
    row: list[ft.Control] = [tag(button, "next-hand-start")]
    if deal is not None:
        row.append(rule_link(deal.rule, "next-deal-rule"))
    parts.append(ft.Row(row, wrap=True))
    return ft.Column(parts, spacing=8)


def _new_ui() -> TableUi:
    return TableUi()


@ft.component
def UmtaliTable(session: GameSession) -> ft.Control:
    first: TableUi = ft.use_memo(_new_ui, [])
    ui, _ = ft.use_state(first)  # observable: a change to it re-renders the table
    summary = session.summary
    if not isinstance(summary, UmtaliSummary):  # not an Umtali game: nothing to show
        return ft.Text("This is not an Umtali game.")

    table = Table(session, summary, ui)

    def edit(n: int) -> None:
        latest = session.summary
        if isinstance(latest, UmtaliSummary):
            start_edit(ui, latest, session.actions, n)

    body: list[ft.Control] = []
    if summary.detail.current is not None:
        body += [UmtaliSides(table), UmtaliEntry(table)]
    elif summary.finished:
        body.append(game_result(summary))
    else:
        body.append(_next_hand(session, summary, ui))
    body += [
        ft.Text("Score sheet", size=16, weight=ft.FontWeight.BOLD),
        hands_sheet(
            summary,
            on_edit=edit,
            editing=ui.editing,
        ),
    ]
    if ui.editing is not None:
        body.append(UmtaliHandEditor(table))
    return ft.Column(body, spacing=10)
