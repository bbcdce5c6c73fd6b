"""The Umtali table for one thumb: the board above, the entry below, the verdict at the bottom.

A thin view over the live referee held by the session: everything shown comes
from the typed :class:`~rulesets.umtali.UmtaliSummary` (sides, running points,
whose turn it is, the dealer, the hand scores, who deals next and why) or from
the referee's verdict on the entry being picked; every entry goes through
``session.add``.  Laid out by :func:`~companion.components.kit.thumb_screen.thumb_screen`:

* head -- the one-line scoreboard ("Ann 22 · Bob 16 · Hand 2 of 4 · Bob dealt ·
  Ann to play"); a tap opens the score sheet and the hand's rare actions
  ("Stock ran out: end hand") at the top of the board;
* under it, fixed: both sides' totals and the top of the discard pile
  (:mod:`companion.components.umtali.pile`: a card, or "Not known" -- the
  referee's, never a guess);
* board (scrolls on its own) -- both sides, each meld a one-tap anchor;
  between hands the last hand's result and the sheet; at the end the ending
  every game shares (:mod:`companion.components.kit.game_over`);
* entry (never scrolls, never moves) -- :mod:`companion.components.umtali.entry`;
* bar -- the referee's verdict, Undo, and the action (``EntryBar``).

The panels are components of their own:

* :mod:`companion.components.umtali.sides` -- both sides, results;
* :mod:`companion.components.umtali.entry` -- acting player, mode, cards, the bar;
* :mod:`companion.components.umtali.hand` -- the private hand and the best line;
* :mod:`companion.components.umtali.sheet` -- the score sheet and the hand editor.

UI state (the half-made entry, the private hand, the open sheet, the hand being
edited) is one observable :class:`~companion.components.umtali.ui.TableUi`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.kit.common import rule_link, tag, thumb_board_screen
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.game_over import GameOver
from companion.components.kit.scoreline import Scoreboard, totals_words, use_scoreboard
from companion.components.kit.thumb_screen import fills_screen, thumb_screen
from companion.components.umtali.entry import umtali_entry
from companion.components.umtali.hand import hand_note, suggest_for, suggestion_panel
from companion.components.umtali.pile import DiscardTop
from companion.components.umtali.sheet import UmtaliHandEditor, hands_sheet, start_edit
from companion.components.umtali.sides import UmtaliSides, hand_result, side_totals
from companion.components.umtali.ui import Table, TableUi, Taps
from companion.session import GameSession, Refusal
from rulesets.umtali import EndHandEmptyStock, Phase, StartHand, UmtaliSummary

__all__ = ["UmtaliTable"]


def _start_next(session: GameSession, ui: TableUi) -> Refusal | None:
    """Deal the next hand: dealer None = "whoever the rules say" (U2.3), so an edited
    earlier hand that changes who deals moves this deal with it."""
    refusal = session.add(StartHand(dealer=None))
    if refusal is None:
        ui.editing = None
        ui.mode = "meld"
        ui.hand = []
        ui.picked = None
        ui.reset_entry()
    return refusal


def _between_hands(table: Table) -> ft.Control:
    """After a hand: the deal of the next one (who and why) and its button."""
    session, summary, ui = table.session, table.summary, table.ui
    deal = summary.detail.next_deal
    hint = f"{summary.detail.hand_label}: {deal.text}." if deal is not None else ""
    start = Primary(
        f"Start hand {len(summary.hands) + 1}",
        "next-hand-start",
        lambda: _start_next(session, ui),
        icon=ft.Icons.PLAY_ARROW,
    )
    return EntryBar(
        session, None, start, hint=hint, hint_rule=deal.rule if deal else None, ident="next-hand"
    )


def _empty_stock(table: Table) -> ft.Control:
    """U4.6 as the referee words it: a second tap ends the hand on an empty stock.  It
    lives at the top of the board, far from the entry's action."""
    session, ui = table.session, table.ui
    v = session.judge(EndHandEmptyStock())
    asked = ui.confirm == "stock"

    def tap(_: Any) -> None:
        if ui.confirm != "stock":
            ui.confirm = "stock"
            return
        before = session.summary
        if session.add(EndHandEmptyStock()) is None:
            after = session.summary
            if isinstance(before, UmtaliSummary) and isinstance(after, UmtaliSummary):
                ui.after_entry([], before, after)

    button = ft.OutlinedButton(
        "Tap again: end the hand, stock empty" if asked else "Stock ran out: end hand",
        icon=ft.Icons.LAYERS_CLEAR,
        on_click=tap,
        disabled=not v.legal,
        height=44,
    )
    return ft.Row([tag(button, "empty-stock"), rule_link(v.rule, "empty-stock-rule")], wrap=True)


@dataclass(frozen=True)
class _Edit:
    """A hand row's Edit: equal from render to render (the sheet is memoized)."""

    taps: Taps

    def __call__(self, n: int) -> None:
        session = self.taps.session
        latest = session.summary
        if isinstance(latest, UmtaliSummary):
            start_edit(self.taps.ui, latest, session.actions, n)


def _sheet(table: Table) -> list[ft.Control]:
    summary, ui = table.summary, table.ui
    out: list[ft.Control] = [
        ft.Text("Score sheet", size=16, weight=ft.FontWeight.BOLD),
        hands_sheet(summary, on_edit=_Edit(table.taps), editing=ui.editing),
    ]
    if ui.editing is not None:
        out.append(UmtaliHandEditor(table))
    return out


def scoreline_words(summary: UmtaliSummary) -> tuple[str, str]:
    """The collapsed scoreboard: "Ann 22 · Bob 16" over "Hand 2 of 4 · Bob to play"
    (or whose final turn it is, or the result)."""
    totals = totals_words(summary.players, summary.totals)
    current = summary.detail.current
    label = summary.detail.hand_label
    if current is None:
        result = summary.detail.result
        return totals, result.text if summary.finished and result else label
    if current.phase == Phase.FINAL:
        return totals, f"{current.went_out} went out: {current.turn}'s final turn"
    return totals, f"{label} · {current.turn} to play" if current.turn else label


def _in_play(table: Table, scoreboard: Scoreboard) -> ft.Control:
    """The hand in play: the sides' totals fixed at the top; below them the board and
    the entry scroll as one tall area held at its bottom (``thumb_board_screen``), so
    a board of any size is reached by scrolling, the entry starts next to the bar,
    and what opens on the board (the score sheet, the best line) opens next to the
    entry, in sight."""
    summary, ui = table.summary, table.ui
    board: list[ft.Control] = [UmtaliSides(table)]
    board += hand_note(ui, summary, shown=table.shows_hand)
    if ui.mode == "hand" and table.shows_hand:
        board += suggestion_panel(ui, summary, table.suggestion)
    if scoreboard.open or ui.editing is not None:
        board += (
            [*_sheet(table), _empty_stock(table)] if summary.phase == Phase.PLAY else _sheet(table)
        )
    # the pile's top in a slot of its own size at the head's end: what it shows never
    # moves the totals or anything under them
    head = [
        ft.Row(
            [ft.Container(side_totals(summary), expand=True), DiscardTop(summary)],
            spacing=0,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    ]
    if ui.editing is not None:  # correcting a finished hand: the board gets the room
        done = Primary("Back to the hand", "edit-done", lambda: _close_editor(ui), icon=None)
        bar = EntryBar(table.session, None, done, hint="Correcting a finished hand.")
        return thumb_board_screen(head=head, board=board, bar=bar)
    rows, bar = umtali_entry(table)
    return thumb_board_screen(head=head, board=board, entry=rows, bar=bar)


def _close_editor(ui: TableUi) -> None:
    ui.editing = None


def _new_ui() -> TableUi:
    return TableUi()


@fills_screen(scoreline_words)
@ft.component
def UmtaliTable(session: GameSession) -> ft.Control:
    first: TableUi = ft.use_memo(_new_ui, [])
    ui, _ = ft.use_state(first)  # observable: a change to it re-renders the table
    # the panels' handlers: one object while the table is open (memoized panels)
    taps: Taps = ft.use_memo(lambda: Taps(session, first), [session])
    scoreboard = use_scoreboard()
    summary = session.summary
    if not isinstance(summary, UmtaliSummary):  # not an Umtali game: nothing to show
        return ft.Text("This is not an Umtali game.")
    suggestion, refused = suggest_for(session, summary, ui)
    table = Table(session, summary, ui, taps, suggestion, refused)
    if summary.detail.current is not None:
        return _in_play(table, scoreboard)
    last = [hand_result(summary.hands[-1], summary.players)] if summary.hands else []
    if summary.finished:  # the ending every game shares, with the last hand and the sheet
        return GameOver(session, sheet=_sheet(table), extras=last)
    return thumb_screen(board=[*last, *_sheet(table)], bar=_between_hands(table))
