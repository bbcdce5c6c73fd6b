"""History that adds up (issue 15): every demo game's hand-by-hand table, as the screen
shows it, sums to the total shown -- Rummoli's starting stacks, buy-ins and final
poker included.  (The browser-played Rummoli game is checked at the end of
``test_rummoli_game.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_games, load_demo
from companion.storage import open_repository
from tests.browser.conftest import AppServer, open_app, stable_screenshot
from tests.browser.history_sums import assert_history_adds_up, shown_table
from tests.browser.words import assert_words_people_use

WAIT = 20_000


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("demo")
    repo = open_repository(folder)
    load_demo(repo)
    repo.close()
    server = AppServer(folder).start()
    try:
        yield server
    finally:
        server.stop()


def _open(page: Any, gid: str) -> None:
    tile = page.get_by_test_id(f"history-game-{gid}")
    expect(tile).to_be_attached(timeout=WAIT)
    tile.scroll_into_view_if_needed()
    tile.click()
    expect(page.get_by_test_id("detail-chart")).to_be_visible(timeout=WAIT)


@pytest.mark.slow
def test_every_demo_games_history_adds_up(demo_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    open_app(page, demo_server.url)
    page.get_by_role("button", name="History").click()
    expect(page.get_by_test_id("history-tab-games")).to_be_visible(timeout=WAIT)
    assert_words_people_use(page, "history")
    for game in demo_games():
        assert game.summary is not None
        _open(page, game.id)
        titles = assert_history_adds_up(page, game.players, game.summary["totals"], game.id)
        assert_words_people_use(page, game.id)
        if game.game == "rummoli":
            # the stacks the game started with, and the final poker, are rows of their own
            assert titles[0] == "Start" and titles[-1] == "Final poker", titles
        page.get_by_role("button", name="Back").click()
        expect(page.get_by_test_id("history-tab-games")).to_be_visible(timeout=WAIT)


def test_demo_rummoli_3_farai_is_never_14_chips_low(
    demo_server: AppServer, phone_page: Any
) -> None:
    """Issue 15: Farai's line used to leave out his 14-chip buy-in (rounds 1-5 showed
    14 chips low) and the table had no start, buy-in or final-poker rows."""
    page = phone_page
    open_app(page, demo_server.url)
    page.get_by_role("button", name="History").click()
    _open(page, "demo-rummoli-3")
    chart = page.get_by_test_id("detail-chart")
    expect(chart).to_contain_text("Chart of running totals: Thandi 86, Farai 32, Sam 7")
    titles, rows, totals = shown_table(page, ["Thandi", "Farai", "Sam"])
    assert titles == ["Start", "Buy-in", "1", "2", "3", "4", "5", "Final poker"]
    assert rows["Farai"] == [37, 14, -12, 22, -18, -16, 5, 0]
    running = [sum(rows["Farai"][: i + 1]) for i in range(len(titles))]
    assert running == [37, 51, 39, 61, 43, 27, 32, 32]
    assert totals == {"Thandi": 86, "Farai": 32, "Sam": 7}
    stable_screenshot(page, "history-rummoli-3-table-phone")
