"""The Rummy table: running penalty totals, the hand in play, its end, the result.

What it shows, all from the referee's replay summary (``rulesets.rummy``):

* the running totals with the target (or the hands left) and the dealer;
* "Hand over": who went out, going rummy, each other player's remaining cards
  (penalty shown live) or a typed total, marked typed; confirming scores the
  hand and deals the next one to the next dealer by the rules (R1.2);
* an optional table log of melds and lay-offs with live verdicts and rule links;
* the score sheet, where any finished hand can be reopened and corrected
  (everything after it is recomputed);
* when the game ends (R6.3): the winner or a shared win, and the final totals.

Undo and redo live in the frame (``views/play.py``).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.rummy_entry import next_deal
from companion.components.rummy_hand_end import HandEndForm
from companion.components.rummy_log import TableLog
from companion.components.rummy_scores import (
    hand_sheet,
    result_card,
    said,
    scoreboard,
    status_line,
    tag,
)
from companion.session import GameSession

NEW = 0  # the "editing" state for the hand in play (finished hands use their number)


@ft.component
def RummyTable(session: GameSession) -> ft.Control:
    summary = session.summary
    players: list[str] = list(summary.get("players") or session.stored.players)
    # which hand-end form is open: None, NEW (the hand in play) or a finished hand's number
    nothing: int | None = None
    editing, set_editing = ft.use_state(nothing)
    show_log, set_show_log = ft.use_state(False)

    if "totals" not in summary:  # the record could not be replayed; the frame says why
        return ft.Text("This game cannot be shown until the entry above is fixed (Undo).")

    hands_done = len(summary.get("hands", []))
    in_hand = bool(summary.get("hand_in_progress"))
    finished = bool(summary.get("finished"))
    if editing == NEW and not in_hand:
        editing = None
    if editing not in (None, NEW) and int(editing) > hands_done:
        editing = None

    def close() -> None:
        set_editing(None)

    def deal(_: Any) -> None:
        action = next_deal(summary)
        if action is not None:
            session.add(action)

    controls: list[ft.Control] = []
    if finished:
        controls.append(result_card(summary, players))
    else:
        status = status_line(summary, players)
        controls.append(
            said(ft.Text(status, size=17, weight=ft.FontWeight.W_600), status, "hand-status")
        )
    if editing is not None and editing != NEW:
        controls.append(HandEndForm(session, int(editing), close, key=f"edit-{editing}"))  # type: ignore[call-arg]
    if not finished:  # at the end the result card lists the final totals
        controls.append(scoreboard(summary, players))

    if in_hand and editing is None:
        controls.append(
            ft.Row(
                key="hand-over-row",
                controls=[
                    tag(
                        ft.FilledButton(
                            "Hand over",
                            icon=ft.Icons.FLAG,
                            on_click=lambda _: set_editing(NEW),
                            height=52,
                        ),
                        "hand-over",
                        expand=True,
                    )
                ],
            )
        )
    elif in_hand and editing == NEW:
        controls.append(HandEndForm(session, hands_done + 1, close, key="new"))  # type: ignore[call-arg]
    elif not finished:
        number = hands_done + 1
        controls.append(
            ft.Row(
                key="start-hand-row",
                controls=[
                    tag(
                        ft.FilledButton(
                            f"Start hand {number}",
                            icon=ft.Icons.PLAY_ARROW,
                            on_click=deal,
                            height=52,
                        ),
                        "start-hand",
                        expand=True,
                    )
                ],
            )
        )

    if in_hand and editing is None:
        controls.append(
            tag(
                ft.Switch(
                    label="Table log (melds and lay-offs, with verdicts)",
                    value=show_log,
                    on_change=lambda e: set_show_log(bool(e.control.value)),
                ),
                "table-log-switch",
            )
        )
        if show_log:
            controls.append(TableLog(session, key=f"log-{hands_done + 1}"))  # type: ignore[call-arg]

    controls.append(hand_sheet(summary, players, set_editing))
    column = ft.Column(
        controls,
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        col={"xs": 12, "md": 10, "lg": 8, "xl": 7},
    )
    # full width on a phone, a readable centred column on a desktop
    return ft.ResponsiveRow([column], alignment=ft.MainAxisAlignment.CENTER)
