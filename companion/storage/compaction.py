"""Folding long action logs into their game files, off the tap path.

A save appends one line to its game's log; past ``COMPACT_AFTER`` lines the
log is folded into the game file so that reading the game stays quick.  That
rewrite costs a whole-file write, two fsyncs and ~10 ms of CPU -- far more than
a save -- so the save only *asks* for it (:meth:`Compactor.request`) and
returns.  One background thread per repository folds the log in once the
table has paused for :data:`IDLE` seconds (so it does not compete with the
next taps for the CPU), the slow part outside the writer lock
(:meth:`~companion.storage.gamefiles.GameFiles.compact`).  :meth:`Compactor.wait`
folds whatever is pending at once and waits for it (``close()`` does, so a
process that exits leaves no half-done work).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable

__all__ = ["IDLE", "Compactor"]

#: seconds without a save before a long log is folded in
IDLE = 0.2


class Compactor:
    """Runs ``fold(game_id)`` in a background thread for every game asked for."""

    def __init__(self, fold: Callable[[str], object]) -> None:
        self._fold = fold
        self._pending: dict[str, None] = {}  # insertion-ordered set
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._last = 0.0  # time of the last request (a save)
        self._hurry = 0  # waiters: fold now

    def request(self, game_id: str) -> None:
        with self._cond:
            self._pending[game_id] = None
            self._last = time.monotonic()
            if self._thread is None or self._pid != os.getpid():  # none here (or a fork)
                self._pid = os.getpid()
                self._thread = threading.Thread(
                    target=self._run, name="history-compaction", daemon=False
                )
                self._thread.start()

    def _next(self) -> str | None:
        """The next game to fold once the table is quiet (None: nothing left); lock held."""
        while self._pending:
            left = self._last + IDLE - time.monotonic()
            if self._hurry or left <= 0:
                game_id = next(iter(self._pending))
                del self._pending[game_id]
                return game_id
            self._cond.wait(left)
        return None

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    game_id = self._next()
                if game_id is None:
                    return
                # on failure the log stays long (reads stay right); the next save asks again
                with contextlib.suppress(OSError, ValueError):
                    self._fold(game_id)
        finally:
            with self._cond:
                self._thread = None
                self._cond.notify_all()

    def wait(self) -> None:
        """Fold whatever is pending now, and wait until it is done."""
        with self._cond:
            self._hurry += 1
            self._cond.notify_all()
            try:
                while self._thread is not None and self._pid == os.getpid():
                    self._cond.wait()
            finally:
                self._hurry -= 1
