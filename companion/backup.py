"""Backup glue for the settings screen: file names, bytes out, bytes in.

The repository does the real work (``export_json`` is lossless, ``import_json``
merges and skips games already there, ``export_csv`` has one row per player per
hand); this module turns it into files a browser can download or upload.

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

from companion.storage import GameRepository, StorageError

__all__ = [
    "backup_file_name",
    "export_csv_bytes",
    "export_json_bytes",
    "import_backup_bytes",
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


def export_csv_bytes(repo: GameRepository) -> bytes:
    # a BOM so spreadsheet programs read the names as UTF-8
    return ("\ufeff" + repo.export_csv()).encode("utf-8")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def import_backup_bytes(repo: GameRepository, data: bytes) -> str:
    """Merge a JSON backup into ``repo``; a one-line report.  StorageError if unusable."""
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StorageError(f"this file is not a JSON backup ({exc})") from None
    report = repo.import_json(parsed)
    line = f"Imported {_plural(len(report.added), 'game')}, {len(report.skipped)} already here."
    if report.problems:
        n = len(report.problems)
        line += f" {n} {'entry' if n == 1 else 'entries'} could not be read."
    return line
