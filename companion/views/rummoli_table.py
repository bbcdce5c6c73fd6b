"""The Rummoli table for one thumb: the table above, the entry below, the verdict at the bottom.

The screen follows the referee's phase (``session.summary.phase``), one
panel per phase (``companion/components/rummoli/``) around the table that
every phase shows -- the board, the stacks, the chip count -- which this
component draws itself, so that a phase change (a deal, its undo) keeps them on
every device and patches their figures, and only the panel is drawn anew:

* **idle** -- the last round's settlement (every chip movement per player from
  the ledger, each linked to its rule), then "Deal round N" (or end the game);
* **widow** -- the ante and the deal sizes, then the widow: the dealer's blind
  swap, an auction, or nobody (pay cards are asked about first);
* **poker** / **final** -- bets and folds, then tap the winner(s) or enter the
  hands for the referee to judge;
* **play** -- the Rummoli phase: a quick settlement or a live card log;
* **over** -- the standings and the final poker.

Each phase lays itself out on the thumb kit (``thumb_screen``) as one column that
scrolls as a whole -- what this step asks first (the bettors, who won, the pot
tapped and who laid it, who went out and every other player's cards held, the
card grid), then the table (pots, stacks, what happened) -- and the ``EntryBar``
(the referee's verdict, Undo and the one button that records the entry -- pinned
at the bottom).  At eight players no part sits in a box of its own that would be
squeezed or cut (issue 18); nothing above a target changes height, so nothing
moves under a finger.  The play frame shows :func:`scoreline` as the collapsed
scoreboard.

The view is thin: every chip count, verdict, note and rule comes from the
referee (``session.summary``, ``session.judge``); a tap becomes an action the
session judges and records.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.components.kit.scoreline import use_scoreboard
from companion.components.kit.thumb_screen import fills_screen
from companion.components.rummoli.final import OverPanel
from companion.components.rummoli.idle import IdleUi, idle_panel
from companion.components.rummoli.parts import (
    Panel,
    TableUi,
    panel_screen,
    summary_of,
    table_top,
    use_ui,
)
from companion.components.rummoli.play import LiveUi, QuickUi, play_panel
from companion.components.rummoli.poker import PokerUi, poker_panel
from companion.components.rummoli.widow import WidowUi, widow_panel
from companion.session import GameSession
from rulesets.rummoli import Phase, RummoliSummary

__all__ = ["RummoliTable", "scoreline"]


def _doing(summary: RummoliSummary) -> str:
    """What the table is doing now, in a few words (from the referee's state)."""
    d = summary.detail
    phase = summary.phase
    if phase is Phase.IDLE:
        return f"{d.next_dealer or summary.dealer} deals next"
    if phase is Phase.WIDOW:
        return f"{summary.dealer} dealt · the widow"
    if phase in (Phase.POKER, Phase.FINAL):
        betting = d.betting
        word = "Final poker" if phase is Phase.FINAL else "Poker"
        opens = (
            f" · {betting.first} opens"
            if betting is not None and betting.betting and betting.first
            else ""
        )
        return word + opens
    if phase is Phase.PLAY:
        return "Laying cards" + (f" · {summary.turn} to lay" if summary.turn else "")
    return "Game over"


def scoreline(summary: RummoliSummary) -> tuple[str, str]:
    """The collapsed scoreboard: every stack, then the round and what is being done."""
    stacks = " · ".join(f"{p} {summary.totals.get(p, 0)}" for p in summary.players)
    if summary.phase is Phase.OVER:
        return stacks, "Game over"
    number = (
        len(summary.hands) + 1
        if summary.phase is Phase.IDLE
        else (summary.hand or len(summary.hands))
    )
    return stacks, f"Round {number} · {_doing(summary)}"


@dataclass(frozen=True)
class _Drafts:
    """Each phase's half-made choices (``Draft``), kept by the table (one hook each, in
    the same order whatever the phase) and forgotten when the phase changes."""

    idle: IdleUi
    widow: WidowUi
    poker: PokerUi
    quick: QuickUi
    live: LiveUi

    def forget(self) -> None:
        for draft in (self.idle, self.widow, self.poker, self.quick, self.live):
            draft.forget()


def _panel(session: GameSession, phase: Phase, table: TableUi, drafts: _Drafts) -> Panel | None:
    """The phase's rows around the table and its bar."""
    if phase is Phase.IDLE:
        return idle_panel(session, drafts.idle)
    if phase is Phase.WIDOW:
        return widow_panel(session, drafts.widow)
    if phase in (Phase.POKER, Phase.FINAL):
        return poker_panel(session, table, drafts.poker)
    if phase is Phase.PLAY:
        return play_panel(session, table, drafts.quick, drafts.live)
    return None


@fills_screen(scoreline)
@ft.component
def RummoliTable(session: GameSession) -> ft.Control:
    ft.use_state(session)  # re-render when the session changes
    table = use_ui(TableUi)
    drafts = _Drafts(
        use_ui(IdleUi), use_ui(WidowUi), use_ui(PokerUi), use_ui(QuickUi), use_ui(LiveUi)
    )
    scoreboard = use_scoreboard()  # a tap on the collapsed scoreboard opens the rounds
    phase = summary_of(session).phase
    shown = ft.use_ref(phase)
    if shown.current is not phase:  # a new phase starts with nothing half-made
        drafts.forget()
        shown.current = phase
    if phase is Phase.OVER:  # the ending always shows the score sheet
        return OverPanel(session, key=str(phase))  # type: ignore[call-arg]
    if phase is Phase.SETUP:
        return ft.Text("This game has no starting chips recorded.")
    panel = _panel(session, phase, table, drafts)
    if panel is None:  # (the referee's phase without its view: nothing to draw yet)
        return ft.Container()
    return panel_screen(table_top(session, table, scoreboard.open), panel)
