"""Live writes: the one live game behind every device showing it (see :mod:`companion.hub`)."""

from __future__ import annotations

import logging
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from companion.hub.events import (
    BUSY_ELSEWHERE,
    ELSEWHERE,
    NOT_UNDONE,
    SOLO,
    ActionIn,
    Actor,
    EventKind,
    Outcome,
    Refusal,
    TableEvent,
    WriteFailed,
    _said,
    _what,
    describe_action,
    write_failed,
)
from companion.hub.keys import KeyBook
from companion.hub.listing import HistoryListing, listed_part
from companion.storage import (
    GameRepository,
    GameStatus,
    StaleGameError,
    StorageError,
    StoredGame,
)
from rulesets import RulesetError, timeline
from rulesets.cards import Card
from rulesets.protocol import Action, Game, Ruleset, Summary

log = logging.getLogger(__name__)

#: how many recent changes a game remembers (for "what changed since you looked")
EVENTS_KEPT = 64
#: how often an entry is judged again after another process wrote first
STALE_TRIES = 3


# ---- the live game ---------------------------------------------------------------------------


@dataclass
class _Replayed:
    game: Game
    #: stored entries the referee no longer accepts (kept, never dropped)
    tail: list[dict[str, Any]]
    problem: Refusal | None


def _replay(ruleset: Ruleset, stored: StoredGame) -> _Replayed:
    """The live game of ``stored``: every entry the referee accepts, in order (the one
    lenient replay, :func:`rulesets.timeline.replay`)."""
    done = timeline.replay(stored.to_record(), lenient=True, ruleset=ruleset)
    why = None
    if done.problem is not None:
        why = Refusal(
            f"This game cannot be replayed past entry {len(done.game.actions) + 1}: "
            f"{done.problem.words}. Undo takes that entry off.",
            done.problem.rule,
        )
    return _Replayed(done.game, list(done.refused), why)


Listener = Callable[[TableEvent], None]


@dataclass
class _Undone:
    action: Action
    author: Actor | None


class LiveGame:
    """The one live game behind every device showing ``game_id`` (see the module doc)."""

    def __init__(
        self,
        repo: GameRepository,
        game_id: str,
        ruleset_of: Callable[[str], Ruleset],
        listing: HistoryListing,
    ) -> None:
        self.repo = repo
        #: the history list of the game's history (its hub's): told when the line moves on
        self._listing = listing
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
        what = _what(pushed, self.game.players)
        verb = "redid" if kind == "redo" else "recorded"
        event = self._record(
            kind,
            actor,
            pushed,
            # the news of a new entry tells what happened ("Phone 3: Bob melded J♣");
            # elsewhere the entry is named inside a sentence ("Ann redid Bob meld J♣")
            f"{actor.name}: {_what(pushed, self.game.players, past=True)}"
            if kind == "add"
            else f"{actor.name} redid {what}",
            f"{actor.name} just {verb} {what}",
        )
        self._after_change()
        done.append(event)
        return Outcome(event=event)

    def _refused(self, exc: RulesetError, seen: int | None, actor: Actor) -> Refusal:
        if seen is None or not self.changes_since(seen, actor):
            return Refusal(exc.words, exc.rule)
        news = self._news(seen, actor)
        return Refusal(f"{'; '.join(news)}; your entry was not added: {exc.words}", exc.rule, news)

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
        what = describe_action(last, self.game.players)
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
        what = describe_action(popped, self.game.players) if popped is not None else "nothing"
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
            return Outcome(Refusal(exc.words, exc.rule))
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

        In the app (the hub's listing is ``deferred``) the save runs on the
        listing's worker thread: it costs a rewrite and several fsyncs, and every
        device's screen is redrawn first.  The line is a copy of the summary, saved
        again whenever the game is opened, so a crash in between leaves it a change
        behind, never wrong for long.  Otherwise (scripts, tests) it is saved at
        once (see :class:`~companion.hub.listing.HistoryListing`).
        """
        self._listing.save(self._flush_listed)

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
        self._listing.changed()  # Home on every device: a hand more, a game finished
