"""The Rummy referee's working state: the melds on the table, the hand in play, and
what the house rules make of the scoring.

The state is plain mutable dataclasses; a push applies the action to a
:func:`rulesets.snapshot.capture` of it, so a refused action changes nothing
and ``pop`` returns to the state kept before the push.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets.cards import Card, parse_cards
from rulesets.errors import IllegalActionError
from rulesets.protocol import Action, LedgerEntry, Units
from rulesets.rummy.house_rules import RummyRules
from rulesets.rummy.melds import (
    MeldShape,
)
from rulesets.rummy.summary import (
    RummyHand,
    RummyMeld,
)

ActionIn = Action | dict[str, Any]
HandIn = Sequence[Card | str] | str | None


def scoring(rules: RummyRules) -> str:
    """How hands are scored: ``"cash"`` (A-R13), ``"winner_takes_all"`` or ``"penalty"``."""
    if rules.cash:
        return "cash"
    return "winner_takes_all" if rules.winner_takes_all else "penalty"


def higher_is_better(rules: RummyRules) -> bool:
    """Penalty points: lower is better (R6.3); points won or cash balances: higher (A-R16)."""
    return scoring(rules) != "penalty"


def units(rules: RummyRules) -> Units:
    return Units.PENALTY if scoring(rules) == "penalty" else Units.POINTS


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its number, owner and shape (frozen record)."""

    index: int
    owner: str
    shape: MeldShape

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.shape.cards

    @property
    def kind(self) -> str:
        return self.shape.kind

    def to_model(self) -> RummyMeld:
        return RummyMeld(
            index=self.index,
            owner=self.owner,
            kind=self.shape.kind,
            cards=self.shape.cards,
            jokers=self.shape.stands_for(),
        )

    def to_json(self) -> dict[str, Any]:
        return self.to_model().to_json()


@dataclass(slots=True)
class Hand:
    """The hand in play (mutable; every push works on a :func:`capture` of the state)."""

    number: int
    dealer: str
    turns: bool
    melds: list[TableMeld] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)  # cards put on the table
    spent: dict[str, int] = field(default_factory=dict)  # cards gone from a hand for good
    melded: set[str] = field(default_factory=set)  # players with a meld of their own
    earlier: set[str] = field(default_factory=set)  # placed cards before someone else did
    seen: set[Card] = field(default_factory=set)  # natural cards on the table
    jokers_out: int = 0
    # turn tracking (turns=True only)
    counts: dict[str, int] = field(default_factory=dict)
    turn: str | None = None
    drawn: bool = False
    drawn_discard: Card | None = None
    melds_this_turn: int = 0
    placed_before_turn: bool = False
    stock: int = 0
    stock_known: list[Card | None] = field(default_factory=list)  # no_shuffle: top first
    pile: list[Card | None] = field(default_factory=list)  # bottom first; None = not named
    held: set[Card] = field(default_factory=set)  # named cards drawn into a hand
    reshuffles: int = 0
    out: str | None = None  # who emptied their hand
    rummy: bool = False

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


@dataclass(slots=True)
class State:
    hand: Hand | None
    results: tuple[RummyHand, ...]
    totals: dict[str, int]
    next_dealer: str | None
    ledger: tuple[LedgerEntry, ...] = ()  # every hand's entries, in order (kept, not rebuilt)
    penalties: dict[str, int] = field(default_factory=dict)  # penalties summed per player


@dataclass(frozen=True, slots=True)
class Loss:
    """What one loser's hand-end entry comes to."""

    penalty: int
    cards: tuple[Card, ...] | None  # None: typed


#: actions in the words of a refusal.
WORDS = {
    "draw": "draw",
    "meld": "meld",
    "lay_off": "lay-off",
    "swap_joker": "joker swap",
    "discard": "discard",
}


def refuse(message: str, rule: str, words: str | None = None) -> IllegalActionError:
    return IllegalActionError(message, rule=rule, words=words)


def entered(hand: HandIn) -> tuple[Card, ...] | None:
    if hand is None:
        return None
    return parse_cards(hand if isinstance(hand, str) else list(hand))
