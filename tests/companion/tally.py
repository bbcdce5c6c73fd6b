"""A tiny tally game behind the real Game protocol: the session's and the hub's mechanics
do not depend on any card game's rules, so their tests run on this one."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

import pytest

from companion.hub import registry
from rulesets.cards import Card
from rulesets.errors import IllegalActionError, RecordError, RulesetError
from rulesets.protocol import (
    Action,
    GameRecord,
    HouseRulesBase,
    LedgerEntry,
    Summary,
    Units,
    Verdict,
)

PLAYERS = ["Ann", "Bob", "Cy"]


class Add(Action):
    type: Literal["add"] = "add"
    player: str
    points: int


class TallyGame:
    """Points add up; negative points are refused (rule "T1"); 10 points finish the game."""

    def __init__(self, players: Sequence[str]) -> None:
        self._players = tuple(players)
        self._actions: list[Add] = []
        self.pushes = 0

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def rules(self) -> HouseRulesBase:
        return HouseRulesBase()

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    def _parse(self, action: Any) -> Add:
        try:
            return action if isinstance(action, Add) else Add.model_validate(action)
        except Exception:
            raise RecordError(f"{action!r}: not a tally action") from None

    def verify(self, action: Any, *, hand: Sequence[Card] | None = None) -> None:
        act = self._parse(action)
        if act.points < 0:
            raise IllegalActionError(f"{act.points}: points are never negative", rule="T1")
        if act.player not in self._players:
            raise RecordError(f"{act.player!r}: not a player")

    def can(self, action: Any, *, hand: Sequence[Card] | None = None) -> bool:
        try:
            self.verify(action)
        except RulesetError:
            return False
        return True

    def push(self, action: Any, *, hand: Sequence[Card] | None = None) -> Action:
        self.verify(action)
        act = self._parse(action)
        self._actions.append(act)
        self.pushes += 1
        return act

    def pop(self) -> Action:
        if not self._actions:
            raise RecordError("nothing to undo")
        return self._actions.pop()

    def judge(self, action: Any, *, hand: Sequence[Card] | None = None) -> Verdict:
        try:
            self.verify(action)
        except RulesetError as exc:
            return Verdict(legal=False, rule=exc.rule or "T", reason=exc.reason)
        return Verdict(legal=True, rule="T1", reason="ok")

    def summary(self) -> Summary:
        ledger = tuple(
            LedgerEntry(player=a.player, amount=a.points, kind="add", rule="T1", hand=i + 1)
            for i, a in enumerate(self._actions)
        )
        totals = dict.fromkeys(self._players, 0)
        for e in ledger:
            totals[e.player] += e.amount
        finished = any(t >= 10 for t in totals.values())
        return Summary(
            game="tally",
            players=self._players,
            phase="over" if finished else "play",
            finished=finished,
            winners=tuple(p for p in self._players if finished and totals[p] >= 10),
            totals=totals,
            units=Units.POINTS,
            higher_is_better=True,
            hand=len(self._actions),
            ledger=ledger,
        )

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="tally", players=list(self._players), actions=[a.to_json() for a in self._actions]
        )


class TallyRuleset:
    name = "tally"
    replays = 0

    def new_game(self, players: Sequence[str], rules: Any = None) -> TallyGame:
        return TallyGame(players)


TALLY = TallyRuleset()


def tally_or_real(name: str) -> Any:
    """The tally game, else the real ruleset of ``name`` (a hub's ``ruleset_of``)."""
    return TALLY if name == "tally" else registry.load_ruleset(name)


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every hub knows the tally game (also one the app's services make)."""
    real = registry.load_ruleset
    monkeypatch.setattr(
        registry, "load_ruleset", lambda name: TALLY if name == "tally" else real(name)
    )
    yield


def _add(player: str, points: int) -> dict[str, Any]:
    return {"type": "add", "player": player, "points": points}
