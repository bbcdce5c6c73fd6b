"""Starting a game through the UI: players, house rules, dealer, then the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import AppServer, flutter_fill, open_app, stable_screenshot


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[AppServer]:
    server = AppServer(tmp_path / "data").start()
    yield server
    server.stop()


def add_players(page: Any, names: list[str], first_seat: int = 1) -> None:
    field = page.get_by_role("textbox", name="Player name")
    for seat, name in enumerate(names, start=first_seat):
        flutter_fill(page, field, name)
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"{seat}. {name}")).to_be_visible(timeout=10_000)


def test_new_rummy_game_refuses_too_few_players_then_starts(
    fresh_server: AppServer, page: Any
) -> None:
    open_app(page, fresh_server.url)
    page.get_by_role("button", name="New Rummy game").click()
    expect(page.get_by_role("textbox", name="Player name")).to_be_visible(timeout=15_000)
    add_players(page, ["Ann"])
    page.get_by_role("button", name="Start Rummy").click()
    expect(
        page.get_by_text("Rummy needs 2 to 6 players (you have 1).", exact=False)
    ).to_be_visible()
    add_players(page, ["Bob", "Cy"], first_seat=2)
    page.get_by_role("radio", name="Bob").click()
    expect(page.get_by_text("Bob deals; Cy, on the dealer's left, plays first.")).to_be_visible()
    page.get_by_test_id("rummy-rules-multi_meld").get_by_role("switch").click()
    stable_screenshot(page, f"new-game-rummy-{page.size_name}")
    page.get_by_role("button", name="Start Rummy").click()
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=15_000)
    # the game is in history at once: home offers to continue it
    page.goto(fresh_server.url)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    expect(page.get_by_role("button", name="Continue Rummy: Ann, Bob, Cy")).to_be_visible(
        timeout=20_000
    )
