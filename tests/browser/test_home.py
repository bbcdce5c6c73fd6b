"""The home screen in a real browser, at phone and desktop size, fully offline."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import AppServer, open_app, stable_screenshot, unexpected_external


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
