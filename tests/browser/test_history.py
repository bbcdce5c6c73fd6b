"""History in a real browser: the demo games newest first, filters, paging with More,
a game's hand table and chart, statistics, and delete with undo."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_games, load_demo
from companion.storage import open_repository
from tests.browser.conftest import (
    AT_DESKTOP,
    AT_PHONE,
    PHONE,
    AppServer,
    new_page,
    open_app,
    snack,
    stable_screenshot,
    unexpected_external,
)

EXTRA = 25  # more than one page of 20


def _server(folder: Path, extra: int = 0) -> AppServer:
    repo = open_repository(folder)
    load_demo(repo)
    for i in range(extra):
        repo.create_game("umtali", [f"Guest {i}", "Host"])
    repo.close()
    return AppServer(folder).start()


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = _server(tmp_path_factory.mktemp("demo"))
    try:
        yield server
    finally:
        server.stop()


def _open_history(page: Any, url: str) -> None:
    open_app(page, url)
    history = page.get_by_role("button", name="History")
    expect(history).to_be_visible(timeout=20_000)
    history.click()
    expect(page.get_by_test_id("history-tab-games")).to_be_visible(timeout=20_000)


# both sizes: docs/history-desktop.png is in the README
def test_demo_games_newest_first_and_filter(demo_server: AppServer, page: Any) -> None:
    games = demo_games()
    newest_first = sorted(games, key=lambda g: g.created, reverse=True)
    _open_history(page, demo_server.url)
    first = page.get_by_test_id(f"history-game-{newest_first[0].id}")
    expect(first).to_be_visible(timeout=15_000)
    tiles = page.locator("[flt-semantics-identifier^='history-game-']")
    expect(tiles).to_have_count(len(games))
    ids = [t.get_attribute("flt-semantics-identifier") for t in tiles.all()]
    assert ids == [f"history-game-{g.id}" for g in newest_first]
    # the pointer left where Home's History button was would paint that game hovered
    page.mouse.move(page.viewport_size["width"] - 1, 1)  # the app bar's empty end
    stable_screenshot(page, f"history-{page.size_name}")

    page.get_by_test_id("history-filter-rummy").click()
    rummy = [g for g in games if g.game == "rummy"]
    expect(tiles).to_have_count(len(rummy), timeout=10_000)
    for g in rummy:
        expect(page.get_by_test_id(f"history-game-{g.id}")).to_be_visible()
    page.get_by_test_id("history-filter-all").click()
    expect(tiles).to_have_count(len(games), timeout=10_000)
    assert unexpected_external(page) == []


def test_player_filter(demo_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    _open_history(page, demo_server.url)
    page.get_by_test_id("history-filter-player").click()
    page.get_by_role("button", name="Grace", exact=True).click()
    with_grace = [g for g in demo_games() if "Grace" in g.players]
    tiles = page.locator("[flt-semantics-identifier^='history-game-']")
    expect(tiles).to_have_count(len(with_grace), timeout=10_000)


@AT_DESKTOP
def test_demo_game_chart_and_hands(demo_server: AppServer, page: Any) -> None:
    game = next(g for g in demo_games() if g.game == "rummy")
    _open_history(page, demo_server.url)
    page.get_by_test_id(f"history-game-{game.id}").click()
    chart = page.get_by_test_id("detail-chart")
    expect(chart).to_be_visible(timeout=15_000)
    assert game.summary is not None
    final = ", ".join(f"{p} {t}" for p, t in game.summary["totals"].items())
    expect(chart).to_contain_text(f"Chart of running totals: {final}")
    hands = page.get_by_test_id("detail-hands")
    hands.scroll_into_view_if_needed()
    expect(hands.get_by_text("Total")).to_be_attached()
    page.wait_for_timeout(500)
    page.mouse.wheel(0, -2000)
    stable_screenshot(page, f"history-detail-{page.size_name}")
    # a finished game's result, shared as text (a browser has no share sheet: the
    # clipboard takes it, and the app says so)
    assert game.status == "finished"
    page.get_by_role("button", name="Share the result").click()
    expect(snack(page, re.compile(r"^Result (shared|copied)"))).to_be_visible(timeout=15_000)
    assert unexpected_external(page) == []


def test_rummoli_chart_in_dark_mode(demo_server: AppServer, browser: Any) -> None:
    page = new_page(browser, PHONE, dark=True)
    try:
        game = next(g for g in demo_games() if g.game == "rummoli")
        _open_history(page, demo_server.url)
        stable_screenshot(page, "history-phone-dark")
        page.get_by_test_id(f"history-game-{game.id}").click()
        expect(page.get_by_test_id("detail-chart")).to_be_visible(timeout=15_000)
        stable_screenshot(page, "history-detail-rummoli-phone-dark")
    finally:
        page.context.close()


@AT_PHONE
def test_statistics(demo_server: AppServer, page: Any) -> None:
    _open_history(page, demo_server.url)
    page.get_by_test_id("history-tab-stats").click()
    for game in ("umtali", "rummy", "rummoli"):
        expect(page.get_by_test_id(f"history-stats-{game}")).to_be_attached(timeout=15_000)
    stable_screenshot(page, f"history-stats-{page.size_name}")


@pytest.fixture
def busy_server(tmp_path: Path) -> Iterator[AppServer]:
    server = _server(tmp_path / "busy", extra=EXTRA)
    try:
        yield server
    finally:
        server.stop()


def test_more_then_delete_with_undo(busy_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    _open_history(page, busy_server.url)
    tiles = page.locator("[flt-semantics-identifier^='history-game-']")
    more = page.get_by_test_id("history-more")
    expect(more).to_be_attached(timeout=15_000)
    total = EXTRA + len(demo_games())
    assert tiles.count() <= 20
    more.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    more.click()
    expect(page.locator("[flt-semantics-identifier^='history-game-demo-']").first).to_be_attached(
        timeout=15_000
    )
    assert total > 20

    repo = open_repository(busy_server.data_dir)
    try:
        victim = repo.list_games(limit=1)[0]  # the newest: first on the list
    finally:
        repo.close()
    page.get_by_test_id(f"history-game-{victim.id}").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.get_by_test_id(f"history-game-{victim.id}").click()
    delete = page.get_by_test_id("detail-delete")
    expect(delete).to_be_visible(timeout=20_000)
    delete.click()
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_visible(timeout=10_000)
    expect(page.get_by_text(re.compile(r"game of .* deleted")).last).to_be_visible()
    stable_screenshot(page, "history-deleted-phone")
    expect(page.get_by_test_id(f"history-game-{victim.id}")).not_to_be_attached()
    undo.click()
    expect(snack(page, "Game restored.")).to_be_visible(timeout=10_000)
    expect(page.get_by_test_id(f"history-game-{victim.id}")).to_be_attached(timeout=10_000)
    repo = open_repository(busy_server.data_dir)
    try:
        assert repo.get_game(victim.id).id == victim.id
    finally:
        repo.close()
