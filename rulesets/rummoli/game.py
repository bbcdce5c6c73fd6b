"""The live Rummoli game: a stack of recorded actions and the state they built.

It implements :class:`rulesets.protocol.Game`: ``verify`` / ``can`` / ``push`` /
``pop`` / ``judge`` / ``summary`` / ``to_record``.  Every push keeps the
previous state as a snapshot, so ``pop`` is the exact inverse of ``push``
without replaying anything.  Players are addressed by name (seat numbers from
old records are accepted too).  An action is built from its model; there is no
second API.

>>> from rulesets.rummoli.actions import Deal, Lay, Start
>>> g = RummoliGame(["Ann", "Bob", "Cy"])
>>> g.push(Start(chips=[50, 50, 50], dealer="Ann"))
Start(type='start', chips=[50, 50, 50], dealer='Ann')
>>> _ = g.push(Deal())
>>> g.pots["rummoli"], g.stacks
(3, [41, 41, 41])
>>> g.judge(Lay(player="Bob", card="5H")).reason
'lay 5H: cards are laid after the poker phase (widow phase)'
>>> g.pop()
Deal(type='deal')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from rulesets.cards import Card
from rulesets.errors import IllegalActionError, RecordError, RulesetError
from rulesets.protocol import Action, GameRecord, HouseRulesBase, Verdict
from rulesets.rummoli.actions import RummoliAction, parse_action
from rulesets.rummoli.house_rules import RummoliRules, as_rules
from rulesets.rummoli.rounds import apply
from rulesets.rummoli.state import Phase, RoundLog, State
from rulesets.rummoli.summary import RummoliHand, RummoliSummary, build_hand, build_summary
from rulesets.rummoli.verdicts import legal_verdict
from rulesets.snapshot import capture

__all__ = ["RummoliGame"]


class RummoliGame:
    """A Rummoli game as the table reports it: push actions, pop to undo.

    ``verify(action)`` raises :class:`IllegalActionError` with the rule ID,
    ``can(action)`` answers yes/no, ``judge(action)`` gives the verdict,
    ``push(action)`` applies it and returns the frozen action model.  An
    illegal action leaves the game unchanged.
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: HouseRulesBase | dict[str, Any] | None = None,
    ) -> None:
        names = [str(p).strip() for p in players]
        if not 2 <= len(names) <= 8:
            raise IllegalActionError(
                f"{', '.join(names) or 'no players'}: Rummoli needs 2 to 8 players", rule="M1.1"
            )
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RecordError(f"{', '.join(names)}: player names must be distinct and non-empty")
        self._rules = as_rules(rules)
        self._state = State(players=names, rules=self._rules)
        self._actions: list[RummoliAction] = []
        self._snapshots: list[State] = []
        self._summary: tuple[State, RummoliSummary] | None = None
        self._hands: dict[int, tuple[RoundLog, RummoliHand]] = {}

    # ---- construction from records
    @classmethod
    def from_record(cls, record: GameRecord) -> RummoliGame:
        """Replay a record once (raises :class:`RecordError` naming the bad action)."""
        if record.game.strip().lower() not in ("rummoli", "rumoli"):
            raise RecordError(f"{record.game!r}: not a Rummoli record")
        try:
            rules = RummoliRules.model_validate(record.rules)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise RecordError(f"{record.rules!r}: bad Rummoli rules: {first['msg']}") from None
        try:
            game = cls(record.players, rules)
        except RulesetError as exc:
            raise RecordError(f"{record.players!r}: {exc}") from None
        for i, raw in enumerate(record.actions):
            try:
                game.push(raw)
            except RecordError:
                raise
            except RulesetError as exc:
                raise RecordError(f"action {i + 1} {raw!r}: {exc}") from None
        return game

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="rummoli",
            players=list(self._state.players),
            rules=self._rules.model_dump(mode="json"),
            actions=[a.to_json() for a in self._actions],
        )

    # ---- the protocol
    def verify(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> None:
        """Raise if ``action`` is illegal now (never changes the game)."""
        self._try(parse_action(action), hand)

    def can(self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None) -> bool:
        try:
            self.verify(action, hand=hand)
        except RulesetError:
            return False
        return True

    def judge(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> Verdict:
        """The referee's verdict on ``action`` now; never raises for a bad action."""
        try:
            act = parse_action(action)
            after = self._try(act, hand)
        except RulesetError as exc:
            kind = action.get("type") if isinstance(action, dict) else getattr(action, "type", None)
            return Verdict(
                legal=False,
                kind=kind if isinstance(kind, str) else None,
                rule=exc.rule or "",
                reason=exc.reason,
                words=exc.own_words,
            )
        return legal_verdict(self._state, after, act)

    def push(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> RummoliAction:
        """Verify ``action`` and apply it; returns the parsed action."""
        act = parse_action(action)
        new = self._try(act, hand)
        self._snapshots.append(self._state)
        self._state = new
        self._actions.append(act)
        return act

    def pop(self) -> RummoliAction:
        """Undo the last action: back to the snapshot taken before it."""
        if not self._actions:
            raise RecordError("nothing to undo: no action recorded yet")
        self._state = self._snapshots.pop()
        return self._actions.pop()

    def summary(self) -> RummoliSummary:
        cached = self._summary
        if cached is not None and cached[0] is self._state:
            return cached[1]
        s = self._state
        summary = build_summary(s, [self._hand(log) for log in s.rounds])
        self._summary = (s, summary)
        return summary

    def _try(self, act: RummoliAction, hand: Sequence[Card] | None) -> State:
        new = capture(self._state)
        apply(new, act, hand)
        return new

    def _hand(self, log: RoundLog) -> RummoliHand:
        """A round's summary, built once per round state (states are never changed
        once pushed, so the same log object always gives the same summary)."""
        cached = self._hands.get(log.number)
        if cached is not None and cached[0] is log:
            return cached[1]
        hand = build_hand(self._state.players, log)
        self._hands[log.number] = (log, hand)
        return hand

    # ---- queries
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._state.players)

    @property
    def rules(self) -> RummoliRules:
        return self._rules

    @property
    def actions(self) -> tuple[RummoliAction, ...]:
        return tuple(self._actions)

    @property
    def phase(self) -> Phase:
        """setup, idle (between rounds), widow, poker, play, final or over."""
        return self._state.phase

    @property
    def stacks(self) -> list[int]:
        """Chips in front of each player, in seating order."""
        return list(self._state.stacks)

    @property
    def pots(self) -> dict[str, int]:
        return dict(self._state.pots)

    @property
    def dealer(self) -> str | None:
        """The dealer of the round in play, or of the next one between rounds."""
        return self.summary().dealer

    @property
    def in_game(self) -> tuple[str, ...]:
        """The players still in the game (M7.1)."""
        return self.summary().detail.in_game

    @property
    def held(self) -> list[int]:
        """Cards each player holds in the current round, in seating order."""
        r = self._state.round
        return list(r.counts) if r else [0] * len(self._state.players)

    @property
    def pending_claims(self) -> list[tuple[str, str]]:
        """(player, pot) a player may claim now (claim=strict, M5.6)."""
        return [(c.player, c.pot) for c in self.summary().detail.pending]

    @property
    def laid(self) -> list[tuple[str, str]]:
        """The cards laid this round, in order, with the player who laid each."""
        s = self._state
        return [(s.players[q], str(c)) for q, c in s.rounds[-1].laid] if s.rounds else []

    @property
    def chips_total(self) -> int:
        return self.summary().detail.chips_total

    def next_card(self) -> str | None:
        """The card that continues the suit now (M5.2), whoever holds it."""
        play = self.summary().detail.play
        return None if play is None or play.next_card is None else str(play.next_card)

    def expected_layers(self) -> list[str]:
        """Players who may lay next if the sequence breaks, in the order the turn passes
        (M5.3-M5.5); before the first card, the poker winner alone (M5.1)."""
        play = self.summary().detail.play
        return [] if play is None else list(play.expected)

    def open_pots(self) -> list[str]:
        """Pay-card pots a quick settlement may still enter this round."""
        play = self.summary().detail.play
        return [] if play is None else list(play.open_pots)

    def break_colour(self) -> str | None:
        """The colour a breaking card must have (opposite of the last card's, M5.3)."""
        play = self.summary().detail.play
        return None if play is None else play.break_colour
