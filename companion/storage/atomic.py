"""Crash-safe TinyDB storage: write a temp file, fsync, ``os.replace``, fsync the folder.

TinyDB's own ``JSONStorage`` truncates and rewrites the file in place, so a
process killed mid-write leaves a half-written (unreadable) file.  Here a
write never touches the live file: readers see either the old or the new
content, whole.  :class:`BufferedStorage` reads the file once per operation and
writes it once on :meth:`~BufferedStorage.flush`, so one repository operation
costs one parse and one durable write however many TinyDB calls it makes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from companion import jsonsafe

__all__ = [
    "TEMP_SUFFIX",
    "AtomicJSONStorage",
    "BufferedStorage",
    "DamagedFileError",
    "atomic_write_bytes",
    "clean_stale_temps",
    "commit_temp",
    "datasync",
    "fsync_dir",
    "pid_alive",
    "sync_together",
    "write_temp",
    "read_json_file",
]

TEMP_SUFFIX = ".tmp"
#: ``.<file name>.<writer pid>.<8 hex>.tmp``: the only temp files the store ever removes
_TEMP_RE = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{1,16}\.tmp$")


class DamagedFileError(Exception):
    """A file that exists but cannot be read as a JSON object (truncated, garbage)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def fsync_dir(folder: Path) -> None:
    """Make a rename/unlink inside ``folder`` durable (Windows cannot open folders: no-op)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def datasync(fd: int) -> None:
    """Make what was written to ``fd`` durable (its data and its size, not its times)."""
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:  # pragma: no cover - Windows, macOS
        os.fsync(fd)


Sync = Callable[[], None]


class _Helper:
    """One helper thread and its hand-off: ``go`` starts a job, ``done`` says it ended."""

    def __init__(self) -> None:
        self.go, self.done = threading.Lock(), threading.Lock()
        self.go.acquire()
        self.done.acquire()
        self.jobs: list[Sync] = []
        self.error: BaseException | None = None
        threading.Thread(target=self._run, name="history-fsync", daemon=True).start()

    def _run(self) -> None:
        while True:
            self.go.acquire()
            try:
                for job in self.jobs:
                    job()
            except BaseException as exc:  # handed to the caller, which raises it
                self.error = exc
            self.done.release()


class _Together:
    """Runs some syncs in a helper thread while the caller runs another.

    Two fsyncs one after the other cost two journal commits of the file system
    (ext4: two disk flushes); issued at the same time they share one commit, so
    two files made durable together cost about what one does.  The caller keeps
    the writer lock throughout and waits for both, so nothing returns before
    every file is durable -- only the waiting overlaps.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()  # one caller at a time (several folders, threads)
        self._helper: _Helper | None = None
        self._pid = 0

    def run(self, mine: Sync, others: Sequence[Sync]) -> None:
        """Run ``mine`` here and ``others`` in the helper, at the same time; return when
        all are done, raising the first failure (``mine``'s before the others')."""
        if not others:
            mine()
            return
        with self._guard:
            helper = self._helper
            if helper is None or self._pid != os.getpid():  # none yet, or a forked child
                helper = self._helper = _Helper()
                self._pid = os.getpid()
            helper.jobs, helper.error = list(others), None
            helper.go.release()
            try:
                mine()
            finally:
                try:
                    helper.done.acquire()
                except BaseException:  # interrupted while the helper works: not reused
                    self._helper = None
                    raise
            error, helper.error = helper.error, None
            if error is not None:
                raise error

    def forget(self) -> None:
        """In a forked child: the parent's helper and its guard are not here."""
        self._guard = threading.Lock()
        self._helper = None


_TOGETHER = _Together()
os.register_at_fork(after_in_child=_TOGETHER.forget)


def sync_together(fd: int, others: Sequence[Sync] = ()) -> None:
    """:func:`datasync` ``fd`` and run ``others`` (more syncs) at the same time.

    For a change that must reach two files (a line in a game's log and one in
    its month's index log; a new file and its folder): durable in about the time
    of one sync, not two."""
    _TOGETHER.run(lambda: datasync(fd), others)


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file."""
    commit_temp(write_temp(path, data, durable=durable), path, durable=durable)


def write_temp(path: Path, data: bytes, *, durable: bool = True) -> Path:
    """Write ``data`` to a new temp file beside ``path`` (fsynced); :func:`commit_temp` it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def commit_temp(tmp: Path, path: Path, *, durable: bool = True) -> None:
    """Put a temp file of :func:`write_temp` in place of ``path`` (the one atomic step)."""
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(path.parent)


def read_json_file(path: Path, max_bytes: int = jsonsafe.MAX_BYTES) -> dict[str, Any] | None:
    """The JSON object in ``path``; ``None`` if missing; :class:`DamagedFileError` if unreadable.

    Unreadable includes too big and too deeply nested (never a RecursionError).
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    if not raw.strip():
        raise DamagedFileError(path, "the file is empty (probably cut off by a crash)")
    try:
        data = jsonsafe.loads(raw, max_bytes=max_bytes)
    except jsonsafe.JsonInputError as exc:
        raise DamagedFileError(path, f"not readable as JSON: {exc.reason}") from None
    if not isinstance(data, dict):
        raise DamagedFileError(path, "does not hold a JSON object")
    return data


def pid_alive(pid: int) -> bool:
    """Is process ``pid`` running (on Windows: assume not, scanning is always safe)?"""
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill(pid, 0) would terminate it there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


def clean_stale_temps(folders: Iterable[Path]) -> list[Path]:
    """Delete temp files that writers now dead left mid-write.

    Only the store's own temp files (:func:`atomic_write_bytes` names them
    ``.<name>.<pid>.<hex>.tmp``) whose writer process is gone: a live writer's
    temp file -- another window saving the theme, say -- is never touched, nor
    is any other file.
    """
    removed = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        for entry in entries:
            match = _TEMP_RE.match(entry.name)
            if match is None or pid_alive(int(match.group(1))):
                continue
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class AtomicJSONStorage(Storage):
    """A TinyDB storage whose every write is atomic and (by default) durable."""

    def __init__(self, path: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.path = Path(path)
        self.durable = durable

    def read(self) -> dict[str, dict[str, Any]] | None:
        return read_json_file(self.path)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_bytes(self.path, _dumps(data), durable=self.durable)

    def close(self) -> None:
        pass


class BufferedStorage(AtomicJSONStorage):
    """Reads once, keeps TinyDB's writes in memory, writes atomically on :meth:`flush`.

    Meant to live for one repository operation (under the writer lock): unlike
    TinyDB's ``CachingMiddleware`` nothing is ever dropped silently -- the
    repository calls :meth:`flush` before it reports success.
    """

    def __init__(self, path: str | os.PathLike[str], *, durable: bool = True) -> None:
        super().__init__(path, durable=durable)
        self._cache: dict[str, dict[str, Any]] | None = None
        self._loaded = False
        self.dirty = False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if not self._loaded:
            self._cache = super().read()
            self._loaded = True
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        self._cache = data
        self._loaded = True
        self.dirty = True

    def flush(self) -> None:
        if self.dirty and self._cache is not None:
            super().write(self._cache)
        self.dirty = False

    def close(self) -> None:
        if self.dirty:
            raise RuntimeError(f"{self.path}: closed with unsaved changes")
