"""The Rummy table: for one thumb on a phone, readable on a desktop.

Laid out with the thumb kit (``thumb_screen``): the collapsed scoreboard in the
app bar ("Ann 12 · Bob 7 · Cy 0" over "Hand 2 · Bob deals"; a tap opens the
totals and the score sheet), a board that scrolls on its own, a still entry
under it, and the bar pinned to the bottom with the referee's line, Undo and
the one action that most likely comes next:

* during a hand: "Hand over" (or, with the table log open and cards chosen,
  Meld / Lay off, ``rummy_log``);
* during the hand over (``rummy_hand_end``): who went out, then one player's
  cards at a time with the referee's running numbers, typed totals, going
  rummy; Confirm scores the hand and deals the next one to the next dealer (R1.2);
* between hands (after an undo): "Start hand N";
* at the end (R6.3): the ending every game shares (``components/kit/game_over``):
  the winner or a shared win, the places, the score sheet, New game same
  players, Home and Share.

Any finished hand can be reopened from the score sheet and corrected.
Everything shown comes from the referee's typed summary (``session.summary``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.common import said, tag, thumb_board_screen
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.game_over import GameOver
from companion.components.kit.scoreline import totals_words, use_scoreboard
from companion.components.kit.thumb_screen import fills_screen, thumb_screen
from companion.components.rummy.entry import next_deal, summary_of
from companion.components.rummy.hand_end import (
    HandOverBar,
    HandOverBoard,
    HandOverEntry,
    HandOverRules,
    HandOverUi,
    hand_over_ui,
)
from companion.components.rummy.log import LogBar, LogEntry, LogUi, table_melds
from companion.components.rummy.scores import goal_text, hand_sheet, scoreboard, status_line
from companion.session import GameSession, Refusal
from rulesets.protocol import Summary
from rulesets.rummy import RummySummary

__all__ = ["RummyTable", "rummy_scoreline"]


def rummy_scoreline(summary: Summary) -> tuple[str, str]:
    """The collapsed scoreboard: every total, then the hand and its dealer.

    >>> from rulesets.rummy import RummyGame
    >>> g = RummyGame(["Ann", "Bob", "Cy"]); _ = g.push({"type": "start_hand", "dealer": "Bob"})
    >>> rummy_scoreline(g.summary())
    ('Ann 0 · Bob 0 · Cy 0', 'Hand 1 · Bob deals')
    >>> _ = g.push({"type": "hand_end", "went_out": "Ann", "remaining": {"Bob": ["KS"], "Cy": []}})
    >>> rummy_scoreline(g.summary())
    ('Ann 0 · Bob 10 · Cy 0', 'Cy deals hand 2')
    """
    top = totals_words(summary.players, summary.totals)
    if summary.finished:
        return top, "Game over"
    dealer = summary.dealer
    players = summary.players
    if not isinstance(summary, RummySummary) or dealer not in players:
        return top, f"Hand {summary.hand}"
    if not summary.in_hand:  # short: the app bar leaves a phone about 160 px for it
        return top, f"{dealer} deals hand {len(summary.hands) + 1}"
    if summary.turn:  # turns are logged: the referee knows whose turn it is
        return top, f"Hand {summary.hand} · {summary.turn} to play"
    return top, f"Hand {summary.hand} · {dealer} deals"


@ft.observable
@dataclass
class TableUi:
    """The hand over being filled in (or None), and the table log."""

    hand_over: HandOverUi | None = None
    show_log: bool = False
    log: LogUi = field(default_factory=LogUi)


def _open_hand_over(ui: TableUi, summary: RummySummary) -> HandOverUi | None:
    """The hand over to show: none for a hand that is gone (undone) or already scored."""
    h = ui.hand_over
    if h is None:
        return None
    if h.number > len(summary.hands) + (1 if summary.in_hand else 0):
        return None
    return h


def _log_switch(ui: TableUi) -> ft.Control:
    """The table log's switch, fixed at the top of the table: it stays where it was
    tapped whether the log opens or closes."""

    def flip(e: ft.Event[ft.Switch]) -> None:
        ui.show_log = bool(e.control.value)

    switch = ft.Switch(label="Table log: melds and lay-offs", value=ui.show_log, on_change=flip)
    return tag(switch, "table-log-switch")


def _board(
    session: GameSession, summary: RummySummary, ui: TableUi, board_open: bool, entering: bool
) -> list[ft.Control]:
    """The part that scrolls: where the game stands, the score sheet and, with the log
    open, the melds on the table -- last, next to the entry whose chips name them."""

    def edit(n: int) -> None:
        ui.hand_over = hand_over_ui(session, n)

    status = status_line(summary)
    out: list[ft.Control] = []
    if not entering:  # during a hand over the app bar says the hand and the dealer
        out.append(
            said(ft.Text(status, size=15, weight=ft.FontWeight.W_600), status, "hand-status")
        )
    if board_open:
        out.append(scoreboard(summary))
    out.append(hand_sheet(summary, edit))
    if summary.in_hand and not entering and ui.show_log:
        out += table_melds(summary)
    return out


def _play_bar(session: GameSession, summary: RummySummary, on_hand_over: Any) -> ft.Control:
    """The bar outside the hand over and the log: Hand over, Start hand N, or nothing."""
    done = len(summary.hands)

    def open_hand_over() -> Refusal | None:
        on_hand_over()
        return None

    def deal() -> Refusal | None:
        action = next_deal(summary)
        return session.add(action) if action is not None else None

    if summary.in_hand:
        primary = Primary("Hand over", "hand-over", open_hand_over, icon=ft.Icons.FLAG)
        play = summary.detail.play
        block = play is not None and play.may_end_without_winner  # the stock may run out
        stock = " (or the stock ran out)" if block else ""
        hint = f"Someone went out{stock}? Tap Hand over."
        return EntryBar(session, None, primary, hint=hint)
    primary = Primary(f"Start hand {done + 1}", "start-hand", deal, icon=ft.Icons.PLAY_ARROW)
    # short (the board above says it in full): the bar's line holds two or three lines
    hint = f"{summary.dealer} deals hand {done + 1}. Tap Start once the cards are out."
    return EntryBar(session, None, primary, hint=hint)


@fills_screen(rummy_scoreline)
@ft.component
def RummyTable(session: GameSession) -> ft.Control:
    ui, _ = ft.use_state(TableUi())
    board_state = use_scoreboard()
    summary = summary_of(session)
    hand_over = _open_hand_over(ui, summary)

    def close() -> None:
        ui.hand_over = None

    def start_hand_over() -> None:
        ui.hand_over = HandOverUi(len(summary.hands) + 1)
        ui.log.cards = []

    if summary.finished and hand_over is None:  # the ending every game shares

        def edit(n: int) -> None:
            ui.hand_over = hand_over_ui(session, n)

        goal = said(ft.Text(goal_text(summary), size=13, italic=True), goal_text(summary), "goal")
        return GameOver(session, sheet=[hand_sheet(summary, edit)], extras=[goal])
    board = _board(session, summary, ui, board_state.open, hand_over is not None)
    head = [_log_switch(ui)] if summary.in_hand and hand_over is None else []
    if hand_over is not None:
        # the referee's numbers for the hand fixed at the top: the entry and the
        # grid fill a phone, and the board above them is scrolled out of sight
        return thumb_board_screen(
            head=[HandOverBoard(session, hand_over)],
            board=[HandOverRules(session, hand_over), *board],
            entry=[HandOverEntry(session, hand_over, close)],
            bar=HandOverBar(session, hand_over, close),
            board_ident="rummy-board",
        )
    if ui.show_log and summary.in_hand:
        # six players' chips and the lay-off chips leave a phone no room for a board
        # of its own: the board and the entry scroll as one tall area (see
        # thumb_board_screen), the melds on the table right above the chips
        return thumb_board_screen(
            head=head,
            board=board,
            entry=[LogEntry(session, ui.log)],
            bar=LogBar(session, ui.log, start_hand_over),
            board_ident="rummy-board",
        )
    return thumb_screen(
        head=head,
        board=board,
        bar=_play_bar(session, summary, start_hand_over),
        board_ident="rummy-board",
    )
