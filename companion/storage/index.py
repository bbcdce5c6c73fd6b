"""The history index: one small TinyDB file per month of creation (``index/<YYYY-MM>.json``).

Each shard holds the list lines (:class:`~companion.storage.models.GameListItem`)
of the games created that month, so listing reads the newest month(s) only and
a change rewrites one month.  A shard written by a newer app reads as empty and
is never overwritten.  Shards are cached while their file signature holds.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from companion.storage.checks import describe, sort_key
from companion.storage.files import FileSig, parse_index, read_tables
from companion.storage.folder import Damaged, DataFolder, stat
from companion.storage.migrations import make_meta, upgrade
from companion.storage.models import GameListItem, NewerVersionError, StoredGame

__all__ = ["IndexShards", "shard_name"]

_SHARD_RE = re.compile(r"^\d{4}-\d{2}$")


def shard_name(created: str) -> str:
    """The month a game's list line is kept in ("0000-00" for a date that is not one)."""
    key = created[:7]
    return key if _SHARD_RE.match(key) else "0000-00"


class IndexShards:
    """The month-sharded index of one data folder; ``scan`` yields every game (for repair)."""

    def __init__(self, folder: DataFolder, scan: Callable[[], Iterator[StoredGame]]) -> None:
        self._folder = folder
        self._dir = folder.index_dir
        self._scan = scan
        self._cache: dict[str, tuple[FileSig, list[GameListItem]]] = {}

    def path(self, name: str) -> Path:
        return self._dir / f"{name}.json"

    def paths(self) -> list[Path]:
        return sorted(self._dir.glob("*.json"))

    def read(self, path: Path, *, writing: bool = False) -> list[GameListItem]:
        """Index lines of one month; a newer-format shard reads as empty, but is never
        overwritten (``writing=True`` raises :class:`NewerVersionError` instead)."""
        cached = self._cache.get(path.stem)
        if cached is not None and cached[0] == stat(path):
            return list(cached[1])  # unchanged since read (list lines are never mutated)
        what = f"the history index for {path.stem}"
        try:
            found = self._folder.read(path, "index", what)
        except Damaged:
            found = self._folder.read(path, "index", what)
        except NewerVersionError:
            if writing:
                raise
            return []
        if not found:
            return []
        lines = parse_index(found[0])
        self._cache[path.stem] = (found[1], lines)
        return list(lines)

    def writable(self, created: str) -> None:
        """Raise NewerVersionError before touching anything if that month is a newer app's."""
        self.read(self.path(shard_name(created)), writing=True)

    def upsert(self, items: Iterable[GameListItem]) -> None:
        by_shard: dict[str, list[GameListItem]] = {}
        for item in items:
            by_shard.setdefault(shard_name(item.created), []).append(item)
        with self._folder.writing():
            for name, new in by_shard.items():
                path = self.path(name)
                ids = {i.id for i in new}
                lines = [i for i in self.read(path, writing=True) if i.id not in ids]
                self.write(path, lines + new)

    def remove(self, game_ids: list[str], created: str | None = None) -> None:
        if not game_ids:
            return
        with self._folder.writing():
            shards = [self.path(shard_name(created))] if created else self.paths()
            for path in shards:
                try:
                    lines = self.read(path, writing=True)
                except NewerVersionError:
                    if created:
                        raise
                    continue  # a newer app's month: not ours to change
                kept = [i for i in lines if i.id not in game_ids]
                if len(kept) != len(lines):
                    self.write(path, kept)

    def write(self, path: Path, lines: list[GameListItem]) -> None:
        lines = sorted(lines, key=sort_key)
        docs = {str(n): i.model_dump(mode="json") for n, i in enumerate(lines, 1)}
        self._folder.write(path, {"meta": {"1": make_meta("index")}, "games": docs})

    def rebuild_shard(self, name: str) -> None:
        lines = [g.list_item() for g in self._scan() if shard_name(g.created) == name]
        if lines:
            self.write(self.path(name), lines)

    def rebuild(self) -> None:
        """Recreate the whole index from the game files (slow; used for repair)."""
        with self._folder.writing():
            by_shard: dict[str, list[GameListItem]] = {}
            for g in self._scan():
                by_shard.setdefault(shard_name(g.created), []).append(g.list_item())
            newer = set()
            for path in self.paths():
                try:
                    self.read(path, writing=True)
                except NewerVersionError:
                    newer.add(path.stem)  # written by a newer app: left untouched
                    continue
                if path.stem not in by_shard:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
            for name, lines in by_shard.items():
                if name not in newer:
                    self.write(self.path(name), lines)

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]:
        """Newest first, read from the index only (no game file is opened)."""
        wanted = offset + limit
        found: list[GameListItem] = []
        for path in reversed(self.paths()):
            if not _SHARD_RE.match(path.stem) and path.stem != "0000-00":
                continue
            lines = [
                i
                for i in self.read(path)
                if (game is None or i.game == game) and (player is None or player in i.players)
            ]
            lines.sort(key=sort_key, reverse=True)
            found.extend(lines)
            if len(found) >= wanted:
                break
        return found[offset:wanted]

    def describe(self, game_id: str) -> str:
        """Plain words for a game, from the index if possible (never raises)."""
        for shard in reversed(self.paths()):
            try:
                found = read_tables(shard)
                items = parse_index(upgrade(found[0], "index", "")[0]) if found else []
            except Exception:
                continue
            for item in items:
                if item.id == game_id:
                    return describe(item)
        return f"game {game_id}"
