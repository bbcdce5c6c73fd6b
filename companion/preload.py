"""Load the slow parts of the referee in the background while the app starts.

pokerkit takes 0.23-1.2 s to import on a small machine; imported lazily, that
was paid by the first poker judgement (a tap at the table).  Started from
``build_main``, a daemon thread imports it and judges one hand, so the first
real judgement is as quick as the rest.  A failure here only means the first
judgement pays the import after all.
"""

from __future__ import annotations

import contextlib
import threading

from companion.platform import in_background

__all__ = ["THREAD_NAME", "preload_in_background"]

THREAD_NAME = "preload-pokerkit"


def _preload() -> None:
    with contextlib.suppress(Exception):
        from rulesets import poker

        poker.evaluate("AS KS QS JS 10S")


def preload_in_background() -> threading.Thread | None:
    """A daemon thread (None in a browser: there it runs on the event loop, see platform)."""
    thread: threading.Thread | None = in_background(_preload, THREAD_NAME)
    return thread
