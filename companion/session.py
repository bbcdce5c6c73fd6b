"""A game at the table: the live referee, its entries saved at once, undo and redo.

The session is the only place the app changes a game.  It holds the live
:class:`~rulesets.protocol.Game`, rebuilt from history once, when the game is
opened; after that an entry is judged and pushed, undo pops (python-chess's
move stack), and no screen ever replays the record.  The session never
decides a rule itself: the referee refuses an illegal entry with its reason and
rule ID and nothing is saved.  Every accepted entry is durable when ``add``
returns (the repository fsyncs it); redo re-applies what undo took, until a
new entry is made.

It is observable: a component that holds it re-renders when it changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.storage import GameRepository, GameStatus, StorageError, StoredGame
from rulesets import RulesetError, load_ruleset
from rulesets.cards import Card
from rulesets.protocol import Action, Game, GameRecord, Ruleset, Summary, Verdict

__all__ = ["GameSession", "Refusal", "listed_part"]

ActionIn = Action | dict[str, Any]


@dataclass(frozen=True)
class Refusal:
    """Why an entry was not accepted: the referee's words and the rule they cite."""

    message: str
    rule: str | None = None


def _refusal(exc: RulesetError) -> Refusal:
    return Refusal(exc.reason, exc.rule)


@dataclass
class _Opened:
    game: Game
    #: stored entries the referee no longer accepts (kept, never dropped): the first
    #: one's refusal is shown, new entries wait until undo has taken them off.
    tail: list[dict[str, Any]]
    problem: Refusal | None


def _replay(ruleset: Ruleset, stored: StoredGame) -> _Opened:
    """The live game of ``stored``: every entry the referee accepts, in order."""
    game = ruleset.new_game(stored.players, stored.rules)
    for i, data in enumerate(stored.actions):
        try:
            game.push(data)
        except RulesetError as exc:
            why = Refusal(
                f"This game cannot be replayed past entry {i + 1}: {exc.reason}. "
                "Undo takes that entry off.",
                exc.rule,
            )
            return _Opened(game, list(stored.actions[i:]), why)
    return _Opened(game, [], None)


@ft.observable
@dataclass
class GameSession:
    repo: GameRepository
    game_id: str
    meta: StoredGame
    game: Game
    summary: Summary
    redo_stack: list[Action] = field(default_factory=list)
    error: Refusal | None = None
    revision: int = 0
    #: stored entries past the point where the referee stopped accepting them
    broken_tail: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def open(cls, repo: GameRepository, game_id: str) -> GameSession:
        """Read the game from history and rebuild the live referee (the one replay)."""
        stored = repo.get_game(game_id)
        try:
            ruleset = load_ruleset(stored.game)
            opened = _replay(ruleset, stored)
        except RulesetError as exc:  # unknown game or unreadable house rules
            raise StorageError(exc.reason) from None
        meta = stored.model_copy(update={"actions": []})
        session = cls(
            repo=repo,
            game_id=game_id,
            meta=meta,
            game=opened.game,
            summary=opened.game.summary(),
            broken_tail=opened.tail,
        )
        session._saved(stored)
        session.error = opened.problem
        return session

    @classmethod
    def start(
        cls,
        repo: GameRepository,
        game: str,
        players: Sequence[str],
        rules: dict[str, Any],
        opening: Sequence[ActionIn] = (),
    ) -> GameSession:
        """A new game in history, with its opening action(s) (all or nothing)."""
        ruleset = load_ruleset(game)
        live = ruleset.new_game(players, rules)  # refuses bad players/rules before any write
        for action in opening:
            live.push(action)
        stored = repo.create_game(ruleset.name, list(players), rules=dict(rules))
        if live.actions:
            repo.replace_actions(stored.id, [a.to_json() for a in live.actions])
        return cls.open(repo, stored.id)

    # -- reading ---------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return load_ruleset(self.meta.game)

    @property
    def stored(self) -> StoredGame:
        """The game as stored now (reads history: not for every render)."""
        return self.repo.get_game(self.game_id)

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.game.actions

    @property
    def finished(self) -> bool:
        return self.summary.finished

    @property
    def can_undo(self) -> bool:
        return bool(self.game.actions or self.broken_tail)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def record(self) -> GameRecord:
        return self.game.to_record()

    def judge(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Verdict:
        """The referee's verdict on ``action`` as the next entry (nothing changes)."""
        return self.game.judge(action, hand=hand)

    def can(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> bool:
        return self.game.can(action, hand=hand)

    # -- changing ----------------------------------------------------------------------------
    def add(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Refusal | None:
        """Record ``action`` if the referee accepts it; it is on disk when this returns."""
        return self._commit([action], hand=hand, clear_redo=True)

    def add_many(self, actions: Sequence[ActionIn]) -> Refusal | None:
        """Record several actions as one entry (all or nothing)."""
        return self._commit(list(actions), hand=None, clear_redo=True)

    def undo(self) -> Action | dict[str, Any] | None:
        """Take the last entry off (the referee pops it; history forgets it)."""
        if self.broken_tail:
            popped = self.repo.pop_action(self.game_id)
            if popped is not None:
                self.broken_tail.pop()
                self.error = None if not self.broken_tail else self.error
            self._changed()
            return popped
        if not self.game.actions:
            return None
        try:
            stored_last = self.repo.pop_action(self.game_id)
        except StorageError as exc:
            self.error = Refusal(f"Not undone: {exc}")
            self._changed()
            return None
        if stored_last is None:
            return None
        last = self.game.pop()
        self.redo_stack = [*self.redo_stack, last]
        self.error = None
        self._after_write()
        return last

    def redo(self) -> Refusal | None:
        if not self.redo_stack:
            return None
        action = self.redo_stack[-1]
        refusal = self._commit([action], hand=None, clear_redo=False)
        if refusal is None:
            self.redo_stack = self.redo_stack[:-1]
        return refusal

    def replace(self, actions: Sequence[ActionIn]) -> Refusal | None:
        """Edit history (e.g. a finished hand): the game is rebuilt from the new record."""
        fresh = self.ruleset.new_game(self.meta.players, self.meta.rules)
        try:
            for action in actions:
                fresh.push(action)
        except RulesetError as exc:
            self.error = _refusal(exc)
            self._changed()
            return self.error
        try:
            self.repo.replace_actions(self.game_id, [a.to_json() for a in fresh.actions])
        except StorageError as exc:
            self.error = Refusal(f"Not saved: {exc}")
            self._changed()
            return self.error
        self.game = fresh
        self.broken_tail = []
        self.redo_stack = []
        self.error = None
        self._after_write()
        return None

    def clear_error(self) -> None:
        self.error = None
        self._changed()

    # -- internals ---------------------------------------------------------------------------
    def _commit(
        self, new: list[ActionIn], *, hand: Sequence[Card] | None, clear_redo: bool
    ) -> Refusal | None:
        if self.broken_tail:
            self.error = Refusal(
                "This game has entries the referee does not accept; undo them first."
            )
            self._changed()
            return self.error
        pushed: list[Action] = []
        try:
            for action in new:
                pushed.append(self.game.push(action, hand=hand if len(new) == 1 else None))
        except RulesetError as exc:
            for _ in pushed:
                self.game.pop()
            self.error = _refusal(exc)
            self._changed()
            return self.error
        try:
            if len(pushed) == 1:
                self.repo.append_action(self.game_id, pushed[0].to_json())
            else:  # one atomic write, so a crash cannot keep half of the entry
                self.repo.replace_actions(self.game_id, [a.to_json() for a in self.game.actions])
        except StorageError as exc:
            for _ in pushed:
                self.game.pop()
            self.error = Refusal(f"Not saved: {exc}")
            self._changed()
            return self.error
        if clear_redo:
            self.redo_stack = []
        self.error = None
        self._after_write()
        return None

    def _after_write(self) -> None:
        self.summary = self.game.summary()
        self._saved(None)
        self._changed()

    def _saved(self, stored: StoredGame | None) -> None:
        """Keep the history list's line in step (status, winners, totals, hands, dealer).

        A write costs several fsyncs, so it happens only when that part changed.
        """
        listed = self.summary.to_json()
        status: GameStatus = "finished" if self.summary.finished else "in_progress"
        before = self.meta.summary if stored is None else stored.summary
        before_status = self.meta.status if stored is None else stored.status
        if before_status != status or listed_part(before) != listed_part(listed):
            try:
                self.repo.set_summary(self.game_id, listed, status)
            except StorageError as exc:
                self.error = Refusal(f"History list not updated: {exc}")
                return
        self.meta = self.meta.model_copy(update={"summary": listed, "status": status})

    def _changed(self) -> None:
        self.revision += 1


def listed_part(summary: dict[str, Any] | None) -> tuple[Any, ...]:
    """The part of a summary the history list shows."""
    if not summary:
        return ()
    return (
        summary.get("finished"),
        summary.get("winners"),
        summary.get("totals"),
        len(summary.get("hands", [])),
        summary.get("dealer"),
    )
