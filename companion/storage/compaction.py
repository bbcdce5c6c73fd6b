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

A save must not wait on a running fold either.  The fold shares the
interpreter with the taps, and a thread busy in Python keeps it for up to
``sys.getswitchinterval()`` (5 ms) each time a save comes back from a system
call -- several times per save.  So the fold works in small steps and calls
:meth:`Compactor.pause` between them: there it sleeps a moment (a save waiting
for the interpreter gets it at once) and, should a save have come in
(:meth:`Compactor.saw_save`), waits until the table has paused again.
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
#: seconds the fold sleeps between two steps (lets a save that waits for the interpreter in)
REST = 0.0003


class Compactor:
    """Runs ``fold(game_id, pause)`` in a background thread for every game asked for."""

    def __init__(self, fold: Callable[[str, Callable[[], None]], object]) -> None:
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

    def saw_save(self) -> None:
        """A save happened (of any game): a fold waits for the table to pause again."""
        self._last = time.monotonic()

    def pause(self) -> None:
        """Between two steps of a fold: let saves in, and wait while the table is busy."""
        time.sleep(REST)
        with self._cond:
            while not self._hurry and (left := self._last + IDLE - time.monotonic()) > 0:
                self._cond.wait(left)

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
                    self._fold(game_id, self.pause)
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
