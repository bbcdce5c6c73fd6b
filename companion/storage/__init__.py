"""Game history: every table entry saved at once, crash-safe, fast after years of games.

Public API (both implementations satisfy :class:`GameRepository`, the union of the
small protocols in :mod:`~companion.storage.base`: ``GameStore``, ``GameHistory``,
``PlayerDirectory``, ``Archive``, ``ProblemLog``)::

    repo = open_repository(data_dir)  # TinyDbRepository; None -> default_data_dir()
    repo = MemoryRepository()                 # the in-memory twin (tests, no folder)

    g = repo.create_game("umtali", ["Ann", "Bob"], rules={})   # -> StoredGame (id = uuid4 hex)
    repo.get_game(g.id)                       # -> StoredGame (GameNotFoundError if unknown/trashed)
    repo.snapshot(g.id)                       # -> (StoredGame, revision), read together
    repo.game_revision(g.id)                  # changes of its actions so far (cheap)
    repo.append_action(g.id, a, expected=rev) # any change may say the revision it read:
                                              # StaleGameError (nothing written) if not current
    with repo.writer_lock(): ...              # hold every process's writer lock across calls
    repo.append_action(g.id, {"type": ...})   # -> new action count; fsynced on disk when it returns
    repo.append_actions(g.id, [a1, a2])       # several actions as one entry: all or none
    repo.pop_action(g.id)                     # undo: -> the removed action, or None
    repo.replace_actions(g.id, actions)       # edit a finished hand (one rewrite of the game)
    repo.set_summary(g.id, summary, "finished")   # the caller's summary (+ status) for the list
    repo.list_games(limit=20, offset=0, game=None, player=None)  # -> [GameListItem], newest first
    repo.delete_game(g.id); repo.restore_game(g.id); repo.list_trash()   # delete with undo
    repo.list_players(); repo.add_player(name); repo.rename_player(old, new)
    repo.merge_players(source, target)        # source's games now belong to target
    repo.export_json() -> dict; repo.import_json(dict) -> ImportReport   # lossless backup, merge
    repo.export_csv(summarize=None) -> str    # one row per player per hand, spreadsheet-safe
    repo.problems -> [str]                    # plain words about damaged / refused files
    repo.problem_reports() -> [Problem]       # files set aside, with notes (kept across restarts)
    repo.problem_file(id); repo.dismiss_problem(id)   # save a damaged file elsewhere / hide it
    repo.data_dir -> Path | None
    repo.close()                              # done writing (also run at exit)
    repo.check_all(); repo.rebuild_index()    # TinyDB only: open every file / repair the index
    repo.quarantine_notes()                   # TinyDB only: every damaged file ever set aside

Storage stores and never replays: summaries are the caller's (the referee runs
above storage, e.g. :mod:`companion.backup`).  Errors are :class:`StorageError`
(a ``ValueError``); :class:`GameNotFoundError`, :class:`NewerVersionError`,
:class:`StaleGameError` and :class:`UnknownFormatError` are subclasses.  Messages are
meant for players.

Layout on disk (:class:`TinyDbRepository`)::

    <data_dir>/format.json           store format version (layout 2: games have action logs)
    <data_dir>/players.json          TinyDB, table "players"
    <data_dir>/games/<id>.json       one TinyDB file per game: "meta", "game" (header), "actions"
    <data_dir>/games/<id>.log        entries since the game file was last rewritten (one
                                     appended line each; see :mod:`~companion.storage.actionlog`)
    <data_dir>/index/<YYYY-MM>.json  the compact index, one TinyDB file per month of creation
    <data_dir>/index/<YYYY-MM>.log   list lines changed since that month was last rewritten
    <data_dir>/trash/<id>.json       deleted games
    <data_dir>/quarantine/           damaged files, moved aside with a note, never deleted
    <data_dir>/journal.json          transient: a multi-file change (create, delete,
                                     restore, import, rename, merge) to finish after a crash
    <data_dir>/.lock                 writer lock (flock on a kept-open descriptor)
    <data_dir>/.writer-<pid>-<n>     "this process writes here"; removed by close()/at exit.
                                     A dead writer's marker makes the next open scan every
                                     folder for its stale temp files (``.<name>.<pid>.<n>.tmp``)

Why: TinyDB's JSONStorage rewrites and re-parses a whole file per operation, so
one file for all history gets slower with every game.  Here saving an entry
appends one line to that game's log (one fsync, whatever the game's length);
finishing a game appends a summary line there and its list line to the month's
index log (two fsyncs); long logs are folded in later, off the tap path
(:mod:`~companion.storage.compaction`); listing reads the newest month(s) only.
Every rewrite is atomic (temp file in the same folder, fsync,
``os.replace``, fsync of the folder), under one lock per data folder shared by
all threads and processes (:mod:`~companion.storage.locking`), preferences
included.  Every read is checked whole against the storage models with size and
nesting limits (:mod:`~companion.storage.files`); what fails is set aside in
``quarantine/`` with a note, never a crash.  Each file has a ``meta`` table with
its schema version and every document carries ``schema_version``; older files
are upgraded on open (:mod:`companion.storage.migrations`), newer ones refused
and left untouched.
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
