"""The repository in small protocols, and the limits every backend keeps.

A backend is four small things plus ``data_dir`` and ``close``::

    GameStore        one game's record: create, get, append, pop, replace, revision
    GameHistory      the list of games: summaries, listing, trash
    PlayerDirectory  the people who play
    Archive          backups in and out (JSON, CSV)
    ProblemLog       files that were damaged or refused

:class:`GameRepository` is all of them; code that needs less asks for less
(a history screen needs :class:`GameHistory`, a backup button :class:`Archive`).
The input checks every backend runs are in :mod:`~companion.storage.checks`;
backup and CSV built on three primitives are in :mod:`~companion.storage.archive`
(a backend gets them by inheriting :class:`~companion.storage.archive.BaseRepository`).
Storage stores: it never replays a game through a referee.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion.storage.models import (
    GameListItem,
    GameStatus,
    ImportReport,
    Player,
    Problem,
    StoredGame,
)

__all__ = [
    "BACKUP_FORMAT",
    "MAX_BACKUP_BYTES",
    "Archive",
    "GameHistory",
    "GameRepository",
    "GameStore",
    "PlayerDirectory",
    "ProblemLog",
    "Summarize",
]

BACKUP_FORMAT = "rummy-companion-backup"

#: limits of what is stored (and of what a backup may bring in)
MAX_NAME = 100
MAX_GAME_NAME = 40
MAX_ACTION_BYTES = 64 * 1024
MAX_RULES_BYTES = 64 * 1024
MAX_SUMMARY_BYTES = 4 * 1024 * 1024
MAX_ACTIONS = 100_000
MAX_GAMES = 200_000
MAX_BACKUP_BYTES = 256 * 1024 * 1024

#: a summary for a stored game (None: none) -- e.g. a replay by the referee
Summarize = Callable[[StoredGame], dict[str, Any] | None]


@runtime_checkable
class GameStore(Protocol):
    """One game's record.  Every change may say the revision it read (``expected``):
    :class:`~companion.storage.models.StaleGameError`, nothing written, if it is not current."""

    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame: ...

    def get_game(self, game_id: str) -> StoredGame: ...

    def snapshot(self, game_id: str) -> tuple[StoredGame, int]:
        """The game and its revision, read together."""
        ...

    def game_revision(self, game_id: str) -> int:
        """How many changes the game's actions have had (cheap)."""
        ...

    def writer_lock(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the writer lock across several calls (reentrant)."""
        ...

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int:
        """Add one entry; saved for good when this returns.  -> the number of actions."""
        ...

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int:
        """Several actions as one entry: all of them or none."""
        ...

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None:
        """Undo the last entry: -> the removed action, or None."""
        ...

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None:
        """Edit a finished hand: the whole list of actions at once."""
        ...


@runtime_checkable
class GameHistory(Protocol):
    """The list of games: what each one came to, newest first, and the trash."""

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None: ...

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]: ...

    def delete_game(self, game_id: str) -> None: ...

    def restore_game(self, game_id: str) -> StoredGame: ...

    def list_trash(self) -> list[GameListItem]: ...


@runtime_checkable
class PlayerDirectory(Protocol):
    """The people who play (names compared without case)."""

    def list_players(self) -> list[Player]: ...

    def add_player(self, name: str) -> Player: ...

    def rename_player(self, old: str, new: str) -> None: ...

    def merge_players(self, source: str, target: str) -> None: ...


@runtime_checkable
class Archive(Protocol):
    """Backups: everything out as JSON (lossless) or CSV, a JSON backup merged in."""

    def export_json(self) -> dict[str, Any]: ...

    def import_json(self, data: dict[str, Any]) -> ImportReport: ...

    def export_csv(self, summarize: Summarize | None = None) -> str: ...


@runtime_checkable
class ProblemLog(Protocol):
    """Files that were damaged or refused, in plain words (empty in memory)."""

    @property
    def problems(self) -> list[str]: ...

    def problem_reports(self) -> list[Problem]: ...

    def problem_file(self, ident: str) -> tuple[str, bytes]: ...

    def dismiss_problem(self, ident: str) -> None: ...


@runtime_checkable
class GameRepository(GameStore, GameHistory, PlayerDirectory, Archive, ProblemLog, Protocol):
    """What the app uses to keep history (see the package docstring)."""

    @property
    def data_dir(self) -> Path | None: ...

    def close(self) -> None: ...
