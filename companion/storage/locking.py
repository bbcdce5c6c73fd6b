"""One writer lock per data folder, shared by every repository and preferences write.

The lock is the file ``<data_dir>/.lock`` (filelock: ``flock`` on POSIX), so
other processes wait for it, plus a re-entrant thread lock, so this process's
threads do too.  There is one :class:`FolderLock` per folder per process:
two repositories (or a repository and a preferences write) in one process
share it instead of blocking each other on two descriptors of one file.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from companion.storage.models import StorageError

__all__ = ["FolderLock", "folder_lock"]


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self._thread = threading.RLock()
        self._file = FileLock(
            folder / ".lock",
            thread_local=False,
            poll_interval=0.002,
            preserve_lock_file=True,
        )
        self.depth = 0

    @contextlib.contextmanager
    def hold(self, timeout: float = 30) -> Iterator[int]:
        """Hold the lock; yields how many holds deep this one is (1 = outermost)."""
        if not self._thread.acquire(timeout=timeout):
            raise StorageError("another window is still saving to the history; please try again")
        try:
            if self.depth == 0:
                try:
                    self._file.acquire(timeout=timeout)
                except Timeout:
                    raise StorageError(
                        "another window is still saving to the history; please try again"
                    ) from None
            self.depth += 1
            try:
                yield self.depth
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self._file.release()
        finally:
            self._thread.release()


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
    """A forked child starts with no lock held (its parent's threads do not exist there)."""
    global _REGISTRY
    _LOCKS.clear()
    _REGISTRY = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
