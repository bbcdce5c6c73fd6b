"""The Umtali table: the :class:`~rulesets.protocol.Game` protocol over the referee.

:class:`UmtaliGame` is a stack of recorded actions and the states they built.
``verify`` / ``can`` / ``judge`` ask about an action, ``push`` applies it,
``pop`` restores the state before the last push (a stack of snapshots: nothing
is replayed), ``summary`` reports.  An action is built from its model
(``Meld(player=..., cards=...)``); the rules live in
:mod:`~rulesets.umtali.referee` and its handlers, the state in
:mod:`~rulesets.umtali.state`.

>>> from rulesets.umtali.actions import Extend, Meld, StartHand
>>> g = UmtaliGame(("Ann", "Bob"), actions=[StartHand(dealer="Ann")])
>>> g.turn                            # Ann deals, Bob plays first (U3.3)
'Bob'
>>> _ = g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
>>> g.judge(Extend(player="Ann", card="8H", anchor=("Bob", 0))).points
1
>>> _ = g.push(Extend(player="Ann", card="8H", anchor=("Bob", 0)))
>>> _ = g.push(Extend(player="Ann", card="9H", anchor=("Ann", 0)))  # off the 8H (U6.3)
>>> g.side_scores
{'Ann': 2, 'Bob': 3}
>>> g.can(Extend(player="Ann", card="4S", anchor=("Bob", 0)))
False
>>> g.pop().to_json()["card"]
'9H'
>>> g.side_scores
{'Ann': 1, 'Bob': 3}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from rulesets.cards import Card
from rulesets.errors import (
    IllegalActionError,
    IncompleteActionError,
    RecordError,
    RulesetError,
)
from rulesets.protocol import Action, GameRecord, Verdict
from rulesets.umtali.actions import UmtaliAction, parse_action
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.melds import U7_UNCHECKED, notes_said
from rulesets.umtali.referee import apply
from rulesets.umtali.report import (
    dealer_of,
    hand_number,
    in_hand,
    side_scores,
    summarize,
    totals,
    winners,
)
from rulesets.umtali.state import (
    CardsIn,
    HandResult,
    Outcome,
    Phase,
    PlayerIn,
    State,
    TableMeld,
    must_meld_now,
    name_of,
    read_cards,
    taken_this_turn,
    turn_of,
)
from rulesets.umtali.suggest import Suggestion, suggest
from rulesets.umtali.summary import UmtaliSummary

__all__ = ["U7_UNCHECKED", "HandResult", "Phase", "TableMeld", "UmtaliGame"]


class UmtaliGame:
    """A two-player Umtali game rebuilt from recorded actions (see the module doc)."""

    def __init__(
        self,
        players: Sequence[str] = ("Player 1", "Player 2"),
        rules: UmtaliRules | None = None,
        actions: Iterable[Action | dict[str, Any]] = (),
    ) -> None:
        names = tuple(str(p) for p in players)
        if len(names) != 2 or names[0] == names[1] or not all(names):
            needs = f"{list(names)!r}: Umtali needs two differently named players"
            raise RecordError(f"{needs} (U1.1)", words=needs)
        self.players: tuple[str, str] = (names[0], names[1])
        self.rules: UmtaliRules = rules if rules is not None else UmtaliRules()
        self._actions: list[UmtaliAction] = []
        # the state before each pushed action: pop() restores it (no replay)
        self._history: list[State] = []
        self._state = State(self.players, self.rules)
        self._summary: tuple[State, UmtaliSummary] | None = None
        for action in actions:
            self.push(action)

    # ------------------------------------------------------------------ records
    @classmethod
    def from_record(cls, record: GameRecord) -> UmtaliGame:
        """Replay a :class:`GameRecord` (raises :class:`RecordError` on a bad record)."""
        if record.game.strip().lower() != "umtali":
            raise RecordError(f"{record.game!r}: not an Umtali record")
        try:
            rules = UmtaliRules.model_validate(record.rules)
        except ValidationError as exc:
            raise RecordError(f"{record.rules!r}: bad Umtali house rules: {exc}"[:300]) from None
        game = cls(record.players, rules)
        for i, data in enumerate(record.actions):
            try:
                action = parse_action(data)
            except RecordError as exc:
                raise RecordError(f"action {i + 1}: {exc.reason}"[:300]) from None
            except RulesetError as exc:  # a card that is no card
                raise IllegalActionError(
                    f"action {i + 1} {data}: {exc.reason}", rule=exc.rule or "U"
                ) from None
            try:
                game.push(action)
            except RecordError:
                raise
            except RulesetError as exc:
                raise IllegalActionError(
                    f"action {i + 1} {action.to_json()}: {exc.reason}", rule=exc.rule or "U"
                ) from None
        return game

    def to_record(self) -> GameRecord:
        """The game as a JSON-able :class:`GameRecord` (only non-default house rules)."""
        return GameRecord(
            game="umtali",
            players=list(self.players),
            rules=self.rules.model_dump(exclude_defaults=True),
            actions=[a.to_json() for a in self._actions],
        )

    @property
    def actions(self) -> tuple[UmtaliAction, ...]:
        return tuple(self._actions)

    # ------------------------------------------------------------------ the protocol
    def push(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> UmtaliAction:
        """Verify and apply one action; the state is unchanged if it is illegal."""
        act = parse_action(action)
        new, _ = self._apply(act, hand)
        self._history.append(self._state)
        self._state = new
        self._actions.append(act)
        return act

    def pop(self) -> UmtaliAction:
        """Take back the last action: the exact inverse of :meth:`push` (a saved snapshot,
        nothing replayed).  Raises :class:`RecordError` on an empty game."""
        if not self._actions:
            raise RecordError("nothing to take back: no action was recorded")
        self._state = self._history.pop()
        return self._actions.pop()

    def verify(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> None:
        """Raise from the :class:`RulesetError` family unless ``action`` is legal now."""
        self._apply(parse_action(action), hand)

    def can(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> bool:
        try:
            self.verify(action, hand=hand)
        except RulesetError:
            return False
        return True

    def judge(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> Verdict:
        """A :class:`Verdict` on one action (never raises for an illegal action)."""
        try:
            _, out = self._apply(parse_action(action), hand)
        except RulesetError as exc:
            incomplete = isinstance(exc, IncompleteActionError)
            return Verdict(
                legal=False,
                rule=exc.rule or "U",
                reason=exc.reason,
                words=exc.own_words,
                incomplete=incomplete,
            )
        return Verdict(
            legal=True,
            kind=out.kind,
            points=out.points,
            rule=out.rule,
            reason=out.reason,
            cards=tuple(str(c) for c in out.cards),
            notes=out.notes,
            note_words=notes_said(out.notes),
        )

    def summary(self) -> UmtaliSummary:
        """Where the game stands, typed (its ``to_json()`` is the replay JSON)."""
        cached = self._summary
        if cached is not None and cached[0] is self._state:
            return cached[1]
        summary = summarize(self._state)
        self._summary = (self._state, summary)
        return summary

    def suggest(self, player: PlayerIn, hand: CardsIn, *, must_meld: CardsIn = ()) -> Suggestion:
        """Every legal play for ``hand`` and the melding worth most this turn (exact)."""
        return suggest(self._state, name_of(self._state, player), hand, must_meld=must_meld)

    def _apply(self, a: UmtaliAction, hand: CardsIn | None) -> tuple[State, Outcome]:
        held = None if hand is None else frozenset(read_cards(hand))
        return apply(self._state, a, held)

    # ------------------------------------------------------------------ the table now
    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in play (including the opponent's final turn)."""
        return in_hand(self._state)

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in play (or the last one played)."""
        return hand_number(self._state)

    @property
    def turn(self) -> str | None:
        """Whose turn it is (as far as the table reported), or None between hands."""
        seat = turn_of(self._state)
        return None if seat is None else self.players[seat]

    @property
    def dealer(self) -> str | None:
        """Dealer of the hand in play, of the next hand between hands (None: the cut),
        or of the last hand once the game is over."""
        return dealer_of(self._state)

    @property
    def went_out(self) -> str | None:
        s = self._state
        return None if s.went_out is None else self.players[s.went_out]

    @property
    def sides(self) -> dict[str, tuple[TableMeld, ...]]:
        """The melds on each player's side in the current hand."""
        s = self._state
        return {self.players[0]: s.sides[0], self.players[1]: s.sides[1]}

    @property
    def side_scores(self) -> dict[str, int]:
        """U9.1 points on each side right now."""
        return side_scores(self._state)

    @property
    def table_cards(self) -> frozenset[Card]:
        return self._state.used

    @property
    def hands(self) -> tuple[HandResult, ...]:
        return self._state.hands

    @property
    def totals(self) -> dict[str, int]:
        return totals(self._state)

    @property
    def finished(self) -> bool:
        return self._state.phase is Phase.OVER

    @property
    def winners(self) -> list[str]:
        """Empty until the game is over; both names on equal totals (a draw, A-U16)."""
        return winners(self._state)

    @property
    def stock_left(self) -> int | None:
        """Cards left in the stock if every draw was recorded (an upper bound otherwise)."""
        return self._state.stock_left

    def taken_this_turn(self, player: PlayerIn) -> frozenset[Card]:
        """Cards ``player`` took from the discard pile in the turn now open (U4.3)."""
        return taken_this_turn(self._state, self._seat(player))

    def must_meld_now(self, player: PlayerIn) -> tuple[Card, ...]:
        """Cards ``player`` took from the discard pile and must still meld this turn,
        in the order they must go down (U4.2: D1, then D2; or the dug card)."""
        return must_meld_now(self._state, self._seat(player))

    def anchors(self) -> list[tuple[tuple[str, int], TableMeld]]:
        """Every meld on the table as ((side player, index), meld)."""
        s = self._state
        return [((self.players[i], k), m) for i in (0, 1) for k, m in enumerate(s.sides[i])]

    def _seat(self, player: PlayerIn) -> int:
        return self.players.index(name_of(self._state, player))
