"""One hub per server, made by the app's services and handed to every session (issue 19).

The server opens the history once, with its hub of live games, and gives that hub
to each browser session's services -- the host's and a phone's alike -- so both
sessions of a game share its one live game.  The hub is not kept on the
repository object (it used to be, behind a ``setattr``), and a second server on
the same folder has a hub of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import flet as ft
import pytest
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.access import GuardedRepository, Table
from companion.app import build_main
from companion.config import AppConfig
from companion.hub import TableHub
from companion.services import Services
from tests.companion.flet_harness import RecordingConnection, flush, run_async
from tests.companion.tally import PLAYERS, _add, tally  # noqa: F401

PIN = "204518"


class Server:
    """Browser sessions of one server's entry point (headless), and their services."""

    def __init__(self, main: Callable[[ft.Page], None], monkeypatch: pytest.MonkeyPatch) -> None:
        self.main = main
        self.monkeypatch = monkeypatch
        self.pages: list[Session] = []
        self._page_of: dict[int, ft.Page] = {}

    async def connect(self) -> Services:
        """A new browser session: the services the server made for it."""
        made: list[Services] = []
        real_watch = Services.watch

        def noting(services: Services, page: ft.Page) -> None:
            made.append(services)
            real_watch(services, page)

        self.monkeypatch.setattr(Services, "watch", noting)
        conn = RecordingConnection()
        conn.pubsubhub = PubSubHub()
        fs = Session(conn)
        token = _context_page.set(fs.page)
        try:
            self.main(fs.page)
            fs.get_page_patch()
            await flush()
        finally:
            _context_page.reset(token)
            self.monkeypatch.setattr(Services, "watch", real_watch)
        self.pages.append(fs)
        (services,) = made
        self._page_of[id(services)] = fs.page
        return services

    @contextlib.contextmanager
    def on(self, services: Services) -> Iterator[None]:
        """Act on ``services``'s own page (the one its observables re-render)."""
        token = _context_page.set(self._page_of[id(services)])
        try:
            yield
        finally:
            _context_page.reset(token)

    async def close(self) -> None:
        for fs in self.pages:
            fs.close()
        await flush()


@pytest.mark.usefixtures("tally")
def test_two_sessions_of_one_server_share_one_hub_through_the_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(pin=PIN)
    server = Server(build_main(AppConfig(data_dir=tmp_path), table=table), monkeypatch)

    async def scenario() -> TableHub:
        host, phone = await server.connect(), await server.connect()
        hub = host.hub
        try:
            assert isinstance(hub, TableHub) and phone.hub is hub  # handed, not looked up
            for services in (host, phone):  # each session's history: a guarded view of it
                assert isinstance(services.repo, GuardedRepository)
                assert services.repo.inner is hub.repo
            host_device = table.claim_host(table.host_link()).device
            phone_device = table.join("10.0.0.7", PIN).device
            assert host_device is not None and phone_device is not None
            for services, device in ((host, host_device), (phone, phone_device)):
                with server.on(services):
                    services.admit(device)

            game = host.start_game("tally", PLAYERS, {})
            mine = phone.open_game(game.game_id)
            assert mine.live is game.live  # one live game for both devices
            assert mine.add(_add("Ann", 3)) is None
            assert game.summary.totals["Ann"] == 3 and game.notice == "Phone 1: Ann add"

            # nothing was kept on the repository object
            kept = vars(hub.repo)
            assert "_table_hub" not in kept
            assert not [v for v in kept.values() if isinstance(v, TableHub)]
        finally:
            await server.close()
        return hub

    hub = run_async(scenario())
    try:
        # another server in this process, on the same folder, has a hub of its own
        other = Server(build_main(AppConfig(data_dir=tmp_path)), monkeypatch)

        async def elsewhere() -> None:
            services = await other.connect()
            try:
                assert services.hub is not hub and services.repo is services.hub.repo
            finally:
                await other.close()
                services.hub.repo.close()

        run_async(elsewhere())
    finally:
        hub.repo.close()
