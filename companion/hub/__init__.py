"""One live game for every device at the table: the hub, one per history a process serves.

Every write to a game goes through its one :class:`LiveGame`: serialized per game,
judged against the current state, keyed so a retried tap applies once, and heard by
every device showing the game.  The hub never decides a rule (the referee does); it
only orders the writes.  Why it is built this way (revisions, stale screens, two
processes on one data folder): ``docs/ARCHITECTURE.md``, section 3.1.

Rooms: :mod:`~companion.hub.live` (live writes: the one live game, its locks,
undo/redo stacks, fan-out), :mod:`~companion.hub.events` (events and their
words, refusals, write errors in words), :mod:`~companion.hub.keys` (idempotency
keys, kept with the game), :mod:`~companion.hub.listing` (the history line and
who follows the history list: one per hub, ``hub.listing``),
:mod:`~companion.hub.registry` (the table registry: every live game of one
history).
"""

from __future__ import annotations

from companion.hub.events import (
    ELSEWHERE,
    SOLO,
    Actor,
    Outcome,
    Refusal,
    TableEvent,
    WriteFailed,
    describe_action,
    write_failed,
)
from companion.hub.keys import KeyBook, entry_key
from companion.hub.listing import HistoryListing, listed_part
from companion.hub.live import LiveGame
from companion.hub.registry import TableHub

__all__ = [
    "ELSEWHERE",
    "SOLO",
    "Actor",
    "LiveGame",
    "Outcome",
    "Refusal",
    "TableEvent",
    "TableHub",
    "describe_action",
    "KeyBook",
    "WriteFailed",
    "write_failed",
    "entry_key",
    "HistoryListing",
    "listed_part",
]
