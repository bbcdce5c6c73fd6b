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
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from companion.storage import (
    GameRepository,
    GameStatus,
    StaleGameError,
    StorageError,
    StoredGame,
)
from rulesets import RulesetError, load_ruleset
from rulesets.cards import Card
from rulesets.protocol import Action, Game, Ruleset, Summary

__all__ = [
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
    "hub_for",
    "history_changed",
    "watch_history",
    "listed_part",
]

ActionIn = Action | dict[str, Any]
EventKind = Literal["add", "undo", "redo", "replace", "reload"]

log = logging.getLogger(__name__)

#: how many recent changes a game remembers (for "what changed since you looked")
EVENTS_KEPT = 64
#: how many idempotency keys a game remembers (a retry comes within seconds)
KEYS_KEPT = 512

NOT_UNDONE = "nothing was undone"
BUSY_ELSEWHERE = (
    "Another copy of the app using this data folder keeps changing this game; your entry "
    "was not added. Close the other copy, or try again in a moment."
)


class WriteFailed(StorageError):
    """The data folder could not be written (disk full, no permission, read-only):
    an OSError at the repository's edge, in words, in the storage error family."""


_OS_WORDS = {
    errno.ENOSPC: "the disk of the machine running the table is full",
    errno.EDQUOT: "the disk quota of the machine running the table is used up",
    errno.EROFS: "the data folder is on a read-only disk",
    errno.EACCES: "the app may not write to its data folder (permission denied)",
    errno.EPERM: "the app may not write to its data folder (not permitted)",
    errno.EIO: "the disk of the machine running the table reported an error",
}


def write_failed(exc: OSError, kept: str = "the game is as it was before") -> WriteFailed:
    """``exc`` in words: what happened, and that nothing was lost (``kept``)."""
    what = _OS_WORDS.get(exc.errno or 0) or (
        f"the data folder could not be written ({exc.strerror or type(exc).__name__})"
    )
    return WriteFailed(f"{what[:1].upper()}{what[1:]}. Nothing was lost: {kept}.")


@dataclass(frozen=True)
class Refusal:
    """Why an entry was not accepted: the referee's words and the rule they cite.

    ``changed`` lists what other devices did since the refused device last
    looked, when that is why (or part of why) it was refused.
    """

    message: str
    rule: str | None = None
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a device id (for keys and "was it me?") and words for people."""

    id: str
    name: str


SOLO = Actor("solo", "This device")
#: who changed a game when another process did (a second server on the same data folder)
ELSEWHERE = Actor("elsewhere", "Another copy of the app")
#: how often an entry is judged again after another process wrote first
STALE_TRIES = 3


@dataclass(frozen=True)
class TableEvent:
    """One change of a live game, as every device hears of it."""

    revision: int
    kind: EventKind
    actor: Actor
    actions: tuple[Action, ...]
    line: str  # "Bob: meld 5♥ 6♥ 7♥"
    news: str  # "Bob just recorded meld 5♥ 6♥ 7♥" (for a refusal's "what changed")


@dataclass(frozen=True)
class Outcome:
    """The result of one write: refused (``refusal``), applied (``event``), or a retry."""

    refusal: Refusal | None = None
    event: TableEvent | None = None
    duplicate: bool = False


# ---- words --------------------------------------------------------------------------------


def _card_words(value: Any) -> list[str]:
    """Card symbols found in an action field (a card, or a list of cards), else []."""
    items = value if isinstance(value, list | tuple) else [value]
    if not items or not all(isinstance(v, str) for v in items):
        return []
    try:
        return [Card.parse(v).symbol for v in items]
    except (ValueError, KeyError):
        return []


def describe_action(action: ActionIn) -> str:
    """Plain words for any game's action: its player, its kind and its cards.

    >>> describe_action({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]})
    'Bob meld 5♥ 6♥ 7♥'
    >>> describe_action({"type": "end_hand_empty_stock"})
    'end hand empty stock'
    """
    data = action.to_json() if isinstance(action, Action) else dict(action)
    words: list[str] = []
    player = data.get("player")
    if isinstance(player, str):
        words.append(player)
    words.append(str(data.get("type", "entry")).replace("_", " "))
    for name, value in data.items():
        if name not in ("type", "player"):
            words += _card_words(value)
    return " ".join(words)


def _what(actions: Sequence[Action]) -> str:
    if not actions:
        return "nothing"
    if len(actions) <= 3:
        return ", ".join(describe_action(a) for a in actions)
    return f"{describe_action(actions[0])} and {len(actions) - 1} more entries"


def entry_key(device: str, seen: int, kind: str, actions: Sequence[ActionIn] = ()) -> str:
    """The idempotency key of a write: the same device, the same screen, the same entry.

    ``device`` is the device's own id (kept by the table through reconnects and
    restarts), not a browser session's; ``seen`` is the game's revision the
    device showed -- the stored revision, the same number in every process and
    after a restart.  A device that sends the same tap again (its screen never
    showed the first one's result) sends the same key, whatever happened to the
    network or the server in between; a new entry made after the screen showed the
    result has a new ``seen`` and so a new key.
    """
    body = json.dumps(
        [
            device,
            seen,
            kind,
            [a.to_json() if isinstance(a, Action) else a for a in actions],
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(body.encode()).hexdigest()


KEYS_FOLDER = "table-keys"


class KeyBook:
    """The idempotency keys of one game's writes, kept beside the history.

    In ``<data folder>/table-keys/<game id>.json``: the keys applied lately, and
    the one being applied now (written before the save, under the writer lock).
    A crash between the save and the answer leaves that key pending; the next
    process to open the game settles it from the game's revision: saved (the
    revision went one past the one expected) or not (it did not move).  So a
    device that retries after a restart is answered "already done" exactly when
    its entry was saved.  The file is rewritten atomically (rename) but not
    fsynced: it outlives a killed process, and the entry's own save is the
    durable step.  Without a data folder (in memory) the keys live in memory.
    """

    def __init__(self, folder: Path | None, game_id: str) -> None:
        self.path = folder / KEYS_FOLDER / f"{game_id}.json" if folder is not None else None
        self.keys: OrderedDict[str, int] = OrderedDict()
        self._pending: tuple[str, int] | None = None

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def load(self, stored_revision: int) -> None:
        """Read the keys kept for the game, settling a key a crash left pending."""
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_bytes())
            kept = [(str(k), int(r)) for k, r in data.get("keys", [])]
            pending = data.get("pending")
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("the retry keys of %s could not be read: %s", self.path, exc)
            return
        self.keys = OrderedDict(kept)
        if isinstance(pending, list) and len(pending) == 2:
            key, expected = str(pending[0]), int(pending[1])
            if stored_revision == expected + 1:  # saved; the answer never left
                self.keys[key] = expected + 1
            # else not saved (the revision did not move), or cannot be told: a retry is
            # judged as a new entry
        self._write()

    def before(self, key: str, expected: int) -> None:
        """``key`` is about to be saved at revision ``expected`` (+1)."""
        self._pending = (key, expected)
        self._write()

    def applied(self, key: str, revision: int) -> None:
        self.keys[key] = revision
        self.keys.move_to_end(key)
        while len(self.keys) > KEYS_KEPT:
            self.keys.popitem(last=False)
        self._pending = None
        self._write()

    def settled(self) -> None:
        """The write with a pending key was not saved (refused, or the save failed)."""
        if self._pending is not None:
            self._pending = None
            self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        data = json.dumps({"keys": list(self.keys.items()), "pending": self._pending})
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            tmp.write_text(data)
            os.replace(tmp, self.path)
        except OSError as exc:  # the keys go on in memory; a retry may count twice
            log.warning("the retry keys of %s could not be kept: %s", self.path, exc)


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


def _said(exc: StorageError | OSError) -> str:
    return str(write_failed(exc) if isinstance(exc, OSError) else exc)


# ---- the live game ---------------------------------------------------------------------------


@dataclass
class _Replayed:
    game: Game
    #: stored entries the referee no longer accepts (kept, never dropped)
    tail: list[dict[str, Any]]
    problem: Refusal | None


def _replay(ruleset: Ruleset, stored: StoredGame) -> _Replayed:
    """The live game of ``stored``: every entry the referee accepts, in order."""
    game = ruleset.new_game(stored.players, stored.rules)
    for i, data in enumerate(stored.actions):
        try:
            game.push(data)
        except RulesetError as exc:
            why = Refusal(
                f"This game cannot be replayed past entry {i + 1}: {exc.reason}. "
                "Undo takes that entry off.",
                exc.rule,
            )
            return _Replayed(game, list(stored.actions[i:]), why)
    return _Replayed(game, [], None)


Listener = Callable[[TableEvent], None]


@dataclass
class _Undone:
    action: Action
    author: Actor | None


class LiveGame:
    """The one live game behind every device showing ``game_id`` (see the module doc)."""

    def __init__(self, repo: GameRepository, game_id: str, ruleset_of: Callable[[str], Any]):
        self.repo = repo
        self.game_id = game_id
        self.lock = threading.RLock()
        self._ruleset_of = ruleset_of
        self.revision = 0
        self.events: deque[TableEvent] = deque(maxlen=EVENTS_KEPT)
        self._keys = KeyBook(repo.data_dir, game_id)
        #: the key of the write in progress (see KeyBook.before)
        self._key: str | None = None
        self._listeners: dict[int, Listener | weakref.WeakMethod[Listener]] = {}
        self._next_listener = 0
        #: who made each live action (None: made before this process opened the game)
        self._authors: list[Actor | None] = []
        self.redo_stack: list[_Undone] = []
        self._listed_due = False
        self._listed_lock = threading.Lock()
        #: the history list's line as saved: (status, listed_part)
        self._listed: tuple[str, tuple[Any, ...]] = ("", ())
        self._load()
        #: the game's stored revision: the same number in every process, after a restart
        self.revision = self.stored_revision
        self._opened_at = self.revision

    # -- opening / reloading -------------------------------------------------------------
    def _load(self) -> None:
        stored, self.stored_revision = self.repo.snapshot(self.game_id)
        try:
            self.ruleset: Ruleset = self._ruleset_of(stored.game)
            opened = _replay(self.ruleset, stored)
        except RulesetError as exc:  # unknown game or unreadable house rules
            raise StorageError(exc.reason) from None
        self._keys.load(self.stored_revision)
        self.meta = stored.model_copy(update={"actions": []})
        self.game: Game = opened.game
        self.broken_tail = opened.tail
        self.problem = opened.problem
        self._authors = [None] * len(self.game.actions)
        self.summary: Summary = self.game.summary()
        self._stored_cache: tuple[int, StoredGame] | None = None
        self._save_listed(stored)

    def catch_up(self) -> bool:
        """Reload the game if another process changed it since it was read (True if so).

        Cheap (the repository answers from two file stats); every device that
        opens the game asks, and every write checks the same under the file lock.
        """
        try:
            with self._writing(ELSEWHERE, None) as done:  # reloads if it changed
                return bool(done)
        except WriteFailed:  # a folder that cannot be locked (read-only): read as it is
            return False

    def _reload(self, done: list[TableEvent]) -> None:
        """The game as another process left it: replayed from history, heard by every device."""
        self._load()
        self.redo_stack = []
        self._stored_cache = None
        done.append(
            self._record(
                "reload",
                ELSEWHERE,
                [],
                "Another copy of the app using this data folder changed the game",
                "another copy of the app using this data folder just changed the game",
            )
        )

    # -- reading ---------------------------------------------------------------------------
    def stored(self) -> StoredGame:
        """The game as stored, without reading the disk (cached per revision)."""
        with self.lock:
            cached = self._stored_cache
            if cached is None or cached[0] != self.revision:
                actions = [a.to_json() for a in self.game.actions] + list(self.broken_tail)
                cached = (self.revision, self.meta.model_copy(update={"actions": actions}))
                self._stored_cache = cached
            return cached[1]

    def changes_since(self, seen: int, actor: Actor | None = None) -> list[TableEvent]:
        """What other devices did after revision ``seen`` (oldest first)."""
        with self.lock:
            return [
                e
                for e in self.events
                if e.revision > seen and (actor is None or e.actor.id != actor.id)
            ]

    def _horizon(self) -> int:
        """The revision from which every change is still in :attr:`events` (the ones
        before it were made before this process opened the game, or were forgotten)."""
        if len(self.events) == self.events.maxlen and self.events:
            return max(self._opened_at, self.events[0].revision - 1)
        return self._opened_at

    def _news(self, seen: int, actor: Actor) -> tuple[str, ...]:
        changes = self.changes_since(seen, actor)
        forgotten = max(0, self._horizon() - seen)
        words = [e.news for e in changes[-3:]]
        extra = max(0, len(changes) - 3) + forgotten
        if extra:
            words.insert(0, f"{extra} other change{'s were' if extra > 1 else ' was'} made")
        return tuple(words)

    # -- subscribing -----------------------------------------------------------------------
    def subscribe(self, listener: Listener, *, weak: bool = True) -> Callable[[], None]:
        """Call ``listener(event)`` after every change; returns the unsubscribe function.

        A bound method is held weakly (a device that went away is dropped by itself).
        """
        with self.lock:
            n = self._next_listener
            self._next_listener += 1
            ref: Listener | weakref.WeakMethod[Listener] = listener
            if weak and hasattr(listener, "__self__"):
                ref = weakref.WeakMethod(listener)
            self._listeners[n] = ref

        def unsubscribe() -> None:
            with self.lock:
                self._listeners.pop(n, None)

        return unsubscribe

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    def _publish(self, event: TableEvent) -> None:
        with self.lock:
            refs = list(self._listeners.items())
        for n, ref in refs:
            fn = ref() if isinstance(ref, weakref.WeakMethod) else ref
            if fn is None:
                with self.lock:
                    self._listeners.pop(n, None)
                continue
            fn(event)

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def _writing(self, actor: Actor, key: str | None) -> Iterator[list[TableEvent]]:
        """Hold the game's lock and the history's writer lock; catch up with a change
        another process made; publish the events the block records, after releasing it.

        Holding the writer lock from the revision check to the save means no other
        process writes in between: an entry is judged against the game as stored.
        """
        done: list[TableEvent] = []
        with self.lock, self._writer_lock():
            if self.repo.game_revision(self.game_id) != self.stored_revision:
                self._reload(done)
            self._key = key
            try:
                yield done
            finally:
                self._key = None
                mine = [e for e in done if e.actor == actor and e.kind != "reload"]
                if key is not None and mine:
                    self._keys.applied(key, mine[-1].revision)
                else:
                    self._keys.settled()
        for event in done:
            self._publish(event)
        if self._listed_due:
            self._keep_listed()

    @contextmanager
    def _writer_lock(self) -> Iterator[None]:
        """The history's writer lock; a folder it cannot be taken in is said in words."""
        try:
            lock = self.repo.writer_lock()
            lock.__enter__()
        except OSError as exc:
            raise write_failed(exc) from None
        try:
            yield
        finally:
            lock.__exit__(None, None, None)

    def _saving(self) -> None:
        """A save of the write in progress is next: its key is noted first (KeyBook)."""
        if self._key is not None:
            self._keys.before(self._key, self.stored_revision)

    def _record(
        self, kind: EventKind, actor: Actor, actions: Sequence[Action], line: str, news: str
    ) -> TableEvent:
        # the stored revision: one per save (a reload jumps to what the other copy left)
        self.revision = max(self.revision + 1, self.stored_revision)
        event = TableEvent(self.revision, kind, actor, tuple(actions), line, news)
        self.events.append(event)
        return event

    def _stale(self, seen: int | None, actor: Actor, doing: str) -> Refusal | None:
        """Refuse an undo/redo/edit made on a screen that has not seen others' changes."""
        changes = [] if seen is None else self.changes_since(seen, actor)
        if not changes:
            return None
        news = self._news(seen or 0, actor)
        if doing == NOT_UNDONE and any(e.kind == "undo" for e in changes):
            doing = "nothing else was undone"  # two people undid the same last entry
        return Refusal(
            f"{'; '.join(news)}; {doing} — look at the table and try again if you still want to.",
            changed=news,
        )

    def submit(
        self,
        actions: Sequence[ActionIn],
        *,
        actor: Actor = SOLO,
        hand: Sequence[Card] | None = None,
        seen: int | None = None,
        key: str | None = None,
        kind: EventKind = "add",
    ) -> Outcome:
        """Judge ``actions`` (all or nothing) against the current state; push and save them.

        If another process wrote to the game first, the game is reloaded and the
        entry judged again against what is there now.
        """
        try:
            with self._writing(actor, key) as done:
                if key is not None and key in self._keys:
                    return Outcome(duplicate=True)
                for _ in range(STALE_TRIES):
                    try:
                        return self._submit_once(actions, actor, hand, seen, kind, done)
                    except StaleGameError:
                        self._reload(done)
                return Outcome(Refusal(BUSY_ELSEWHERE))
        except WriteFailed as exc:
            return Outcome(Refusal(f"Not saved: {exc}"))

    def _submit_once(
        self,
        actions: Sequence[ActionIn],
        actor: Actor,
        hand: Sequence[Card] | None,
        seen: int | None,
        kind: EventKind,
        done: list[TableEvent],
    ) -> Outcome:
        if self.broken_tail:
            return Outcome(
                Refusal("This game has entries the referee does not accept; undo them first.")
            )
        pushed: list[Action] = []
        try:
            for action in actions:
                pushed.append(self.game.push(action, hand=hand if len(actions) == 1 else None))
        except RulesetError as exc:
            for _ in pushed:
                self.game.pop()
            return Outcome(self._refused(exc, seen, actor))
        refusal = self._save_new(pushed)
        if refusal is not None:
            return Outcome(refusal)
        self._authors += [actor] * len(pushed)
        if kind == "add":
            self.redo_stack = []
        what = _what(pushed)
        verb = "redid" if kind == "redo" else "recorded"
        event = self._record(
            kind,
            actor,
            pushed,
            f"{actor.name}: {what}" if kind == "add" else f"{actor.name} redid {what}",
            f"{actor.name} just {verb} {what}",
        )
        self._after_change()
        done.append(event)
        return Outcome(event=event)

    def _refused(self, exc: RulesetError, seen: int | None, actor: Actor) -> Refusal:
        if seen is None or not self.changes_since(seen, actor):
            return Refusal(exc.reason, exc.rule)
        news = self._news(seen, actor)
        return Refusal(f"{'; '.join(news)}; your entry was not added: {exc.reason}", exc.rule, news)

    def _save_new(self, pushed: list[Action]) -> Refusal | None:
        """Save pushed actions as one entry (all or none), checked against the revision read.

        Raises StaleGameError (after taking the actions back) if another process
        wrote to the game since.
        """
        expected = self.stored_revision
        self._saving()
        try:
            if len(pushed) == 1:
                self.repo.append_action(self.game_id, pushed[0].to_json(), expected=expected)
            else:
                data = [a.to_json() for a in pushed]
                self.repo.append_actions(self.game_id, data, expected=expected)
        except (StorageError, OSError) as exc:
            for _ in pushed:
                self.game.pop()
            if isinstance(exc, StaleGameError):
                raise
            return Refusal(f"Not saved: {_said(exc)}")
        self.stored_revision += 1
        return None

    def undo(
        self, *, actor: Actor = SOLO, seen: int | None = None, key: str | None = None
    ) -> tuple[Outcome, Action | dict[str, Any] | None]:
        """Take the last entry off for everyone; returns the outcome and what was taken off."""
        undone: list[Action | dict[str, Any] | None] = [None]

        def once(done: list[TableEvent]) -> Outcome:
            outcome, undone[0] = self._undo_once(actor, done)
            return outcome

        outcome = self._checked_write(actor, seen, key, NOT_UNDONE, once)
        return outcome, undone[0] if outcome.event is not None else None

    def _checked_write(
        self,
        actor: Actor,
        seen: int | None,
        key: str | None,
        doing: str,
        once: Callable[[list[TableEvent]], Outcome],
    ) -> Outcome:
        """An undo, redo or edit: refused on a screen that missed others' changes; if another
        process wrote first, the game is reloaded (and the screen has missed that)."""
        try:
            with self._writing(actor, key) as done:
                if key is not None and key in self._keys:
                    return Outcome(duplicate=True)
                for _ in range(STALE_TRIES):
                    stale = self._stale(seen, actor, doing)
                    if stale is not None:
                        return Outcome(stale)
                    try:
                        return once(done)
                    except StaleGameError:
                        self._reload(done)
                return Outcome(Refusal(BUSY_ELSEWHERE))
        except WriteFailed as exc:
            return Outcome(Refusal(f"Not changed: {exc}"))

    def _undo_once(
        self, actor: Actor, done: list[TableEvent]
    ) -> tuple[Outcome, Action | dict[str, Any] | None]:
        if self.broken_tail:
            return self._undo_broken(actor, done)
        if not self.game.actions:
            return Outcome(), None
        self._saving()
        try:
            popped = self.repo.pop_action(self.game_id, expected=self.stored_revision)
        except StaleGameError:
            raise
        except (StorageError, OSError) as exc:
            return Outcome(Refusal(f"Not undone: {_said(exc)}")), None
        if popped is None:
            return Outcome(), None
        self.stored_revision += 1
        last = self.game.pop()
        author = self._authors.pop() if self._authors else None
        self.redo_stack = [*self.redo_stack, _Undone(last, author)]
        whose = f"{author.name}'s " if author is not None and author != actor else ""
        what = describe_action(last)
        event = self._record(
            "undo",
            actor,
            [last],
            f"{actor.name} undid {whose}{what}",
            f"{actor.name} just undid {whose}{what}",
        )
        self._after_change()
        done.append(event)
        return Outcome(event=event), last

    def _undo_broken(
        self, actor: Actor, done: list[TableEvent]
    ) -> tuple[Outcome, dict[str, Any] | None]:
        self._saving()
        try:
            popped = self.repo.pop_action(self.game_id, expected=self.stored_revision)
        except StaleGameError:
            raise
        except (StorageError, OSError) as exc:
            return Outcome(Refusal(f"Not undone: {_said(exc)}")), None
        if popped is not None:
            self.stored_revision += 1
        if popped is not None and self.broken_tail:
            self.broken_tail.pop()
            if not self.broken_tail:
                self.problem = None
        what = describe_action(popped) if popped is not None else "nothing"
        event = self._record(
            "undo", actor, [], f"{actor.name} undid {what}", f"{actor.name} just undid {what}"
        )
        self._stored_cache = None
        done.append(event)
        return Outcome(event=event), popped

    def redo(
        self, *, actor: Actor = SOLO, seen: int | None = None, key: str | None = None
    ) -> Outcome:
        """Put back the last entry undone (by anyone)."""

        def once(done: list[TableEvent]) -> Outcome:
            if not self.redo_stack:
                return Outcome()
            top = self.redo_stack[-1]
            outcome = self._submit_once([top.action], actor, None, None, "redo", done)
            if outcome.event is not None:
                self.redo_stack = self.redo_stack[:-1]
            return outcome

        return self._checked_write(actor, seen, key, "nothing was redone", once)

    def replace(
        self,
        actions: Sequence[ActionIn],
        *,
        actor: Actor = SOLO,
        seen: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Edit history (e.g. a finished hand): the game is rebuilt from the new record."""

        def once(done: list[TableEvent]) -> Outcome:
            return self._replace_once(actions, actor, done)

        return self._checked_write(actor, seen, key, "the history was not changed", once)

    def _replace_once(
        self, actions: Sequence[ActionIn], actor: Actor, done: list[TableEvent]
    ) -> Outcome:
        fresh = self.ruleset.new_game(self.meta.players, self.meta.rules)
        try:
            for action in actions:
                fresh.push(action)
        except RulesetError as exc:
            return Outcome(Refusal(exc.reason, exc.rule))
        self._saving()
        try:
            self.repo.replace_actions(
                self.game_id, [a.to_json() for a in fresh.actions], expected=self.stored_revision
            )
        except StaleGameError:
            raise
        except (StorageError, OSError) as exc:
            return Outcome(Refusal(f"Not saved: {_said(exc)}"))
        self.stored_revision += 1
        self.game = fresh
        self._authors = [None] * len(fresh.actions)
        self.broken_tail = []
        self.problem = None
        self.redo_stack = []
        event = self._record(
            "replace",
            actor,
            [],
            f"{actor.name} edited the history",
            f"{actor.name} just edited the history",
        )
        self._after_change()
        done.append(event)
        return Outcome(event=event)

    # -- after a change -----------------------------------------------------------------------
    def _after_change(self) -> None:
        self.summary = self.game.summary()
        self._stored_cache = None
        self._listed_due = True  # saved once every device has heard (see _keep_listed)

    def _keep_listed(self) -> None:
        """Save the history list's line of the game after a change.

        In the app (:func:`defer_listing` was called) the save runs on a worker
        thread: it costs a rewrite and several fsyncs, and every device's screen is
        redrawn first.  The line is a copy of the summary, saved again whenever the
        game is opened, so a crash in between leaves it a change behind, never wrong
        for long.  Otherwise (scripts, tests) it is saved at once.  The choice is
        explicit: an event loop that happens to be running (a test's browser driver)
        may never run a job handed to it.
        """
        worker = _LISTING_WORKER
        if worker is None:
            self._flush_listed()
            return
        worker.submit(self._flush_listed)

    def _flush_listed(self) -> None:
        with self._listed_lock:  # one save at a time, always of the latest summary
            with self.lock:
                if not self._listed_due:
                    return
                self._listed_due = False
            try:
                self._save_listed(None)
            except Exception:  # a worker thread: never lose the reason
                log.exception("the history list's line of game %s was not saved", self.game_id)

    def _save_listed(self, stored: StoredGame | None) -> None:
        """Keep the history list's line in step (status, winners, totals, hands, dealer).

        A write costs several fsyncs, so it happens only when that part changed.
        """
        summary = self.summary
        status: GameStatus = "finished" if summary.finished else "in_progress"
        key = listed_part(summary)
        if stored is not None:
            self._listed = (stored.status, listed_part(stored.summary))
        if self._listed == (status, key):
            return
        listed = summary.to_json()
        try:
            self.repo.set_summary(self.game_id, listed, status)
        except (StorageError, OSError) as exc:
            self.problem = Refusal(f"History list not updated: {_said(exc)}")
            return
        self._listed = (status, key)
        self.meta = self.meta.model_copy(update={"summary": listed, "status": status})
        history_changed()  # Home on every device: a hand more, a game finished


# ---- the hub --------------------------------------------------------------------------------


@dataclass
class TableHub:
    """Every live game of one history (one repository), opened once per process."""

    repo: GameRepository
    ruleset_of: Callable[[str], Any] = load_ruleset
    _games: dict[str, LiveGame] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def live(self, game_id: str) -> LiveGame:
        """The live game of ``game_id``, replayed from history the first time it is asked for
        (and again if another process changed it since)."""
        with self._lock:
            found = self._games.get(game_id)
            if found is None:
                found = LiveGame(self.repo, game_id, self.ruleset_of)
                self._games[game_id] = found
                self._forget_idle()
                return found
        found.catch_up()
        return found

    def _forget_idle(self, keep: int = 32) -> None:
        """Keep memory flat: drop games nobody is looking at, oldest first."""
        idle = [gid for gid, g in self._games.items() if g.listeners == 0]
        for gid in idle[: max(0, len(self._games) - keep)]:
            del self._games[gid]


_HUBS_LOCK = threading.Lock()
#: saves history-list lines off the request path (the app); None: saved at once
_LISTING_WORKER: ThreadPoolExecutor | None = None


def defer_listing() -> None:
    """Save history-list lines on a worker thread from now on (the app calls this once)."""
    global _LISTING_WORKER
    with _HUBS_LOCK:
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
        with _HUBS_LOCK:
            _HISTORY_WATCHERS.pop(key, None)

    with _HUBS_LOCK:
        _HISTORY_WATCHERS[key] = weakref.ref(watcher, gone)


def history_changed() -> None:
    """Tell every screen following the history that it changed (see :func:`watch_history`)."""
    with _HUBS_LOCK:
        refs = list(_HISTORY_WATCHERS.values())
    for ref in refs:
        watcher = ref()
        if watcher is not None:
            watcher.history_heard()


def hub_for(repo: GameRepository, ruleset_of: Callable[[str], Any] | None = None) -> TableHub:
    """The hub of ``repo`` (one per repository object, process-wide).

    A guarded view of a repository (a phone's) shares its hub with the host's.
    """
    inner = getattr(repo, "inner", repo)
    with _HUBS_LOCK:
        # kept on the repository itself, so the hub lives exactly as long as it does
        hub: TableHub | None = getattr(inner, "_table_hub", None)
        if hub is None:
            hub = TableHub(inner, ruleset_of or load_ruleset)
            setattr(inner, "_table_hub", hub)  # noqa: B010 (not part of the repository type)
        elif ruleset_of is not None:
            hub.ruleset_of = ruleset_of
        return hub
