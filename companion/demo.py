"""Demo games: complete recorded games of each kind, shipped in ``seeds/demo``.

Each file is a plain :class:`~rulesets.protocol.GameRecord` (so ``companion
replay seeds/demo/umtali-1.json`` works).  :func:`load_demo` adds them to a
repository under fixed ids (``demo-<file stem>``), so loading twice adds
nothing the second time, and a deleted demo game (in the trash) is not
brought back.

>>> from companion.storage import MemoryRepository
>>> repo = MemoryRepository()
>>> load_demo(repo)
'Demo games: 9 added, 0 already there.'
>>> load_demo(repo)
'Demo games: 0 added, 9 already there.'
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.config import SEEDS_DIR
from companion.storage import STORAGE_SCHEMA_VERSION, GameRepository, StoredGame
from companion.storage.base import BACKUP_FORMAT
from rulesets import GAMES, RulesetError, timeline
from rulesets.protocol import GameRecord

__all__ = ["DEMO_DIR", "demo_games", "demo_records", "load_demo"]

DEMO_DIR = SEEDS_DIR / "demo"
#: the demo games are dated one evening apart, ending on this day.
_LAST_EVENING = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)


def _order(path: Path) -> tuple[int, str]:
    game = path.stem.rsplit("-", 1)[0]
    return (GAMES.index(game) if game in GAMES else len(GAMES), path.stem)


def demo_records(folder: Path | None = None) -> list[tuple[str, GameRecord]]:
    """(file stem, record) for every demo file, in a stable order."""
    folder = folder or DEMO_DIR
    out = []
    for path in sorted(folder.glob("*.json"), key=_order):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append((path.stem, GameRecord.from_json(data)))
    return out


def demo_games(folder: Path | None = None) -> list[StoredGame]:
    """The demo records as stored games (replayed now: finished, with their summary)."""
    records = demo_records(folder)
    games = []
    for n, (stem, record) in enumerate(records):
        summary = timeline.replay(record).game.summary().to_json()
        created = (_LAST_EVENING - timedelta(days=2 * (len(records) - 1 - n))).isoformat(
            timespec="microseconds"
        )
        games.append(
            StoredGame(
                id=f"demo-{stem}",
                game=record.game,
                players=list(record.players),
                rules=dict(record.rules),
                created=created,
                updated=created,
                status="finished" if summary.get("finished") else "in_progress",
                actions=list(record.actions),
                summary=summary,
            )
        )
    return games


def load_demo(repo: GameRepository, folder: Path | None = None) -> str:
    """Add the demo games that are not there yet; a one-line report of what happened."""
    try:
        games = demo_games(folder)
    except (OSError, ValueError, RulesetError) as exc:
        return f"Demo games could not be read: {exc}"
    backup: dict[str, Any] = {
        "format": BACKUP_FORMAT,
        "schema_version": STORAGE_SCHEMA_VERSION,
        "players": [],
        "games": [g.model_dump(mode="json") for g in games],
        "trash": [],
    }
    report = repo.import_json(backup)
    line = f"Demo games: {len(report.added)} added, {len(report.skipped)} already there."
    if report.problems:
        line += f" {len(report.problems)} could not be read."
    return line
