"""The on-disk repository: one small TinyDB file per game plus a month-sharded index.

Layout of the data folder (see the package docstring for the why)::

    format.json            store format version (refuses a store from a newer app)
    players.json           TinyDB: table "players"
    games/<id>.json        TinyDB per game: tables "meta", "game" (header), "actions"
    index/<YYYY-MM>.json   TinyDB per month of creation: table "games" (list lines)
    trash/<id>.json        deleted games (restore = move back)
    quarantine/            damaged files moved aside, never deleted
    journal.json           ids whose index entry may be stale after a crash (transient)
    .lock                  the writer lock (filelock)
    .writer-<pid>-<n>      marker of a process that writes (removed on close)

Saving a table entry rewrites only ``games/<id>.json``.  Finishing, creating
or deleting a game rewrites that file plus one month of the index.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from pydantic import ValidationError
from tinydb import TinyDB

from companion.storage import models
from companion.storage.atomic import (
    BufferedStorage,
    DamagedFileError,
    atomic_write_bytes,
    clean_stale_temps,
    fsync_dir,
    read_json_file,
)
from companion.storage.base import (
    BaseRepository,
    check_action,
    check_merge,
    check_name,
    check_players,
    check_status,
    describe,
    rename_in,
    sort_key,
)
from companion.storage.migrations import Tables, file_version, make_meta, upgrade
from companion.storage.models import (
    GameListItem,
    GameNotFoundError,
    GameStatus,
    NewerVersionError,
    Player,
    StorageError,
    StoredGame,
    now_iso,
)

__all__ = ["TinyDbRepository"]

_ID_RE = re.compile(models.GAME_ID_PATTERN)
_MARKER = ".writer-"
_SHARD_RE = re.compile(r"^\d{4}-\d{2}$")


class _Damaged(StorageError):
    """A file was unreadable and has been moved to quarantine (message = for people)."""


def _shard_name(created: str) -> str:
    key = created[:7]
    return key if _SHARD_RE.match(key) else "0000-00"


def _game_tables(game: StoredGame) -> Tables:
    header = game.model_dump(mode="json", exclude={"actions"})
    version = models.STORAGE_SCHEMA_VERSION
    return {
        "meta": {"1": make_meta("game")},
        "game": {"1": header},
        "actions": {
            str(n): {"schema_version": version, "action": a} for n, a in enumerate(game.actions, 1)
        },
    }


def _game_from_tables(tables: Tables) -> StoredGame:
    header = tables.get("game", {}).get("1")
    if not isinstance(header, dict):
        raise ValueError("no game header")
    raw_actions = tables.get("actions", {})
    actions = [raw_actions[k]["action"] for k in sorted(raw_actions, key=int)]
    return StoredGame.model_validate({**header, "actions": actions})


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill(pid, 0) would terminate it there; scanning is always safe
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _words(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class TinyDbRepository(BaseRepository):
    """Game history in a data folder; safe against crashes and concurrent writers."""

    def __init__(
        self, data_dir: str | os.PathLike[str], *, durable: bool = True, lock_timeout: float = 30
    ) -> None:
        self._dir = Path(data_dir).expanduser()
        self._games_dir = self._dir / "games"
        self._index_dir = self._dir / "index"
        self._trash_dir = self._dir / "trash"
        self._quarantine_dir = self._dir / "quarantine"
        self._players_path = self._dir / "players.json"
        self._journal_path = self._dir / "journal.json"
        self._format_path = self._dir / "format.json"
        for folder in (self._games_dir, self._index_dir, self._trash_dir, self._quarantine_dir):
            folder.mkdir(parents=True, exist_ok=True)
        self._durable = durable
        self._flock = FileLock(
            self._dir / ".lock",
            timeout=lock_timeout,
            poll_interval=0.002,
            preserve_lock_file=True,
        )
        self._tlock = threading.RLock()
        self._depth = 0
        self._marker: Path | None = None
        self._marker_pid = 0
        self._problems: list[str] = []
        with self._writing():
            self._clean_after_dead_writers()
            self._check_format()

    # ---- basics -------------------------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        return self._dir

    @property
    def problems(self) -> list[str]:
        """Plain-language notes about files that were damaged or refused."""
        return list(self._problems)

    def close(self) -> None:
        """Say this process is done writing (lets the next open skip the temp-file scan)."""
        if self._marker is not None and self._marker_pid == os.getpid():
            with contextlib.suppress(OSError):
                os.unlink(self._marker)
            atexit.unregister(self._close_at_exit)
        self._marker = None

    def _close_at_exit(self) -> None:
        self.close()

    # ---- writer markers: who may have left temp files behind ---------------------------
    def _mark_writer(self) -> None:
        """Before this process first writes, leave ``.writer-<pid>-<n>`` (removed on close).

        A writer killed mid-write leaves a temp file and its marker; the next
        open sees a marker of a dead process and scans every folder for temp
        files.  Without such a marker the big folders need no scan, so opening
        stays fast however many games there are.
        """
        if self._marker is not None and self._marker_pid == os.getpid():
            return
        self._marker_pid = os.getpid()
        self._marker = self._dir / f"{_MARKER}{os.getpid()}-{secrets.token_hex(4)}"
        self._marker.touch()
        atexit.register(self._close_at_exit)

    def _clean_after_dead_writers(self) -> None:
        dead = []
        for name in os.listdir(self._dir):
            if name.startswith(_MARKER):
                pid = name[len(_MARKER) :].partition("-")[0]
                if not pid.isdigit() or not _alive(int(pid)):
                    dead.append(self._dir / name)
        small = [self._dir, self._index_dir]
        clean_stale_temps(small + [self._games_dir, self._trash_dir] if dead else small)
        for marker in dead:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(marker)

    def _note(self, message: str) -> None:
        if message not in self._problems:
            self._problems.append(message)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One writer at a time: this process's threads and every other process."""
        with self._tlock:
            try:
                self._flock.acquire()
            except Timeout:
                raise StorageError(
                    "another window is still saving to the history; please try again"
                ) from None
            self._depth += 1
            try:
                self._mark_writer()
                if self._depth == 1 and self._journal_path.exists():
                    self._recover_journal()
                yield
            finally:
                self._depth -= 1
                self._flock.release()

    def _write(self, path: Path, tables: Tables) -> None:
        atomic_write_bytes(path, _dumps(tables), durable=self._durable)

    def _db(self, path: Path, tables: Tables) -> tuple[TinyDB, BufferedStorage]:
        """A TinyDB over already-read tables; changes reach disk on ``storage.flush()``."""
        db = TinyDB(path, storage=BufferedStorage, durable=self._durable)
        storage = db.storage
        assert isinstance(storage, BufferedStorage)
        storage.write(tables)
        storage.dirty = False
        return db, storage

    # ---- reading with damage / version handling -------------------------------------
    def _read(self, path: Path, kind: str, what: str | Callable[[], str]) -> Tables | None:
        """Tables of ``path`` at the current version; None if missing.

        A damaged file is moved to quarantine and :class:`_Damaged` raised; a file
        from a newer app raises :class:`NewerVersionError` and is left untouched.
        """
        for _attempt in range(3):
            try:
                tables = read_json_file(path)
                if tables is None:
                    return None
                try:
                    tables, changed = upgrade(tables, kind, "this file")
                    if kind == "game":
                        _game_from_tables(tables)
                except NewerVersionError as exc:
                    text = _words(what)
                    message = f"{text[:1].upper()}{text[1:]}: {exc}"
                    self._note(message)
                    raise NewerVersionError(message) from None
                except (ValueError, KeyError, TypeError, ValidationError) as exc:
                    reason = str(exc).splitlines()[0]
                    raise DamagedFileError(path, f"its content is not valid: {reason}") from None
            except DamagedFileError as exc:
                if self._quarantine(path, kind, exc.reason, _words(what)):
                    raise _Damaged(self._problems[-1]) from None
                continue  # healed meanwhile by another writer: read again
            if changed:
                with self._writing():  # upgrade what is on disk now, not what we read
                    current = read_json_file(path)
                    if (
                        current is not None
                        and file_version(current) < models.STORAGE_SCHEMA_VERSION
                    ):
                        tables = upgrade(current, kind, "this file")[0]
                        self._write(path, tables)
            return tables
        raise StorageError(f"{_words(what)} keeps changing while being read; try again")

    def _quarantine(self, path: Path, kind: str, reason: str, what: str) -> bool:
        """Move a damaged file aside (kept, never deleted) and tell the user."""
        with self._writing():
            try:
                data = read_json_file(path)
                if data is None:
                    return False
                file_version(data)
                if kind == "game":
                    _game_from_tables(data)
                return False  # it is fine now (rewritten by another writer)
            except (DamagedFileError, ValueError, KeyError, TypeError, ValidationError):
                pass
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            rel = path.relative_to(self._dir).as_posix().replace("/", "_")
            dest = self._quarantine_dir / f"{stamp}-{rel}"
            os.replace(path, dest)
            if self._durable:
                fsync_dir(path.parent)
                fsync_dir(self._quarantine_dir)
            message = (
                f"{what[:1].upper()}{what[1:]} could not be read ({reason}). The damaged file "
                f"was kept as {dest}; the rest of the history opens normally."
            )
            self._note(message)
            with contextlib.suppress(OSError):  # for other windows and later sessions
                atomic_write_bytes(
                    dest.with_name(dest.name + ".txt"), message.encode(), durable=False
                )
            if path.parent == self._games_dir:
                self._index_remove(path.stem)
            elif path.parent == self._index_dir:
                self._rebuild_shard(path.stem)
            return True

    def _check_format(self) -> None:
        try:
            tables = read_json_file(self._format_path)
        except DamagedFileError as exc:
            self._quarantine_format(exc.reason)
            tables = None
        if tables is None:
            self._write(self._format_path, {"meta": {"1": make_meta("store")}})
            return
        try:
            version = file_version(tables)
        except ValueError:
            self._quarantine_format("no format version")
            self._write(self._format_path, {"meta": {"1": make_meta("store")}})
            return
        if version > models.STORAGE_SCHEMA_VERSION:
            raise NewerVersionError(
                f"The history in {self._dir} was saved by a newer version of Rummy Companion "
                f"(format {version}, this app reads up to {models.STORAGE_SCHEMA_VERSION}). "
                "Update the app to open it; nothing was changed."
            )
        if version < models.STORAGE_SCHEMA_VERSION:
            self._migrate_all()
            self._write(self._format_path, {"meta": {"1": make_meta("store")}})

    def _quarantine_format(self, reason: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        dest = self._quarantine_dir / f"{stamp}-format.json"
        os.replace(self._format_path, dest)
        self._note(
            f"The format marker could not be read ({reason}); it was kept as {dest} and recreated."
        )

    def _migrate_all(self) -> None:
        """Upgrade every file of an older store once, on open."""
        paths = [(self._players_path, "players", "the player list")]
        paths += [
            (p, "index", f"the history index for {p.stem}") for p in self._index_dir.glob("*.json")
        ]
        for folder in (self._games_dir, self._trash_dir):
            paths += [(p, "game", f"game {p.stem}") for p in folder.glob("*.json")]
        for path, kind, what in paths:
            with contextlib.suppress(_Damaged, NewerVersionError):
                self._read(path, kind, what)

    # ---- journal: keeps the index right across crashes -------------------------------
    def _journal(self, ids: list[str]) -> None:
        self._write(
            self._journal_path, {"meta": {"1": make_meta("journal")}, "ids": {"1": {"ids": ids}}}
        )

    def _clear_journal(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._journal_path)
            if self._durable:
                fsync_dir(self._dir)

    def _recover_journal(self) -> None:
        try:
            tables = read_json_file(self._journal_path) or {}
            ids = list(tables["ids"]["1"]["ids"])
        except (DamagedFileError, KeyError, TypeError):
            ids = None
        if ids is None:  # the journal itself was cut off: check the whole index
            self.rebuild_index()
        else:
            for gid in ids:
                game = self._load_optional(gid)
                try:
                    if game is None:
                        self._index_remove(gid)
                    else:
                        self._index_upsert(game.list_item())
                except NewerVersionError:
                    pass  # its month belongs to a newer app (noted in problems); left alone
        self._clear_journal()

    # ---- game files ----------------------------------------------------------------------
    def _game_path(self, game_id: Any, folder: Path | None = None) -> Path:
        if not isinstance(game_id, str) or not _ID_RE.match(game_id):
            raise GameNotFoundError(f"no game with id {game_id!r}")
        return (folder or self._games_dir) / f"{game_id}.json"

    def _what(self, game_id: str) -> str:
        """Plain words for a game, from the index if possible."""
        for shard in sorted(self._index_dir.glob("*.json"), reverse=True):
            with contextlib.suppress(DamagedFileError):
                for doc in (read_json_file(shard) or {}).get("games", {}).values():
                    if isinstance(doc, dict) and doc.get("id") == game_id:
                        with contextlib.suppress(ValidationError):
                            return describe(GameListItem.model_validate(doc))
        return f"game {game_id}"

    def _load_tables(self, game_id: str, folder: Path | None = None) -> tuple[Path, Tables]:
        path = self._game_path(game_id, folder)
        tables = self._read(path, "game", lambda: self._what(game_id))
        if tables is None:
            raise GameNotFoundError(f"no game with id {game_id!r}")
        return path, tables

    def _load_optional(self, game_id: str, folder: Path | None = None) -> StoredGame | None:
        try:
            return _game_from_tables(self._load_tables(game_id, folder)[1])
        except (GameNotFoundError, _Damaged, NewerVersionError):
            return None

    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame:
        names = check_players(players)
        stored = StoredGame(
            game=check_name(game, "game name"),
            players=names,
            rules=check_action(dict(rules or {})),
        )
        with self._writing():
            self._shard_writable(stored.created)
            self._add_players(list(names))
            self._journal([stored.id])
            self._write(self._game_path(stored.id), _game_tables(stored))
            self._index_upsert(stored.list_item())
            self._clear_journal()
        return stored

    def get_game(self, game_id: str) -> StoredGame:
        return _game_from_tables(self._load_tables(game_id)[1])

    def append_action(self, game_id: str, action: dict[str, Any]) -> int:
        """Add one table entry; it is on disk (fsynced) when this returns."""
        action = check_action(action)
        with self._writing():
            path, tables = self._load_tables(game_id)
            db, storage = self._db(path, tables)
            actions = db.table("actions")
            actions.insert({"schema_version": models.STORAGE_SCHEMA_VERSION, "action": action})
            db.table("game").update({"updated": now_iso()}, doc_ids=[1])
            storage.flush()
            return len(actions)

    def pop_action(self, game_id: str) -> dict[str, Any] | None:
        with self._writing():
            path, tables = self._load_tables(game_id)
            db, storage = self._db(path, tables)
            actions = db.table("actions")
            ids = [doc.doc_id for doc in actions.all()]
            if not ids:
                return None
            last = actions.get(doc_id=max(ids))
            assert last is not None and not isinstance(last, list)
            actions.remove(doc_ids=[max(ids)])
            db.table("game").update({"updated": now_iso()}, doc_ids=[1])
            storage.flush()
            popped: dict[str, Any] = last["action"]
            return popped

    def replace_actions(self, game_id: str, actions: list[dict[str, Any]]) -> None:
        checked = [check_action(a) for a in actions]
        with self._writing():
            path, tables = self._load_tables(game_id)
            db, storage = self._db(path, tables)
            table = db.table("actions")
            table.truncate()
            version = models.STORAGE_SCHEMA_VERSION
            table.insert_multiple({"schema_version": version, "action": a} for a in checked)
            db.table("game").update({"updated": now_iso()}, doc_ids=[1])
            storage.flush()

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None:
        fields: dict[str, Any] = {"summary": None if summary is None else check_action(summary)}
        if status is not None:
            fields["status"] = check_status(status)
        with self._writing():
            path, tables = self._load_tables(game_id)
            fields["updated"] = now_iso()
            self._shard_writable(_game_from_tables(tables).created)
            db, storage = self._db(path, tables)
            db.table("game").update(fields, doc_ids=[1])
            self._journal([game_id])
            storage.flush()
            assert storage._cache is not None
            self._index_upsert(_game_from_tables(storage._cache).list_item())
            self._clear_journal()

    def delete_game(self, game_id: str) -> None:
        """Move a game to the trash (undo with :meth:`restore_game`)."""
        with self._writing():
            path, tables = self._load_tables(game_id)
            game = _game_from_tables(tables)
            self._shard_writable(game.created)
            self._journal([game_id])
            os.replace(path, self._trash_dir / path.name)
            if self._durable:
                fsync_dir(self._trash_dir)
                fsync_dir(self._games_dir)
            self._index_remove(game_id, game.created)
            self._clear_journal()

    def restore_game(self, game_id: str) -> StoredGame:
        with self._writing():
            try:
                path, tables = self._load_tables(game_id, self._trash_dir)
            except GameNotFoundError:
                raise GameNotFoundError(f"no game with id {game_id!r} in the trash") from None
            game = _game_from_tables(tables)
            self._shard_writable(game.created)
            self._journal([game_id])
            os.replace(path, self._games_dir / path.name)
            if self._durable:
                fsync_dir(self._games_dir)
                fsync_dir(self._trash_dir)
            self._index_upsert(game.list_item())
            self._clear_journal()
            return game

    def list_trash(self) -> list[GameListItem]:
        games = [
            self._load_optional(p.stem, self._trash_dir) for p in self._trash_dir.glob("*.json")
        ]
        return [g.list_item() for g in sorted(filter(None, games), key=sort_key, reverse=True)]

    # ---- the index -------------------------------------------------------------------------
    def _shard_path(self, name: str) -> Path:
        return self._index_dir / f"{name}.json"

    def _read_shard(self, path: Path, *, writing: bool = False) -> list[dict[str, Any]]:
        """Index lines of one month; a newer-format shard reads as empty, but is never
        overwritten (``writing=True`` raises :class:`NewerVersionError` instead)."""
        try:
            tables = self._read(path, "index", f"the history index for {path.stem}")
        except _Damaged:
            tables = read_json_file(path)  # rebuilt by the quarantine step
        except NewerVersionError:
            if writing:
                raise
            return []
        docs = (tables or {}).get("games", {})
        return [d for d in docs.values() if isinstance(d, dict)]

    def _shard_writable(self, created: str) -> None:
        """Raise NewerVersionError before touching anything if that month is a newer app's."""
        self._read_shard(self._shard_path(_shard_name(created)), writing=True)

    def _index_upsert(self, item: GameListItem) -> None:
        with self._writing():
            path = self._shard_path(_shard_name(item.created))
            docs = [d for d in self._read_shard(path, writing=True) if d.get("id") != item.id]
            docs.append(item.model_dump(mode="json"))
            self._write_shard(path, docs)

    def _index_remove(self, game_id: str, created: str | None = None) -> None:
        with self._writing():
            shards = (
                [self._shard_path(_shard_name(created))]
                if created
                else sorted(self._index_dir.glob("*.json"))
            )
            for path in shards:
                try:
                    docs = self._read_shard(path, writing=True)
                except NewerVersionError:
                    if created:
                        raise
                    continue  # a newer app's month: not ours to change
                kept = [d for d in docs if d.get("id") != game_id]
                if len(kept) != len(docs):
                    self._write_shard(path, kept)

    def _write_shard(self, path: Path, docs: list[dict[str, Any]]) -> None:
        db, storage = self._db(path, {"meta": {"1": make_meta("index")}})
        db.table("games").insert_multiple(sorted(docs, key=lambda d: (d["created"], d["id"])))
        storage.flush()

    def _scan_games(self) -> Iterator[StoredGame]:
        for path in sorted(self._games_dir.glob("*.json")):
            game = self._load_optional(path.stem)
            if game is not None:
                yield game

    def _rebuild_shard(self, name: str) -> None:
        docs = [
            g.list_item().model_dump(mode="json")
            for g in self._scan_games()
            if _shard_name(g.created) == name
        ]
        if docs:
            self._write_shard(self._shard_path(name), docs)

    def rebuild_index(self) -> None:
        """Recreate the whole index from the game files (slow; used for repair)."""
        with self._writing():
            by_shard: dict[str, list[dict[str, Any]]] = {}
            for g in self._scan_games():
                by_shard.setdefault(_shard_name(g.created), []).append(
                    g.list_item().model_dump(mode="json")
                )
            newer = set()
            for path in self._index_dir.glob("*.json"):
                try:
                    self._read_shard(path, writing=True)
                except NewerVersionError:
                    newer.add(path.stem)  # written by a newer app: left untouched
                    continue
                if path.stem not in by_shard:
                    os.unlink(path)
            for name, docs in by_shard.items():
                if name not in newer:
                    self._write_shard(self._shard_path(name), docs)

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]:
        """Newest first, read from the index only (no game file is opened)."""
        wanted = offset + limit
        found: list[dict[str, Any]] = []
        for path in sorted(self._index_dir.glob("*.json"), reverse=True):
            if not _SHARD_RE.match(path.stem) and path.stem != "0000-00":
                continue
            docs = [
                d
                for d in self._read_shard(path)
                if (game is None or d.get("game") == game)
                and (player is None or player in d.get("players", ()))
            ]
            docs.sort(key=lambda d: (str(d.get("created")), str(d.get("id"))), reverse=True)
            found.extend(docs)
            if len(found) >= wanted:
                break
        items = []
        for doc in found[offset:wanted]:
            try:
                items.append(GameListItem.model_validate(doc))
            except ValidationError:
                self._note(f"A line of the history index could not be read: {doc!r:.80}")
        return items

    # ---- players ------------------------------------------------------------------------------
    def _read_players(self) -> dict[str, dict[str, Any]]:
        try:
            tables = self._read(self._players_path, "players", "the player list")
        except _Damaged:
            tables = None
        return (tables or {}).get("players", {})

    def _write_players(self, docs: list[dict[str, Any]]) -> None:
        db, storage = self._db(self._players_path, {"meta": {"1": make_meta("players")}})
        db.table("players").insert_multiple(docs)
        storage.flush()

    def _add_players(self, players: list[Player | str]) -> list[Player]:
        with self._writing():
            docs = list(self._read_players().values())
            known = {str(d.get("name", "")).casefold(): d for d in docs}
            out = []
            added = False
            for p in players:
                player = Player(name=p) if isinstance(p, str) else p
                doc = known.get(player.name.casefold())
                if doc is None:
                    doc = player.model_dump(mode="json")
                    known[player.name.casefold()] = doc
                    docs.append(doc)
                    added = True
                out.append(Player.model_validate(doc))
            if added:
                self._write_players(docs)
            return out

    def list_players(self) -> list[Player]:
        players = []
        for doc in self._read_players().values():
            with contextlib.suppress(ValidationError):
                players.append(Player.model_validate(doc))
        return sorted(players, key=lambda p: p.name.casefold())

    def add_player(self, name: str) -> Player:
        return self._add_players([check_name(name)])[0]

    def _find_player(self, name: str) -> str | None:
        folded = name.casefold() if isinstance(name, str) else None
        return next((p.name for p in self.list_players() if p.name.casefold() == folded), None)

    def rename_player(self, old: str, new: str) -> None:
        new = check_name(new)
        with self._writing():
            key = self._find_player(old)
            if key is None:
                raise StorageError(f"{old!r}: no such player")
            other = self._find_player(new)
            if other is not None and other != key:
                raise StorageError(f"{new!r} already exists; merge the two players instead")
            self._rename(key, new)

    def merge_players(self, source: str, target: str) -> None:
        with self._writing():
            src, dst = check_merge(
                source,
                target,
                self._find_player(source),
                self._find_player(target),
                self._all_games(),
            )
            self._rename(src, dst)

    def _all_games(self) -> Iterator[StoredGame]:
        yield from self._iter_games()
        yield from self._iter_games(trash=True)

    def _rename(self, old: str, new: str) -> None:
        changed: list[StoredGame] = []
        for folder in (self._games_dir, self._trash_dir):
            for path in sorted(folder.glob("*.json")):
                g = self._load_optional(path.stem, folder)
                if g is None or old not in g.players:
                    continue
                data = g.model_dump(mode="json")
                for field in ("players", "actions", "summary"):
                    data[field] = rename_in(data[field], old, new)
                g = StoredGame.model_validate(data)
                self._write(path, _game_tables(g))
                if folder == self._games_dir:
                    changed.append(g)
        for g in changed:
            self._index_upsert(g.list_item())
        docs = list(self._read_players().values())
        names = {d.get("name") for d in docs}
        docs = [d for d in docs if d.get("name") != old]
        if new not in names:
            docs.append(Player(name=new).model_dump(mode="json"))
        self._write_players(docs)

    # ---- primitives for export/import ---------------------------------------------------
    def _iter_games(self, *, trash: bool = False) -> Iterator[StoredGame]:
        folder = self._trash_dir if trash else self._games_dir
        for path in sorted(folder.glob("*.json")):
            g = self._load_optional(path.stem, folder)
            if g is not None:
                yield g

    def _known_ids(self) -> set[str]:
        return {
            p.stem for folder in (self._games_dir, self._trash_dir) for p in folder.glob("*.json")
        }

    def _bulk_insert(self, games: list[StoredGame], trash: list[StoredGame]) -> None:
        with self._writing():
            known = self._known_ids()
            games = [g for g in games if g.id not in known]
            trash = [g for g in trash if g.id not in known]
            self._journal([g.id for g in games])
            for g in games:
                self._write(self._game_path(g.id), _game_tables(g))
            for g in trash:
                self._write(self._game_path(g.id, self._trash_dir), _game_tables(g))
            by_shard: dict[str, list[GameListItem]] = {}
            for g in games:
                by_shard.setdefault(_shard_name(g.created), []).append(g.list_item())
            for name, items in by_shard.items():
                path = self._shard_path(name)
                ids = {i.id for i in items}
                docs = [d for d in self._read_shard(path, writing=True) if d.get("id") not in ids]
                docs += [i.model_dump(mode="json") for i in items]
                self._write_shard(path, docs)
            self._clear_journal()

    def quarantine_notes(self) -> list[str]:
        """What was ever moved to ``quarantine/`` and why (oldest first), for a repair screen."""
        notes = sorted(self._quarantine_dir.glob("*.txt"))
        return [n.read_text(encoding="utf-8", errors="replace") for n in notes]

    def check_all(self) -> list[str]:
        """Open every file (slow: for a repair screen); returns :attr:`problems`."""
        for _ in self._all_games():
            pass
        for path in sorted(self._index_dir.glob("*.json")):
            self._read_shard(path)
        self._read_players()
        return self.problems
