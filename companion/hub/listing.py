"""The history line: what the history list shows of a game, saved off the request path,
and who follows the list (see :mod:`companion.hub`)."""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rulesets.protocol import Summary

_LOCK = threading.Lock()


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


#: saves history-list lines off the request path (the app); None: saved at once
_LISTING_WORKER: ThreadPoolExecutor | None = None


def defer_listing() -> None:
    """Save history-list lines on a worker thread from now on (the app calls this once)."""
    global _LISTING_WORKER
    with _LOCK:
        if _LISTING_WORKER is None:
            _LISTING_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="listing")


#: who follows the history list of every screen in this process (weakly held, by id)
_HISTORY_WATCHERS: dict[int, weakref.ref[Any]] = {}


def watch_history(watcher: Any) -> None:
    """Call ``watcher.history_heard()`` whenever any device changes the history list: a
    game started, finished, abandoned or brought back, or its line (hands, totals) moved
    on -- so Home on every phone follows without a reload."""
    key = id(watcher)

    def gone(_: Any) -> None:
        with _LOCK:
            _HISTORY_WATCHERS.pop(key, None)

    with _LOCK:
        _HISTORY_WATCHERS[key] = weakref.ref(watcher, gone)


def history_changed() -> None:
    """Tell every screen following the history that it changed (see :func:`watch_history`)."""
    with _LOCK:
        refs = list(_HISTORY_WATCHERS.values())
    for ref in refs:
        watcher = ref()
        if watcher is not None:
            watcher.history_heard()
