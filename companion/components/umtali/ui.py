"""What the Umtali table screen remembers between taps: an observable dataclass.

Nothing here is saved or decides a rule: it is the half-made entry (cards
picked, anchor tapped, the going-out pair and discard), who is acting, the
acting player's private hand, and which
finished hand is being corrected.  Handlers read this object, never a render's
local copy, so a tap that arrives right after another always sees the latest
picks (Flet pitfall P6).

Turn order drives the entry (:meth:`TableUi.after_entry`): after each entry the
acting player is whoever the referee says is on turn (after a player went out,
the other player, for the final turn), and the mode is the likely next one --
melding (an anchor tap turns it into an extension), and once the final turn
has had an entry, the leftovers.  Both stay one tap from any other choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import flet as ft

from companion.session import GameSession
from rulesets.cards import Card
from rulesets.protocol import Verdict
from rulesets.umtali import (
    Discard,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    Phase,
    Suggestion,
    UmtaliAction,
    UmtaliSummary,
)

__all__ = ["Table", "TableUi", "Taps", "cards_of", "next_mode", "on_table", "sees_private"]


@ft.observable
@dataclass
class TableUi:
    """The Umtali table's UI state (one per open table)."""

    mode: str = "meld"
    #: a name tapped in the "Acting" row; None follows the referee's turn
    picked: str | None = None
    cards: list[Card] = field(default_factory=list)
    anchor: tuple[str, int] | None = None
    pair: list[Card] = field(default_factory=list)
    out_discard: list[Card] = field(default_factory=list)
    face_down: bool = False
    #: which part the going-out / leftovers picker fills: "pair" or "discard"
    part: str = "pair"
    #: the private hand entered on this device, and whose it is
    hand: list[Card] = field(default_factory=list)
    owner: str | None = None
    #: the finished hand being corrected, and its corrected leftovers
    editing: int | None = None
    fix: list[Card] = field(default_factory=list)
    #: a button waiting for its confirming second tap ("stock", "reopen-2")
    confirm: str = ""

    def acting(self, summary: UmtaliSummary) -> str:
        """Who the entry is for: the tapped name, else whose turn the referee says it is."""
        players = summary.players
        if self.picked in players and self.picked:
            return self.picked
        return summary.turn or players[0]

    def private(self, summary: UmtaliSummary, *, shown: bool = True) -> list[Card]:
        """The acting player's private hand, if this device holds it (and ``shown``:
        this device may show that player's hand, see :func:`sees_private`)."""
        return list(self.hand) if shown and self.owner == self.acting(summary) else []

    def reset_entry(self) -> None:
        self.cards = []
        self.anchor = None
        self.pair = []
        self.out_discard = []
        self.face_down = False
        self.part = "pair"
        self.confirm = ""

    def after_entry(
        self, actions: Sequence[UmtaliAction], before: UmtaliSummary, after: UmtaliSummary
    ) -> None:
        """An entry was recorded: its cards leave the private hand; the acting player
        follows the referee's turn again, and the mode is the likely next one."""
        if self.hand and self.owner == self.acting(before):
            used = {c for a in actions for c in cards_of(a)}
            self.hand = [c for c in self.hand if c not in used]
        self.picked = None
        self.reset_entry()
        self.mode = next_mode(actions, after)

    def extend_onto(self, anchor: tuple[str, int]) -> None:
        """An anchor was tapped: the entry becomes an extension of that meld (a card
        already picked for a meld or a discard stays picked)."""
        if self.mode != "extend":
            keep = self.cards[:1] if self.mode in ("meld", "discard") else []
            self.reset_entry()
            self.cards = keep if len(self.cards) <= 1 else []
            self.mode = "extend"
        self.anchor = anchor  # idempotent: a tap may arrive both as a semantic and a pointer tap


def sees_private(session: object, player: str) -> bool:
    """May this device show ``player``'s private hand ("My hand")?  At a table of
    several devices only the device of that player's seat; a screen alone, always
    (``session.private_view``; a session without it is a screen alone)."""
    view = getattr(session, "private_view", None)
    return bool(view(player)) if callable(view) else True


def next_mode(actions: Sequence[UmtaliAction], after: UmtaliSummary) -> str:
    """The likely next entry after ``actions`` were recorded (as the table plays it).

    In play: another meld (or, with an anchor tap, an extension).  After a player
    went out: the other player's final turn starts with melding; once that final
    turn has had an entry, its leftovers.
    """
    current = after.detail.current
    if current is None or not actions:
        return "meld"
    if current.phase == Phase.FINAL and not isinstance(actions[-1], GoOut):
        return "leftovers"
    return "meld"


def cards_of(action: UmtaliAction) -> tuple[Card, ...]:
    """The cards an action takes out of a hand."""
    if isinstance(action, Meld | Leftovers):
        return action.cards
    if isinstance(action, Extend | Discard):
        return (action.card,)
    if isinstance(action, GoOut):
        return (*action.pair, *(() if action.discard is None else (action.discard,)))
    return ()


def on_table(summary: UmtaliSummary) -> frozenset[Card]:
    """Every card on either side of the hand in play (no picker offers them)."""
    current = summary.detail.current
    return frozenset(current.on_table) if current else frozenset()


@dataclass(frozen=True, eq=False)
class Taps:
    """What the table's panels do when tapped: one object for as long as the table is open.

    A panel drawn by a memoized component (``ft.memo``) is given this object, never a
    closure made at each render (a new closure is a changed prop, so the panel would
    be drawn again on every update of every device).  Each handler reads the UI state
    and the game when it runs, not when the panel was drawn (P6).  Not observable: a
    component given it does not subscribe to it.
    """

    session: GameSession
    ui: TableUi

    def clear_refusal(self) -> None:
        """A refusal never blocks the next entry: any new choice dismisses it."""
        if self.session.error is not None:
            self.session.clear_error()

    def pick_anchor(self, anchor: tuple[str, int]) -> None:
        """A meld on the board was tapped: extend it."""
        self.ui.extend_onto(anchor)
        self.clear_refusal()

    def pick_acting(self, name: str) -> None:
        self.ui.picked = name
        self.ui.reset_entry()
        self.clear_refusal()

    def toggle_hand(self) -> None:
        """ "My hand" on or off (the chip is drawn only where the hand may show)."""
        self.ui.mode = "meld" if self.ui.mode == "hand" else "hand"
        self.ui.reset_entry()

    def pick_mode(self, mode: str) -> None:
        self.ui.mode = mode
        self.ui.reset_entry()
        self.clear_refusal()

    def clear(self, field: str) -> None:
        """Empty one list of the entry (the strip's clear button)."""
        setattr(self.ui, field, [])

    def fill_part(self, part: str) -> None:
        """Which part of a going-out (or of the leftovers) the grid fills now."""
        self.ui.part = part

    def flip_face_down(self) -> None:
        self.ui.face_down = not self.ui.face_down

    def choose(self, field: str, owner: str, cards: list[Card]) -> None:
        """The grid's new choice for ``field`` (the private hand becomes ``owner``'s)."""
        if field == "hand":
            self.ui.owner = owner
        setattr(self.ui, field, cards)
        self.clear_refusal()


@dataclass(frozen=True, eq=False)
class Table:
    """What each panel of the table is given: the session, its typed summary, the UI state.

    A plain holder, not observable: the table component alone subscribes to the
    session and to the UI state and renders its panels, so one change renders
    each panel once (a panel subscribed itself would render a second time).
    """

    session: GameSession
    summary: UmtaliSummary
    ui: TableUi
    #: the handlers of the table's panels (the same object from render to render)
    taps: Taps
    #: in "My hand": the referee's best line for the private hand, or why there is none
    suggestion: Suggestion | None = None
    refused: Verdict | None = None

    @property
    def shows_hand(self) -> bool:
        """Whether this device may show the acting player's private hand."""
        return sees_private(self.session, self.ui.acting(self.summary))

    def private(self) -> list[Card]:
        """The acting player's private hand, if this device holds it and may show it."""
        return self.ui.private(self.summary, shown=self.shows_hand)
