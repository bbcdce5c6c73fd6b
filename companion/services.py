"""What every screen can reach: the configuration, the history, the device and shared UI state.

Views get it with ``use_services()``; it is provided once at the root, one per
browser session.  The history is opened once per process, with its hub of
live games (:class:`companion.hub.TableHub`, which owns the repository), and
that one hub is handed to every browser session's services
(:func:`companion.app.build_main`): so every device showing a game shares
one live game.  Games are opened and started through :meth:`Services.open_game`
and :meth:`Services.start_game`, which pass the hub, the device and its
history together.

At a table (see :mod:`companion.access`) ``repo`` is the hub's history *as this
device may use it*: a phone's calls to host-only operations are refused
there, whatever screen or forged event made them.  ``device`` says who this
session is; ``can``/``require`` ask the same question for screens that
change things outside the history (preferences, the table itself).
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

import flet as ft

from companion.access import (
    Capability,
    Device,
    GuardedRepository,
    Table,
    nobody,
    solo_device,
)
from companion.config import AppConfig
from companion.crosspage import call_in_page
from companion.storage import GameRepository

if TYPE_CHECKING:
    from collections.abc import Sequence

    from companion.hub import TableHub
    from companion.session import ActionIn, GameSession, Who


#: what the round trip asks the browser's storage (never written: any key would do)
ROUND_TRIP_KEY = "rummy-companion.shown"
#: how long a round trip may take before the screen counts as not confirmed
ROUND_TRIP_SECONDS = 20.0


@ft.observable
@dataclass
class UiState:
    """Per-session UI state that several screens share."""

    dark: bool | None = None  # None = follow the system
    #: bumped whenever history changes, so lists that show it re-read it
    history_revision: int = 0
    #: a one-line message for the snackbar ("Game deleted" with Undo, "Saved", ...)
    notice: str = ""


@ft.observable
@dataclass
class HistoryNews:
    """Bumped when any device changed the history list: a game started, finished or
    abandoned elsewhere.  Only the screens listing games follow it (``use_history``),
    not the whole app (the theme's :class:`UiState`)."""

    revision: int = 0


GateState = Literal["checking", "pin", "in"]


@ft.observable
@dataclass
class Gate:
    """Where this browser session stands at a table (always "in" without one)."""

    state: GateState = "in"
    #: why the PIN screen is shown again ("The host ended the table ...")
    message: str = ""
    #: bumped when the device's seat or the table's devices change
    revision: int = 0


@dataclass
class Services:
    config: AppConfig
    #: the live games of the history: one hub per process, the same for every session
    hub: TableHub
    #: the hub's history as this device may use it (set from the hub: see __post_init__)
    repo: GameRepository = field(init=False)
    ui: UiState = field(default_factory=UiState)
    device: Device = field(default_factory=solo_device)
    table: Table | None = None
    gate: Gate = field(default_factory=Gate)
    news: HistoryNews = field(default_factory=HistoryNews)
    #: where others reach this app (table mode), for the host's QR code
    join_urls: tuple[str, ...] = ()
    #: the address of this browser session's device (PIN tries are counted per address)
    client: str = ""
    _sessions: weakref.WeakSet[GameSession] = field(default_factory=weakref.WeakSet)
    _offline_since: float | None = None
    _page: Any = None
    _unwatch: Any = None
    _probe: Any = None

    def __post_init__(self) -> None:
        self.repo = self.hub.repo

    @classmethod
    def at_table(
        cls,
        config: AppConfig,
        hub: TableHub,
        table: Table,
        join_urls: tuple[str, ...] = (),
    ) -> Services:
        """A browser session at a table: nobody until it joins; the hub's history guarded."""
        services = cls(
            config=config,
            hub=hub,
            device=nobody(),
            table=table,
            gate=Gate(state="checking"),
            join_urls=join_urls,
        )
        services.repo = cast(GameRepository, GuardedRepository(hub.repo, lambda: services.device))
        services._unwatch = table.subscribe(services._table_changed)
        return services

    def watch(self, page: Any) -> None:
        """Hear of the table (joins, seats, the table ending) and of the history (a game
        started or ended on any device) on ``page``'s own event loop."""
        self._page = weakref.ref(page)
        self.hub.listing.follow(self)  # this history's list only, not every hub's

    def _table_changed(self) -> None:
        page = self._page() if self._page is not None else None
        if page is None:
            self._on_table()
        else:
            call_in_page(page, self._on_table)  # offline: caught up by came_back()

    def _on_table(self) -> None:
        if self.gate.state == "in" and not self.device.active:
            self.drop("The host ended the table. Ask for the new PIN to join again.")
        elif any(s.who.seat != self.device.seat for s in list(self._sessions)):
            self._seated()  # the host freed this device's seat: its private hand goes
        else:
            self.gate.revision += 1

    async def round_trip(self) -> bool:
        """Wait until this session's browser has applied every update sent before this call.

        One cheap question to the browser (does its storage hold a key); the
        browser handles messages in order, so its answer comes after it applied
        the updates sent earlier -- and any tap it sent before drawing them
        reaches the server before the answer.  False if the browser did not
        answer in time (offline, no browser at all).
        """
        page = self._page() if self._page is not None else None
        if page is None:
            return False
        try:
            if self._probe is None:  # made in the page's context: it registers with it
                self._probe = ft.SharedPreferences()
            # asked through the page's session: the service is registered with the page
            # at once, but mounted under it only by the next full update
            await page.session.invoke_method(
                self._probe._i, "contains_key", {"key": ROUND_TRIP_KEY}, ROUND_TRIP_SECONDS
            )
        except (TimeoutError, RuntimeError):
            return False
        return True

    def history_changed(self) -> None:
        """This device changed the history: its lists, and every other device's, re-read it."""
        self.ui.history_revision += 1
        self.hub.listing.changed()

    def history_heard(self) -> None:
        """Any device changed this history (its hub's listing calls this, maybe from another
        session): the lists on this device's screen re-read it, on its own event loop."""
        page = self._page() if self._page is not None else None
        if page is None:
            self._bump_history()
        else:
            call_in_page(page, self._bump_history)  # offline: caught up on reconnect

    def _bump_history(self) -> None:
        self.news.revision += 1

    # ---- who this session is ----------------------------------------------------------------
    def can(self, need: Capability) -> bool:
        return self.device.can(need)

    def require(self, need: Capability) -> None:
        """Raise :class:`~companion.access.NotAllowed` unless this device may ``need``."""
        self.device.require(need)

    def who(self) -> Who:
        from companion.session import Who

        d = self.device
        return Who(device=d.id, words=d.words, seat=d.seat, at_table=d.at_table)

    def admit(self, device: Device) -> None:
        """This session's device joined (PIN, host link or a stored token)."""
        self.device = device
        self.gate.message = ""
        self.gate.state = "in"
        self._seated()

    def drop(self, message: str) -> None:
        """This session's device is not at the table any more: back to the PIN screen."""
        self.device = nobody()
        self.gate.message = message
        self.gate.state = "pin"

    def set_seat(self, seat: str | None) -> str:
        """ "I am Ann": that player's private hand shows only on this device.

        Returns why not ("" when seated): another device holds the seat."""
        if self.table is not None:
            refusal = self.table.set_seat(self.device, seat)
            if refusal:
                return refusal
        else:
            self.device.seat = seat or None
        self._seated()
        return ""

    def _seated(self) -> None:
        who = self.who()
        for session in list(self._sessions):
            session.who = who
        self.gate.revision += 1

    # ---- games ------------------------------------------------------------------------------
    def open_game(self, game_id: str) -> GameSession:
        """This device's session of a game: the hub's live game, this device's history."""
        from companion.session import GameSession

        return GameSession.open(self.hub, game_id, who=self.who(), repo=self.repo)

    def start_game(
        self,
        game: str,
        players: Sequence[str],
        rules: dict[str, Any],
        opening: Sequence[ActionIn] = (),
    ) -> GameSession:
        """A new game, started by this device (refused if it may not play)."""
        from companion.session import GameSession

        return GameSession.start(
            self.hub, game, players, rules, opening, who=self.who(), repo=self.repo
        )

    # ---- the play screens of this session ------------------------------------------------
    def opened(self, session: GameSession) -> None:
        """A play screen shows ``session``.

        If this device's connection dropped before (its browser session was
        replaced by a fresh one, see :func:`companion.serve.fresh_sessions`), the
        screen says for how long and what it missed since it last showed the game.
        """
        self._sessions.add(session)
        device = self.device
        if device.offline_since is not None:
            gone = time.monotonic() - device.offline_since
            device.offline_since = None
            session.resync(gone, since=device.seen.pop(session.game_id, None))

    def came_into_view(self) -> None:
        """The screen shows again (a phone picked up): games on it catch up."""
        for session in list(self._sessions):
            session.resync()

    def went_offline(self) -> None:
        """The browser's connection dropped: remember when, and what each game showed."""
        now = time.monotonic()
        self._offline_since = self._offline_since or now
        device = self.device
        if device.active and device.offline_since is None:
            device.offline_since = now
        for session in list(self._sessions):
            device.seen[session.game_id] = session.shown_revision

    def came_back(self) -> None:
        """The same browser session reconnected: every game on screen catches up and says so."""
        since, self._offline_since = self._offline_since, None
        self.device.offline_since = None
        gone = time.monotonic() - since if since is not None else None
        for session in list(self._sessions):
            session.resync(gone)
        self._bump_history()  # what it missed of the history list, too
        if self.table is not None and self.gate.state == "in" and not self.device.active:
            self.drop("The host ended the table. Ask for the new PIN to join again.")


_NO_SERVICES: Services | None = None
ServicesContext = ft.create_context(_NO_SERVICES)


def use_services() -> Services:
    services = ft.use_context(ServicesContext)
    if services is None:  # pragma: no cover - a programming error
        raise RuntimeError("Services not provided: render views inside App")
    return services


def use_ui() -> UiState:
    """The shared UI state, re-rendering the calling component when it changes."""
    ui, _ = ft.use_state(use_services().ui)
    return ui


def use_history() -> tuple[int, int]:
    """What a screen listing games re-reads on: a change this device made (``UiState``) or
    any device made (:class:`HistoryNews`) -- Home on a phone shows "Continue" when the
    host starts a game, without a reload."""
    services = use_services()
    ui, _ = ft.use_state(services.ui)
    news, _ = ft.use_state(services.news)
    return ui.history_revision, news.revision
