"""Every screen speaks the players' language: a walk through home, new game (with the
house-rules editor and its errors), the checker (with a rule sheet), the rules
section, history and settings, checking the whole accessibility tree of each with
``assert_words_people_use`` -- no snake_case, no internal IDs, no "1 points"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import load_demo
from companion.storage import open_repository
from tests.browser.conftest import AppServer, open_app
from tests.browser.words import assert_words_people_use

T = 20_000
DEAL = re.compile("^Rummoli rule M2.1")


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """History with the demo games (finished) and two games in progress."""
    data = Path(tmp_path_factory.mktemp("words"))
    repo = open_repository(data)
    load_demo(repo)
    for game, players, hands, totals in (
        ("umtali", ["ann", "Bea"], 1, {"ann": 1, "Bea": 0}),
        ("rummoli", ["Farai", "Rudo", "Tendai"], 0, {}),
    ):
        stored = repo.create_game(game, players)
        summary = {"hands": [{}] * hands, "totals": totals, "finished": False}
        repo.set_summary(stored.id, summary, "in_progress")
    repo.close()
    server = AppServer(data).start()
    try:
        yield server
    finally:
        server.stop()


def visit(page: Any, url: str, ready: Any) -> None:
    """Load ``url`` and wait until ``ready`` (a locator on that screen) is there."""
    open_app(page, url)
    expect(ready(page).first).to_be_visible(timeout=T)


@pytest.mark.slow
def test_every_screen_uses_words_people_use(table_server: AppServer, phone_page: Any) -> None:
    page, url = phone_page, table_server.url.rstrip("/")

    visit(page, url + "/", lambda p: p.get_by_role("button", name=re.compile("^Continue Umtali")))
    assert_words_people_use(page, "home")

    for game in ("umtali", "rummy", "rummoli"):
        visit(page, f"{url}/new/{game}", lambda p: p.get_by_test_id("house-rules"))
        assert_words_people_use(page, f"new {game} game")
        page.get_by_role("button", name=re.compile("^Start ")).click()
        expect(page.get_by_test_id("players-error")).to_be_visible(timeout=T)
        assert_words_people_use(page, f"new {game} game, with its problems")
        page.get_by_test_id("house-rules").click()
        expect(page.get_by_test_id("house-rules-done")).to_be_visible(timeout=T)
        assert_words_people_use(page, f"{game} house rules")

    visit(page, url + "/check", lambda p: p.get_by_test_id("checker-cards-card-JH"))
    for card in ("JH", "JD", "JS"):
        page.get_by_test_id(f"checker-cards-card-{card}").click()
        expect(page.get_by_role("button", name=re.compile("^Remove jack of"))).not_to_have_count(0)
    page.get_by_test_id("checker-rule-link").click()
    expect(page.get_by_test_id("rule-sheet")).to_be_visible(timeout=T)
    assert_words_people_use(page, "checker with a rule sheet")

    rules_pages = [
        ("/rules", lambda p: p.get_by_test_id("rules-umtali")),
        ("/rules?q=marrige", lambda p: p.get_by_role("button", name=re.compile("^Umtali rule"))),
        (
            "/rules?q=how many cards to deal",
            lambda p: p.get_by_role("button", name=re.compile("^Rummoli rule")),
        ),
        ("/rules/rummy", lambda p: p.get_by_role("button", name=re.compile("^Rule R7: "))),
        ("/rules/rummy/R7.jokers/", lambda p: p.get_by_role("heading", name="Rule R7")),
        ("/rules/rummoli/M-HR/", lambda p: p.get_by_role("heading", name="Rule M-HR")),
        ("/rules/umtali/U-HR/", lambda p: p.get_by_role("heading", name="Rule U-HR")),
    ]
    for address, ready in rules_pages:
        visit(page, url + address, ready)
        assert_words_people_use(page, address)

    visit(page, url + "/history", lambda p: p.get_by_role("heading", name="History"))
    assert_words_people_use(page, "history")
    visit(page, url + "/settings", lambda p: p.get_by_role("heading", name="Settings"))
    assert_words_people_use(page, "settings")
