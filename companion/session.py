"""A game at the table, as one device sees it: entries, undo and redo, saved at once.

The session is the only place the app changes a game.  Behind it is the one
live game of the process (:class:`companion.hub.LiveGame`, shared by every
device and window showing this game through the one
:class:`companion.hub.TableHub` the app's services hold and pass to
:meth:`GameSession.open`): rebuilt from history once, when the first device
opens the game; after that an entry is judged and pushed, undo
pops (python-chess's move stack), and no screen ever replays the record.  The
session never decides a rule itself: the referee refuses an illegal entry
with its reason and rule ID and nothing is saved.  Every accepted entry is
durable when ``add`` returns (the repository fsyncs it).

Several devices, one game.  Each write carries the hub revision this device's
screen last showed -- the revision the *device* confirmed it had drawn
(:meth:`GameSession.mark_shown`, called by the play screen once the browser has
answered a round trip sent after the redraw), not the one the server last drew:
a tap already on its way was made on the screen before -- and an idempotency
key made of the device (its table id, kept through reconnects and restarts; a
window of its own without a table), that revision (the game's stored revision)
and the entry: the same tap sent twice is applied once, also after a reconnect
or a restart (:class:`companion.hub.KeyBook`); an entry made on a stale screen
is judged against the current state, and undo/redo/edit from a stale screen is
refused with what changed.  Undo and redo are
table-wide.  After any device's change every session showing the game
refreshes its :attr:`~GameSession.summary` and says who did what
(:attr:`~GameSession.notice`), on its own Flet session's event loop.

It is observable: a component that holds it re-renders when it changes
(``revision`` bumps on every change this device sees).
"""

from __future__ import annotations

import itertools
import secrets
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import flet as ft

from companion.access import Capability, GuardedRepository, NotAllowed
from companion.crosspage import call_in_page
from companion.hub import (
    Actor,
    LiveGame,
    Outcome,
    Refusal,
    TableEvent,
    TableHub,
    describe_action,
    entry_key,
    listed_part,
    write_failed,
)
from companion.storage import GameRepository, StorageError, StoredGame
from rulesets import RulesetError
from rulesets.cards import Card
from rulesets.protocol import Action, Game, GameRecord, Ruleset, Summary, Verdict

__all__ = ["GameSession", "Refusal", "SessionHandle", "listed_part"]

ActionIn = Action | dict[str, Any]

_serial = itertools.count(1)


def _duration(seconds: float) -> str:
    """ "8 s", "3 min", "2 h 5 min"."""
    s = int(seconds + 0.5)
    if s < 90:
        return f"{s} s"
    if s < 3600:
        return f"{(s + 30) // 60} min"
    h, rest = divmod(s, 3600)
    return f"{h} h {rest // 60} min" if rest >= 60 else f"{h} h"


def _history_of(hub: TableHub, repo: GameRepository | None) -> GameRepository:
    """``repo`` -- the hub's history as one device may use it -- or the hub's own.

    A device's history must be the hub's, or a guarded view of it: the session
    writes through the hub, and the guard only says whether this device may.
    """
    if repo is None:
        return hub.repo
    shared = repo.inner if isinstance(repo, GuardedRepository) else repo
    if shared is not hub.repo:
        raise ValueError("a device's history must be the hub's own, or a guarded view of it")
    return repo


@dataclass(frozen=True)
class Who:
    """The device behind a session: an id, the words others read, its seat, and whether
    it is one of several devices at a table (then private hands show only on their seat)."""

    device: str = "solo"
    words: str = "Another window"
    seat: str | None = None
    at_table: bool = False


@ft.observable
@dataclass(eq=False)  # one session per screen: compared (and hashed) by identity
class GameSession:
    #: the history as this device may use it (a phone's is guarded: see ``_refused_here``)
    repo: GameRepository
    game_id: str
    summary: Summary
    error: Refusal | None = None
    revision: int = 0
    #: what another device just did ("Bob: meld 5♥ 6♥ 7♥"), for this screen to show
    notice: str = ""
    #: set after this device was offline: what it missed, in words
    offline: str = ""

    # ---- opening ------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        hub: TableHub,
        game_id: str,
        *,
        who: Who | None = None,
        repo: GameRepository | None = None,
    ) -> GameSession:
        """This device's view of the game (the first device to open it replays it once).

        ``hub``: the live games of the history, one per process (the app's services
        hold it); ``repo``: that history as this device may use it (a phone's
        :class:`~companion.access.GuardedRepository`; default: the hub's own).
        """
        history = _history_of(hub, repo)
        live = hub.live(game_id)
        with live.lock:
            session = cls(repo=history, game_id=game_id, summary=live.summary, error=live.problem)
            session._attach(hub, live, who or Who())
        return session

    @classmethod
    def start(
        cls,
        hub: TableHub,
        game: str,
        players: Sequence[str],
        rules: dict[str, Any],
        opening: Sequence[ActionIn] = (),
        *,
        who: Who | None = None,
        repo: GameRepository | None = None,
    ) -> GameSession:
        """A new game in history, with its opening action(s) (all or nothing); ``hub``
        and ``repo`` as in :meth:`open` (the game is created through ``repo``)."""
        history = _history_of(hub, repo)
        ruleset = hub.ruleset_of(game)
        live = ruleset.new_game(players, rules)  # refuses bad players/rules before any write
        for action in opening:
            live.push(action)
        try:
            stored = history.create_game(ruleset.name, list(players), rules=dict(rules))
            if live.actions:
                history.replace_actions(stored.id, [a.to_json() for a in live.actions])
        except OSError as exc:  # disk full, no permission, read-only: in words
            raise write_failed(exc, "no game was started, the history is as it was") from None
        session = cls.open(hub, stored.id, who=who, repo=history)
        hub.listing.changed()  # Home on every device of this history shows it ("Continue")
        return session

    def _attach(self, hub: TableHub, live: LiveGame, who: Who) -> None:
        self._hub = hub  # the live games of this history: a new game opens through it
        self._live = live
        self._who = who
        self._id = f"{who.device}-{next(_serial)}-{secrets.token_hex(3)}"
        self._synced = live.revision  # the hub revision of self.summary
        #: the hub revision this device's screen showed (None: no screen draws this
        #: session, e.g. a script: it has seen whatever it last synced)
        self._shown: int | None = None
        try:
            page = ft.context.page
        except RuntimeError:  # no Flet page (tests, scripts): changes arrive at once
            page = None
        self._page = weakref.ref(page) if page is not None else None
        self._unsubscribe = live.subscribe(self._heard)

    def close(self) -> None:
        """Stop hearing of changes (the screen showing the game went away)."""
        self._unsubscribe()

    def handle(self) -> GameSession:
        """This session for the components of one screen: the same API, not observable.

        The play screen alone subscribes to the session and passes this handle
        down, so a change re-renders the game's table once.  Were the session
        itself passed, every component holding it would subscribe too and be
        rendered a second time after its parent had already re-rendered it
        (Flet schedules both), doubling the server's work for every device.
        """
        return cast(GameSession, SessionHandle(self))

    # ---- who is here ---------------------------------------------------------------------
    @property
    def who(self) -> Who:
        return self._who

    @who.setter
    def who(self, value: Who) -> None:
        self._who = value
        self._changed()

    @property
    def seat(self) -> str | None:
        """The player this device belongs to, if they play in this game ("I am Ann")."""
        seat = self._who.seat
        return seat if seat in self.players else None

    def private_view(self, player: str) -> bool:
        """May this screen show ``player``'s private hand and checker work?

        Alone at a screen: yes, for everyone.  At a table of several devices: only
        on the device of that player's seat.
        """
        return not self._who.at_table or self.seat == player

    @property
    def _seen(self) -> int:
        return self._synced if self._shown is None else self._shown

    @property
    def _device(self) -> str:
        """Who a retry key belongs to: a device at a table (its id outlives a reconnect and
        a restart), else this window (windows on one machine are separate screens)."""
        return self._who.device if self._who.at_table else self._id

    @property
    def _actor(self) -> Actor:
        return Actor(self._id, self._who.words, self._device)

    @property
    def shown_revision(self) -> int:
        """The hub revision this device's screen confirmed it drew (see :meth:`mark_shown`)."""
        return self._seen

    # ---- reading ---------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The live game (shared by every device; read it, never push to it directly)."""
        return self._live.game

    @property
    def live(self) -> LiveGame:
        return self._live

    @property
    def ruleset(self) -> Ruleset:
        return self._live.ruleset

    @property
    def meta(self) -> StoredGame:
        """The game's header: players, house rules, dates (no actions)."""
        return self._live.meta

    @property
    def stored(self) -> StoredGame:
        """The game as stored now (from memory: cheap enough for a render)."""
        return self._live.stored()

    @property
    def players(self) -> tuple[str, ...]:
        return self._live.game.players

    @property
    def actions(self) -> tuple[Action, ...]:
        return self._live.game.actions

    @property
    def broken_tail(self) -> list[dict[str, Any]]:
        """Stored entries past the point where the referee stopped accepting them."""
        return self._live.broken_tail

    @property
    def redo_stack(self) -> list[Action]:
        return [u.action for u in self._live.redo_stack]

    @property
    def finished(self) -> bool:
        return self.summary.finished

    @property
    def can_undo(self) -> bool:
        return bool(self._live.game.actions or self._live.broken_tail)

    @property
    def can_redo(self) -> bool:
        return bool(self._live.redo_stack)

    @property
    def table_revision(self) -> int:
        """The hub's revision this session's summary shows."""
        return self._synced

    def record(self) -> GameRecord:
        return self._live.game.to_record()

    def judge(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Verdict:
        """The referee's verdict on ``action`` as the next entry (nothing changes)."""
        with self._live.lock:
            return self._live.game.judge(action, hand=hand)

    def can(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> bool:
        with self._live.lock:
            return self._live.game.can(action, hand=hand)

    def follow_screen(self) -> None:
        """A screen draws this session: from now on a write is judged against the revision
        the device confirmed it shows (:meth:`mark_shown`), starting with the one it opened."""
        if self._shown is None:
            self._shown = self._synced

    def mark_shown(self, revision: int | None = None) -> None:
        """The device shows ``revision`` of the table now (default: what this session
        synced last).  Called when the device confirmed it drew it; never goes back."""
        shown = self._synced if revision is None else revision
        self._shown = shown if self._shown is None else max(self._shown, shown)

    # ---- changing ----------------------------------------------------------------------------
    def add(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Refusal | None:
        """Record ``action`` if the referee accepts it; it is on disk when this returns."""
        return self._submit([action], hand=hand)

    def add_many(self, actions: Sequence[ActionIn]) -> Refusal | None:
        """Record several actions as one entry (all or nothing)."""
        return self._submit(list(actions), hand=None)

    def undo(self) -> Action | dict[str, Any] | None:
        """Take the last entry off, for everyone at the table; returns it (None: nothing)."""
        if self._refused_here():
            return None
        seen = self._seen
        outcome, undone = self._live.undo(
            actor=self._actor, seen=seen, key=entry_key(self._device, seen, "undo")
        )
        self._settle(outcome)
        return undone

    def redo(self) -> Refusal | None:
        """Put back the last entry anyone undid."""
        if self._refused_here():
            return self.error
        seen = self._seen
        outcome = self._live.redo(
            actor=self._actor, seen=seen, key=entry_key(self._device, seen, "redo")
        )
        return self._settle(outcome)

    def replace(self, actions: Sequence[ActionIn]) -> Refusal | None:
        """Edit history (e.g. a finished hand): the game is rebuilt from the new record."""
        if self._refused_here():
            return self.error
        seen = self._seen
        outcome = self._live.replace(
            actions,
            actor=self._actor,
            seen=seen,
            key=entry_key(self._device, seen, "replace", list(actions)),
        )
        return self._settle(outcome)

    def play_again(self) -> GameSession | Refusal:
        """A new game of the same players (in the same seats) and house rules, dealt
        first by whom the referee says (``summary.ending``: the deal goes on round the
        table); or why it could not start, in words.  This game stays as it is.  When
        another device at the table has just started that very game, this joins it
        rather than start a second one."""
        ending = self.summary.ending
        if ending is None:
            return Refusal("This game is not over yet.")
        meta = self.meta
        try:
            opening = self.ruleset.opening_actions(
                meta.players, ending.next_dealer, chips=ending.chips
            )
            joined = self._started_again(meta, [a.to_json() for a in opening])
            if joined is not None:
                return GameSession.open(self._hub, joined, who=self._who, repo=self.repo)
            return GameSession.start(
                self._hub,
                meta.game,
                meta.players,
                dict(meta.rules),
                opening,
                who=self._who,
                repo=self.repo,
            )
        except (StorageError, RulesetError) as exc:
            return Refusal(f"Could not start the new game: {exc}")

    def _started_again(self, meta: StoredGame, opening: list[dict[str, Any]]) -> str | None:
        """A game started after this one with the same players, house rules and opening,
        and nothing entered since (another device's "New game, same players"), or None."""
        for item in self.repo.list_games(limit=5, game=meta.game):
            if (
                item.id == self.game_id
                or item.status == "finished"
                or item.players != meta.players
                or item.created <= meta.created
            ):
                continue
            other = self.repo.get_game(item.id)
            if other.rules == meta.rules and other.actions == opening:
                return item.id
        return None

    def refuse(self, message: str) -> None:
        """Show ``message`` where this screen shows a refusal (nothing changed)."""
        self.error = Refusal(message)
        self._changed()

    def clear_error(self) -> None:
        self.error = None
        self._changed()

    def resync(self, offline_seconds: float | None = None, *, since: int | None = None) -> None:
        """Catch up with the table after this device was offline, saying what it missed.

        ``since``: the hub revision the device last showed (default: the one this
        session's screen confirmed it drew).  ``offline_seconds``: how long the
        connection was down -- given, the device is back from a drop, and is told
        so however short it was (None: a screen shown again, not a drop).

        A tap made as the connection dropped either reached the table or did not,
        and the screen that made it never showed which (the Flet web client sends
        it into a dead connection, or queues it and sends it to the new session,
        which has no control of that id) -- in a drop of one second as in one of a
        minute, and with nothing else changed as with a busy table, so every drop
        is said.  The note says it from the hub's history: this device's last change
        after the revision it showed was saved ("Your last entry, 5♥ 6♥ 7♥, was
        saved"), or nothing from this device was recorded after it (a tap made then
        did not count).
        """
        seen = self._seen if since is None else since
        changes = self._live.changes_since(seen)
        mine = [e for e in changes if e.actor.device == self._device]
        missed = [e for e in changes if e.actor.device != self._device]
        if offline_seconds is not None:
            gone = _duration(offline_seconds) if offline_seconds >= 0.5 else "a moment"
            words = [f"You were offline for {gone}"]
            if mine:
                words.append(self._saved_words(mine[-1]))
            else:
                words.append(
                    "Nothing from this device was recorded after what its screen last "
                    "showed: a tap made as the connection dropped did not count"
                )
            if missed:
                lines = "; ".join(e.line for e in missed[-3:])
                more = f" (and {len(missed) - 3} more)" if len(missed) > 3 else ""
                words.append(f"Meanwhile: {lines}{more}")
                words.append("This is the table now")
            else:
                words.append(
                    "Nothing else changed meanwhile" if mine else "Nothing changed meanwhile"
                )
            self.offline = ". ".join(words) + "."
        self._pull(keep_offline=True)

    def _saved_words(self, event: TableEvent) -> str:
        """This device's own change, which its screen never showed, in words."""
        what = ", ".join(describe_action(a, self.players) for a in event.actions)
        if event.kind == "add":
            return f"Your last entry, {what}, was saved"
        if event.kind == "undo":
            return f"Your undo{f' of {what}' if what else ''} was saved"
        if event.kind == "redo":
            return f"Your redo of {what} was saved"
        return "Your edit of the history was saved"

    def dismiss_offline(self) -> None:
        self.offline = ""

    # ---- internals ----------------------------------------------------------------------------
    def _refused_here(self) -> Refusal | None:
        """The device's role, checked again here (a dropped phone's screen may still tap)."""
        if not isinstance(self.repo, GuardedRepository):  # one screen, no table: the host
            return None
        try:
            self.repo.device.require(Capability.PLAY)
        except NotAllowed as exc:
            self.error = Refusal(str(exc))
            self._changed()
            return self.error
        return None

    def _submit(self, actions: list[ActionIn], *, hand: Sequence[Card] | None) -> Refusal | None:
        if self._refused_here():
            return self.error
        seen = self._seen
        outcome = self._live.submit(
            actions,
            actor=self._actor,
            hand=hand,
            seen=seen,
            key=entry_key(self._device, seen, "add", actions),
        )
        return self._settle(outcome)

    def _settle(self, outcome: Outcome) -> Refusal | None:
        self.error = outcome.refusal
        self._pull()
        self._changed()
        return outcome.refusal

    def _heard(self, event: TableEvent) -> None:
        """A change by any device (called by the hub, maybe from another Flet session).

        A screen that is not showing (a phone put down, a background tab) is
        not redrawn now: it catches up when it shows again (``resync``).
        """
        ref = self._page
        page = ref() if ref is not None else None
        if page is None:
            self._pull()
        elif getattr(page, "app_visible", True):
            call_in_page(page, self._pull)  # offline: caught up when it comes back

    def _pull(self, *, keep_offline: bool = False) -> None:
        """Take the live game's latest summary and what others did since we looked.

        The note slot holds one note: table news newer than a back-online note
        replaces it (``keep_offline``: the news is what that note already says)."""
        live = self._live
        with live.lock:
            if live.revision == self._synced:
                return
            missed = live.changes_since(self._synced, self._actor)
            summary = live.summary
            revision = live.revision
            problem = live.problem
        self._synced = revision
        # no equality test of the old and new summary (a long game's ledger): the
        # revision bump below is the one change screens follow
        object.__setattr__(self, "summary", summary)
        if missed:
            self.notice = missed[-1].line
            if not keep_offline:
                self.offline = ""
        if problem is not None and self.error is None:
            self.error = problem
        self._changed()

    def _changed(self) -> None:
        self.revision += 1


class SessionHandle:
    """A game session, minus being observable (see :meth:`GameSession.handle`)."""

    __slots__ = ("_session",)

    def __init__(self, session: GameSession) -> None:
        object.__setattr__(self, "_session", session)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_session"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_session"), name, value)
