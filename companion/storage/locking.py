"""One writer lock per data folder, shared by every repository and preferences write.

The lock is ``flock`` on ``<data_dir>/.lock`` -- opened once per process and
kept open, so a hold costs one ``flock`` call and a release another (no file
opened, no library call chain per save) -- plus a re-entrant thread lock, so
this process's threads wait too.  The kernel drops a ``flock`` when its holder
dies, so a killed writer never leaves the folder locked.  There is one
:class:`FolderLock` per folder per process: two repositories (or a repository
and a preferences write) in one process share it instead of blocking each
other on two descriptors of one file.  Where ``fcntl`` is missing (Windows)
the lock falls back to :mod:`filelock`.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from companion.storage.models import StorageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["FolderLock", "folder_lock"]

_BUSY = "another window is still saving to the history; please try again"
_POLL = 0.002


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self._thread = threading.RLock()
        self._path = str(folder / ".lock")  # text: every hold stats it
        self._fd: int | None = None  # kept open once opened (closed in a forked child)
        self._fallback = None
        if fcntl is None:  # pragma: no cover - Windows
            from filelock import FileLock

            self._fallback = FileLock(
                self._path, thread_local=False, poll_interval=_POLL, preserve_lock_file=True
            )
        self.depth = 0

    def _acquire_file(self, timeout: float) -> None:
        if self._fallback is not None:  # pragma: no cover - Windows
            from filelock import Timeout

            try:
                self._fallback.acquire(timeout=timeout)
            except Timeout:
                raise StorageError(_BUSY) from None
            return
        deadline: float | None = None
        while True:
            if self._fd is None:
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the usual case: free
            except BlockingIOError:
                now = time.monotonic()
                deadline = now + timeout if deadline is None else deadline
                if now >= deadline:
                    raise StorageError(_BUSY) from None
                time.sleep(_POLL)
                continue
            if self._same_file():
                return
            fcntl.flock(self._fd, fcntl.LOCK_UN)  # .lock was replaced: lock the one there now
            self._drop_in_child()

    def _same_file(self) -> bool:
        """The descriptor still names ``.lock`` (nobody deleted or replaced it)."""
        assert self._fd is not None
        try:
            now = os.stat(self._path)
        except FileNotFoundError:
            return False
        held = os.fstat(self._fd)
        return now.st_ino == held.st_ino and now.st_dev == held.st_dev

    def _release_file(self) -> None:
        if self._fallback is not None:  # pragma: no cover - Windows
            self._fallback.release()
        elif self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def enter(self, timeout: float = 30) -> int:
        """Take the lock (pair with :meth:`exit`); returns how many holds deep this one is
        (1 = outermost).  Two calls, no generator: every save takes it."""
        if not self._thread.acquire(timeout=timeout):
            raise StorageError(_BUSY)
        try:
            if self.depth == 0:
                self._acquire_file(timeout)
        except BaseException:
            self._thread.release()
            raise
        self.depth += 1
        return self.depth

    def exit(self) -> None:
        """Let go of one hold taken by :meth:`enter` (the file lock with the outermost)."""
        self.depth -= 1
        try:
            if self.depth == 0:
                self._release_file()
        finally:
            self._thread.release()

    @contextlib.contextmanager
    def hold(self, timeout: float = 30) -> Iterator[int]:
        """Hold the lock; yields how many holds deep this one is (1 = outermost)."""
        depth = self.enter(timeout)
        try:
            yield depth
        finally:
            self.exit()

    def _drop_in_child(self) -> None:
        """Close the descriptor (in a forked child: the parent's lock stays the parent's)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


_LOCKS: dict[str, FolderLock] = {}
_REGISTRY = threading.Lock()


def lock_key(folder: Path) -> str:
    return os.path.realpath(folder)


def folder_lock(folder: Path, key: str | None = None) -> FolderLock:
    """The lock of ``folder`` in this process (``key``: a precomputed :func:`lock_key`)."""
    key = key or lock_key(folder)
    found = _LOCKS.get(key)
    if found is None:
        with _REGISTRY:
            found = _LOCKS.get(key)
            if found is None:
                found = _LOCKS[key] = FolderLock(Path(key))
    return found


def _forget_after_fork() -> None:
    """A forked child starts with no lock held (its parent's threads do not exist there).

    The parent's descriptors are closed: a ``flock`` belongs to the open file, which
    the child would otherwise share -- and keep locked should the parent die holding it.
    """
    global _REGISTRY
    for lock in _LOCKS.values():
        lock._drop_in_child()
    _LOCKS.clear()
    _REGISTRY = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
