"""Game history: every table entry saved at once, crash-safe, fast after years of games.

``open_repository(data_dir)`` gives the on-disk :class:`TinyDbRepository`;
:class:`MemoryRepository` is its in-memory twin.  Both satisfy
:class:`GameRepository`, the union of the small protocols in
:mod:`~companion.storage.base` (``GameStore``, ``GameHistory``,
``PlayerDirectory``, ``Archive``, ``ProblemLog``).  Storage stores and never
replays; errors are :class:`StorageError` and its subclasses, in words for players.

The calls, the data folder's layout, the action log and index formats, and why
they are so: ``docs/ARCHITECTURE.md``, section 3.3.
"""

from __future__ import annotations

from pathlib import Path

from companion.storage.atomic import AtomicJSONStorage, BufferedStorage
from companion.storage.base import GameRepository, Summarize
from companion.storage.memory import MemoryRepository
from companion.storage.models import (
    STORAGE_SCHEMA_VERSION,
    GameListItem,
    GameNotFoundError,
    GameStatus,
    ImportReport,
    NewerVersionError,
    Player,
    Problem,
    StaleGameError,
    StorageError,
    StoredGame,
    UnknownFormatError,
)
from companion.storage.tinydb_repo import TinyDbRepository

__all__ = [
    "STORAGE_SCHEMA_VERSION",
    "AtomicJSONStorage",
    "BufferedStorage",
    "GameListItem",
    "GameNotFoundError",
    "GameRepository",
    "GameStatus",
    "ImportReport",
    "MemoryRepository",
    "NewerVersionError",
    "Player",
    "StaleGameError",
    "Problem",
    "StorageError",
    "StoredGame",
    "Summarize",
    "TinyDbRepository",
    "UnknownFormatError",
    "default_data_dir",
    "open_repository",
]

APP_NAME = "rummy-companion"


def default_data_dir() -> Path:
    """Where history lives unless ``--data-dir`` says otherwise (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def open_repository(data_dir: Path | str | None = None) -> TinyDbRepository:
    """Open (creating if needed) the history in ``data_dir`` (default: :func:`default_data_dir`).

    Raises :class:`NewerVersionError` for a store written by a newer app,
    :class:`UnknownFormatError` for a folder marked with a format no app writes
    (both leave it untouched), and :class:`StorageError` when the folder cannot
    be used (the message names it).  Damaged files never stop it: they are set
    aside and reported (:meth:`~GameRepository.problem_reports`).
    """
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    try:
        return TinyDbRepository(folder)
    except OSError as exc:
        raise StorageError(
            f"cannot use {folder} for the game history: {exc.strerror or exc}"
        ) from None
