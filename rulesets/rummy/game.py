"""The Rummy table: a stack of recorded actions, refereed one by one, and the hands they scored.

:class:`RummyGame` implements :class:`rulesets.protocol.Game`: ``verify`` /
``can`` / ``push`` / ``pop`` / ``judge`` / ``summary``.  Each ``push`` keeps a
snapshot of the state before it (:func:`rulesets.snapshot.capture`), so
``pop`` is its exact inverse without a replay.  An action is built from its
model (``Meld(player=..., cards=...)``); there is no second API.

>>> from rulesets.rummy.actions import HandEnd, LayOff, Meld, StartHand
>>> g = RummyGame(["Ann", "Bob", "Cy"])
>>> _ = g.push(StartHand(dealer="Ann"))
>>> _ = g.push(Meld(player="Bob", cards=("7H", "8H", "9H")))
>>> g.table[0].kind
'run'
>>> [g.can(LayOff(player="Cy", cards=(card,), meld=0)) for card in ("10H", "QH")]
[True, False]
>>> _ = g.push(HandEnd(went_out="Bob", remaining={"Ann": ("KS", "7D", "AC")}, typed={"Cy": 12}))
>>> g.results[-1].scores
{'Ann': 18, 'Bob': 0, 'Cy': 12}
>>> g.totals, g.dealer
({'Ann': 18, 'Bob': 0, 'Cy': 12}, 'Bob')
>>> _ = g.pop()
>>> g.totals, g.summary().phase
({'Ann': 0, 'Bob': 0, 'Cy': 0}, <Phase.PLAY: 'play'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rulesets.errors import RecordError, RulesetError
from rulesets.protocol import GameRecord, HouseRulesBase, Verdict
from rulesets.rummy.actions import (
    RummyAction,
    parse_action,
)
from rulesets.rummy.house_rules import RummyRules, coerce_rules
from rulesets.rummy.melds import (
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from rulesets.rummy.referee import Referee
from rulesets.rummy.state import (
    ActionIn,
    Hand,
    HandIn,
    State,
    TableMeld,
    entered,
    higher_is_better,
    refuse,
    scoring,
    units,
)
from rulesets.rummy.summary import (
    RummyHand,
    RummySummary,
)
from rulesets.snapshot import capture

__all__ = ["RummyGame", "TableMeld", "higher_is_better", "scoring", "units"]


class RummyGame:
    """A game of Rummy as a stack of actions; the referee of one table (see the module doc)."""

    def __init__(
        self,
        players: Sequence[str],
        rules: HouseRulesBase | dict[str, Any] | None = None,
        actions: Iterable[ActionIn] = (),
    ) -> None:
        names = tuple(str(p) for p in players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise refuse(f"{', '.join(names) or 'no players'}: Rummy is for 2 to 6 players", "R1.1")
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise RecordError(f"{', '.join(names)}: player names must be distinct and non-empty")
        self._players = names
        self._rules = coerce_rules(rules)
        self._referee = Referee(names, self._rules)
        self._state = State(None, (), dict.fromkeys(names, 0), None, (), dict.fromkeys(names, 0))
        self._stack: list[State] = []
        self._actions: list[RummyAction] = []
        for a in actions:
            self.push(a)

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def rules(self) -> RummyRules:
        return self._rules

    @property
    def actions(self) -> tuple[RummyAction, ...]:
        return tuple(self._actions)

    @classmethod
    def from_record(cls, record: GameRecord) -> RummyGame:
        """Rebuild a game by replaying a record (a :class:`RulesetError` if it won't)."""
        if record.game.strip().lower() not in ("rummy", "rum", "basic-rummy"):
            raise RecordError(f"{record.game!r}: not a Rummy record")
        return cls(record.players, record.rules, record.actions)

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="rummy",
            players=list(self._players),
            rules=self._rules.changed(),
            actions=[a.to_json() for a in self._actions],
        )

    def verify(self, action: ActionIn, *, hand: HandIn = None) -> None:
        """Raise (the :class:`RulesetError` family) if ``action`` is illegal now; no change.

        ``hand`` is the acting player's hand as entered at the table: the cards
        they put down or discard must be in it, and with "Discard to go out"
        they may not put all of it down.
        """
        self._referee.run(capture(self._state), parse_action(action), entered(hand))

    def can(self, action: ActionIn, *, hand: HandIn = None) -> bool:
        try:
            self.verify(action, hand=hand)
        except RulesetError:
            return False
        return True

    def push(self, action: ActionIn, *, hand: HandIn = None) -> RummyAction:
        """Verify ``action``, then apply it; returns the parsed action."""
        act = parse_action(action)
        state = capture(self._state)
        self._referee.run(state, act, entered(hand))
        self._stack.append(self._state)
        self._state = state
        self._actions.append(act)
        return act

    def pop(self) -> RummyAction:
        """Undo the last action: the state before it comes back exactly."""
        if not self._actions:
            raise RecordError("nothing to undo: the game has no actions")
        self._state = self._stack.pop()
        return self._actions.pop()

    def judge(self, action: ActionIn, *, hand: HandIn = None) -> Verdict:
        """A :class:`Verdict` on ``action`` now; never raises for the error family.

        >>> g = RummyGame(["Ann", "Bob"], {"jokers": True})
        >>> _ = g.push({"type": "start_hand", "dealer": "Ann"})
        >>> v = g.judge({"type": "meld", "player": "Bob", "cards": ["5S", "6S", "JK"]})
        >>> v.legal, v.kind, v.notes
        (True, 'run', ('JK=7S',))
        >>> g.judge({"type": "lay_off", "player": "Ann", "cards": ["9S"], "meld": 0}).rule
        'R3.3'
        >>> g.judge({"type": "meld", "player": "Bob", "cards": ["5X"]}).legal
        False
        """
        return self._judge_on(self._state, action, hand)

    def _judge_on(self, st: State, action: ActionIn, hand: HandIn) -> Verdict:
        try:
            act = parse_action(action)
            out = self._referee.run(capture(st), act, entered(hand))
        except RulesetError as exc:
            texts = action.get("cards") if isinstance(action, dict) else None
            cards = tuple(str(c) for c in texts) if isinstance(texts, list | tuple) else ()
            return Verdict(
                legal=False,
                rule=exc.rule or "R3",
                reason=exc.reason,
                words=exc.own_words,
                cards=cards,
            )
        return self._referee.verdict(st, act, out)

    def summary(self) -> RummySummary:
        return self._referee.summary_of(self._state)

    @property
    def _hand(self) -> Hand | None:
        return self._state.hand

    @property
    def table(self) -> tuple[TableMeld, ...]:
        hand = self._state.hand
        return tuple(hand.melds) if hand else ()

    @property
    def in_hand(self) -> bool:
        return self._state.hand is not None

    @property
    def hand_number(self) -> int:
        return len(self._state.results) + (1 if self._state.hand else 0)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self._state.totals)

    @property
    def results(self) -> tuple[RummyHand, ...]:
        return self._state.results

    @property
    def turn(self) -> str | None:
        """Whose turn it is (only known when turns are logged)."""
        hand = self._state.hand
        return hand.turn if hand and hand.turns else None

    @property
    def dealer(self) -> str | None:
        """Dealer of the current hand, or of the next one between hands."""
        return self._state.hand.dealer if self._state.hand else self._state.next_dealer

    @property
    def finished(self) -> bool:
        return self._referee.finished(self._state)

    @property
    def winners(self) -> list[str]:
        return list(self._referee.winners(self._state))
