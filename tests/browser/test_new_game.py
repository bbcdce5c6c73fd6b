"""Starting a game through the UI, on a phone held in one hand and on a desktop:
Start always in reach, each problem at the control that caused it, the player limits
before anyone is added, house rules folded into one row."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import AT_PHONE, AppServer, flutter_fill, open_app
from tests.browser.shots import painted_screenshot

T = 15_000


def add_players(page: Any, names: list[str], first_seat: int = 1) -> None:
    field = page.get_by_role("textbox", name="Player name")
    for seat, name in enumerate(names, start=first_seat):
        flutter_fill(page, field, name)
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"{seat}. {name}", exact=True)).to_be_visible(timeout=T)


def open_new_game(page: Any, url: str, game: str) -> None:
    open_app(page, f"{url.rstrip('/')}/new/{game}")
    expect(page.get_by_role("textbox", name="Player name")).to_be_visible(timeout=30_000)


def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def just_below(upper: Any, lower: Any, gap: float = 60) -> None:
    """``lower`` is shown right under ``upper`` (the control it is about)."""
    top, under = upper.bounding_box(), lower.bounding_box()
    assert top is not None and under is not None
    assert 0 <= under["y"] - (top["y"] + top["height"]) <= gap, (top, under)


@AT_PHONE
def test_each_problem_shows_at_its_control(fresh_server: AppServer, page: Any) -> None:
    open_new_game(page, fresh_server.url, "rummy")
    # the limits are there before anyone is added, and Start needs no scrolling
    expect(page.get_by_text("Rummy: 2 to 6 players, in seating order (clockwise).")).to_be_visible()
    expect(page.get_by_text("Add 2 players (up to 6).")).to_be_visible()
    start = page.get_by_role("button", name="Start Rummy")
    assert in_view(page, start)
    add_players(page, ["Ann"])
    start.click()
    players_error = page.get_by_test_id("players-error")
    expect(players_error).to_have_text("Rummy needs 2 to 6 players (you have 1).", timeout=T)
    dealer_error = page.get_by_test_id("dealer-error")
    expect(dealer_error).to_have_text("Pick the first dealer, or draw one.")
    just_below(page.get_by_test_id("add-player"), players_error, gap=90)
    just_below(page.get_by_role("button", name="Draw the dealer at random"), dealer_error)
    assert in_view(page, start)
    painted_screenshot(page, f"new-game-errors-{page.size_name}")

    add_players(page, ["bob"], first_seat=2)  # names keep the case they were typed in
    page.get_by_role("radio", name="bob").click()
    expect(page.get_by_test_id("dealer-error")).to_have_count(0, timeout=T)
    expect(page.get_by_text("Room for 4 more players.")).to_be_visible()


def test_chips_problem_shows_at_that_players_chips(
    fresh_server: AppServer, phone_page: Any
) -> None:
    page = phone_page
    open_new_game(page, fresh_server.url, "rummoli")
    add_players(page, ["Farai", "Rudo"])
    chips = page.get_by_test_id("chips-Rudo").get_by_role("textbox")
    flutter_fill(page, chips, "4x")
    page.get_by_role("button", name="Draw the dealer at random").click()
    page.get_by_role("button", name="Start Rummoli").click()
    error = page.get_by_test_id("chips-error-Rudo")
    expect(error).to_have_text("Starting chips must be a whole number, not “4x”.", timeout=T)
    just_below(page.get_by_test_id("chips-Rudo"), error, gap=20)
    expect(page.get_by_test_id("players-error")).to_have_count(0)
    expect(page.get_by_test_id("dealer-error")).to_have_count(0)


# both sizes: docs/new-game-{phone,desktop}.png, docs/new-game-house-rules-*.png
def test_house_rules_fold_into_one_row(fresh_server: AppServer, page: Any) -> None:
    open_new_game(page, fresh_server.url, "rummy")
    row = page.get_by_test_id("house-rules")
    expect(row).to_have_accessible_name("House rules: standard. Change", timeout=T)
    painted_screenshot(page, f"new-game-{page.size_name}")
    row.click()
    switch = page.get_by_test_id("rummy-rules-multi_meld").get_by_role("switch")
    expect(switch).to_be_visible(timeout=T)
    switch.click()
    expect(switch).to_be_checked(timeout=T)
    painted_screenshot(page, f"new-game-house-rules-{page.size_name}")
    page.get_by_test_id("house-rules-done").click()
    expect(page.get_by_test_id("house-rules-done")).to_have_count(0, timeout=T)
    expect(row).to_have_accessible_name(re.compile(r"^House rules: (?!standard)\w"), timeout=T)
    row.click()
    page.get_by_role("button", name=re.compile(r"^Preset Family")).click()
    page.get_by_test_id("house-rules-done").click()
    expect(row).to_have_accessible_name("House rules: Family. Change", timeout=T)


def test_new_rummy_game_starts_and_is_continued_from_home(
    fresh_server: AppServer, phone_page: Any
) -> None:
    page = phone_page
    open_new_game(page, fresh_server.url, "rummy")
    add_players(page, ["Ann", "Bob", "Cy"])
    page.get_by_role("radio", name="Bob").click()
    expect(page.get_by_test_id("opening")).to_have_text(
        "Bob deals; Cy, on the dealer's left, plays first.", timeout=T
    )
    page.get_by_role("button", name="Start Rummy").click()
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
    # the game is in history at once: home offers to continue it
    page.goto(fresh_server.url)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    expect(
        page.get_by_role("button", name=re.compile(r"^Continue Rummy: Ann, Bob, Cy\."))
    ).to_be_visible(timeout=20_000)
