"""The on-disk repository: one small TinyDB file per game, its action log, a month-sharded index.

Layout of the data folder (see the package docstring for the why)::

    format.json            store format (refuses a store from a newer app)
    players.json           TinyDB: table "players"
    games/<id>.json        TinyDB per game: tables "meta", "game" (header), "actions"
    games/<id>.log         entries made since the game file was last rewritten (actionlog)
    index/<YYYY-MM>.json   TinyDB per month of creation: table "games" (list lines)
    trash/<id>.json        deleted games (restore = move back)
    quarantine/            damaged files moved aside with a note, never deleted
    journal.json           an interrupted multi-file change, finished on the next open
    .lock                  the writer lock (filelock)
    .writer-<pid>-<n>      marker of a process that writes (removed on close)

Saving a table entry appends one line to ``games/<id>.log`` (one fsync).
Finishing, creating or deleting a game rewrites its file plus one month of the
index under a journal; so do imports, renames and merges, whose journal
carries everything needed to finish them after a crash.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from companion import jsonsafe
from companion.storage import actionlog, models, quarantine
from companion.storage.atomic import (
    atomic_write_bytes,
    clean_stale_temps,
    fsync_dir,
    pid_alive,
)
from companion.storage.base import (
    BaseRepository,
    check_action,
    check_merge,
    check_name,
    check_players,
    check_rename,
    check_revision,
    check_rules,
    check_status,
    check_summary,
    describe,
    renamed,
    sort_key,
)
from companion.storage.files import (
    JOURNAL_BYTES,
    CreateOp,
    FileSig,
    ImportOp,
    IndexOp,
    RenameOp,
    ShapeError,
    Tables,
    game_revision,
    game_tables,
    meta_of,
    parse_game,
    parse_index,
    parse_journal,
    parse_players,
    read_tables,
)
from companion.storage.locking import folder_lock, lock_key
from companion.storage.migrations import make_meta, upgrade
from companion.storage.models import (
    GameListItem,
    GameNotFoundError,
    GameStatus,
    NewerVersionError,
    Player,
    Problem,
    StorageError,
    StoredGame,
    UnknownFormatError,
    now_iso,
)

__all__ = ["STORE_FORMAT", "TinyDbRepository"]

#: layout of the data folder (format.json): 2 = game files with action logs beside them.
#: Documents inside keep their own version (``models.STORAGE_SCHEMA_VERSION``).
STORE_FORMAT = 2

_ID_RE = re.compile(models.GAME_ID_PATTERN)
_MARKER = ".writer-"
_SHARD_RE = re.compile(r"^\d{4}-\d{2}$")
_CACHE = 256
#: a log longer than this is folded into its game file (one rewrite per this many saves)
COMPACT_AFTER = 512
#: every way a file's content can fail to be what its kind holds
_INVALID = (ValueError, KeyError, TypeError, AttributeError, RecursionError)


class _Damaged(StorageError):
    """A file was unreadable and has been moved to quarantine (message = for people)."""


@dataclass(frozen=True)
class _Live:
    """What a writer knows about a game's files, valid while both signatures hold."""

    json_sig: FileSig
    log_sig: FileSig | None = None  # None: no log file
    token: str = ""  # the game file's log token
    count: int = 0  # actions
    log_token: str | None = None  # the log's token (None: no log, or not even a whole header)
    log_valid: int = 0  # bytes of whole lines in the log
    log_torn: bool = False  # the log ends with a line cut off by a crash
    log_ops: int = 0  # entries and undos in the log (it is folded in past COMPACT_AFTER)
    rev: int = 0  # the game file's revision (see files.game_revision)

    @property
    def revision(self) -> int:
        """The game's revision: its file's, plus one per line of its log."""
        return self.rev + self.log_ops

    @property
    def log_ok(self) -> bool:
        """New lines may be appended to the log as it is."""
        return self.log_sig is not None and self.log_token == self.token and not self.log_torn


def _shard_name(created: str) -> str:
    key = created[:7]
    return key if _SHARD_RE.match(key) else "0000-00"


def _words(what: str | Callable[[], str]) -> str:
    text = what if isinstance(what, str) else what()
    return text[:1].upper() + text[1:]


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        from companion.storage.files import first_error

        return first_error(exc)
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _check_tables(kind: str, tables: Tables) -> None:
    """Raise if ``tables`` are not a valid file of ``kind`` (at the current version)."""
    if kind == "game":
        parse_game(tables)
    elif kind == "index":
        parse_index(tables)
    elif kind == "players":
        parse_players(tables)


def _stat(path: Path) -> FileSig | None:
    try:
        return FileSig.of(os.stat(path))
    except FileNotFoundError:
        return None


def _read_bytes(path: Path) -> tuple[bytes, FileSig] | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        chunks = []
        while chunk := os.read(fd, max(st.st_size, 65536)):
            chunks.append(chunk)
        return b"".join(chunks), FileSig.of(st)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class TinyDbRepository(BaseRepository):
    """Game history in a data folder; safe against crashes and concurrent writers."""

    def __init__(
        self, data_dir: str | os.PathLike[str], *, durable: bool = True, lock_timeout: float = 30
    ) -> None:
        self._dir = Path(data_dir).expanduser()
        self._games_dir = self._dir / "games"
        self._index_dir = self._dir / "index"
        self._trash_dir = self._dir / "trash"
        self._quarantine_dir = self._dir / quarantine.FOLDER
        self._players_path = self._dir / "players.json"
        self._journal_path = self._dir / "journal.json"
        self._format_path = self._dir / "format.json"
        self._durable = durable
        self._timeout = lock_timeout
        self._marker: Path | None = None
        self._marker_pid = 0
        self._problems: list[str] = []
        self._live: dict[str, _Live] = {}
        self._shards: dict[str, tuple[FileSig, list[GameListItem]]] = {}  # index months read
        self._dir.mkdir(parents=True, exist_ok=True)
        self._lock_key = lock_key(self._dir)
        with folder_lock(self._dir, self._lock_key).hold(lock_timeout):
            fmt = self._check_format()  # refuses a newer / unknown store before any change
            for folder in (self._games_dir, self._index_dir, self._trash_dir):
                folder.mkdir(exist_ok=True)
            self._quarantine_dir.mkdir(exist_ok=True)
            with self._writing():
                self._clean_after_dead_writers()
                if self._journal_path.exists():
                    self._recover_journal()
                self._finish_format(fmt)

    # ---- basics -------------------------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        return self._dir

    @property
    def problems(self) -> list[str]:
        """Plain-language notes about files that were damaged or refused (this session)."""
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
                if not pid.isdigit() or not pid_alive(int(pid)):
                    dead.append(self._dir / name)
        small = [self._dir, self._index_dir]
        clean_stale_temps(small + [self._games_dir, self._trash_dir] if dead else small)
        if dead:
            self._remove_orphan_logs()
        for marker in dead:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(marker)

    def _remove_orphan_logs(self) -> None:
        """Logs whose game file is gone (a delete killed after folding the log in)."""
        for log in self._games_dir.glob("*.log"):
            if not log.with_suffix(".json").exists():
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(log)

    def _note(self, message: str) -> None:
        if message not in self._problems:
            self._problems.append(message)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One writer at a time: this process's threads and every other process.

        The outermost hold first finishes a change a crash interrupted (journal).
        """
        with folder_lock(self._dir, self._lock_key).hold(self._timeout) as depth:
            self._mark_writer()
            if depth == 1 and self._journal_path.exists():
                self._recover_journal()
            yield

    def _locked(self) -> contextlib.AbstractContextManager[Any]:
        return self._writing()

    def _write(self, path: Path, tables: Tables) -> None:
        atomic_write_bytes(path, _dumps(tables), durable=self._durable)

    # ---- reading with damage / version handling -------------------------------------
    def _valid_tables(self, path: Path, kind: str) -> tuple[Tables, FileSig, bool] | None:
        """Read and check a file: (tables at the current version, signature, upgraded?).

        Raises :class:`jsonsafe.JsonInputError` if it is damaged, NewerVersionError
        if a newer app wrote it; None if it does not exist.
        """
        found = read_tables(path)
        if found is None:
            return None
        tables, sig = found
        try:
            tables, changed = upgrade(tables, kind, "this file")
            _check_tables(kind, tables)
        except NewerVersionError:
            raise
        except _INVALID as exc:
            raise jsonsafe.JsonInputError(f"its content is not valid: {_reason(exc)}") from None
        return tables, sig, changed

    def _read(
        self, path: Path, kind: str, what: str | Callable[[], str]
    ) -> tuple[Tables, FileSig] | None:
        """Tables of ``path`` at the current version and their signature; None if missing.

        A damaged file is moved to quarantine and :class:`_Damaged` raised; a file
        from a newer app raises :class:`NewerVersionError` and is left untouched.
        """
        for _attempt in range(3):
            try:
                found = self._valid_tables(path, kind)
            except NewerVersionError as exc:
                message = f"{_words(what)}: {exc}"
                self._note(message)
                raise NewerVersionError(message) from None
            except jsonsafe.JsonInputError as exc:
                if self._quarantine(path, kind, exc.reason, _words(what)):
                    raise _Damaged(self._problems[-1]) from None
                continue  # healed meanwhile by another writer: read again
            if found is None:
                return None
            tables, sig, changed = found
            if changed:
                with self._writing():  # upgrade what is on disk now, not what we read
                    current = self._valid_tables(path, kind)
                    if current is not None and current[2]:
                        self._write(path, current[0])
                    tables, sig = current[:2] if current else (tables, sig)
            return tables, sig
        raise StorageError(f"{_words(what)} keeps changing while being read; try again")

    def _quarantine(self, path: Path, kind: str, reason: str, what: str) -> bool:
        """Move a damaged file aside (kept, never deleted) and tell the user."""
        with self._writing():
            try:
                if self._valid_tables(path, kind) is None:
                    return False
                return False  # it is fine now (rewritten by another writer)
            except (jsonsafe.JsonInputError, NewerVersionError):
                pass
            dest = quarantine.set_aside(self._dir, path, durable=self._durable)
            extra = ""
            log = path.with_suffix(".log")
            if kind == "game" and log.exists():
                kept_log = quarantine.set_aside(self._dir, log, durable=self._durable)
                extra = f" Its latest entries were kept as {kept_log}."
            message = (
                f"{what} could not be read ({reason}). The damaged file was kept as {dest}; "
                f"the rest of the history opens normally.{extra}"
            )
            self._note(message)
            quarantine.write_note(dest, message)
            self._live.pop(path.stem, None)
            if path.parent == self._games_dir:
                self._index_remove([path.stem])
            elif path.parent == self._index_dir:
                self._rebuild_shard(path.stem)
            return True

    # ---- the store's format marker ------------------------------------------------------
    def _check_format(self) -> tuple[int, int] | None:
        """(layout, documents) versions of this store; None if there is no usable marker.

        Refuses a store written by a newer app or marked with an unknown format,
        before anything in it is changed.
        """
        try:
            found = read_tables(self._format_path)
            if found is None:
                return None
            meta = meta_of(found[0])
            layout, documents = meta.get("schema_version"), meta.get("documents", 1)
            if type(layout) is not int or type(documents) is not int:
                raise ShapeError("no format version")
        except (jsonsafe.JsonInputError, ShapeError) as exc:
            dest = quarantine.set_aside(self._dir, self._format_path, durable=self._durable)
            message = (
                f"The format marker could not be read ({exc}); it was kept as {dest} and recreated."
            )
            self._note(message)
            quarantine.write_note(dest, message)
            return None
        if layout > STORE_FORMAT or documents > models.STORAGE_SCHEMA_VERSION:
            raise NewerVersionError(
                f"The history in {self._dir} was saved by a newer version of Rummy Companion "
                f"(format {layout}.{documents}, this app reads up to "
                f"{STORE_FORMAT}.{models.STORAGE_SCHEMA_VERSION}). "
                "Update the app to open it; nothing was changed."
            )
        if layout < 1 or documents < 1:
            raise UnknownFormatError(
                f"The history in {self._dir} is marked format {layout}, which no version of "
                "Rummy Companion writes; nothing was changed."
            )
        return layout, documents

    def _finish_format(self, found: tuple[int, int] | None) -> None:
        if found is not None and found[1] < models.STORAGE_SCHEMA_VERSION:
            self._migrate_all()
        if found != (STORE_FORMAT, models.STORAGE_SCHEMA_VERSION):
            meta = {
                "schema_version": STORE_FORMAT,
                "kind": "store",
                "documents": models.STORAGE_SCHEMA_VERSION,
            }
            self._write(self._format_path, {"meta": {"1": meta}})

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

    # ---- journal: multi-file changes finish after a crash ------------------------------
    def _journal(self, op: IndexOp | CreateOp | ImportOp | RenameOp) -> None:
        self._write(
            self._journal_path,
            {"meta": {"1": make_meta("journal")}, "op": {"1": op.model_dump(mode="json")}},
        )

    def _clear_journal(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._journal_path)
            if self._durable:
                fsync_dir(self._dir)

    def _recover_journal(self) -> None:
        """Finish the change the journal describes; if it cannot be, set the journal aside."""
        op: Any = None
        try:
            found = read_tables(self._journal_path, JOURNAL_BYTES)
            if found is None:
                return
            op = parse_journal(found[0])
            self._apply(op)
        except Exception as exc:  # whatever stops it, the store must still open
            self._set_journal_aside(op, _reason(exc))
            return
        self._clear_journal()

    def _set_journal_aside(self, op: Any, reason: str) -> None:
        words: dict[type, str] = {
            IndexOp: "saving a game",
            CreateOp: "starting a game",
            ImportOp: "importing a backup",
            RenameOp: "renaming a player",
        }
        what = words.get(type(op), "a change")
        dest = quarantine.set_aside(self._dir, self._journal_path, durable=self._durable)
        message = (
            f"An interrupted change ({what}) could not be finished ({reason}). Its record was "
            f"kept as {dest}; the history index was checked and the rest opens normally."
        )
        self._note(message)
        quarantine.write_note(dest, message)
        self.rebuild_index()

    def _apply(self, op: IndexOp | CreateOp | ImportOp | RenameOp) -> None:
        """Do (or finish doing) a journaled change; every step may be done twice."""
        if isinstance(op, IndexOp):
            self._apply_index(op.ids)
        elif isinstance(op, CreateOp):
            self._apply_import(ImportOp(games=[op.game]))
        elif isinstance(op, ImportOp):
            self._apply_import(op)
        else:
            self._apply_rename(op)

    def _apply_index(self, ids: list[str]) -> None:
        upsert, remove = [], []
        for gid in ids:
            game = self._load_optional(gid)
            if game is None:
                remove.append(gid)
            else:
                upsert.append(game.list_item())
        with contextlib.suppress(NewerVersionError):  # a newer app's month: left alone
            self._index_remove(remove)
        for item in upsert:
            with contextlib.suppress(NewerVersionError):
                self._index_upsert([item])

    def _apply_import(self, op: ImportOp) -> None:
        for folder, games in ((self._games_dir, op.games), (self._trash_dir, op.trash)):
            for g in games:
                path = self._game_path(g.id, folder)
                if not path.exists():
                    self._write(path, game_tables(g, secrets.token_hex(4)))
        self._add_players([*op.players, *(n for g in op.games + op.trash for n in g.players)])
        self._index_upsert([g.list_item() for g in op.games])

    def _apply_rename(self, op: RenameOp) -> None:
        items = []
        for folder, ids in ((self._games_dir, op.games), (self._trash_dir, op.trash)):
            for gid in ids:
                try:
                    game, live = self._read_game(gid, folder)
                except (GameNotFoundError, _Damaged):
                    continue
                if op.old in game.players:
                    game = renamed(game, op.old, op.new)
                    self._rewrite(game, live.revision + 1, folder)  # a live game must reload
                if folder == self._games_dir:
                    items.append(game.list_item())
        self._index_upsert(items)
        players = self._read_players()
        old = next((p for p in players if p.name == op.old), None)
        if old is not None or not any(p.name.casefold() == op.new.casefold() for p in players):
            kept = [p for p in players if p.name != op.old]
            if not any(p.name.casefold() == op.new.casefold() for p in kept):
                created = old.created if old is not None else now_iso()
                kept.append(Player(name=op.new, created=created))
            self._write_players(kept)

    # ---- game files and their action logs ----------------------------------------------
    def _game_path(self, game_id: Any, folder: Path | None = None) -> Path:
        if not isinstance(game_id, str) or not _ID_RE.match(game_id):
            raise GameNotFoundError(f"no game with id {game_id!r:.80}")
        return (folder or self._games_dir) / f"{game_id}.json"

    def _what(self, game_id: str) -> str:
        """Plain words for a game, from the index if possible (never raises)."""
        for shard in sorted(self._index_dir.glob("*.json"), reverse=True):
            try:
                found = read_tables(shard)
                items = parse_index(upgrade(found[0], "index", "")[0]) if found else []
            except Exception:
                continue
            for item in items:
                if item.id == game_id:
                    return describe(item)
        return f"game {game_id}"

    def _read_game(self, game_id: str, folder: Path | None = None) -> tuple[StoredGame, _Live]:
        """The game (its file plus its log) and what a writer needs to know about them.

        The log is read first: if the game file is rewritten in between, the log
        read belongs to an older token and is ignored -- the new file holds it.
        A damaged log is set aside (the game then opens from its file alone).
        """
        path = self._game_path(game_id, folder)
        log_path = path.with_suffix(".log")
        for _attempt in range(3):
            log = _read_bytes(log_path)
            found = self._read(path, "game", lambda: self._what(game_id))
            if found is None:
                raise GameNotFoundError(f"no game with id {game_id!r}")
            game, token = parse_game(found[0])
            live = _Live(found[1], None, token, len(game.actions), rev=game_revision(found[0]))
            if log is None:
                return game, live
            try:
                parsed = actionlog.parse(log[0])
                live = replace(
                    live,
                    log_sig=log[1],
                    log_token=parsed.token,
                    log_valid=parsed.valid_size,
                    log_torn=parsed.torn,
                    log_ops=len(parsed.ops) if parsed.token == token else 0,
                )
                if parsed.token != token or not parsed.ops:
                    return game, live
                actions, last = actionlog.apply(game.actions, parsed.ops)
            except actionlog.LogNewerError as exc:
                message = (
                    f"{_words(self._what(game_id))}: its latest entries were saved by a newer "
                    f"version of Rummy Companion ({exc}). Update the app to open it; the file "
                    "was left untouched."
                )
                self._note(message)
                raise NewerVersionError(message) from None
            except actionlog.LogDamagedError as exc:
                self._quarantine_log(log_path, log[0], str(exc), game_id)
                continue
            updated = max(game.updated, last)
            game = game.model_copy(update={"actions": actions, "updated": updated})
            return game, replace(live, count=len(actions))
        raise StorageError(f"{_words(self._what(game_id))} keeps changing while being read")

    def _quarantine_log(self, log_path: Path, raw: bytes, reason: str, game_id: str) -> None:
        """Set a damaged log aside, unless it changed since it was judged (lock held inside)."""
        with self._writing():
            now = _read_bytes(log_path)
            if now is None or now[0] != raw:
                return  # rewritten meanwhile: read again
            dest = quarantine.set_aside(self._dir, log_path, durable=self._durable)
            message = (
                f"The latest entries of {self._what(game_id)} could not be read ({reason}). "
                f"They were kept as {dest}; the game opens as it was when last summed up."
            )
            self._note(message)
            quarantine.write_note(dest, message)
            self._live.pop(game_id, None)

    def _state(self, game_id: str) -> _Live:
        """What a writer needs to append to a game: from memory if its files did not change."""
        path = self._game_path(game_id)
        cached = self._live.get(game_id)
        if cached is not None:
            json_sig, log_sig = _stat(path), _stat(path.with_suffix(".log"))
            if json_sig == cached.json_sig and log_sig == cached.log_sig:
                return cached
        return self._fresh_state(game_id)[1]

    def _fresh_state(self, game_id: str) -> tuple[StoredGame, _Live]:
        """Read the game whole, cut off a torn log tail or drop a stale log (lock held)."""
        game, live = self._read_game(game_id)
        log_path = self._game_path(game_id).with_suffix(".log")
        if live.log_sig is not None and live.log_token == live.token and live.log_torn:
            os.truncate(log_path, live.log_valid)
            if self._durable:
                fd = os.open(log_path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            live = replace(live, log_sig=_stat(log_path), log_torn=False)
        elif live.log_sig is not None and live.log_token != live.token:
            # stale (an older token) or not even its first line whole: nothing in it counts
            with contextlib.suppress(FileNotFoundError):
                os.unlink(log_path)
            live = replace(live, log_sig=None, log_token=None)
        self._remember(game_id, live)
        return game, live

    def _remember(self, game_id: str, live: _Live) -> None:
        if len(self._live) >= _CACHE and game_id not in self._live:
            self._live.pop(next(iter(self._live)))
        self._live[game_id] = live

    def _append_line(self, game_id: str, live: _Live, line: bytes) -> _Live:
        """Append one line to the game's log: one write and one fsync."""
        log_path = self._game_path(game_id).with_suffix(".log")
        self._live.pop(game_id, None)  # if this fails half-way, read afresh next time
        if live.log_ok:
            fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
            data = line
        else:
            fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            data = actionlog.header(live.token) + line
        try:
            _write_all(fd, data)
            if self._durable:
                os.fdatasync(fd) if hasattr(os, "fdatasync") else os.fsync(fd)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if not live.log_ok and self._durable:
            fsync_dir(self._games_dir)
        return replace(
            live,
            log_sig=FileSig.of(st),
            log_token=live.token,
            log_torn=False,
            log_ops=live.log_ops + 1 if live.log_ok else 1,
        )

    def _rewrite(self, game: StoredGame, revision: int, folder: Path | None = None) -> None:
        """Write the whole game file at ``revision`` (a new log token), then drop the old log."""
        path = self._game_path(game.id, folder)
        token = secrets.token_hex(4)
        self._write(path, game_tables(game, token, revision))
        with contextlib.suppress(FileNotFoundError):  # stale now (token); no fsync needed
            os.unlink(path.with_suffix(".log"))
        sig = _stat(path)
        if folder in (None, self._games_dir) and sig is not None:
            self._remember(game.id, _Live(sig, None, token, len(game.actions), rev=revision))

    def _load_optional(self, game_id: str, folder: Path | None = None) -> StoredGame | None:
        try:
            return self._read_game(game_id, folder)[0]
        except (GameNotFoundError, _Damaged, NewerVersionError):
            return None

    # ---- the game API ----------------------------------------------------------------------
    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame:
        names = check_players(players)
        stored = StoredGame(
            game=check_name(game, "game name"),
            players=names,
            rules=check_rules(dict(rules or {})),
        )
        with self._writing():
            self._shard_writable(stored.created)
            op = CreateOp(game=stored)
            self._journal(op)
            self._apply(op)
            self._clear_journal()
        return stored

    def get_game(self, game_id: str) -> StoredGame:
        return self._read_game(game_id)[0]

    def snapshot(self, game_id: str) -> tuple[StoredGame, int]:
        """The game and its revision, read together (a writer's next ``expected``)."""
        with self._writing():
            game, live = self._fresh_state(game_id)
            return game, live.revision

    def game_revision(self, game_id: str) -> int:
        """How many changes the game's actions have had (cheap: two file stats when known)."""
        with self._writing():
            return self._state(game_id).revision

    def _checked_state(self, game_id: str, expected: int | None) -> _Live:
        """What a writer needs, refused (StaleGameError) if the game changed since ``expected``;
        checked under the writer lock, so no other window or process writes in between."""
        live = self._state(game_id)
        check_revision(game_id, live.revision, expected)
        return live

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int:
        """Add one table entry: one line appended to the game's log, fsynced when this returns."""
        action = check_action(action)
        with self._writing():
            live = self._checked_state(game_id, expected)
            line = actionlog.op(live.count + 1, now_iso(), action)
            live = self._append_line(game_id, live, line)
            self._remember(game_id, replace(live, count=live.count + 1))
            if live.log_ops >= COMPACT_AFTER:  # saved already; this only keeps reads quick
                self._rewrite(self._fresh_state(game_id)[0], live.revision)
            return live.count + 1

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int:
        """Add several actions as one entry: one appended line, all of them or none."""
        checked = [check_action(a) for a in actions]
        if not checked:
            raise StorageError("an entry needs at least one action")
        with self._writing():
            live = self._checked_state(game_id, expected)
            count = live.count + len(checked)
            live = self._append_line(game_id, live, actionlog.op_many(count, now_iso(), checked))
            self._remember(game_id, replace(live, count=count))
            if live.log_ops >= COMPACT_AFTER:
                self._rewrite(self._fresh_state(game_id)[0], live.revision)
            return count

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None:
        """Undo the last entry (one line appended to the log); returns it, or None."""
        with self._writing():
            game, live = self._fresh_state(game_id)
            check_revision(game_id, live.revision, expected)
            if not game.actions:
                return None
            line = actionlog.op(live.count - 1, now_iso(), None)
            live = self._append_line(game_id, live, line)
            self._remember(game_id, replace(live, count=live.count - 1))
            if live.log_ops >= COMPACT_AFTER:
                self._rewrite(game.model_copy(update={"actions": game.actions[:-1]}), live.revision)
            return game.actions[-1]

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None:
        checked = [check_action(a) for a in actions]
        with self._writing():
            game, live = self._fresh_state(game_id)
            check_revision(game_id, live.revision, expected)
            new = game.model_copy(update={"actions": checked, "updated": now_iso()})
            self._rewrite(new, live.revision + 1)

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None:
        fields: dict[str, Any] = {"summary": check_summary(summary)}
        if status is not None:
            fields["status"] = check_status(status)
        with self._writing():
            game, live = self._fresh_state(game_id)
            self._shard_writable(game.created)
            new = game.model_copy(update={**fields, "updated": now_iso()})
            self._journal(IndexOp(ids=[game_id]))
            self._rewrite(new, live.revision)  # the actions are as they were
            self._index_upsert([new.list_item()])
            self._clear_journal()

    def delete_game(self, game_id: str) -> None:
        """Move a game to the trash (undo with :meth:`restore_game`)."""
        with self._writing():
            game, live = self._fresh_state(game_id)
            self._shard_writable(game.created)
            if live.log_sig is not None:
                self._rewrite(game, live.revision)  # the trash holds whole game files, no logs
            self._journal(IndexOp(ids=[game_id]))
            path = self._game_path(game_id)
            os.replace(path, self._trash_dir / path.name)
            self._live.pop(game_id, None)
            if self._durable:
                fsync_dir(self._trash_dir)
                fsync_dir(self._games_dir)
            self._index_remove([game_id], game.created)
            self._clear_journal()

    def restore_game(self, game_id: str) -> StoredGame:
        with self._writing():
            try:
                game = self._read_game(game_id, self._trash_dir)[0]
            except GameNotFoundError:
                raise GameNotFoundError(f"no game with id {game_id!r} in the trash") from None
            self._shard_writable(game.created)
            self._journal(IndexOp(ids=[game_id]))
            path = self._game_path(game_id, self._trash_dir)
            os.replace(path, self._games_dir / path.name)
            if self._durable:
                fsync_dir(self._games_dir)
                fsync_dir(self._trash_dir)
            self._index_upsert([game.list_item()])
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

    def _read_shard(self, path: Path, *, writing: bool = False) -> list[GameListItem]:
        """Index lines of one month; a newer-format shard reads as empty, but is never
        overwritten (``writing=True`` raises :class:`NewerVersionError` instead)."""
        cached = self._shards.get(path.stem)
        if cached is not None and cached[0] == _stat(path):
            return list(cached[1])  # unchanged since read (list lines are never mutated)
        try:
            found = self._read(path, "index", f"the history index for {path.stem}")
        except _Damaged:
            found = self._read(path, "index", f"the history index for {path.stem}")
        except NewerVersionError:
            if writing:
                raise
            return []
        if not found:
            return []
        lines = parse_index(found[0])
        self._shards[path.stem] = (found[1], lines)
        return list(lines)

    def _shard_writable(self, created: str) -> None:
        """Raise NewerVersionError before touching anything if that month is a newer app's."""
        self._read_shard(self._shard_path(_shard_name(created)), writing=True)

    def _index_upsert(self, items: Iterable[GameListItem]) -> None:
        by_shard: dict[str, list[GameListItem]] = {}
        for item in items:
            by_shard.setdefault(_shard_name(item.created), []).append(item)
        with self._writing():
            for name, new in by_shard.items():
                path = self._shard_path(name)
                ids = {i.id for i in new}
                lines = [i for i in self._read_shard(path, writing=True) if i.id not in ids]
                self._write_shard(path, lines + new)

    def _index_remove(self, game_ids: list[str], created: str | None = None) -> None:
        if not game_ids:
            return
        with self._writing():
            shards = (
                [self._shard_path(_shard_name(created))]
                if created
                else sorted(self._index_dir.glob("*.json"))
            )
            for path in shards:
                try:
                    lines = self._read_shard(path, writing=True)
                except NewerVersionError:
                    if created:
                        raise
                    continue  # a newer app's month: not ours to change
                kept = [i for i in lines if i.id not in game_ids]
                if len(kept) != len(lines):
                    self._write_shard(path, kept)

    def _write_shard(self, path: Path, lines: list[GameListItem]) -> None:
        lines = sorted(lines, key=sort_key)
        docs = {str(n): i.model_dump(mode="json") for n, i in enumerate(lines, 1)}
        self._write(path, {"meta": {"1": make_meta("index")}, "games": docs})

    def _scan_games(self) -> Iterator[StoredGame]:
        for path in sorted(self._games_dir.glob("*.json")):
            game = self._load_optional(path.stem)
            if game is not None:
                yield game

    def _rebuild_shard(self, name: str) -> None:
        lines = [g.list_item() for g in self._scan_games() if _shard_name(g.created) == name]
        if lines:
            self._write_shard(self._shard_path(name), lines)

    def rebuild_index(self) -> None:
        """Recreate the whole index from the game files (slow; used for repair)."""
        with self._writing():
            by_shard: dict[str, list[GameListItem]] = {}
            for g in self._scan_games():
                by_shard.setdefault(_shard_name(g.created), []).append(g.list_item())
            newer = set()
            for path in self._index_dir.glob("*.json"):
                try:
                    self._read_shard(path, writing=True)
                except NewerVersionError:
                    newer.add(path.stem)  # written by a newer app: left untouched
                    continue
                if path.stem not in by_shard:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
            for name, lines in by_shard.items():
                if name not in newer:
                    self._write_shard(self._shard_path(name), lines)

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]:
        """Newest first, read from the index only (no game file is opened)."""
        wanted = offset + limit
        found: list[GameListItem] = []
        for path in sorted(self._index_dir.glob("*.json"), reverse=True):
            if not _SHARD_RE.match(path.stem) and path.stem != "0000-00":
                continue
            lines = [
                i
                for i in self._read_shard(path)
                if (game is None or i.game == game) and (player is None or player in i.players)
            ]
            lines.sort(key=sort_key, reverse=True)
            found.extend(lines)
            if len(found) >= wanted:
                break
        return found[offset:wanted]

    # ---- players ------------------------------------------------------------------------------
    def _read_players(self) -> list[Player]:
        try:
            found = self._read(self._players_path, "players", "the player list")
        except _Damaged:
            found = None
        return parse_players(found[0]) if found else []

    def _write_players(self, players: list[Player]) -> None:
        docs = {str(n): p.model_dump(mode="json") for n, p in enumerate(players, 1)}
        self._write(self._players_path, {"meta": {"1": make_meta("players")}, "players": docs})

    def _add_players(self, players: list[Player | str]) -> list[Player]:
        with self._writing():
            stored = self._read_players()
            known = {p.name.casefold(): p for p in stored}
            out = []
            added = False
            for p in players:
                player = Player(name=p) if isinstance(p, str) else p
                found = known.get(player.name.casefold())
                if found is None:
                    found = known[player.name.casefold()] = player
                    stored.append(player)
                    added = True
                out.append(found)
            if added:
                self._write_players(stored)
            return out

    def list_players(self) -> list[Player]:
        return sorted(self._read_players(), key=lambda p: p.name.casefold())

    def add_player(self, name: str) -> Player:
        return self._add_players([check_name(name)])[0]

    def _find_player(self, name: str) -> str | None:
        folded = name.casefold() if isinstance(name, str) else None
        return next((p.name for p in self.list_players() if p.name.casefold() == folded), None)

    def rename_player(self, old: str, new: str) -> None:
        """Rename everywhere (every game, deleted ones too): all at once, even across a crash."""
        new = check_name(new)
        with self._writing():
            key = self._find_player(old)
            if key is None:
                raise StorageError(f"{old!r}: no such player")
            other = self._find_player(new)
            if other is not None and other != key:
                raise StorageError(f"{new!r} already exists; merge the two players instead")
            games, trash = list(self._iter_games()), list(self._iter_games(trash=True))
            check_rename(key, new, games + trash)
            self._rename(key, new, games, trash)

    def merge_players(self, source: str, target: str) -> None:
        with self._writing():
            games, trash = list(self._iter_games()), list(self._iter_games(trash=True))
            src, dst = check_merge(
                source,
                target,
                self._find_player(source),
                self._find_player(target),
                games + trash,
            )
            self._rename(src, dst, games, trash)

    def _rename(self, old: str, new: str, games: list[StoredGame], trash: list[StoredGame]) -> None:
        mine = [g for g in games if old in g.players]
        for created in {g.created for g in mine}:
            self._shard_writable(created)
        op = RenameOp(
            old=old,
            new=new,
            games=[g.id for g in mine],
            trash=[g.id for g in trash if old in g.players],
        )
        self._journal(op)
        self._apply(op)
        self._clear_journal()

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

    def _bulk_insert(
        self, games: list[StoredGame], trash: list[StoredGame], players: list[Player]
    ) -> None:
        with self._writing():
            known = self._known_ids()
            games = [g for g in games if g.id not in known]
            trash = [g for g in trash if g.id not in known]
            for created in {_shard_name(g.created) for g in games}:
                self._read_shard(self._shard_path(created), writing=True)
            op = ImportOp(games=games, trash=trash, players=players)
            self._journal(op)
            self._apply(op)
            self._clear_journal()

    # ---- problems ------------------------------------------------------------------------
    def quarantine_notes(self) -> list[str]:
        """What was ever moved to ``quarantine/`` and why (oldest first), for a repair screen."""
        return quarantine.notes(self._dir)

    def problem_reports(self) -> list[Problem]:
        return quarantine.problems(self._dir)

    def problem_file(self, ident: str) -> tuple[str, bytes]:
        path = quarantine.kept_file(self._dir, ident)
        try:
            return path.name, path.read_bytes()
        except OSError as exc:
            raise StorageError(f"{path}: cannot be read ({exc.strerror or exc})") from None

    def dismiss_problem(self, ident: str) -> None:
        with self._writing():
            kept = quarantine.kept_file(self._dir, ident)
            note = kept.with_name(kept.name + ".txt")
            quarantine.dismiss(self._dir, ident)
        with contextlib.suppress(OSError, ValueError):
            self._problems.remove(note.read_text(encoding="utf-8", errors="replace"))

    def check_all(self) -> list[str]:
        """Open every file (slow: for a repair screen); returns :attr:`problems`."""
        for _ in self._iter_games():
            pass
        for _ in self._iter_games(trash=True):
            pass
        for path in sorted(self._index_dir.glob("*.json")):
            self._read_shard(path)
        self._read_players()
        return self.problems


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
