"""The Rummoli table: the board, the stacks, and the round step by step.

The screen follows the referee's phase (``session.summary.phase``), one
component per phase (``companion/components/rummoli_*.py``):

* **idle** -- the last round's settlement (every chip movement per player from
  the ledger, each linked to its rule), then "Deal round N" or "End the game";
* **widow** -- the ante and the deal sizes, then the widow: the dealer's blind
  swap, an auction, or nobody (pay cards are asked about first);
* **poker** / **final** -- bets and folds, then tap the winner(s) or enter the
  hands for the referee to judge;
* **play** -- the Rummoli phase: a quick settlement or a live card log;
* **over** -- the standings and the final poker.

The view is thin: every chip count, verdict, note and rule comes from the
referee (``session.summary``, ``session.judge``); a tap becomes an action the
session judges and records.  Undo and redo live in the frame (``views/play.py``).
"""

from __future__ import annotations

import flet as ft

from companion.components.common import said
from companion.components.rummoli_board import board, stacks
from companion.components.rummoli_final import OverPanel
from companion.components.rummoli_idle import IdlePanel
from companion.components.rummoli_parts import TableUi, summary_of, use_ui
from companion.components.rummoli_play import PlayPanel
from companion.components.rummoli_poker import PokerPanel
from companion.components.rummoli_widow import WidowPanel
from companion.session import GameSession
from rulesets.rummoli import Phase, RummoliSummary

__all__ = ["RummoliTable"]


def _notes_on_stacks(summary: RummoliSummary) -> dict[str, str]:
    """ "folded" / "bet 2" under each stack while a poker is played."""
    betting = summary.detail.betting
    if betting is None:
        return {}
    notes = {p: "folded" for p in betting.folded}
    notes.update({p: f"bet {n}" for p, n in betting.bets.items() if n and p not in notes})
    return notes


def _top(session: GameSession, table: TableUi) -> list[ft.Control]:
    """The board (pots tappable in a quick settlement), the stacks, the chip count."""
    summary = summary_of(session)
    d = summary.detail
    play = d.play
    quick = play is not None and play.mode != "live" and table.play_mode == "quick"
    taps = play.open_pots if quick and play is not None else ()
    in_round = summary.phase in (Phase.WIDOW, Phase.POKER, Phase.PLAY)
    chips = f"Chips on the table: {d.chips_total}"
    seen = chips + (f" (started with {d.chips_added})" if d.chips_added != d.chips_total else "")
    return [
        ft.Semantics(
            content=board(
                d.pots,
                pool=d.pool,
                on_tap=(lambda pot: table.tap_pot(pot, len(session.actions))) if taps else None,
                selected=table.tapped_pot(len(session.actions)),
                taps=taps,
            ),
            identifier="board",
            container=True,
        ),
        stacks(
            summary.players,
            summary.totals,
            dealer=None if summary.phase in (Phase.FINAL, Phase.OVER) else summary.dealer,
            in_game=d.in_game,
            ante=d.ante,
            held=d.held if in_round else None,
            note=_notes_on_stacks(summary),
        ),
        said(
            ft.Text(seen, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            chips,
            "chips-total",
        ),
    ]


def _panel(session: GameSession, phase: Phase, table: TableUi) -> ft.Control:
    """The phase's component.  Each forgets its half-made choices after an entry
    (``Draft``); the modes chosen are the table's and stay."""
    key = str(phase)
    if phase is Phase.IDLE:
        return IdlePanel(session, key=key)  # type: ignore[call-arg]
    if phase is Phase.WIDOW:
        return WidowPanel(session, key=key)  # type: ignore[call-arg]
    if phase in (Phase.POKER, Phase.FINAL):
        return PokerPanel(session, table, key=key)  # type: ignore[call-arg]
    if phase is Phase.PLAY:
        return PlayPanel(session, table, key=key)  # type: ignore[call-arg]
    if phase is Phase.OVER:
        return OverPanel(session, key=key)  # type: ignore[call-arg]
    return ft.Text("This game has no starting chips recorded.")


@ft.component
def RummoliTable(session: GameSession) -> ft.Control:
    ft.use_state(session)  # re-render when the session changes
    table = use_ui(TableUi)
    phase = summary_of(session).phase
    return ft.ResponsiveRow(
        [
            ft.Column(_top(session, table), spacing=10, col={"xs": 12, "md": 5}),
            ft.Column([_panel(session, phase, table)], spacing=10, col={"xs": 12, "md": 7}),
        ],
        spacing=12,
        run_spacing=12,
    )
