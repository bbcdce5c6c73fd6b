"""Backup glue for the settings screen: file names, bytes out, bytes in; and the replays
storage does not do.

The repository does the real work (``export_json`` is lossless, ``import_json``
checks the whole backup, then merges it all at once and skips games already
there, ``export_csv`` has one row per player per hand); this module turns it
into files a browser can download or upload.  Storage never replays a game:
the CSV's hands come from the referee here (:func:`replayed_summary`), and
:func:`replay_and_store` refreshes the summary the history list shows.

>>> from companion.storage import MemoryRepository
>>> repo = MemoryRepository()
>>> _ = repo.create_game("rummy", ["Ann", "Bob"])
>>> data = export_json_bytes(repo)
>>> import_backup_bytes(MemoryRepository(), data)
'Imported 1 game, 0 already here.'
>>> import_backup_bytes(repo, b"not json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.storage.models.StorageError: this file is not a JSON backup (...)
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from companion import jsonsafe
from companion.storage import GameRepository, GameStatus, StorageError, StoredGame
from companion.storage.base import MAX_BACKUP_BYTES
from rulesets import load_ruleset
from rulesets.words import plural

__all__ = [
    "backup_file_name",
    "export_csv_bytes",
    "export_json_bytes",
    "import_backup_bytes",
    "replay_and_store",
    "replayed_summary",
]


def backup_file_name(kind: str, now: datetime | None = None) -> str:
    """``rummy-companion-2026-11-29.json`` / ``rummy-companion-hands-2026-11-29.csv``.

    >>> backup_file_name("csv", datetime(2026, 11, 29))
    'rummy-companion-hands-2026-11-29.csv'
    """
    day = (now or datetime.now()).strftime("%Y-%m-%d")
    if kind == "csv":
        return f"rummy-companion-hands-{day}.csv"
    return f"rummy-companion-{day}.json"


def export_json_bytes(repo: GameRepository) -> bytes:
    return json.dumps(repo.export_json(), ensure_ascii=False, indent=1).encode("utf-8")


def replayed_summary(game: StoredGame) -> dict[str, Any] | None:
    """The referee's summary of ``game``; the stored one if the referee cannot replay it.

    A RulesetError is the expected failure, but a referee still being written
    (missing module, a bug) must not block an export either.
    """
    try:
        summary = load_ruleset(game.game).replay(game.to_record())
    except Exception:
        return game.summary
    return summary if isinstance(summary, dict) else game.summary


def replay_and_store(repo: GameRepository, game_id: str) -> dict[str, Any]:
    """Replay a stored game with its referee and keep the summary (and status) for the list.

    Raises the referee's RulesetError if the record cannot be replayed; nothing
    is stored then.
    """
    game = repo.get_game(game_id)
    summary: dict[str, Any] = load_ruleset(game.game).replay(game.to_record())
    status: GameStatus = "finished" if summary.get("finished") else "in_progress"
    repo.set_summary(game_id, summary, status)
    return summary


def export_csv_bytes(repo: GameRepository) -> bytes:
    """Every hand of every game (replayed now), one row per player, spreadsheet-safe."""
    # a BOM so spreadsheet programs read the names as UTF-8
    return ("\ufeff" + repo.export_csv(replayed_summary)).encode("utf-8")


def import_backup_bytes(repo: GameRepository, data: bytes) -> str:
    """Merge a JSON backup into ``repo``; a one-line report.  StorageError if unusable.

    The file is read with limits (size, nesting) and checked whole before
    anything is written: a refused file changes nothing.
    """
    try:
        parsed = jsonsafe.loads(data, max_bytes=MAX_BACKUP_BYTES)
    except jsonsafe.JsonInputError as exc:
        raise StorageError(f"this file is not a JSON backup ({exc.reason})") from None
    report = repo.import_json(parsed)
    line = f"Imported {plural(len(report.added), 'game')}, {len(report.skipped)} already here."
    if report.problems:
        n = len(report.problems)
        line += f" {n} {'entry' if n == 1 else 'entries'} could not be read."
    return line
