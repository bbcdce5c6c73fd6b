"""A game at the table: the recorded actions, saved at once, with undo and redo.

The session is the only place the app changes a game.  It never decides a rule
itself: a new entry is accepted only if the game's referee can replay the
record with it appended (``rulesets``), so an illegal entry is refused with the
referee's reason and rule ID and nothing is saved.  Every accepted entry is
durable when ``add`` returns (the repository fsyncs it); undo pops the last
entry and replays; redo re-appends what undo took, until a new entry is made.

It is observable: a component that holds it re-renders when it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.storage import GameRepository, GameStatus, StorageError, StoredGame
from rulesets import RulesetError, load_ruleset
from rulesets.protocol import GameRecord


@dataclass(frozen=True)
class Refusal:
    """Why an entry was not accepted: the referee's words and the rule they cite."""

    message: str
    rule: str | None = None


def record_of(game: StoredGame, actions: list[dict[str, Any]] | None = None) -> GameRecord:
    return GameRecord(
        game=game.game,
        players=list(game.players),
        rules=dict(game.rules),
        actions=list(game.actions if actions is None else actions),
    )


def replay(game: StoredGame, actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The referee's summary of ``game`` (optionally with other actions)."""
    return load_ruleset(game.game).replay(record_of(game, actions))


@ft.observable
@dataclass
class GameSession:
    repo: GameRepository
    game_id: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    redo_stack: list[dict[str, Any]] = field(default_factory=list)
    error: Refusal | None = None
    revision: int = 0

    @classmethod
    def open(cls, repo: GameRepository, game_id: str) -> GameSession:
        stored = repo.get_game(game_id)
        session = cls(repo=repo, game_id=game_id, actions=list(stored.actions))
        session._refresh(stored)
        return session

    @classmethod
    def start(
        cls, repo: GameRepository, game: str, players: list[str], rules: dict[str, Any]
    ) -> GameSession:
        stored = repo.create_game(game, players, rules=rules)
        return cls.open(repo, stored.id)

    # -- reading ---------------------------------------------------------------------------
    @property
    def stored(self) -> StoredGame:
        return self.repo.get_game(self.game_id)

    @property
    def finished(self) -> bool:
        return bool(self.summary.get("finished"))

    @property
    def can_undo(self) -> bool:
        return bool(self.actions)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def record(self) -> GameRecord:
        return record_of(self.stored, self.actions)

    # -- changing ----------------------------------------------------------------------------
    def check(self, action: dict[str, Any]) -> Refusal | None:
        """Would the referee accept ``action`` next?  None if so, else why not."""
        try:
            replay(self.stored, [*self.actions, action])
        except RulesetError as exc:
            return Refusal(exc.reason, exc.rule)
        return None

    def add(self, action: dict[str, Any]) -> Refusal | None:
        """Record ``action`` if the referee accepts it; it is on disk when this returns."""
        return self._commit([action], clear_redo=True)

    def add_many(self, actions: list[dict[str, Any]]) -> Refusal | None:
        """Record several actions as one entry (all or nothing)."""
        return self._commit(list(actions), clear_redo=True)

    def undo(self) -> dict[str, Any] | None:
        if not self.actions:
            return None
        popped = self.repo.pop_action(self.game_id)
        if popped is None:
            return None
        self.redo_stack = [*self.redo_stack, popped]
        self._refresh(self.repo.get_game(self.game_id))
        return popped

    def redo(self) -> Refusal | None:
        if not self.redo_stack:
            return None
        action = self.redo_stack[-1]
        refusal = self._commit([action], clear_redo=False)
        if refusal is None:
            self.redo_stack = self.redo_stack[:-1]
        return refusal

    def replace(self, actions: list[dict[str, Any]]) -> Refusal | None:
        """Edit history (e.g. a finished hand): everything after is recomputed by replay."""
        stored = self.repo.get_game(self.game_id)
        try:
            replay(stored, actions)
        except RulesetError as exc:
            self.error = Refusal(exc.reason, exc.rule)
            return self.error
        self.repo.replace_actions(self.game_id, actions)
        self.redo_stack = []
        self._refresh(self.repo.get_game(self.game_id))
        return None

    def clear_error(self) -> None:
        self.error = None

    # -- internals ---------------------------------------------------------------------------
    def _commit(self, new: list[dict[str, Any]], *, clear_redo: bool) -> Refusal | None:
        # Re-read first: another window may have added entries to this game meanwhile.
        stored = self.repo.get_game(self.game_id)
        try:
            summary = replay(stored, [*stored.actions, *new])
        except RulesetError as exc:
            self.error = Refusal(exc.reason, exc.rule)
            return self.error
        try:
            if len(new) == 1:
                self.repo.append_action(self.game_id, new[0])
            else:  # one atomic write, so a crash cannot keep half of the entry
                self.repo.replace_actions(self.game_id, [*stored.actions, *new])
        except StorageError as exc:
            self.error = Refusal(f"Not saved: {exc}")
            self._refresh(self.repo.get_game(self.game_id))
            return self.error
        if clear_redo:
            self.redo_stack = []
        self._refresh(self.repo.get_game(self.game_id), summary)
        return None

    def _refresh(self, stored: StoredGame, summary: dict[str, Any] | None = None) -> None:
        """Show ``stored`` (its summary replayed unless the caller just did)."""
        self.actions = list(stored.actions)
        if summary is None:
            try:
                summary = replay(stored)
            except RulesetError as exc:  # a record the referee no longer accepts: show, keep
                self.error = Refusal(f"This game cannot be replayed: {exc.reason}", exc.rule)
                summary = {"game": stored.game, "players": stored.players, "finished": False}
            else:
                self.error = None
        else:
            self.error = None
        self.summary = summary
        status: GameStatus = "finished" if summary.get("finished") else "in_progress"
        # The stored summary feeds the history list (status, winners, totals, hands); a
        # write costs several fsyncs, so it is refreshed only when that part changes.
        if stored.status != status or _listed(stored.summary) != _listed(summary):
            self.repo.set_summary(self.game_id, summary, status)
        self.revision += 1


def _listed(summary: dict[str, Any] | None) -> tuple[Any, ...]:
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
