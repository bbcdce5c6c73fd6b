"""The revision a device shows travels with its tap (issue 19, item 1).

Two devices on one game, each a real (headless) Flet session drawing the real play
screen.  Device B's browser is slow: the server has redrawn B's screen after A's undo,
but B has not drawn it yet (its answer to the round trip sent behind the redraw is
held back), and B's own Undo tap -- made on the screen before -- arrives now.  Both
people meant the same last entry: exactly one comes off, and B is told why its undo
took nothing off.
"""

from __future__ import annotations

import asyncio

import pytest
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app import App
from companion.config import AppConfig
from companion.hub import TableHub
from companion.services import Services
from companion.session import GameSession
from companion.storage import MemoryRepository
from tests.companion.flet_harness import HeadlessScreen, RecordingConnection, flush, run_async

OPENING = [{"type": "start_hand", "dealer": "Ann"}]
MELDS = [
    {"type": "meld", "player": "Bob", "cards": ["10C", "10D", "10H"]},
    {"type": "meld", "player": "Ann", "cards": ["5H", "6H", "7H"]},
]


class Device(HeadlessScreen):
    """One browser: the play screen, and the round trips it has not answered yet."""

    def __init__(self, fs: Session, conn: RecordingConnection, browser: Browser) -> None:
        super().__init__(fs, conn)
        self.browser = browser

    def pending(self) -> list[asyncio.Future[None]]:
        return [f for f in self.browser.asked if not f.done()]

    async def draw(self) -> None:
        """The browser draws what it was sent and answers every round trip so far."""
        await flush()
        for answer in self.pending():
            answer.set_result(None)
        await flush()


class Browser:
    """Stands in for the browser's answer to :meth:`Services.round_trip`: it comes when
    the test says the browser has drawn what it was sent (:meth:`Device.draw`)."""

    def __init__(self) -> None:
        self.asked: list[asyncio.Future[None]] = []

    async def round_trip(self) -> bool:
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.asked.append(answer)
        await answer
        return True


def _open(services: Services, gid: str, monkeypatch: pytest.MonkeyPatch) -> Device:
    browser = Browser()
    monkeypatch.setattr(services, "round_trip", browser.round_trip, raising=False)
    conn = RecordingConnection()
    conn.pubsubhub = PubSubHub()
    fs = Session(conn)
    _context_page.set(fs.page)
    fs.page.route = f"/play/{gid}"
    services.watch(fs.page)
    fs.page.render_views(App, services)
    fs.get_page_patch()
    return Device(fs, conn, browser)


def test_two_undos_at_once_take_off_one_entry_and_the_second_is_refused_with_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    game = GameSession.start(hub, "umtali", ["Ann", "Bob"], {}, OPENING)
    for meld in MELDS:
        assert game.add(meld) is None
    gid = game.game_id

    async def scenario() -> None:
        a = _open(Services(config=AppConfig(), hub=hub), gid, monkeypatch)
        b = _open(Services(config=AppConfig(), hub=hub), gid, monkeypatch)
        try:
            await a.draw()
            await b.draw()
            assert a.has("undo") and b.has("undo")
            await a.click("undo")  # A's undo lands: Ann's meld comes off
            assert len(repo.get_game(gid).actions) == 2
            await flush()  # the server redraws B's screen; B's browser has not drawn it
            await b.click("undo")  # B's tap, made on the screen that still showed the meld
            stored = repo.get_game(gid).actions
            assert stored == [*OPENING, MELDS[0]], "two undos at once took off two entries"
            refusal = b.label("refusal") if b.has("refusal") else b.label("verdict")
            assert "just undid" in refusal and "5♥ 6♥ 7♥" in refusal, refusal
            assert "nothing else was undone" in refusal, refusal
            # once B's browser has drawn the table, an undo there is what B means
            await b.draw()
            await b.click("undo")
            assert repo.get_game(gid).actions == OPENING
        finally:
            for device in (a, b):
                device.fs.close()
            await flush()

    run_async(scenario())
