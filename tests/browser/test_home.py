"""The home screen in a real browser, at phone and desktop size, fully offline: the
games, the games in progress (continue, abandon with undo), rules and theme."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import load_demo
from companion.storage import open_repository
from tests.browser.conftest import (
    AT_PHONE,
    AppServer,
    open_app,
    snack,
    stable_screenshot,
    unexpected_external,
)
from tests.browser.shots import painted_screenshot
from tests.browser.words import assert_words_people_use


# both sizes: docs/home-phone.png (in the README) and docs/home-desktop.png
def test_home_lists_every_game(app_server: AppServer, page: Any) -> None:
    open_app(page, app_server.url)
    for title, players in (("Umtali", "2"), ("Rummy", "2–6"), ("Rummoli", "2–8")):
        card = page.get_by_test_id(f"game-{title.lower()}")
        expect(card).to_be_visible(timeout=20_000)
        summary = page.get_by_role("group", name=re.compile(rf"^{title} {players} players \w"))
        expect(summary).to_be_visible()
        expect(page.get_by_role("button", name=f"{title} rules")).to_be_visible()
    stable_screenshot(page, f"home-{page.size_name}")
    assert unexpected_external(page) == []


@AT_PHONE
def test_rules_and_back(app_server: AppServer, page: Any) -> None:
    open_app(page, app_server.url)
    page.get_by_role("button", name="Rules").first.click()
    expect(page.get_by_role("textbox", name="Search rules")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("rules-umtali")).to_be_visible()
    stable_screenshot(page, f"rules-{page.size_name}")
    page.go_back()
    expect(page.get_by_test_id("game-rummoli")).to_be_visible(timeout=15_000)
    assert unexpected_external(page) == []


def test_theme_switch_to_dark(app_server: AppServer, phone_page: Any) -> None:
    open_app(phone_page, app_server.url)
    toggle = phone_page.get_by_test_id("theme-toggle")
    expect(toggle).to_be_visible(timeout=20_000)
    before = stable_screenshot(phone_page, "home-phone-before-theme").read_bytes()
    toggle.click()
    expect(phone_page.get_by_role("button", name="Light theme")).to_be_visible(timeout=10_000)
    after = stable_screenshot(phone_page, "home-phone-dark").read_bytes()
    assert before != after


def test_rule_page_survives_a_reload(app_server: AppServer, phone_page: Any) -> None:
    from companion.routes import rule_route

    route = rule_route("U6.2")
    assert route == "/rules/umtali/U6.2/"
    open_app(phone_page, app_server.url.rstrip("/") + route)
    expect(phone_page.get_by_role("heading", name="Rule U6.2")).to_be_visible(timeout=20_000)
    # suit symbols come from the bundled subset font, not tofu boxes
    stable_screenshot(phone_page, "rule-u6-2-phone")
    phone_page.reload()
    phone_page.locator("flt-semantics-placeholder").dispatch_event("click")
    expect(phone_page.get_by_role("heading", name="Rule U6.2")).to_be_visible(timeout=20_000)


@pytest.fixture
def games_in_progress(tmp_path: Path) -> Iterator[AppServer]:
    """Four games in progress (home shows three) and the demo's finished ones."""
    repo = open_repository(tmp_path)
    load_demo(repo)
    for game, players, hands, totals in (
        ("rummoli", ["Farai", "Rudo", "Tendai", "Chipo"], 0, {}),
        ("rummy", ["Dee", "Eve"], 0, {}),
        ("rummy", ["Ann", "Bob", "Cy"], 2, {"Ann": 12, "Bob": 40, "Cy": 3}),
        ("umtali", ["ann", "Bea"], 1, {"ann": 23, "Bea": 31}),
    ):
        stored = repo.create_game(game, players)
        summary = {"hands": [{}] * hands, "totals": totals, "finished": False}
        repo.set_summary(stored.id, summary, "in_progress")
    repo.close()
    server = AppServer(tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


def test_games_in_progress_say_who_when_and_how_far(
    games_in_progress: AppServer, page: Any
) -> None:
    open_app(page, games_in_progress.url)
    tiles = page.get_by_role("button", name=re.compile(r"^Continue "))
    expect(tiles).to_have_count(3, timeout=20_000)  # at most three, newest played first
    expect(
        page.get_by_role(
            "button", name=re.compile(r"^Continue Umtali: ann, Bea\. Hand 2, started ")
        )
    ).to_be_visible()
    expect(
        page.get_by_role("button", name=re.compile(r"^Continue Rummy: Ann, Bob, Cy\. Hand 3, "))
    ).to_be_visible()
    all_games = page.get_by_role("button", name="All games (1 more in progress)")
    expect(all_games).to_be_visible()
    assert_words_people_use(page, "home")
    painted_screenshot(page, f"home-in-progress-{page.size_name}")
    all_games.click()
    expect(page.get_by_role("heading", name="History")).to_be_visible(timeout=15_000)


def test_abandon_a_game_then_undo(games_in_progress: AppServer, phone_page: Any) -> None:
    page = phone_page
    open_app(page, games_in_progress.url)
    umtali = page.get_by_role("button", name=re.compile(r"^Continue Umtali: ann, Bea\."))
    expect(umtali).to_be_visible(timeout=20_000)
    page.get_by_role("button", name="Abandon the Umtali game of ann, Bea").click()
    expect(umtali).to_have_count(0, timeout=15_000)
    expect(snack(page, "Umtali game of ann, Bea abandoned.")).to_be_visible(timeout=10_000)
    # the fourth game moves up; nothing more is left to show
    expect(page.get_by_role("button", name=re.compile(r"^Continue "))).to_have_count(3)
    expect(page.get_by_role("button", name="All games", exact=True)).to_be_visible()
    painted_screenshot(page, "home-abandoned-phone")
    page.get_by_role("button", name="Undo").click()
    expect(umtali).to_be_visible(timeout=15_000)
    expect(page.get_by_role("button", name="All games (1 more in progress)")).to_be_visible()
    # and it is really back in the history: a reload still lists it
    page.reload()
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    expect(umtali).to_be_visible(timeout=20_000)
