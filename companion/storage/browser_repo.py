"""The history on a phone with no computer: the in-memory twin, written through to a log.

:class:`BrowserRepository` is a :class:`~companion.storage.memory.MemoryRepository`
that appends one line to a two-slot log (:class:`LogFile`) before every change
returns; :class:`FileLog` keeps a slot in a file (the desktop twin the contract
tests use), :func:`open_browser_repository` opens the browser's private file
system slots.  The log's lines, generations and crash cases: ``docs/ARCHITECTURE.md``,
section 3.3 ("On a phone with no computer").
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from companion.storage.checks import check_action, check_status, check_summary
from companion.storage.memory import MemoryRepository
from companion.storage.models import (
    GameStatus,
    ImportReport,
    Player,
    StorageError,
    StoredGame,
)

__all__ = ["BrowserRepository", "FileLog", "LogFile", "MemoryLog"]


class LogFile(Protocol):
    """One slot of the log.  ``append`` and ``reset`` are durable when they return."""

    def read(self) -> bytes: ...

    def append(self, data: bytes) -> None: ...

    def reset(self, data: bytes) -> None: ...


class MemoryLog:
    """A slot in memory (tests: what was made durable, and a crash in the middle)."""

    def __init__(self, data: bytes = b"") -> None:
        self.data = data

    def read(self) -> bytes:
        return self.data

    def append(self, data: bytes) -> None:
        self.data += data

    def reset(self, data: bytes) -> None:
        self.data = data


class FileLog:
    """A slot in a file: appended and fsynced, or replaced whole and fsynced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)

    def read(self) -> bytes:
        return self.path.read_bytes()

    def append(self, data: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    def reset(self, data: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _records(data: bytes) -> Iterator[dict[str, Any]]:
    """The complete, readable lines of a slot (a torn last line was never acknowledged)."""
    lines = data.split(b"\n")
    for raw in lines[:-1]:  # the part after the last newline is unfinished
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if isinstance(record, dict):
            yield record


def _generation(records: list[dict[str, Any]]) -> int | None:
    """The slot's generation if it can be used (a compacted copy must say ``ready``)."""
    if not records or not isinstance(records[0].get("gen"), int):
        return None
    gen: int = records[0]["gen"]
    if gen > 0 and not any(r.get("ready") is True for r in records):
        return None
    return gen


#: compact on opening when the log has this many more lines than it has games (plus players)
_SLACK = 200
#: while running, compact once the log is this many bytes past twice its last compact size
_SLACK_BYTES = 256 * 1024


class BrowserRepository(MemoryRepository):
    """Games in memory, every change appended to a durable log before it returns."""

    def __init__(self, a: LogFile, b: LogFile, *, label: str = "this browser") -> None:
        super().__init__()
        self._slots = (a, b)
        self._label = label
        self._problems: list[str] = []
        self._active = 0
        self._gen = 0
        self._lines = 0
        self._bytes = 0  # the active slot's size
        self._base = 0  # its size when it was last opened or compacted
        self._load()

    @property
    def problems(self) -> list[str]:
        return list(self._problems)

    def close(self) -> None:
        """Let go of the slots (the browser's handles are exclusive: another opener waits)."""
        with self._lock:
            for slot in self._slots:
                done = getattr(slot, "close", None)
                if done is not None:
                    done()

    # ---- opening ------------------------------------------------------------------------
    def _load(self) -> None:
        raw = [s.read() for s in self._slots]
        slots = [list(_records(data)) for data in raw]
        gens = [_generation(r) for r in slots]
        usable = [i for i in (0, 1) if gens[i] is not None]
        self._games.clear()
        self._trash.clear()
        self._players.clear()
        self._revisions.clear()
        if not usable:
            # never overwrite what cannot be read: start in an empty slot, or refuse
            empty = [i for i in (0, 1) if not raw[i]]
            if not empty:
                raise StorageError(
                    f"the saved history in {self._label} cannot be read; it was left as it is"
                )
            if len(empty) == 1:
                self._problems.append(
                    f"Part of the saved history in {self._label} could not be read; "
                    "it was left as it is and new games are saved beside it."
                )
            first = _line({"gen": 0})
            self._slots[empty[0]].reset(first)
            self._active, self._gen, self._lines = empty[0], 0, 1
            self._bytes = self._base = len(first)
            return
        self._active = max(usable, key=lambda i: gens[i] or 0)
        self._gen = gens[self._active] or 0
        records = slots[self._active]
        for record in records[1:]:
            self._apply(record)
        self._lines = len(records)
        self._bytes = self._base = len(raw[self._active])
        if self._lines > len(self._games) + len(self._trash) + 1 + _SLACK:
            self._compact()

    def _apply(self, record: dict[str, Any]) -> None:
        try:
            if "add" in record or "pop" in record or "summary" in record:
                self._apply_change(record)
            elif "game" in record:
                game = StoredGame.model_validate(record["game"])
                self._games.pop(game.id, None)
                self._trash.pop(game.id, None)
                (self._trash if record.get("trash") else self._games)[game.id] = game
                self._revisions[game.id] = int(record.get("rev", 0))
            elif "players" in record:
                players = [Player.model_validate(p) for p in record["players"]]
                self._players = {p.name: p for p in players}
        except (ValueError, TypeError, KeyError, StorageError) as exc:
            self._problems.append(f"A saved line in {self._label} was damaged and skipped ({exc}).")

    def _apply_change(self, record: dict[str, Any]) -> None:
        """An entry, an undo or a summary, on the game as the lines before left it."""
        gid = str(record.get("add") or record.get("pop") or record.get("summary"))
        game = self._games.get(gid) or self._trash.get(gid)
        if game is None:
            raise KeyError(f"a change to the unknown game {gid!r}")
        if "add" in record:
            actions = record["actions"]
            if not isinstance(actions, list):
                raise ValueError("an entry's actions are not a list")
            game.actions.extend(check_action(a) for a in actions)
        elif "pop" in record:
            if not game.actions:
                raise ValueError("an undo of a game with no actions")
            game.actions.pop()
        else:
            game.summary = check_summary(record["value"])
            game.status = check_status(record["status"])
        game.updated = str(record["at"])
        if "rev" in record:
            self._revisions[gid] = int(record["rev"])

    def _snapshot_lines(self) -> Iterable[bytes]:
        for trash, table in ((False, self._games), (True, self._trash)):
            for game in table.values():
                yield self._game_line(game, trash)
        yield self._players_line()

    def _compact(self) -> None:
        other = 1 - self._active
        body = [_line({"gen": self._gen + 1}), *self._snapshot_lines(), _line({"ready": True})]
        data = b"".join(body)
        self._slots[other].reset(data)
        self._active, self._gen, self._lines = other, self._gen + 1, len(body)
        self._bytes = self._base = len(data)

    # ---- writing through ----------------------------------------------------------------
    def _game_line(self, game: StoredGame, trash: bool) -> bytes:
        return _line(
            {
                "game": game.model_dump(mode="json"),
                "rev": self._revisions.get(game.id, 0),
                "trash": trash,
            }
        )

    def _players_line(self) -> bytes:
        return _line({"players": [p.model_dump(mode="json") for p in self._players.values()]})

    def _write(self, game_ids: Iterable[str] = (), players: bool = False) -> None:
        """Append the whole of what changed (see :meth:`_append`)."""
        lines = []
        for gid in dict.fromkeys(game_ids):
            if gid in self._games:
                lines.append(self._game_line(self._games[gid], False))
            elif gid in self._trash:
                lines.append(self._game_line(self._trash[gid], True))
        if players:
            lines.append(self._players_line())
        self._append(lines)

    def _change(self, game_id: str, record: dict[str, Any]) -> None:
        """Append one change of a game: the record, with the game's revision and time."""
        game = self._games.get(game_id) or self._trash.get(game_id)
        if game is None:  # pragma: no cover - the in-memory twin refused it first
            return
        record.update(rev=self._revisions.get(game_id, 0), at=game.updated)
        self._append([_line(record)])

    def _append(self, lines: list[bytes]) -> None:
        """Append ``lines``; on failure the memory goes back to what is saved."""
        if not lines:
            return
        data = b"".join(lines)
        try:
            self._slots[self._active].append(data)
        except Exception as exc:  # quota, a revoked handle: nothing acknowledged
            self._load()
            raise StorageError(
                f"could not save in {self._label} ({exc}); the change was not kept"
            ) from None
        self._lines += len(lines)
        self._bytes += len(data)
        if self._bytes > 2 * self._base + _SLACK_BYTES:
            try:
                self._compact()
            except Exception as exc:  # the entry is saved; the copy waits for the next time
                self._problems.append(f"The saved history in {self._label} was not tidied ({exc}).")
                self._base = self._bytes

    def _with_names(self, *names: str) -> list[str]:
        return [g.id for g in self._all() if any(n in g.players for n in names)]

    # every change: the in-memory twin's, then its line, under the one lock
    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame:
        with self._lock:
            stored = super().create_game(game, players, rules)
            self._write([stored.id], players=True)
            return stored

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int:
        with self._lock:
            n = super().append_action(game_id, action, expected=expected)
            self._change(game_id, {"add": game_id, "actions": self._games[game_id].actions[-1:]})
            return n

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int:
        with self._lock:
            n = super().append_actions(game_id, actions, expected=expected)
            added = self._games[game_id].actions[-len(actions) :]
            self._change(game_id, {"add": game_id, "actions": added})
            return n

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None:
        with self._lock:
            popped = super().pop_action(game_id, expected=expected)
            if popped is not None:
                self._change(game_id, {"pop": game_id})
            return popped

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None:
        with self._lock:
            super().replace_actions(game_id, actions, expected=expected)
            self._write([game_id])

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None:
        with self._lock:
            super().set_summary(game_id, summary, status)
            game = self._games[game_id]
            self._change(
                game_id, {"summary": game_id, "value": game.summary, "status": game.status}
            )

    def delete_game(self, game_id: str) -> None:
        with self._lock:
            super().delete_game(game_id)
            self._write([game_id])

    def restore_game(self, game_id: str) -> StoredGame:
        with self._lock:
            restored = super().restore_game(game_id)
            self._write([game_id])
            return restored

    def add_player(self, name: str) -> Player:
        with self._lock:
            before = set(self._players)
            player = super().add_player(name)
            if set(self._players) != before:
                self._write(players=True)
            return player

    def rename_player(self, old: str, new: str) -> None:
        with self._lock:
            super().rename_player(old, new)
            key = self._find_player(new.strip())
            self._write(self._with_names(key) if key else [], players=True)

    def merge_players(self, source: str, target: str) -> None:
        with self._lock:
            super().merge_players(source, target)
            key = self._find_player(target)
            self._write(self._with_names(key) if key else [], players=True)

    def import_json(self, data: dict[str, Any]) -> ImportReport:
        with self._lock:
            return super().import_json(data)

    def _bulk_insert(
        self, games: list[StoredGame], trash: list[StoredGame], players: list[Player]
    ) -> None:
        with self._lock:
            super()._bulk_insert(games, trash, players)
            self._write([g.id for g in [*games, *trash]], players=True)
