"""The data folder itself: its paths, the writer lock, checked reads, atomic writes, quarantine.

Every part of the on-disk repository (game files, index shards, journal,
player list) reads and writes through one :class:`DataFolder`:

- :meth:`~DataFolder.writing` holds the folder's writer lock (threads and
  processes); the outermost hold first runs :attr:`~DataFolder.on_first_hold`
  (the repository finishes an interrupted journal there).
- :meth:`~DataFolder.read` checks a file whole against its kind, upgrades an
  older one, sets a damaged one aside in ``quarantine/`` (then runs
  :attr:`~DataFolder.on_set_aside`) and refuses a newer one untouched.
- :meth:`~DataFolder.write` replaces a file atomically.
- ``format.json`` and the ``.writer-<pid>-<n>`` markers are kept here too.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from companion import jsonsafe
from companion.storage import models, quarantine
from companion.storage.atomic import atomic_write_bytes, clean_stale_temps, fsync_dir, pid_alive
from companion.storage.files import (
    FileSig,
    ShapeError,
    Tables,
    first_error,
    meta_of,
    parse_game,
    parse_index,
    parse_players,
    read_tables,
)
from companion.storage.locking import folder_lock, lock_key
from companion.storage.migrations import upgrade
from companion.storage.models import NewerVersionError, StorageError, UnknownFormatError

__all__ = ["STORE_FORMAT", "DataFolder", "Damaged", "Kind", "What"]

#: layout of the data folder (format.json): 2 = game files with action logs beside them,
#: 3 = summary lines in those logs and a log beside each index month.
#: Documents inside keep their own version (``models.STORAGE_SCHEMA_VERSION``).
STORE_FORMAT = 3

_MARKER = ".writer-"
#: every way a file's content can fail to be what its kind holds
INVALID = (ValueError, KeyError, TypeError, AttributeError, RecursionError)

#: the kinds of file a data folder holds ("journal" and "store" are read elsewhere)
Kind = str
#: plain words for a file, or a function giving them (only called when needed)
What = str | Callable[[], str]


class Damaged(StorageError):
    """A file was unreadable and has been moved to quarantine (message = for people)."""


def words(what: What) -> str:
    text = what if isinstance(what, str) else what()
    return text[:1].upper() + text[1:]


def reason(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return first_error(exc)
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def stat(path: Path) -> FileSig | None:
    try:
        return FileSig.of(os.stat(path))
    except FileNotFoundError:
        return None


def read_bytes(path: Path) -> tuple[bytes, FileSig] | None:
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


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _check_tables(kind: Kind, tables: Tables) -> None:
    """Raise if ``tables`` are not a valid file of ``kind`` (at the current version)."""
    if kind == "game":
        parse_game(tables)
    elif kind == "index":
        parse_index(tables)
    elif kind == "players":
        parse_players(tables)


def _nothing() -> None:
    pass


def _nothing_for(_path: Path) -> None:
    pass


class _Writing:
    """``with folder.writing():`` -- a plain object, not a generator: every save enters it.

    It keeps no state of its own (the lock counts the holds), so one serves every
    hold of its folder, nested or from several threads."""

    __slots__ = ("_folder",)

    def __init__(self, folder: DataFolder) -> None:
        self._folder = folder

    def __enter__(self) -> None:
        self._folder._enter()

    def __exit__(self, *exc: object) -> None:
        self._folder.lock.exit()


class DataFolder:
    """One data folder: paths, lock, checked reads, atomic writes, quarantine, markers."""

    def __init__(self, data_dir: str | os.PathLike[str], *, durable: bool, timeout: float) -> None:
        self.dir = Path(data_dir).expanduser()
        self.games_dir = self.dir / "games"
        self.index_dir = self.dir / "index"
        self.trash_dir = self.dir / "trash"
        self.quarantine_dir = self.dir / quarantine.FOLDER
        self.players_path = self.dir / "players.json"
        self.journal_path = self.dir / "journal.json"
        self.format_path = self.dir / "format.json"
        self.durable = durable
        self.timeout = timeout
        self.problems: list[str] = []
        #: run by the outermost writer hold, before anything else (journal recovery)
        self.on_first_hold: Callable[[], None] = _nothing
        #: run after a damaged file was set aside (repair what pointed at it)
        self.on_set_aside: Callable[[Path], None] = _nothing_for
        self._marker: Path | None = None
        self._marker_pid = 0
        self.dir.mkdir(parents=True, exist_ok=True)
        self.lock = folder_lock(self.dir, lock_key(self.dir))
        self._writing = _Writing(self)

    def make_folders(self) -> None:
        for folder in (self.games_dir, self.index_dir, self.trash_dir, self.quarantine_dir):
            folder.mkdir(exist_ok=True)

    # ---- the writer lock ----------------------------------------------------------------
    def writing(self) -> contextlib.AbstractContextManager[None]:
        """One writer at a time: this process's threads and every other process.

        The outermost hold first runs :attr:`on_first_hold` (finish a change a crash
        interrupted).
        """
        return self._writing

    def _enter(self) -> None:
        depth = self.lock.enter(self.timeout)
        try:
            if self._marker_pid != os.getpid():
                self._mark_writer()
            if depth == 1:
                self.on_first_hold()
        except BaseException:
            self.lock.exit()
            raise

    def write(self, path: Path, tables: Tables) -> None:
        atomic_write_bytes(path, dumps(tables), durable=self.durable)

    def note(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    # ---- reading with damage / version handling -------------------------------------
    def valid_tables(self, path: Path, kind: Kind) -> tuple[Tables, FileSig, bool] | None:
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
        except INVALID as exc:
            raise jsonsafe.JsonInputError(f"its content is not valid: {reason(exc)}") from None
        return tables, sig, changed

    def read(self, path: Path, kind: Kind, what: What) -> tuple[Tables, FileSig] | None:
        """Tables of ``path`` at the current version and their signature; None if missing.

        A damaged file is moved to quarantine and :class:`Damaged` raised; a file
        from a newer app raises :class:`NewerVersionError` and is left untouched.
        """
        for _attempt in range(3):
            try:
                found = self.valid_tables(path, kind)
            except NewerVersionError as exc:
                message = f"{words(what)}: {exc}"
                self.note(message)
                raise NewerVersionError(message) from None
            except jsonsafe.JsonInputError as exc:
                if self.quarantine(path, kind, exc.reason, words(what)):
                    raise Damaged(self.problems[-1]) from None
                continue  # healed meanwhile by another writer: read again
            if found is None:
                return None
            tables, sig, changed = found
            if changed:
                with self.writing():  # upgrade what is on disk now, not what we read
                    current = self.valid_tables(path, kind)
                    if current is not None and current[2]:
                        self.write(path, current[0])
                    tables, sig = current[:2] if current else (tables, sig)
            return tables, sig
        raise StorageError(f"{words(what)} keeps changing while being read; try again")

    def quarantine(self, path: Path, kind: Kind, why: str, what: str) -> bool:
        """Move a damaged file aside (kept, never deleted) and tell the user."""
        with self.writing():
            try:
                self.valid_tables(path, kind)
                return False  # missing, or fine now (rewritten by another writer)
            except (jsonsafe.JsonInputError, NewerVersionError):
                pass
            dest = quarantine.set_aside(self.dir, path, durable=self.durable)
            extra = ""
            log = path.with_suffix(".log")
            if kind == "game" and log.exists():
                kept_log = quarantine.set_aside(self.dir, log, durable=self.durable)
                extra = f" Its latest entries were kept as {kept_log}."
            self.set_aside_note(
                dest,
                f"{what} could not be read ({why}). The damaged file was kept as {dest}; "
                f"the rest of the history opens normally.{extra}",
            )
            self.on_set_aside(path)
            return True

    def set_aside_note(self, dest: Path, message: str) -> None:
        self.note(message)
        quarantine.write_note(dest, message)

    # ---- the store's format marker ------------------------------------------------------
    def check_format(self) -> tuple[int, int] | None:
        """(layout, documents) versions of this store; None if there is no usable marker.

        Refuses a store written by a newer app or marked with an unknown format,
        before anything in it is changed.
        """
        try:
            found = read_tables(self.format_path)
            if found is None:
                return None
            meta = meta_of(found[0])
            layout, documents = meta.get("schema_version"), meta.get("documents", 1)
            if type(layout) is not int or type(documents) is not int:
                raise ShapeError("no format version")
        except (jsonsafe.JsonInputError, ShapeError) as exc:
            dest = quarantine.set_aside(self.dir, self.format_path, durable=self.durable)
            self.set_aside_note(
                dest,
                f"The format marker could not be read ({exc}); it was kept as {dest} and "
                "recreated.",
            )
            return None
        if layout > STORE_FORMAT or documents > models.STORAGE_SCHEMA_VERSION:
            raise NewerVersionError(
                f"The history in {self.dir} was saved by a newer version of Rummy Companion "
                f"(format {layout}.{documents}, this app reads up to "
                f"{STORE_FORMAT}.{models.STORAGE_SCHEMA_VERSION}). "
                "Update the app to open it; nothing was changed."
            )
        if layout < 1 or documents < 1:
            raise UnknownFormatError(
                f"The history in {self.dir} is marked format {layout}, which no version of "
                "Rummy Companion writes; nothing was changed."
            )
        return layout, documents

    def write_format(self) -> None:
        meta = {
            "schema_version": STORE_FORMAT,
            "kind": "store",
            "documents": models.STORAGE_SCHEMA_VERSION,
        }
        self.write(self.format_path, {"meta": {"1": meta}})

    # ---- writer markers: who may have left temp files behind ---------------------------
    def _mark_writer(self) -> None:
        """Before this process first writes, leave ``.writer-<pid>-<n>`` (removed on close).

        A writer killed mid-write leaves a temp file and its marker; the next
        open sees a marker of a dead process and scans every folder for temp
        files.  Without such a marker the big folders need no scan, so opening
        stays fast however many games there are.  It also says which index lines may
        lag behind their games (:meth:`IndexShards.reconcile`), so it is made durable
        before anything is written: a power cut must not lose it.
        """
        if self._marker is not None and self._marker_pid == os.getpid():
            return
        self._marker_pid = os.getpid()
        self._marker = self.dir / f"{_MARKER}{os.getpid()}-{secrets.token_hex(4)}"
        self._marker.touch()
        if self.durable:
            fsync_dir(self.dir)
        atexit.register(self._close_at_exit)

    def close(self) -> None:
        """Say this process is done writing (lets the next open skip the temp-file scan)."""
        if self._marker is not None and self._marker_pid == os.getpid():
            with contextlib.suppress(OSError):
                os.unlink(self._marker)
            atexit.unregister(self._close_at_exit)
        self._marker = None
        self._marker_pid = 0

    def _close_at_exit(self) -> None:
        self.close()

    def clean_after_dead_writers(self) -> bool:
        """Remove what writers that died left behind; True if there were any."""
        dead = []
        for name in os.listdir(self.dir):
            if name.startswith(_MARKER):
                pid = name[len(_MARKER) :].partition("-")[0]
                if not pid.isdigit() or not pid_alive(int(pid)):
                    dead.append(self.dir / name)
        small = [self.dir, self.index_dir]
        clean_stale_temps(small + [self.games_dir, self.trash_dir] if dead else small)
        if dead:
            self._remove_orphan_logs()
        for marker in dead:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(marker)
        return bool(dead)

    def _remove_orphan_logs(self) -> None:
        """Logs whose game file is gone (a delete killed after folding the log in)."""
        for log in self.games_dir.glob("*.log"):
            if not log.with_suffix(".json").exists():
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(log)
