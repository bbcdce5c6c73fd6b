"""One live game for every device at the table: the process-wide hub.

Several devices (the host's screen, three phones, a second window) may show
the same game.  The hub holds **one authoritative live game per game id**
(:class:`LiveGame`), and every write goes through it:

* **Serialized per game.**  A write takes the game's lock, judges the entry
  against the *current* state, pushes it, saves it, and only then lets the
  next write in.  Two devices can never save from two different pictures of
  the game, so no acknowledged entry is ever overwritten and the stored game
  always replays.
* **Revision and idempotency key.**  Every change bumps :attr:`LiveGame.revision`.
  A device sends the revision its screen showed (``seen``) and a key.  An
  entry made on a stale screen is still judged against the current state:
  accepted if the referee accepts it, otherwise refused with what changed
  ("Bob just recorded meld 5♥ 6♥ 7♥; your entry was not added: …").  Undo,
  redo and history edits from a stale screen are refused when another device
  changed the game meanwhile (they would take off something the person has
  not seen).  A write whose key was already applied (the same tap sent again
  after a Wi-Fi hiccup) is acknowledged without being applied twice.
* **Who did what.**  Each change is a :class:`TableEvent` with a line for
  people ("Bob: meld 5♥ 6♥ 7♥", "Ann undid Bob's meld 5♥ 6♥ 7♥").  Undo and
  redo are table-wide: one undo stack, one redo stack, for every device.
* **Fan-out.**  Subscribers (one per device viewing the game) get a callback
  after each change, outside the lock; a Flet session turns it into a
  re-render on its own event loop (see :mod:`companion.session`).  The
  summary is computed once per change, here, not once per device.  The
  history list's line is saved after every device has heard (a worker thread).
* **Two processes, one data folder** (two servers, or the app and a script).
  The repository counts each game's revision (every entry, undo, edit or
  rename is one).  A write holds the history's writer lock (every process's)
  from checking the revision to saving: if another process changed the game
  since this one read it, the game is reloaded from disk first -- every device
  hears "Another copy of the app … changed the game" -- and the entry is judged
  against that; the save itself carries the revision it expects and the store
  refuses it (:class:`~companion.storage.StaleGameError`) if it is not the
  stored one.  So no acknowledged entry is lost and the stored game always
  replays.  A device that opens the game also catches up.  Should the game
  still keep changing under it (a lock not honoured), the entry is refused
  with a clear message rather than saved over another's.

The hub never decides a rule: the referee (:class:`rulesets.protocol.Game`)
does; the hub only orders the writes.

Rooms: :mod:`~companion.hub.live` (live writes: the one live game, its locks,
undo/redo stacks, fan-out), :mod:`~companion.hub.events` (events and their
words, refusals, write errors in words), :mod:`~companion.hub.keys` (idempotency
keys, kept with the game), :mod:`~companion.hub.listing` (the history line and
who follows the history list), :mod:`~companion.hub.registry` (the table
registry: every live game of one history).
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
from companion.hub.listing import defer_listing, history_changed, listed_part, watch_history
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
    "defer_listing",
    "describe_action",
    "KeyBook",
    "WriteFailed",
    "write_failed",
    "entry_key",
    "history_changed",
    "watch_history",
    "listed_part",
]
