"""Game history: every table entry saved at once, crash-safe, fast after years of games.

Public API (both implementations satisfy :class:`GameRepository`)::

    repo = open_repository(data_dir)  # TinyDbRepository; None -> default_data_dir()
    repo = MemoryRepository()                 # the in-memory twin (tests, no folder)

    g = repo.create_game("umtali", ["Ann", "Bob"], rules={})   # -> StoredGame (id = uuid4 hex)
    repo.get_game(g.id)                       # -> StoredGame (GameNotFoundError if unknown/trashed)
    repo.append_action(g.id, {"type": ...})   # -> new action count; fsynced on disk when it returns
    repo.pop_action(g.id)                     # undo: -> the removed action, or None
    repo.replace_actions(g.id, actions)       # edit a finished hand: replace, then replay
    repo.set_summary(g.id, summary, "finished")   # last replay summary (+ status) for the list
    replay_and_store(repo, g.id)              # replay with the referee, then set_summary
    repo.list_games(limit=20, offset=0, game=None, player=None)  # -> [GameListItem], newest first
    repo.delete_game(g.id); repo.restore_game(g.id); repo.list_trash()   # delete with undo
    repo.list_players(); repo.add_player(name); repo.rename_player(old, new)
    repo.merge_players(source, target)        # source's games now belong to target
    repo.export_json() -> dict; repo.import_json(dict) -> ImportReport   # lossless backup, merge
    repo.export_csv() -> str                  # one row per player per hand
    repo.problems -> [str]                    # plain words about damaged / refused files
    repo.data_dir -> Path | None
    repo.close()                              # done writing (also run at exit)
    repo.check_all(); repo.rebuild_index()    # TinyDB only: open every file / repair the index
    repo.quarantine_notes()                   # TinyDB only: every damaged file ever set aside

Errors are :class:`StorageError` (a ``ValueError``); :class:`GameNotFoundError` and
:class:`NewerVersionError` are subclasses.  Messages are meant for players.

Layout on disk (:class:`TinyDbRepository`)::

    <data_dir>/format.json           store format version
    <data_dir>/players.json          TinyDB, table "players"
    <data_dir>/games/<id>.json       one TinyDB file per game: "meta", "game" (header), "actions"
    <data_dir>/index/<YYYY-MM>.json  the compact index, one TinyDB file per month of creation
    <data_dir>/trash/<id>.json       deleted games
    <data_dir>/quarantine/           damaged files, moved aside with a timestamp, never deleted
    <data_dir>/journal.json          transient: ids whose index line may be stale after a crash
    <data_dir>/.lock                 writer lock (filelock)
    <data_dir>/.writer-<pid>-<n>     "this process writes here"; removed by close()/at exit.
                                     A dead writer's marker makes the next open scan every
                                     folder for its stale temp files (``.<name>.<pid>.<n>.tmp``)

Why: TinyDB's JSONStorage rewrites and re-parses a whole file per operation, so
one file for all history gets slower with every game.  Here saving an entry
rewrites only that game's small file; creating, finishing or deleting a game
also rewrites one month of the index; listing reads the newest month(s) only.
Every write goes through :class:`AtomicJSONStorage` (temp file in the same
folder, fsync, ``os.replace``, fsync of the folder), under one file lock shared
by all threads and processes, re-reading the file under the lock first.
Each file has a ``meta`` table with its schema version and every document
carries ``schema_version``; older files are upgraded on open
(:mod:`companion.storage.migrations`), newer ones refused and left untouched.
"""

from __future__ import annotations

from pathlib import Path

from companion.storage.atomic import AtomicJSONStorage, BufferedStorage
from companion.storage.base import GameRepository, replay_and_store
from companion.storage.memory import MemoryRepository
from companion.storage.models import (
    STORAGE_SCHEMA_VERSION,
    GameListItem,
    GameNotFoundError,
    GameStatus,
    ImportReport,
    NewerVersionError,
    Player,
    StorageError,
    StoredGame,
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
    "StorageError",
    "StoredGame",
    "TinyDbRepository",
    "default_data_dir",
    "open_repository",
    "replay_and_store",
]

APP_NAME = "rummy-companion"


def default_data_dir() -> Path:
    """Where history lives unless ``--data-dir`` says otherwise (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def open_repository(data_dir: Path | str | None = None) -> TinyDbRepository:
    """Open (creating if needed) the history in ``data_dir`` (default: :func:`default_data_dir`).

    Raises :class:`NewerVersionError` for a store written by a newer app, and
    :class:`StorageError` when the folder cannot be used (the message names it).
    """
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    try:
        return TinyDbRepository(folder)
    except OSError as exc:
        raise StorageError(
            f"cannot use {folder} for the game history: {exc.strerror or exc}"
        ) from None
