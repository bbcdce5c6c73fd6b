"""The Umtali referee's state, and the small helpers every handler shares.

One snapshot rule for the three games (:func:`rulesets.snapshot.capture`,
python-chess's ``_BoardState``): :meth:`State.snapshot` captures the whole state
at once, and restoring it is one assignment; a field added later cannot be
forgotten by a hand-written ``clone``.  Here every field holds an immutable
value -- a number, a tuple, a frozenset, a frozen dataclass -- and a handler
*replaces* a field, never changes a value in place, so the capture shares them
all (``test_umtali_state_fields_are_immutable`` checks every field after random
games).  Seats are indices 0 and 1 here; the
outside world (actions, summary, ledger) sees names.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from rulesets.cards import Card, format_cards, parse_cards
from rulesets.errors import CardParseError, IllegalActionError, RecordError
from rulesets.protocol import LedgerEntry
from rulesets.snapshot import capture
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.melds import STOCK_AFTER_DEAL, MeldKind, accepted_cards, meld_points
from rulesets.umtali.summary import UmtaliHand, UmtaliMeld
from rulesets.words import quote_cards

__all__ = [
    "CardsIn",
    "HandResult",
    "Outcome",
    "Phase",
    "PlayerIn",
    "State",
    "TableMeld",
    "accepted",
    "close_turn",
    "doing",
    "fresh",
    "in_hand",
    "must_meld_now",
    "name_of",
    "next_dealer",
    "pile_lost",
    "pile_put",
    "pile_settle",
    "pile_take",
    "place",
    "read_cards",
    "taken_this_turn",
    "turn_of",
]

CardsIn = str | Card | Iterable[str | Card]
PlayerIn = str | int


class Phase(StrEnum):
    """Where the game stands: between hands, in play, in the final turn (U8.3), over."""

    IDLE = "idle"
    PLAY = "play"
    FINAL = "final"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """One meld on a side.  ``player`` put it down (for leftovers: whose hand they came
    from); ``anchor`` is (side player index, meld index) for an extension."""

    kind: MeldKind
    cards: tuple[Card, ...]
    player: int
    anchor: tuple[int, int] | None = None

    @property
    def points(self) -> int:
        return meld_points(self.kind, self.cards)

    def to_model(self, players: Sequence[str]) -> UmtaliMeld:
        return _meld_model(self, tuple(players))

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return self.to_model(players).to_json()


@functools.lru_cache(maxsize=8192)
def _meld_model(meld: TableMeld, players: tuple[str, ...]) -> UmtaliMeld:
    """A meld as the summary shows it (melds are frozen: each is converted once)."""
    return UmtaliMeld(
        kind=meld.kind,
        cards=meld.cards,
        points=meld.points,
        by=players[meld.player],
        anchor=None if meld.anchor is None else (players[meld.anchor[0]], meld.anchor[1]),
    )


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: its scores per player index, who went out, and both sides."""

    number: int
    dealer: int
    scores: tuple[int, int]
    went_out: int | None
    both_out: bool
    ended: str
    sides: tuple[tuple[TableMeld, ...], tuple[TableMeld, ...]]
    first_action: int = 0
    last_action: int = 0

    @property
    def winner(self) -> int | None:
        """The player whose side scored more in this hand; None on equal scores (A-U18)."""
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)


Sides = tuple[tuple[TableMeld, ...], tuple[TableMeld, ...]]


@dataclass(slots=True)
class State:
    """Everything the referee knows.  Every field holds an immutable value (see the
    module doc): handlers assign new values, never change one in place."""

    #: the two players, by seat (seat 0 is the first name of the record)
    players: tuple[str, str]
    #: the house rules in force (frozen)
    rules: UmtaliRules
    #: how many actions were applied before this state (an action's index in the record)
    recorded: int = 0
    #: between hands, in play, in the final turn after someone went out, over
    phase: Phase = Phase.IDLE
    #: every finished hand, in order (scores per seat and both sides' melds)
    hands: tuple[HandResult, ...] = ()
    #: the seat dealing the hand in play (None before the first deal)
    dealer: int | None = None
    #: the melds on each seat's side in this hand, in the order they went down
    sides: Sides = ((), ())
    #: every card on the table this hand (both sides): a card goes down once (U1.1)
    used: frozenset[Card] = frozenset()
    #: the seat whose turn it is, or was until its discard (``turn_open`` tells which)
    turn: int | None = None
    #: whether ``turn``'s turn is still going on (False once its discard was recorded)
    turn_open: bool = False
    #: whether anything was recorded in the open turn (a turn with nothing in it that
    #: the other player skips past is a turn that went unrecorded)
    turn_acted: bool = False
    #: turns counted this hand, from 1 (the first player's opening turn, U3.3)
    turn_no: int = 0
    #: the seat that plays first this hand (the 11-card player under ``deal_eleven_ten``)
    first_player: int = 0
    #: whether the open turn has had its draw (stock or discard pile, U4.1)
    drew: bool = False
    #: the cards taken from the discard pile in the open turn (not rediscarded, U4.3)
    taken: frozenset[Card] = frozenset()
    #: taken cards that must still be melded this turn (U4.2)
    pending: frozenset[Card] = frozenset()
    #: the order ``pending`` must go down in: D1 before D2 (U4.2)
    pending_order: tuple[Card, ...] = ()
    #: the seat that went out (the final turn is the other seat's, U8.3)
    went_out: int | None = None
    #: whether the going-out discard was face down (the final draw is from the stock, U8.2)
    face_down: bool = False
    #: whether the final turn's discard was recorded (only the leftovers may follow, U8.4)
    final_discarded: bool = False
    #: stock cards left if every draw was recorded (None: unknown after a reshuffle)
    stock_left: int | None = STOCK_AFTER_DEAL
    #: U4.2 taken one card at a time: the single card taken this turn (D1), while the
    #: top card (D2) may still be taken -- before D1 is melded, or right after
    d1: Card | None = None
    #: whether D1 went down as the first thing after it was taken (then D2 may follow)
    d1_melded: bool = False
    #: the final turn's discard (it is not a leftover, U8.4)
    final_card: Card | None = None
    #: the discard pile as far as the record shows it, bottom to top (the last card is
    #: the top): the cards discarded face up since the pile was last known, less the
    #: ones taken.  Empty when nothing is known -- the deal records no upcard (U3.1),
    #: and a turn that ended without its discard recorded hides what went on top
    pile: tuple[Card, ...] = ()
    #: whether ``pile`` is the whole pile, nothing unknown under it (the 11-10 deal
    #: starts with no pile at all, U3.1 variant)
    pile_whole: bool = False
    #: whether the top of the pile is the going-out player's face-down discard (U8.1)
    pile_face_down: bool = False
    #: whether ``pile`` takes the open turn's draw into account: a recorded draw or
    #: take, or a card of the pile melded; False from a turn's start until then (an
    #: unrecorded draw may have taken the top and kept it, U4.3)
    pile_drawn: bool = True
    #: the index of the action that dealt the hand in play
    hand_start: int = 0
    #: each finished hand as the summary shows it (built once, when the hand ends)
    hand_models: tuple[UmtaliHand, ...] = ()
    #: every finished hand's ledger entries, in order
    ledger: tuple[LedgerEntry, ...] = ()
    #: the ledger's sum per player, as (name, points) pairs (kept as hands end)
    totals: tuple[tuple[str, int], ...] = ()

    def snapshot(self) -> State:
        """The whole state, captured at once (see the module doc)."""
        return capture(self)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a legal action did, for its verdict."""

    kind: str
    points: int
    rule: str
    reason: str
    cards: tuple[Card, ...] = ()
    notes: tuple[str, ...] = ()


#: each action in the words of a message ("Drawing by Ann: ...").
_DOING: Final = {
    "start_hand": "Dealing a hand",
    "draw": "Drawing",
    "take_discards": "Taking from the discard pile",
    "meld": "Melding",
    "extend": "Extending",
    "discard": "Discarding",
    "go_out": "Going out",
    "leftovers": "Moving the leftovers",
    "end_hand_empty_stock": "Ending the hand on an empty stock",
}


def doing(what: str) -> str:
    return _DOING.get(what, what)


def name_of(s: State, player: PlayerIn) -> str:
    """A player's name from their name or seat (raises :class:`RecordError` otherwise)."""
    if isinstance(player, int) and not isinstance(player, bool):
        if player in (0, 1):
            return s.players[player]
    elif isinstance(player, str) and player in s.players:
        return player
    raise RecordError(f"{player!r}: not a player of this game ({', '.join(s.players)})")


def read_cards(cards: CardsIn) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(cards))
    except TypeError:
        raise CardParseError(f'{cards!r}: not cards (write e.g. "5H 6H 7H")') from None


def turn_of(s: State) -> int | None:
    """The seat whose turn it is (as far as the table reported), or None between hands."""
    if s.phase not in (Phase.PLAY, Phase.FINAL) or s.turn is None:
        return None
    return s.turn if s.turn_open else 1 - s.turn


def taken_this_turn(s: State, p: int) -> frozenset[Card]:
    """Cards seat ``p`` took from the discard pile in the turn now open (U4.3)."""
    return s.taken if s.turn == p and s.turn_open else frozenset()


def must_meld_now(s: State, p: int) -> tuple[Card, ...]:
    """Cards seat ``p`` took from the discard pile and must still meld this turn,
    in the order they must go down (U4.2: D1, then D2; or the dug card)."""
    if not (s.turn == p and s.turn_open and s.pending):
        return ()
    rest = tuple(c for c in sorted(s.pending) if c not in s.pending_order)
    return s.pending_order + rest


def next_dealer(s: State) -> int | None:
    if not s.hands:
        return None
    last = s.hands[-1]
    if s.rules.winner_deals and last.winner is not None:
        return last.winner  # A-U18: the higher scorer, not who went out
    return 1 - last.dealer


def fresh(s: State, cards: Sequence[Card], head: str) -> None:
    for c in cards:
        if c.is_joker:
            raise IllegalActionError(f"{head}: Umtali uses no jokers", rule="U1.1")
        if c in s.used:
            raise IllegalActionError(f"{head}: {c} is already on the table", rule="U1.1")
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"{head}: a card is listed twice", rule="U1.1")


def in_hand(hand: frozenset[Card] | None, cards: Sequence[Card], head: str) -> None:
    if hand is None:
        return
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalActionError(
            f"{head}: {format_cards(missing)} not in the hand entered "
            f"({format_cards(sorted(hand))})",
            rule="U5",
        )


def place(s: State, side: int, meld: TableMeld) -> None:
    sides = list(s.sides)
    sides[side] = (*sides[side], meld)
    s.sides = (sides[0], sides[1])
    s.used = s.used | set(meld.cards)
    _pile_melded(s, meld.cards)
    s.pending = s.pending - set(meld.cards)
    s.pending_order = tuple(c for c in s.pending_order if c in s.pending)
    if s.d1 is not None:  # D2 may follow only a D1 melded at once (U4.2)
        if not s.d1_melded and s.d1 in meld.cards:
            s.d1_melded = True
        else:
            s.d1 = None


def close_turn(s: State) -> None:
    if s.pending and s.turn is not None:
        raise IllegalActionError(
            f"{quote_cards(sorted(s.pending))}: {s.players[s.turn]} took these from the discard "
            "pile and must meld them that same turn",
            rule="U4.2",
        )
    s.d1 = None


def accepted(s: State) -> frozenset[Card]:
    """Every card some meld on the table takes now (U6.2; the going-out pair, U8.3)."""
    out: set[Card] = set()
    for side in (0, 1):
        pair_open = s.phase is Phase.FINAL and side == s.went_out
        for m in s.sides[side]:
            out.update(accepted_cards(m.kind, m.cards, s.rules, pair_open=pair_open))
    return frozenset(out - s.used)


def pile_put(s: State, card: Card | None, *, face_down: bool = False) -> None:
    """A discard went on the pile (U4.5, U8.1, U8.4): face up it is the known top;
    face down nobody sees it, and what lies under it cannot be taken (U8.2)."""
    if card is None or face_down:
        s.pile, s.pile_whole, s.pile_face_down = (), False, card is not None
        return
    s.pile = (*s.pile, card)
    s.pile_face_down = False


def pile_take(s: State, cards: Sequence[Card]) -> None:
    """``cards`` (top first) were taken from the pile (U4.1-U4.2): the top is what the
    record shows under them, or unknown -- the record showed other cards on top, or
    nothing under them, or ``empty_stock_reshuffle`` may have turned the cards under
    the top into a new stock (U4.6) -- never a guess."""
    n = len(cards)
    top_first = tuple(reversed(s.pile[-n:])) if n else ()
    s.pile_drawn = True
    if n and len(s.pile) >= n and top_first == tuple(cards) and not s.rules.empty_stock_reshuffle:
        s.pile = s.pile[:-n]  # (an emptied pile that was not whole is unknown)
    else:
        pile_lost(s)


def _pile_melded(s: State, cards: Sequence[Card]) -> None:
    """A card of the known pile went down: it was taken, with every card above it
    (U4.1-U4.2; the table records the take or not)."""
    deepest = min((s.pile.index(c) for c in cards if c in s.pile), default=None)
    if deepest is not None:
        s.pile = s.pile[:deepest]
        s.pile_drawn = True


def pile_settle(s: State) -> None:
    """The turn's player went on without recording a draw: if no card of the pile went
    down, the top may have been taken and kept (U4.3), so it is no longer known."""
    if not s.pile_drawn:
        s.pile_drawn = True
        if not s.pile_face_down:
            pile_lost(s)


def pile_lost(s: State) -> None:
    """What went on the pile is no longer known (a turn ended with no discard recorded)."""
    s.pile, s.pile_whole, s.pile_face_down = (), False, False
