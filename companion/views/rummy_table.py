"""The Rummy table: for one thumb on a phone, readable on a desktop.

The screen is a scrolling body above a bar pinned to the bottom.  The bar always
holds the referee's line and the one action that most likely comes next, with
Undo at the thumb: "Hand over" during a hand, the log's Meld / Lay off when the
table log is open, Confirm during the hand over, "Start hand N" between hands.

What it shows, all from the referee's typed summary (``session.summary``, a
:class:`~rulesets.rummy.RummySummary`):

* the running totals on one line (a tap shows the whole scoreboard), the hand
  in play, its dealer and who plays first;
* "Hand over" (``rummy_hand_end``): who went out, then one player's cards at a
  time with the referee's running numbers, typed totals, going rummy;
  confirming scores the hand and deals the next one to the next dealer (R1.2);
* an optional table log of melds and lay-offs (``rummy_log``);
* the score sheet, where any finished hand can be reopened and corrected;
* when the game ends (R6.3): the winner or a shared win, and the final totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.common import readable, said, tag
from companion.components.rummy_bar import LEFT_WIDTH, bar, bar_lines
from companion.components.rummy_entry import next_deal, summary_of
from companion.components.rummy_hand_end import (
    HandOverBar,
    HandOverPanel,
    HandOverUi,
    hand_over_ui,
)
from companion.components.rummy_log import LogBar, LogPanel, LogUi
from companion.components.rummy_scores import (
    hand_sheet,
    result_card,
    score_line,
    scoreboard,
    status_line,
)
from companion.services import ServicesContext
from companion.session import GameSession
from companion.ui import go
from rulesets.rummy import RummySummary


@ft.observable
@dataclass
class TableUi:
    """The hand over being filled in (or None), the log, the scoreboard folded or not."""

    hand_over: HandOverUi | None = None
    show_log: bool = False
    scores_open: bool = False
    log: LogUi = field(default_factory=LogUi)


def _open_hand_over(ui: TableUi, summary: RummySummary) -> HandOverUi | None:
    """The hand over to show: none for a hand that is gone (undone) or already scored."""
    h = ui.hand_over
    if h is None:
        return None
    if h.number > len(summary.hands) + (1 if summary.in_hand else 0):
        return None
    return h


def _undo_button(session: GameSession, on_undo: Any) -> ft.Control:
    return tag(
        ft.OutlinedButton(
            "Undo",
            icon=ft.Icons.UNDO,
            on_click=on_undo,
            disabled=not session.can_undo,
            height=52,
            width=LEFT_WIDTH,
        ),
        "bar-undo",
    )


def _play_bar(
    session: GameSession, summary: RummySummary, ui: TableUi, undo: ft.Control
) -> ft.Control:
    """The bar outside the hand over: Hand over, Start hand N, or the game's end."""
    lines = bar_lines(len(summary.players))
    done = len(summary.hands)

    def start_hand_over(_: Any) -> None:
        ui.hand_over = HandOverUi(done + 1)

    def deal(_: Any) -> None:
        action = next_deal(summary)
        if action is not None:
            session.add(action)

    if summary.finished:
        text = "Game over. Undo takes back the last hand."
        primary = tag(
            ft.FilledButton("Home", icon=ft.Icons.HOME, on_click=lambda _: go("/"), height=52),
            "bar-home",
            expand=True,
        )
    elif summary.in_hand:
        text = "When someone goes out (or the stock runs out), tap Hand over."
        primary = tag(
            ft.FilledButton("Hand over", icon=ft.Icons.FLAG, on_click=start_hand_over, height=52),
            "hand-over",
            expand=True,
        )
    else:
        text = status_line(summary)
        primary = tag(
            ft.FilledButton(
                f"Start hand {done + 1}", icon=ft.Icons.PLAY_ARROW, on_click=deal, height=52
            ),
            "start-hand",
            expand=True,
        )
    verdict = said(ft.Text(text, size=14), text, "bar-line")
    return bar(verdict, undo, primary, lines=lines)


def _body(session: GameSession, summary: RummySummary, ui: TableUi) -> list[ft.Control]:
    """The scrolling part outside the hand over."""

    def edit(n: int) -> None:
        ui.hand_over = hand_over_ui(session, n)

    def fold(open_: bool) -> None:
        ui.scores_open = open_

    status = status_line(summary)
    controls: list[ft.Control] = []
    if summary.finished:
        controls.append(result_card(summary))
    else:
        controls.append(
            said(ft.Text(status, size=16, weight=ft.FontWeight.W_600), status, "hand-status")
        )
        if ui.scores_open:
            board = scoreboard(summary)
            fold_button = tag(
                ft.TextButton("Fold the scoreboard", on_click=lambda _: fold(False), height=44),
                "scoreboard-fold",
            )
            controls += [board, fold_button]
        else:
            controls.append(score_line(summary, lambda: fold(True)))
    if summary.in_hand:
        controls += _log_controls(session, ui)
    controls.append(hand_sheet(summary, edit))
    return controls


def _log_controls(session: GameSession, ui: TableUi) -> list[ft.Control]:
    def flip(e: ft.Event[ft.Switch]) -> None:
        ui.show_log = bool(e.control.value)

    switch = ft.Switch(label="Table log: melds and lay-offs", value=ui.show_log, on_change=flip)
    out: list[ft.Control] = [tag(switch, "table-log-switch")]
    if ui.show_log:
        out.append(LogPanel(session, ui.log))
    return out


@ft.component
def RummyTable(session: GameSession) -> ft.Control:
    ui, _ = ft.use_state(TableUi())
    services = ft.use_context(ServicesContext)  # None in a headless test
    summary = summary_of(session)
    hand_over = _open_hand_over(ui, summary)

    def close() -> None:
        ui.hand_over = None

    def start_hand_over(_: Any) -> None:
        ui.hand_over = HandOverUi(len(summary.hands) + 1)

    def undo(_: Any) -> None:
        session.undo()
        if services is not None:
            services.history_changed()

    undo_button = _undo_button(session, undo)
    if hand_over is not None:
        body: list[ft.Control] = [HandOverPanel(session, hand_over, close)]
        bottom: ft.Control = HandOverBar(session, hand_over, close)
    else:
        body = _body(session, summary, ui)
        if ui.show_log and summary.in_hand:
            hand_over_button = tag(
                ft.OutlinedButton(
                    "Hand over",
                    icon=ft.Icons.FLAG,
                    on_click=start_hand_over,
                    height=44,
                ),
                "hand-over",
            )
            body.insert(1, hand_over_button)
            bottom = LogBar(session, ui.log, undo_button, bar_lines(len(summary.players)))
        else:
            bottom = _play_bar(session, summary, ui, undo_button)
    scroll = ft.Column([readable(body)], scroll=ft.ScrollMode.AUTO, expand=True)
    return ft.Column([scroll, bottom], expand=True, spacing=0)
