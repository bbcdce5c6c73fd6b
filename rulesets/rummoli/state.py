"""The referee's working state and the small helpers every handler shares.

The state is plain mutable dataclasses, captured before every action
(:func:`rulesets.snapshot.capture`, one rule for every field) so that a refused
action never touches the live state and ``pop`` can return to the previous
snapshot.  Seats are indices here; the outside world (actions, summary,
ledger) sees names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rulesets import seats
from rulesets.cards import Card, Color
from rulesets.errors import IllegalActionError
from rulesets.protocol import LedgerEntry
from rulesets.rummoli.board import (
    ANTE,
)
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummoli.results import FinalResult, PokerResult, WidowResult
from rulesets.snapshot import HISTORY

__all__ = [
    "Phase",
    "RoundLog",
    "RoundState",
    "State",
    "clockwise_from",
    "final_dealer",
    "illegal",
    "left_of",
    "next_dealer",
    "pay_into",
    "pay_out",
    "record",
    "seat_of",
]


class Phase(StrEnum):
    """Where a Rummoli game stands."""

    SETUP = "setup"  #: no starting stacks yet
    IDLE = "idle"  #: between rounds (deal, adjust or end next)
    WIDOW = "widow"  #: dealt; the widow is being settled (M2.2-M2.3)
    POKER = "poker"  #: the poker phase (M4)
    PLAY = "play"  #: the Rummoli (stops) phase (M5)
    FINAL = "final"  #: the game was ended; final poker to play (M7.2)
    OVER = "over"  #: the board is empty; most chips wins (M7.3)


@dataclass
class RoundLog:
    """What a round did, kept for its summary (the chips are in the global ledger)."""

    number: int
    dealer: int
    poker: PokerResult | None = None
    won: dict[str, int] = field(default_factory=dict)
    widow: WidowResult | None = None
    out: int | None = None
    impasse: bool = False
    held: list[int] = field(default_factory=list)
    laid: list[tuple[int, Card]] = field(default_factory=list)
    mode: str | None = None
    finished: bool = False
    carried: dict[str, int] = field(default_factory=dict)
    gone: list[int] = field(default_factory=list)  #: out of the game at this deal (M7.1)
    order: list[int] = field(default_factory=list)  #: seats dealt to, from the dealer's left
    sizes: list[int] = field(default_factory=list)  #: cards dealt, same order, widow last
    entries: list[LedgerEntry] = field(default_factory=list)  #: this round's part of the ledger


@dataclass
class RoundState:
    """Public knowledge about the round in play (what the live referee infers)."""

    dealer: int
    counts: list[int]
    widow_count: int
    bets: list[int]
    folded: set[int] = field(default_factory=set)
    starter: int | None = None
    laid: dict[Card, int] = field(default_factory=dict)
    dead: set[Card] = field(default_factory=set)
    void: dict[int, set[Color]] = field(default_factory=dict)
    floor: dict[int, dict[Color, int]] = field(default_factory=dict)
    last: tuple[int, Card] | None = None
    shown: dict[Card, int] = field(default_factory=dict)
    dead_hand: set[Card] = field(default_factory=set)


@dataclass
class State:
    """Everything the referee knows; ``ledger`` is every chip movement, in order."""

    players: list[str]
    rules: RummoliRules
    phase: Phase = Phase.SETUP
    stacks: list[int] = field(default_factory=list)
    pots: dict[str, int] = field(default_factory=dict)
    pool: int = 0
    in_game: list[bool] = field(default_factory=list)
    dealer: int = 0
    dealt_before: bool = False
    added: int = 0
    round: RoundState | None = None
    rounds: list[RoundLog] = field(default_factory=list, metadata=HISTORY)
    ledger: list[LedgerEntry] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)
    final_queue: list[str] = field(default_factory=list)
    final_bets: list[int] = field(default_factory=list)
    final_folded: set[int] = field(default_factory=set)
    final_log: list[FinalResult] = field(default_factory=list)
    adjustments: list[dict[str, Any]] = field(default_factory=list)

    @property
    def hand(self) -> int | None:
        """The number of the round whose chips move now (None outside a round)."""
        if self.phase in (Phase.WIDOW, Phase.POKER, Phase.PLAY) and self.rounds:
            return self.rounds[-1].number
        return None

    def name(self, seat: int) -> str:
        return self.players[seat]


# --------------------------------------------------------------------------- helpers


def illegal(msg: str, rule: str, words: str | None = None) -> IllegalActionError:
    return IllegalActionError(msg, rule=rule, words=words)


def seat_of(s: State, who: int | str | None, what: str) -> int:
    """The seat of a player named by name or by seat number (old records)."""
    if isinstance(who, bool) or who is None:
        raise illegal(f"{what}: {who!r} is not a player", rule="M1.1")
    if isinstance(who, int):
        if not 0 <= who < len(s.players):
            raise illegal(
                f"{what}: seat {who} does not exist (seats 0-{len(s.players) - 1})", rule="M1.1"
            )
        return who
    if who in s.players:
        return s.players.index(who)
    folded = [p.casefold() for p in s.players]
    key = who.strip().casefold()
    if key in folded:
        return folded.index(key)
    raise illegal(f"{what}: {who!r} is not a player here ({', '.join(s.players)})", rule="M1.1")


def clockwise_from(s: State, seat: int) -> list[int]:
    """In-round seats holding cards, clockwise starting at ``seat`` itself."""
    r = s.round
    if r is None:
        return []
    return [
        q for q in seats.starting_at(range(len(s.players)), seat) if s.in_game[q] and r.counts[q]
    ]


def left_of(s: State, seat: int) -> list[int]:
    """In-game seats clockwise starting at the seat left of ``seat``."""
    return [q for q in seats.after(range(len(s.players)), seat) if s.in_game[q]]


def next_dealer(s: State) -> int:
    """Who deals the next round: one seat clockwise (M6.3), skipping players who
    cannot pay the ante and so will be out of the game (M7.1)."""
    order = seats.after(range(len(s.players)), s.dealer)
    return next((q for q in order if s.in_game[q] and s.stacks[q] >= ANTE), order[0])


def final_dealer(s: State) -> int:
    """Who deals the final poker (A-M18): the next dealer in rotation after the last
    round -- one seat clockwise among the players still in the game (M6.3).  Nobody
    antes for the final poker, so a short stack does not skip the deal (M7.1)."""
    if not s.dealt_before:
        return s.dealer
    left = left_of(s, s.dealer)
    return left[0] if left else s.dealer


def record(s: State, entry: LedgerEntry) -> None:
    """Add a chip movement to the ledger (and to its round's part of it)."""
    s.ledger.append(entry)
    if entry.hand is not None:
        s.rounds[-1].entries.append(entry)


def pay_into(
    s: State,
    seat: int,
    pot: str,
    n: int,
    *,
    kind: str,
    label: str,
    rule: str,
    detail: str = "",
    hand: int | None = None,
) -> int:
    """``seat`` pays ``n`` chips into ``pot`` ("final" = the final-poker pool), or every
    chip they have if that is fewer (A-M17); the ledger notes the shortfall."""
    paid = min(n, s.stacks[seat])
    if paid < n:
        detail = (detail + "; " if detail else "") + f"had only {paid}"
    s.stacks[seat] -= paid
    if pot == "final":
        s.pool += paid
    else:
        s.pots[pot] += paid
    if paid or n:
        record(
            s,
            LedgerEntry(
                player=s.name(seat),
                amount=-paid,
                kind=kind,
                rule=rule,
                hand=hand,
                label=label,
                detail=detail,
            ),
        )
    return paid


def pay_out(
    s: State,
    pot: str,
    seat: int,
    n: int,
    *,
    kind: str,
    label: str,
    rule: str,
    detail: str = "",
    hand: int | None = None,
    cards: tuple[str, ...] = (),
) -> None:
    """``seat`` collects ``n`` chips from ``pot`` ("final" = the final-poker pool)."""
    if pot == "final":
        s.pool -= n
    else:
        s.pots[pot] -= n
    s.stacks[seat] += n
    record(
        s,
        LedgerEntry(
            player=s.name(seat),
            amount=n,
            kind=kind,
            rule=rule,
            hand=hand,
            label=label,
            detail=detail,
            cards=cards,
        ),
    )
