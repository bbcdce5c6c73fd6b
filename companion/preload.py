"""Load the slow parts of the referee in the background while the app starts.

pokerkit takes 0.23-1.2 s to import on a small machine; imported lazily, that
was paid by the first poker judgement (a tap at the table).  Started once the
first screen has been built, and :data:`DELAY` later (not before: it would
compete with the server and the first screen coming up), a daemon thread
imports it and judges one hand, so the first real judgement is as quick as
the rest.  It runs once per process.  A failure here only means the first
judgement pays the import after all.
"""

from __future__ import annotations

import contextlib
import threading
import time

from companion.platform import abilities, in_background

__all__ = ["THREAD_NAME", "preload_in_background"]

THREAD_NAME = "preload-pokerkit"


#: seconds to wait after the first screen is built: the browser is still asking for it
DELAY = 1.5


def _preload() -> None:
    with contextlib.suppress(Exception):
        from rulesets import poker

        poker.evaluate("AS KS QS JS 10S")


_STARTED: list[threading.Thread | None] = []
_LOCK = threading.Lock()


def _later() -> None:
    time.sleep(DELAY)
    _preload()


def preload_in_background() -> threading.Thread | None:
    """Start the preload, once per process (later calls return what the first started):
    a daemon thread, or None in a browser, where it runs on the event loop (see platform)."""
    with _LOCK:
        if not _STARTED:
            work = _later if abilities().threads else _preload
            _STARTED.append(in_background(work, THREAD_NAME, DELAY))
        return _STARTED[0]
