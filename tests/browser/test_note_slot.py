"""A note from the table moves nothing on a phone (issue 18: "the offline banner does not
push the board down").

At a table of several devices, notes come and go all game long: "Bob: meld 10♣ 10♦ 10♥",
"You were offline for 12 s ...".  On a one-thumb table the note has a slot of its own,
one line tall, kept while the phone is at the table: when another device's entry puts a
note there, the sides' totals and every tappable control of the entry and the bar stay
exactly where they were (before, the note pushed the head down by its height).  The
note is one line; a tap opens its whole words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.session import GameSession
from tests.browser.layout import (
    android_page,
    assert_nothing_moved,
    boxes,
    open_phone,
    settle,
    settled_boxes,
    watch_server,
)
from tests.browser.table_server import T, TableServer, keep_failure, said, type_pin

PLAYERS = ["Ann", "Bob"]
OPENING = [{"type": "start_hand", "dealer": "Ann"}]
MELDS = [
    {"type": "meld", "player": "Ann", "cards": ["5H", "6H", "7H"]},
    {"type": "meld", "player": "Bob", "cards": ["10C", "10D", "10H"]},
]


@pytest.fixture
def server(tmp_path: Any) -> Iterator[TableServer]:
    running = TableServer(tmp_path).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    page = android_page(browser)
    yield page
    keep_failure(page, request.node.name)
    page.context.close()


def _still(page: Any) -> dict[str, Any]:
    """Where the sides' totals (their top) and the tappable controls outside the board
    are, once the screen settled.  The board's own melds move when a meld is added (the
    board grows upwards from the entry): that is the entry's doing, not the note's."""
    found = {k: v for k, v in settled_boxes(page).items() if not k.startswith("meld-")}
    for test_id in ("side-total-ann", "side-total-bob"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None, test_id
        found[test_id] = {"x": 0.0, "y": box["y"], "w": 0.0, "h": box["height"]}
    return found


def test_a_note_from_the_table_moves_nothing_on_the_phone(server: TableServer, phone: Any) -> None:
    table = GameSession.start(server.hub, "umtali", PLAYERS, {}, OPENING)
    assert table.add(MELDS[0]) is None
    watch_server(phone)
    open_phone(phone, f"{server.url}play/{table.game_id}")
    type_pin(phone, server.table.pin)
    expect(phone.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
    expect(phone.get_by_test_id("meld-ann-0")).to_have_count(1, timeout=T)
    settle(phone)
    before = _still(phone)
    assert "table-news" not in boxes(phone)

    assert table.add(MELDS[1]) is None  # another device at the table: the phone hears it
    said(phone, "table-news", r"Table: .+: Bob melded 10♣ 10♦ 10♥")
    expect(phone.get_by_test_id("meld-bob-0")).to_have_count(1, timeout=T)
    settle(phone)
    after = _still(phone)
    assert_nothing_moved(before, after, tolerance=2, where="a note came")

    # the note is one line; its whole words open over the screen, and close again
    phone.get_by_test_id("table-news").click()
    close = phone.get_by_test_id("note-sheet-close")
    expect(close).to_have_count(1, timeout=T)
    said(phone, "note-sheet-words", r": Bob melded 10♣ 10♦ 10♥")
    close.get_by_role("button").click()
    expect(close).to_have_count(0, timeout=T)
