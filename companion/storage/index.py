"""The history index: one small TinyDB file per month of creation, plus that month's log.

Finishing a game appends one checksummed line to its month's log (``up``: a list
line, ``rm``: removals); past :data:`FOLD_AFTER` lines the log is folded into the
month's file.  The format, crash cases and caching: ``docs/ARCHITECTURE.md``,
section 3.3 ("The history index").
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from companion.storage import actionlog, quarantine
from companion.storage.atomic import Sync, datasync, fsync_dir, sync_together
from companion.storage.checks import describe, sort_key
from companion.storage.files import FileSig, parse_index, read_tables
from companion.storage.folder import Damaged, DataFolder, read_bytes, stat
from companion.storage.migrations import make_meta, upgrade
from companion.storage.models import GameListItem, NewerVersionError, StoredGame

__all__ = ["FOLD_AFTER", "IndexShards", "Staged", "shard_name"]

_SHARD_RE = re.compile(r"^\d{4}-\d{2}$")
#: a month's log longer than this is folded into its file
FOLD_AFTER = 64


def shard_name(created: str) -> str:
    """The month a game's list line is kept in ("0000-00" for a date that is not one)."""
    key = created[:7]
    return key if _SHARD_RE.match(key) else "0000-00"


@dataclass(frozen=True)
class _Month:
    """One month as read: its lines, and what a writer needs to append to its log."""

    json_sig: FileSig | None
    log_sig: FileSig | None
    lines: dict[str, GameListItem]  # by game id
    log_lines: int = 0  # good lines in the log
    log_valid: int = 0  # bytes of good lines (a torn tail after them is cut off)
    log_torn: bool = False


class _LogDamaged(ValueError):
    pass


#: one change of a month: {"up": line} or {"rm": [game ids]}
Change = dict[str, GameListItem | list[str]]


@dataclass(frozen=True)
class Staged:
    """A change written to a month's log, not yet synced (see :meth:`IndexShards.stage`)."""

    path: Path  # the month's file
    fd: int  # its log, open
    month: _Month  # the month before the change
    doc: Change
    new: bool  # the log was created: its folder is synced too


def _apply(lines: dict[str, GameListItem], change: Change) -> None:
    up, rm = change.get("up"), change.get("rm")
    if isinstance(up, GameListItem):
        lines[up.id] = up
    for gid in rm if isinstance(rm, list) else []:
        lines.pop(gid, None)


def _replay(lines: dict[str, GameListItem], raw: bytes) -> tuple[int, int, bool]:
    """Apply a month's log to ``lines``: (good lines, their bytes, torn tail?)."""
    parts = raw.split(b"\n")
    tail = parts.pop()  # after the last newline: empty, or a line cut off mid-write
    count = offset = 0
    bad = False
    for number, part in enumerate(parts, 1):
        doc = actionlog.decode_line(part)
        try:
            if doc is None or len(doc) != 1:
                raise ValueError
            if "up" in doc:
                item = GameListItem.model_validate(doc["up"])
                lines[item.id] = item
            elif isinstance(doc.get("rm"), list):
                for gid in doc["rm"]:
                    lines.pop(str(gid), None)
            else:
                raise ValueError
        except (ValueError, ValidationError):
            if number < len(parts):
                raise _LogDamaged(f"line {number} cannot be read but later lines can") from None
            bad = True  # the last whole-looking line is bad: torn (a crash mid-write)
            break
        count += 1
        offset += len(part) + 1
    return count, offset, bad or bool(tail)


class IndexShards:
    """The month-sharded index of one data folder; ``scan`` yields every game (for repair)."""

    def __init__(self, folder: DataFolder, scan: Callable[[], Iterator[StoredGame]]) -> None:
        self._folder = folder
        self._dir = folder.index_dir
        self._scan = scan
        self._cache: dict[str, _Month] = {}

    def path(self, name: str) -> Path:
        return self._dir / f"{name}.json"

    def paths(self) -> list[Path]:
        """Every month's file (a month may so far have only a log)."""
        names = {p.stem for p in self._dir.glob("*.json")}
        names |= {p.stem for p in self._dir.glob("*.log")}
        return [self.path(n) for n in sorted(names)]

    # ---- reading ---------------------------------------------------------------------
    def _month(self, path: Path) -> _Month:
        cached = self._cache.get(path.stem)
        log_path = path.with_suffix(".log")
        if cached is not None and (cached.json_sig, cached.log_sig) == (
            stat(path),
            stat(log_path),
        ):
            return cached
        what = f"the history index for {path.stem}"
        for _attempt in range(3):
            before = stat(path)
            log = read_bytes(log_path)
            try:
                found = self._folder.read(path, "index", what)
            except Damaged:
                found = self._folder.read(path, "index", what)
            if (found[1] if found else None) != before:
                continue  # folded meanwhile: the log read may be older than the file
            lines = {i.id: i for i in parse_index(found[0])} if found else {}
            month = _Month(before, None, lines)
            if log is not None:
                try:
                    count, valid, torn = _replay(lines, log[0])
                except _LogDamaged as exc:
                    self._set_log_aside(log_path, log[0], str(exc))
                    continue
                month = _Month(before, log[1], lines, count, valid, torn)
            self._cache[path.stem] = month
            return month
        raise Damaged(f"The history index for {path.stem} keeps changing while being read")

    def read(self, path: Path, *, writing: bool = False) -> list[GameListItem]:
        """Index lines of one month; a newer-format month reads as empty, but is never
        overwritten (``writing=True`` raises :class:`NewerVersionError` instead)."""
        try:
            return list(self._month(path).lines.values())
        except NewerVersionError:
            if writing:
                raise
            return []

    def writable(self, created: str) -> None:
        """Raise NewerVersionError before touching anything if that month is a newer app's."""
        self.read(self.path(shard_name(created)), writing=True)

    def _set_log_aside(self, log_path: Path, raw: bytes, why: str) -> None:
        with self._folder.writing():
            now = read_bytes(log_path)
            if now is None or now[0] != raw:
                return  # changed meanwhile: read again
            dest = quarantine.set_aside(self._folder.dir, log_path, durable=self._folder.durable)
            self._folder.set_aside_note(
                dest,
                f"The latest changes to the history index for {log_path.stem} could not be "
                f"read ({why}). They were kept as {dest}; the month was rebuilt from the games.",
            )
            self._cache.pop(log_path.stem, None)
            self.rebuild_shard(log_path.stem)

    # ---- writing (writer lock held) ------------------------------------------------------
    def _append(self, path: Path, doc: Change, month: _Month) -> None:
        """Append one change to the month's log (one write, one fsync); fold a long log."""
        staged = self._stage(path, doc, month)
        if staged is not None:
            ok = False
            try:
                if self._folder.durable:
                    sync_together(staged.fd, [self._sync_dir] if staged.new else [])
                ok = True
            finally:
                self.settle(staged, ok)

    def stage(self, item: GameListItem) -> Staged | None:
        """Write ``item``'s list line to its month's log without syncing it: the caller
        runs :meth:`syncs` (alongside its own) and then :meth:`settle`.  None if there is
        nothing to sync: the line is there already, or its month was written whole
        (a fold, or a new month: durable already)."""
        path = self.path(shard_name(item.created))
        month = self._writable_month(path)
        if month.lines.get(item.id) == item:
            return None
        return self._stage(path, {"up": item}, month)

    def _stage(self, path: Path, doc: Change, month: _Month) -> Staged | None:
        self._cache.pop(path.stem, None)  # if this fails half-way, read afresh next time
        if month.log_lines >= FOLD_AFTER or month.json_sig is None:  # fold, or a new month
            lines = dict(month.lines)
            _apply(lines, doc)
            self.write(path, list(lines.values()))
            return None
        up, rm = doc.get("up"), doc.get("rm")
        line = actionlog.encode_line(
            {"up": up.model_dump(mode="json")} if isinstance(up, GameListItem) else {"rm": rm}
        )
        fd = os.open(path.with_suffix(".log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            if month.log_torn:
                os.ftruncate(fd, month.log_valid)
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        except BaseException:
            os.close(fd)
            raise
        return Staged(path, fd, month, doc, month.log_sig is None)

    def syncs(self, staged: Staged) -> list[Sync]:
        """What makes a staged line durable (its log, and its folder if the log is new)."""
        if not self._folder.durable:
            return []
        out: list[Sync] = [lambda: datasync(staged.fd)]
        if staged.new:
            out.append(self._sync_dir)
        return out

    def settle(self, staged: Staged, synced: bool) -> None:
        """Close a staged line's log; once it is synced, remember the month as it is now."""
        try:
            if synced:
                sig = FileSig.of(os.fstat(staged.fd))
                month = staged.month
                lines = dict(month.lines)
                _apply(lines, staged.doc)
                self._cache[staged.path.stem] = _Month(
                    month.json_sig, sig, lines, month.log_lines + 1, sig.size, False
                )
        finally:
            os.close(staged.fd)

    def _sync_dir(self) -> None:
        fsync_dir(self._dir)

    def upsert(self, items: Iterable[GameListItem]) -> None:
        with self._folder.writing():
            for item in items:
                path = self.path(shard_name(item.created))
                month = self._writable_month(path)
                if month.lines.get(item.id) != item:
                    self._append(path, {"up": item}, month)

    def remove(self, game_ids: list[str], created: str | None = None) -> None:
        if not game_ids:
            return
        with self._folder.writing():
            shards = [self.path(shard_name(created))] if created else self.paths()
            for path in shards:
                try:
                    month = self._writable_month(path)
                except NewerVersionError:
                    if created:
                        raise
                    continue  # a newer app's month: not ours to change
                gone = [gid for gid in game_ids if gid in month.lines]
                if gone:
                    self._append(path, {"rm": gone}, month)

    def _writable_month(self, path: Path) -> _Month:
        return self._month(path)

    def write(self, path: Path, lines: list[GameListItem]) -> None:
        """Write the month whole (its log folded in, then removed)."""
        lines = sorted(lines, key=sort_key)
        docs = {str(n): i.model_dump(mode="json") for n, i in enumerate(lines, 1)}
        self._cache.pop(path.stem, None)
        self._folder.write(path, {"meta": {"1": make_meta("index")}, "games": docs})
        with contextlib.suppress(FileNotFoundError):  # replaying it would change nothing
            os.unlink(path.with_suffix(".log"))

    def rebuild_shard(self, name: str) -> None:
        lines = [g.list_item() for g in self._scan() if shard_name(g.created) == name]
        if lines or self.path(name).with_suffix(".log").exists():
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
                    self._cache.pop(path.stem, None)
                    for gone in (path, path.with_suffix(".log")):
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(gone)
            for name, lines in by_shard.items():
                if name not in newer:
                    self.write(self.path(name), lines)

    def reconcile(self, games: Iterable[StoredGame]) -> None:
        """Make these games' lines match them (after a writer died between the two)."""
        with self._folder.writing():
            for game in games:
                with contextlib.suppress(NewerVersionError):
                    self.upsert([game.list_item()])

    # ---- listing -------------------------------------------------------------------------
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
        for month in list(self._cache.values()):
            if game_id in month.lines:
                return describe(month.lines[game_id])
        for shard in reversed(self.paths()):
            try:  # read as it is, without mending anything: this runs while reporting damage
                found = read_tables(shard)
                items = parse_index(upgrade(found[0], "index", "")[0]) if found else []
                lines = {i.id: i for i in items}
                log = read_bytes(shard.with_suffix(".log"))
                if log is not None:
                    _replay(lines, log[0])
            except Exception:
                continue
            if game_id in lines:
                return describe(lines[game_id])
        return f"game {game_id}"
