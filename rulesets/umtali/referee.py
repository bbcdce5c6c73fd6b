"""Applying one recorded action to the state: the one dispatch, by action type.

Each handler (:mod:`~rulesets.umtali.turns` for deals, draws and the end of a
hand, :mod:`~rulesets.umtali.plays` for what goes down) checks its action and
changes the state it is given; an :class:`~rulesets.errors.IllegalActionError`
leaves the caller's snapshot untouched (:func:`apply` works on a copy).
"""

from __future__ import annotations

import dataclasses

from rulesets.cards import Card
from rulesets.errors import IllegalActionError
from rulesets.umtali.actions import (
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
    UmtaliAction,
)
from rulesets.umtali.plays import (
    discard,
    end_hand_empty_stock,
    extend,
    go_out,
    leftovers,
    meld,
)
from rulesets.umtali.state import Outcome, Phase, State, doing, name_of
from rulesets.umtali.turns import draw, enter_turn, start_hand, take_discards

__all__ = ["apply"]


def apply(state: State, a: UmtaliAction, hand: frozenset[Card] | None) -> tuple[State, Outcome]:
    """The state after ``a`` (``hand``: the actor's private cards) and what it did;
    ``state`` itself is never changed."""
    s = state.snapshot()
    out = _dispatch(s, a, hand)
    s.recorded += 1
    return s, out


def _dispatch(s: State, a: UmtaliAction, hand: frozenset[Card] | None) -> Outcome:
    if isinstance(a, StartHand):
        return start_hand(s, a)
    if s.phase is Phase.OVER:
        raise IllegalActionError(
            f"{doing(a.type)}: the game is over after {len(s.hands)} hands", rule="U2.1"
        )
    if s.phase is Phase.IDLE:
        raise IllegalActionError(
            f"{doing(a.type)}: no hand in progress; deal a hand first", rule="U2.1"
        )
    match a:
        case EndHandEmptyStock():
            return end_hand_empty_stock(s)
        case Leftovers():
            return leftovers(s, s.players.index(name_of(s, a.player)), a, hand)
    return _in_turn(s, a, hand)


def _in_turn(
    s: State,
    a: Draw | TakeDiscards | Meld | Extend | Discard | GoOut,
    hand: frozenset[Card] | None,
) -> Outcome:
    """An action inside a turn: the turn it belongs to, then the action itself."""
    p = s.players.index(name_of(s, a.player))
    expected = s.turn if s.turn_open else (None if s.turn is None else 1 - s.turn)
    # the turn now open is ``p``'s own (a new draw by ``p`` then skips a whole turn)
    own_open = s.turn == p and s.turn_open
    # the player whose turn it is has done nothing recorded in it yet
    idle = not s.turn_open or not s.turn_acted
    turn_no = s.turn_no
    enter_turn(s, p, a.type)
    match a:
        case Draw():
            out = draw(s, p)
        case TakeDiscards():
            out = take_discards(s, p, a, hand)
        case Meld():
            out = meld(s, p, a, hand)
        case Extend():
            out = extend(s, p, a, hand)
        case Discard():
            out = discard(s, p, a, hand)
        case GoOut():
            out = go_out(s, p, a, hand)
    if s.turn == p:  # going out hands the (fresh) final turn to the other player
        s.turn_acted = True
    # The app hears only what the table reports: an unrecorded turn of the other
    # player is assumed, but the verdict says so.  A turn with something recorded
    # in it but no discard simply ended (recording the discard is optional, U4.5).
    other = s.players[1 - p]
    if expected is not None and expected != p and idle:
        note = f"the app expected {other} to play; this assumes {other}'s turn went unrecorded"
        out = dataclasses.replace(out, notes=(*out.notes, note))
    elif s.turn_no != turn_no and own_open and s.phase is Phase.PLAY:
        note = (
            f"a second draw by {s.players[p]} starts a new turn; this assumes "
            f"{other}'s turn in between went unrecorded"
        )
        out = dataclasses.replace(out, notes=(*out.notes, note))
    return out
