"""The Rummy table: running totals, the hand in play, its end, the result.

What it shows, all from the referee's typed summary (``session.summary``, a
:class:`~rulesets.rummy.RummySummary`):

* the running totals with the target (or the hands left) and the dealer;
* "Hand over": who went out, going rummy, each other player's remaining cards
  (penalty shown live) or a typed total, marked typed; confirming scores the
  hand and deals the next one to the next dealer by the rules (R1.2);
* an optional table log of melds and lay-offs with live verdicts and rule links;
* the score sheet, where any finished hand can be reopened and corrected
  (the referee judges the correction and everything after it);
* when the game ends (R6.3): the winner or a shared win, and the final totals.

Undo and redo live in the frame (``views/play.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.common import said, tag
from companion.components.rummy_entry import next_deal, summary_of
from companion.components.rummy_hand_end import HandEndForm
from companion.components.rummy_log import TableLog
from companion.components.rummy_scores import hand_sheet, result_card, scoreboard, status_line
from companion.session import GameSession
from rulesets.rummy import RummySummary

NEW = 0  # the "editing" state for the hand in play (finished hands use their number)


@ft.observable
@dataclass
class TableUi:
    """Which hand-end form is open (None, NEW or a finished hand's number), and the log."""

    editing: int | None = None
    show_log: bool = False


def _big_button(text: str, icon: ft.IconData, on_click: Any, ident: str) -> ft.Control:
    button = ft.FilledButton(text, icon=icon, on_click=on_click, height=52)
    return ft.Row(key=f"{ident}-row", controls=[tag(button, ident, expand=True)])


def _hand_controls(
    session: GameSession, summary: RummySummary, ui: TableUi, editing: int | None
) -> list[ft.Control]:
    """The hand in play (its "Hand over" button or form, and the log), or the next deal."""
    done = len(summary.hands)

    def close() -> None:
        ui.editing = None

    def open_new(_: Any) -> None:
        ui.editing = NEW

    def deal(_: Any) -> None:
        action = next_deal(summary)
        if action is not None:
            session.add(action)

    if summary.in_hand and editing == NEW:
        return [HandEndForm(session, done + 1, close, key="new")]  # type: ignore[call-arg]
    if summary.in_hand and editing is None:
        out = [_big_button("Hand over", ft.Icons.FLAG, open_new, "hand-over")]
        return out + _log(session, ui, done)
    if not summary.finished and not summary.in_hand:
        return [_big_button(f"Start hand {done + 1}", ft.Icons.PLAY_ARROW, deal, "start-hand")]
    return []


def _log(session: GameSession, ui: TableUi, done: int) -> list[ft.Control]:
    def flip(e: ft.Event[ft.Switch]) -> None:
        ui.show_log = bool(e.control.value)

    switch = ft.Switch(
        label="Table log (melds and lay-offs, with verdicts)", value=ui.show_log, on_change=flip
    )
    out: list[ft.Control] = [tag(switch, "table-log-switch")]
    if ui.show_log:
        out.append(TableLog(session, key=f"log-{done + 1}"))  # type: ignore[call-arg]
    return out


def _editing(ui: TableUi, summary: RummySummary) -> int | None:
    """The form to show: none for a hand that is gone (undone) or already scored."""
    if ui.editing == NEW and not summary.in_hand:
        return None
    if ui.editing is not None and ui.editing > len(summary.hands):
        return None
    return ui.editing


@ft.component
def RummyTable(session: GameSession) -> ft.Control:
    ui, _ = ft.use_state(TableUi())
    summary = summary_of(session)
    editing = _editing(ui, summary)

    def edit(n: int) -> None:
        ui.editing = n

    def close() -> None:
        ui.editing = None

    controls: list[ft.Control] = []
    if summary.finished:
        controls.append(result_card(summary))
    else:
        status = status_line(summary)
        controls.append(
            said(ft.Text(status, size=17, weight=ft.FontWeight.W_600), status, "hand-status")
        )
    if editing not in (None, NEW):
        form = HandEndForm(session, editing, close, key=f"edit-{editing}")  # type: ignore[call-arg]
        controls.append(form)
    if not summary.finished:  # at the end the result card lists the final totals
        controls.append(scoreboard(summary))
    controls += _hand_controls(session, summary, ui, editing)
    controls.append(hand_sheet(summary, edit))
    column = ft.Column(
        controls,
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        col={"xs": 12, "md": 10, "lg": 8, "xl": 7},
    )
    # full width on a phone, a readable centred column on a desktop
    return ft.ResponsiveRow([column], alignment=ft.MainAxisAlignment.CENTER)
