"""Deals, turns and draws, and the end of a hand (U2-U4, U8.2-U8.3).

Each handler checks its action against the state and changes it (see
:mod:`rulesets.umtali.referee`).  A turn is told apart from the next by the
recorded discard, a new draw, or the other player acting.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import Card, distinct, format_cards
from rulesets.errors import IllegalActionError
from rulesets.umtali.actions import StartHand, TakeDiscards
from rulesets.umtali.melds import HANDS_PER_GAME, STOCK_AFTER_DEAL
from rulesets.umtali.report import hand_model
from rulesets.umtali.state import (
    HandResult,
    Outcome,
    Phase,
    State,
    close_turn,
    doing,
    fresh,
    name_of,
    next_dealer,
    pile_lost,
    pile_take,
)
from rulesets.words import quote_cards

__all__ = [
    "draw",
    "end_hand",
    "enter_final",
    "enter_turn",
    "start_hand",
    "take_discards",
]


def start_hand(s: State, a: StartHand) -> Outcome:
    """A new hand is dealt (U2.2-U2.3); the non-dealer plays first (U3.3)."""
    if s.phase is Phase.OVER:
        raise IllegalActionError(
            f"Dealing a hand: the game is over after {len(s.hands)} hands", rule="U2.1"
        )
    if s.phase is not Phase.IDLE:
        raise IllegalActionError(
            f"Dealing a hand: hand {len(s.hands) + 1} is still in progress; record how it "
            "ended (going out and the leftovers, or the empty stock)",
            rule="U2.1",
        )
    expected = next_dealer(s)
    dealer = expected if a.dealer is None else s.players.index(name_of(s, a.dealer))
    if dealer is None:
        dealer = 0
    if expected is not None and dealer != expected:
        how = "the winner deals" if s.rules.winner_deals else "the deal alternates"
        raise IllegalActionError(
            f"{s.players[dealer]} to deal: {how}, so "
            f"{s.players[expected]} deals hand {len(s.hands) + 1}",
            rule="U2.3",
        )
    s.phase = Phase.PLAY
    s.dealer = dealer
    s.sides = ((), ())
    s.used = frozenset()
    s.first_player = 1 - dealer
    s.turn = 1 - dealer
    s.turn_open = True
    s.turn_acted = False
    s.turn_no = 1
    s.drew = False
    s.taken = frozenset()
    s.pending = frozenset()
    s.pending_order = ()
    s.went_out = None
    s.face_down = False
    s.final_discarded = False
    s.stock_left = STOCK_AFTER_DEAL
    s.d1 = None
    s.hand_start = s.recorded
    # the deal's upcard is not recorded (U3.1); the 11-10 deal has no pile yet
    pile_lost(s)
    s.pile_whole = s.rules.deal_eleven_ten
    s.pile_drawn = s.rules.deal_eleven_ten  # the 11-card player does not draw
    return Outcome(
        "start_hand",
        0,
        "U3.3",
        f"hand {len(s.hands) + 1}: {s.players[dealer]} deals, {s.players[1 - dealer]} plays first",
    )


def enter_turn(s: State, p: int, what: str) -> None:
    """Find the turn seat ``p``'s action belongs to, opening a new one if it must."""
    second_take = what == "take_discards" and s.d1 is not None and s.turn == p
    if s.phase is Phase.FINAL:
        if s.drew and what in ("draw", "take_discards") and not second_take:
            raise IllegalActionError(
                f"{doing(what)} by {s.players[p]}: the final turn has one draw",
                rule="U8.3",
            )
        if p == s.went_out:
            raise IllegalActionError(
                f"{doing(what)} by {s.players[p]}: {s.players[p]} went out; only "
                f"{s.players[1 - p]} plays the final turn",
                rule="U8.3",
            )
        if s.final_discarded and what != "go_out":
            raise IllegalActionError(
                f"{doing(what)} by {s.players[p]}: the final turn ended with the discard; "
                "record the leftovers",
                rule="U8.4",
            )
        return
    new_draw = s.drew and what in ("draw", "take_discards") and not second_take
    if s.turn == p and s.turn_open and not new_draw:
        return
    # A new turn.  A second draw by the same player means the opponent's turn in
    # between went unrecorded (the app hears only what the table reports).
    if s.turn_open or s.turn == p:  # a turn ended with its discard unrecorded
        pile_lost(s)
    close_turn(s)
    s.pile_drawn = False
    s.turn = p
    s.turn_open = True
    s.turn_no += 1
    s.drew = False
    s.taken = frozenset()
    s.pending = frozenset()
    s.pending_order = ()
    s.d1 = None


def draw(s: State, p: int) -> Outcome:
    """A draw from the stock (U4.1)."""
    who = s.players[p]
    if s.drew:
        raise IllegalActionError(f"Drawing by {who}: one draw per turn", rule="U4.1")
    _no_first_draw(s, p, "draw")
    if s.stock_left == 0:
        if s.rules.empty_stock_reshuffle:
            s.stock_left = None
        else:
            empty = f"Drawing by {who}: the stock is empty; take the discard"
            raise IllegalActionError(
                f"{empty} (U4.2) or end the hand", rule="U4.6", words=f"{empty} or end the hand"
            )
    if s.stock_left is not None:
        s.stock_left -= 1
    s.drew = True
    s.pile_drawn = True
    return Outcome("draw", 0, "U4.1", f"{who} drew from the stock")


def _no_first_draw(s: State, p: int, what: str) -> None:
    if s.rules.deal_eleven_ten and s.turn_no == 1 and p == s.first_player:
        raise IllegalActionError(
            f"{doing(what)} by {s.players[p]}: with the 11-10 deal the 11-card player "
            "starts without drawing",
            rule="U3.3",
        )


def take_discards(s: State, p: int, a: TakeDiscards, hand: frozenset[Card] | None) -> Outcome:
    cards = distinct(a.cards, rule="U1.1")
    who = s.players[p]
    head = f"{who} takes {quote_cards(cards)}"
    if s.drew and s.d1 is not None:
        return _second_take(s, p, cards, hand)
    if s.drew:
        raise IllegalActionError(f"{head}: one draw per turn", rule="U4.1")
    _no_first_draw(s, p, "take_discards")
    if not cards:
        raise IllegalActionError(f"{head}: name the card(s) taken", rule="U4.1")
    if s.phase is Phase.FINAL and s.face_down:
        raise IllegalActionError(
            f"{head}: the going-out discard was face down, so the final draw must come "
            "from the stock",
            rule="U8.2",
        )
    fresh(s, cards, head)
    if len(cards) > 2 and not s.rules.discard_dig:
        raise IllegalActionError(
            f"{head}: at most two cards come from the discard pile", rule="U4.2"
        )
    if hand is not None and any(c in hand for c in cards):
        raise IllegalActionError(f"{head}: those cards are already in the hand", rule="U4.2")
    s.drew = True
    s.taken = frozenset(cards)
    s.d1 = cards[0] if len(cards) == 1 else None
    s.d1_melded = False
    _pend(s, cards)
    pile_take(s, cards)
    return Outcome("take_discards", 0, "U4.2", f"{who} took {quote_cards(cards)}", cards)


def _pend(s: State, cards: Sequence[Card]) -> None:
    """What a take of ``cards`` (top first) leaves to meld this turn (U4.2)."""
    if len(cards) == 2 and not s.rules.discard_dig:
        s.pending = frozenset(cards)
        s.pending_order = tuple(cards)
    elif len(cards) >= 2:
        s.pending = frozenset({cards[-1]})


def _second_take(s: State, p: int, cards: Sequence[Card], hand: frozenset[Card] | None) -> Outcome:
    """U4.2 taken one card at a time: D1 was taken alone, and D2 now.  The same rule as
    taking both at once: D2 (and D1, if still held) must be melded at once, D1 first."""
    d1 = s.d1
    assert d1 is not None
    who = s.players[p]
    head = f"{who} takes {quote_cards(cards)} after {d1}"
    if not cards:
        raise IllegalActionError(f"{head}: name the card(s) taken", rule="U4.1")
    fresh(s, cards, head)
    both = (d1, *cards)
    if d1 in cards:
        raise IllegalActionError(f"{head}: {d1} was already taken", rule="U4.2")
    if len(both) > 2 and not s.rules.discard_dig:
        raise IllegalActionError(
            f"{head}: at most two cards come from the discard pile", rule="U4.2"
        )
    if hand is not None and any(c in hand for c in cards):
        raise IllegalActionError(f"{head}: those cards are already in the hand", rule="U4.2")
    s.taken = s.taken | set(cards)
    if s.d1_melded:  # D1 went down at once: the rest must follow it (U4.2)
        _pend(s, both)
        s.pending = s.pending - {d1}
        s.pending_order = tuple(c for c in s.pending_order if c != d1)
    else:
        _pend(s, both)
    s.d1 = None
    pile_take(s, cards)
    return Outcome(
        "take_discards",
        0,
        "U4.2",
        f"{who} took {quote_cards(cards)} too: {format_cards(sorted(s.pending))} must be "
        "melded at once",
        tuple(cards),
    )


def enter_final(s: State, p: int, *, face_down: bool) -> None:
    """U8.2-U8.3: the opponent's one final turn begins."""
    s.phase = Phase.FINAL
    s.went_out = p
    s.face_down = face_down
    s.turn = 1 - p
    s.turn_open = True
    s.turn_acted = False
    s.turn_no += 1
    s.drew = False
    s.taken = frozenset()
    s.pending = frozenset()
    s.pending_order = ()
    s.final_discarded = False
    s.final_card = None
    s.d1 = None
    s.pile_drawn = face_down  # after a face-down discard nothing is taken (U8.2)


def end_hand(s: State, ended: str, *, both_out: bool) -> None:
    scores = (sum(m.points for m in s.sides[0]), sum(m.points for m in s.sides[1]))
    result = HandResult(
        number=len(s.hands) + 1,
        dealer=s.dealer if s.dealer is not None else 0,
        scores=scores,
        went_out=s.went_out,
        both_out=both_out,
        ended=ended,
        sides=s.sides,
        first_action=s.hand_start,
        last_action=s.recorded,
    )
    s.hands = (*s.hands, result)
    model = hand_model(s, result)
    s.hand_models = (*s.hand_models, model)
    s.ledger = (*s.ledger, *model.ledger)
    sums = dict(s.totals) if s.totals else dict.fromkeys(s.players, 0)
    for entry in model.ledger:
        sums[entry.player] += entry.amount
    s.totals = tuple(sums.items())
    n = len(s.hands)
    totals = [sum(h.scores[i] for h in s.hands) for i in (0, 1)]
    tied = totals[0] == totals[1]
    more = n < HANDS_PER_GAME or (n == HANDS_PER_GAME and tied and s.rules.fifth_hand_on_tie)
    s.phase = Phase.IDLE if more else Phase.OVER
    s.turn = None
    s.turn_open = False
    s.pending = frozenset()
    s.pending_order = ()
    s.taken = frozenset()
    pile_lost(s)
