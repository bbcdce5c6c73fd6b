"""One live game, a host and three phones: entries at the same moment, reloads, a dropped
connection.  Real browsers (one Playwright context per device) on one in-process server.

The game is Umtali (its table screen has stable test ids for an entry); what is checked
is game-agnostic: every acknowledged entry is stored once, every screen converges to the
same totals, a reloaded or reconnected device shows the current state.  The few things a
test must know about the game's screen are in :data:`UMTALI`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.session import GameSession
from tests.browser.conftest import DESKTOP, PHONE, new_page, stable_screenshot
from tests.browser.table_server import (
    T,
    TableServer,
    arrive,
    keep_failure,
    said,
    type_pin,
    typing_box,
)

#: what the tests need to know of the game's table screen
UMTALI = {
    "players": ["Ann", "Bob"],
    "opening": [{"type": "start_hand", "dealer": "Ann"}],
    "add": "add-meld",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableServer]:
    running = TableServer(tmp_path_factory.mktemp("table-game")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def devices(
    request: pytest.FixtureRequest, browser: Any, server: TableServer
) -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for n, page in enumerate(opened):
        keep_failure(page, f"{request.node.name}-device{n}")  # the last run's, for people
        page.context.close()


def _watch(page: Any) -> Any:
    """Note when the server last sent this page something (to wait for quiet)."""
    page.ws_recv = [time.monotonic()]
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda _: page.ws_recv.append(time.monotonic())),
    )
    return page


def _quiet(page: Any, quiet_s: float = 0.25, limit_s: float = 10.0) -> None:
    """Wait until the server has sent this page nothing for ``quiet_s`` (screen settled)."""
    start = time.monotonic()
    while time.monotonic() - page.ws_recv[-1] < quiet_s and time.monotonic() - start < limit_s:
        page.wait_for_timeout(25)


def _game(server: TableServer) -> str:
    return GameSession.start(server.hub, "umtali", UMTALI["players"], {}, UMTALI["opening"]).game_id


def _at_table(browser: Any, devices: list[Any], server: TableServer, gid: str, host: bool) -> Any:
    page = _watch(new_page(browser, DESKTOP if host else PHONE))
    devices.append(page)
    if host:
        arrive(page, server.host_url())
        said(page, "table-pin", "PIN")
        arrive(page, f"{server.url}play/{gid}")
    else:
        arrive(page, f"{server.url}play/{gid}")
        type_pin(page, server.table.pin)
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
    return page


def _sides(page: Any, ann: int, bob: int) -> None:
    for name, points in (("Ann", ann), ("Bob", bob)):
        text = f"{name}'s side: {points} point{'s' if points != 1 else ''}"
        expect(page.get_by_text(text, exact=True)).to_have_count(1, timeout=T)


def _prepare(page: Any, player: str, cards: str) -> None:
    """Pick the acting player and type a meld, up to a legal verdict (not added yet)."""
    _quiet(page)
    page.get_by_test_id(f"acting-{player.lower()}").click()
    box = typing_box(page)
    for _ in range(4):
        _quiet(page)
        box.click()
        box.fill(cards)
        page.keyboard.press("Enter")
        try:
            expect(page.get_by_test_id("verdict")).to_have_attribute(
                "aria-label", re.compile(r"points"), timeout=5_000
            )
            break
        except AssertionError:
            continue
    expect(page.get_by_test_id(UMTALI["add"]).get_by_role("button")).to_be_enabled(timeout=T)
    _quiet(page)


@pytest.mark.slow
def test_host_and_three_phones_enter_at_the_same_moment_and_every_screen_converges(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    gid = _game(server)
    host = _at_table(browser, devices, server, gid, host=True)
    phones = [_at_table(browser, devices, server, gid, host=False) for _ in range(3)]
    entries = [("Ann", "5H 6H 7H"), ("Bob", "10C 10D 10H"), ("Ann", "KS QS"), ("Bob", "JC")]
    everyone = [host, *phones]
    for page, (player, cards) in zip(everyone, entries, strict=True):
        _prepare(page, player, cards)
    # all four taps at once: fired back to back, none waits for an answer
    for page in everyone:
        page.get_by_test_id(UMTALI["add"]).get_by_role("button").dispatch_event("click")
    for page in everyone:
        _sides(page, ann=3 + 20, bob=15 + 5)
    stored = server.repo.get_game(gid).actions
    melds = sorted((a["player"], tuple(a["cards"])) for a in stored if a["type"] == "meld")
    assert len(stored) == 1 + 4, stored
    assert melds == sorted((p, tuple(c.split())) for p, c in entries)
    for page in everyone:
        expect(page.get_by_test_id("refusal")).to_have_count(0)
        said(page, "table-news", r"Table: .+: (Ann|Bob) melded")
    stable_screenshot(phones[0], "table-phone")  # docs/table-phone.png

    # a phone that reloads mid-game comes back to the same state, without the PIN
    phones[1].reload()
    arrive(phones[1], f"{server.url}play/{gid}")
    _sides(phones[1], ann=23, bob=20)
    expect(phones[1].get_by_role("button", name="Join")).to_have_count(0)

    # one more entry, from the reloaded phone: the others hear who did it
    _prepare(phones[1], "Ann", "AC 2C 3C")
    phones[1].get_by_test_id(UMTALI["add"]).get_by_role("button").click()
    for page in everyone:
        _sides(page, ann=26, bob=20)
    said(host, "table-news", r"Phone \d: Ann melded A♣ 2♣ 3♣")


def test_undo_is_table_wide_and_says_who_undid_what(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    gid = _game(server)
    host = _at_table(browser, devices, server, gid, host=True)
    phone = _at_table(browser, devices, server, gid, host=False)
    phone.get_by_test_id("seat").click()  # "This device: just watching. Change"
    phone.get_by_test_id("seat-Bob").click()  # "I am Bob"
    expect(phone.get_by_role("button", name="This device: Bob. Change")).to_have_count(1)
    _prepare(phone, "Bob", "10C 10D 10H")
    phone.get_by_test_id(UMTALI["add"]).get_by_role("button").click()
    _sides(host, ann=0, bob=15)
    said(host, "table-news", "Bob: Bob melded 10♣ 10♦ 10♥")
    _quiet(host)
    host.get_by_role("button", name="Undo").click()
    _sides(phone, ann=0, bob=0)
    said(phone, "table-news", "The host undid Bob's Bob meld 10♣ 10♦ 10♥")
    assert server.repo.get_game(gid).actions == UMTALI["opening"]


class Link:
    """A device's connection to the server, routed through the test so it can be cut."""

    def __init__(self, page: Any) -> None:
        self.up = True
        self.refused = 0
        self.pairs: list[tuple[Any, Any]] = []
        page.route_web_socket(re.compile(r".*/ws$"), self._connect)

    def _connect(self, ws: Any) -> None:
        if not self.up:
            self.refused += 1
            ws.close()
            return
        self.pairs.append((ws, ws.connect_to_server()))

    def cut(self) -> None:
        self.up = False
        for client, server in self.pairs:
            server.close()
            client.close()
        self.pairs.clear()


def test_a_phone_that_drops_off_comes_back_to_the_current_state_and_says_so(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    gid = _game(server)
    phone = _watch(new_page(browser, PHONE))
    devices.append(phone)
    link = Link(phone)
    arrive(phone, f"{server.url}play/{gid}")
    type_pin(phone, server.table.pin)
    _sides(phone, ann=0, bob=0)
    host = _at_table(browser, devices, server, gid, host=True)

    link.cut()
    while link.refused < 2:  # the phone is trying to come back, and cannot
        phone.wait_for_timeout(50)
    _prepare(host, "Ann", "5H 6H 7H")
    host.get_by_test_id(UMTALI["add"]).get_by_role("button").click()
    _sides(host, ann=3, bob=0)
    link.up = True  # the network is back: no reload, the phone reconnects by itself
    _sides(phone, ann=3, bob=0)
    said(
        phone,
        "back-online",
        r"You were offline for (\d+ s|a moment)\. Nothing from this device was recorded .*"
        r"Meanwhile: The host: Ann meld",
    )
    expect(phone.get_by_role("button", name="Join")).to_have_count(0)


class Held:
    """A device's connection through the test, with its downlink held back on demand: what
    the server sends it waits (a slow browser that has not drawn the table yet), while the
    device's own taps still go up."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.held: list[tuple[Any, Any]] = []
        page.route_web_socket(re.compile(r".*/ws$"), self._connect)

    def _connect(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def down(message: Any) -> None:
            if self.holding:
                self.held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(down)
        ws.on_message(server.send)

    def release(self) -> None:
        self.holding = False
        for ws, message in self.held:
            ws.send(message)
        self.held.clear()


def _wait(page: Any, ready: Any, what: str, limit_s: float = 30.0) -> None:
    deadline = time.monotonic() + limit_s
    while not ready():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(25)


@pytest.mark.slow
def test_host_and_three_phones_two_undos_at_once_take_off_one_entry_and_a_seat_is_one_phones(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    opening = UMTALI["opening"]
    melds = [
        {"type": "meld", "player": "Bob", "cards": ["10C", "10D", "10H"]},
        {"type": "meld", "player": "Ann", "cards": ["5H", "6H", "7H"]},
    ]
    game = GameSession.start(server.hub, "umtali", UMTALI["players"], {}, opening)
    for meld in melds:
        assert game.add(meld) is None
    gid = game.game_id
    host = _at_table(browser, devices, server, gid, host=True)
    first = _at_table(browser, devices, server, gid, host=False)
    slow = _watch(new_page(browser, PHONE))  # the phone whose browser is slow to hear
    devices.append(slow)
    held = Held(slow)
    arrive(slow, f"{server.url}play/{gid}")
    type_pin(slow, server.table.pin)
    third = _at_table(browser, devices, server, gid, host=False)
    for page in (host, first, slow, third):
        _sides(page, ann=3, bob=15)
        _quiet(page)

    # Both people press Undo for Ann's meld at the same moment.  The slow phone's tap is
    # made on the screen that still shows the meld: the server has redrawn that phone's
    # screen after the first undo, but the phone has not heard it yet.
    held.holding = True
    first.get_by_role("button", name="Undo").click()
    _wait(slow, lambda: len(server.repo.get_game(gid).actions) == 2, "the first undo")
    _wait(slow, lambda: held.held, "the slow phone's redraw is held back")
    before = len(held.held)
    slow.get_by_role("button", name="Undo").dispatch_event("click")
    _wait(slow, lambda: len(held.held) > before, "the server answered the slow phone's tap")
    held.release()
    expect(slow.get_by_test_id("verdict")).to_have_attribute(
        "aria-label",
        re.compile(
            r"Refused: Phone \d just undid (.+'s )?Ann meld 5♥ 6♥ 7♥; nothing else was undone"
        ),
        timeout=T,
    )
    assert server.repo.get_game(gid).actions == [*opening, melds[0]]  # one entry came off
    for page in (host, first, slow, third):
        _sides(page, ann=0, bob=15)

    # One phone per seat: "I am Ann" on a second phone is refused, in words.
    first.get_by_test_id("seat").click()
    first.get_by_test_id("seat-Ann").click()
    expect(first.get_by_role("button", name="This device: Ann. Change")).to_have_count(1)
    _quiet(third)
    third.get_by_test_id("seat").click()
    third.get_by_test_id("seat-Ann").click()
    expect(third.get_by_test_id("verdict")).to_have_attribute(
        "aria-label", re.compile(r"Refused: Ann's seat is taken on another phone"), timeout=T
    )
    expect(third.get_by_role("button", name="This device: just watching. Change")).to_have_count(1)
    assert [d.seat for d in server.table.devices()].count("Ann") == 1


@pytest.mark.slow
def test_after_a_server_restart_the_host_and_the_phones_carry_on_without_the_pin(
    browser: Any, devices: list[Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = tmp_path_factory.mktemp("table-restart")
    first = TableServer(data, kept=True).start()
    restarted: TableServer | None = None
    try:
        gid = _game(first)
        host = _at_table(browser, devices, first, gid, host=True)
        phone = _at_table(browser, devices, first, gid, host=False)
        phone.get_by_test_id("seat").click()
        phone.get_by_test_id("seat-Bob").click()
        expect(phone.get_by_role("button", name="This device: Bob. Change")).to_have_count(1)
        first.stop()  # the laptop restarts the app (same data folder, same address)
        restarted = TableServer(data, port=first.port, kept=True, pin="").start()
        assert restarted.table.pin == first.table.pin  # the PIN stays
        for words in ("The host", "Bob"):  # recognised by their tokens on the new server
            restarted.services_of(words, timeout_s=T / 1000)
        for page in (host, phone):  # both reconnect by themselves: no reload, no PIN typed
            expect(page.get_by_role("button", name="Join")).to_have_count(0, timeout=T)
            _sides(page, ann=0, bob=0)
            expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
        expect(phone.get_by_role("button", name="This device: Bob. Change")).to_have_count(1)
        _prepare(phone, "Bob", "10C 10D 10H")  # and carry on
        phone.get_by_test_id(UMTALI["add"]).get_by_role("button").click()
        _sides(host, ann=0, bob=15)
        said(host, "table-news", "Bob: Bob melded 10♣ 10♦ 10♥")
    finally:
        (restarted or first).stop()
