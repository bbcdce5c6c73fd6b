"""The Rummy referee: one handler per action behind one ``match`` dispatch.

:class:`Referee` applies an action to a state (a capture the game made) and
reads the summary and verdicts off a state; :class:`~rulesets.rummy.game.RummyGame`
keeps the stack of states and is the protocol.
"""

from __future__ import annotations

from typing import Any

from rulesets.cards import Card
from rulesets.rummy.actions import (
    Discard,
    Draw,
    HandEnd,
    LayOff,
    Meld,
    RummyAction,
    StartHand,
    SwapJoker,
)
from rulesets.rummy.ending import Ending
from rulesets.rummy.report import Report
from rulesets.rummy.state import WORDS, State, refuse
from rulesets.rummy.turns import Turns


class Referee(Turns, Ending, Report):
    """The rules of one Rummy game (its players and house rules), as functions of a state."""

    def run(self, st: State, act: RummyAction, entered: tuple[Card, ...] | None) -> Any:
        """Apply ``act`` to ``st`` (a capture): the rules, one handler per action."""
        if isinstance(act, StartHand | HandEnd):
            return self._start(st, act) if isinstance(act, StartHand) else self._end(st, act)
        hand = self._need_hand(st, WORDS[act.type])
        player = self._player(act.player)
        if hand.out is not None:
            raise refuse(
                f"{WORDS[act.type]} by {player}: {hand.out} went out, the hand is over", "R4.1"
            )
        if not isinstance(act, Draw):
            self._check_turn(hand, player, WORDS[act.type])
        match act:
            case Draw():
                return self._draw(hand, player, act, entered)
            case Meld():
                return self._meld(hand, player, act, entered)
            case LayOff():
                return self._layoff(hand, player, act, entered)
            case SwapJoker():
                return self._swap(hand, player, act, entered)
            case Discard():
                return self._discard(hand, player, act, entered)
