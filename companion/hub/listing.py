"""The history line: what the history list shows of a game, saved off the request path,
and who follows the list (see :mod:`companion.hub`).

One :class:`HistoryListing` per history, made with its hub
(:class:`companion.hub.TableHub`): nothing here is shared by the process, so two
histories served in one process (two servers, two tests) neither wake each
other's Home nor share a worker.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from rulesets.protocol import Summary

__all__ = ["HistoryFollower", "HistoryListing", "listed_part"]


def listed_part(summary: dict[str, Any] | Summary | None) -> tuple[Any, ...]:
    """The part of a summary the history list shows (of its JSON, or of the typed summary
    itself -- the same key, without turning a long game's ledger into JSON)."""
    if not summary:
        return ()
    finished: Any
    winners: Any
    totals: Any
    if isinstance(summary, Summary):
        finished, winners, totals = summary.finished, summary.winners, summary.totals
        hands, dealer = len(summary.hands), summary.dealer
    else:
        finished, winners, totals = (summary.get(k) for k in ("finished", "winners", "totals"))
        hands, dealer = len(summary.get("hands") or []), summary.get("dealer")
    return (
        bool(finished),
        tuple(winners or ()),
        tuple(sorted((totals or {}).items())),
        hands,
        dealer,
    )


class HistoryFollower(Protocol):
    """A screen's services following the history list (see :meth:`HistoryListing.follow`)."""

    def history_heard(self) -> None: ...


class HistoryListing:
    """The history list of one history: who follows it, and where its lines are saved.

    ``deferred``: save history-list lines on a worker thread of this listing (the
    app: a save is a rewrite and several fsyncs, and every device's screen is
    redrawn first); otherwise (scripts, tests, a phone's browser without threads)
    a line is saved at once.  The choice is explicit: an event loop that happens
    to be running (a test's browser driver) may never run a job handed to it.
    """

    def __init__(self, *, deferred: bool = False) -> None:
        self._lock = threading.Lock()
        #: who follows this history's list (weakly held, by id)
        self._followers: dict[int, weakref.ref[HistoryFollower]] = {}
        self._worker: ThreadPoolExecutor | None = None
        self._closed = False
        if deferred:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="listing")

    @property
    def deferred(self) -> bool:
        """Are lines saved on this listing's worker thread (False: at once)?"""
        return self._worker is not None

    # ---- saving a line ----------------------------------------------------------------------
    def save(self, job: Callable[[], None]) -> None:
        """Run ``job`` (a line's save) on the worker, or at once when not deferred or closed."""
        with self._lock:
            worker = None if self._closed else self._worker
            if worker is not None:
                worker.submit(job)
                return
        job()

    def close(self) -> None:
        """Save every line still waiting, then save at once from now on (shutting down).

        Lines handed to the worker are saved before this returns; the worker
        would also be joined when the interpreter exits, this makes it explicit.
        """
        with self._lock:
            self._closed = True
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=True)

    # ---- who follows the list ---------------------------------------------------------------
    def follow(self, follower: HistoryFollower) -> None:
        """Call ``follower.history_heard()`` whenever any device changes this history's
        list: a game started, finished, abandoned or brought back, or its line (hands,
        totals) moved on -- so Home on every phone follows without a reload."""
        key = id(follower)

        def gone(_: Any) -> None:
            with self._lock:
                self._followers.pop(key, None)

        with self._lock:
            self._followers[key] = weakref.ref(follower, gone)

    def changed(self) -> None:
        """Tell every screen following this history's list that it changed."""
        with self._lock:
            refs = list(self._followers.values())
        for ref in refs:
            follower = ref()
            if follower is not None:
                follower.history_heard()
