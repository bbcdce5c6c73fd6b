"""Rules open over the table and close back to it; the rules section's Back returns
where the reader came from -- a screen, or a search with its words."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import AppServer, flutter_fill, open_app
from tests.browser.shots import painted_screenshot
from tests.browser.words import assert_words_people_use

T = 15_000


def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def _checker_with_jacks(page: Any, url: str) -> None:
    open_app(page, url.rstrip("/") + "/check")
    for card in ("JH", "JD", "JS"):
        button = page.get_by_test_id(f"checker-cards-card-{card}")
        expect(button).to_be_visible(timeout=30_000)
        button.click()
        expect(page.get_by_role("button", name=re.compile("^Remove jack of"))).not_to_have_count(0)
    expect(page.get_by_role("button", name="Remove jack of spades")).to_be_attached(timeout=T)
    expect(page.get_by_test_id("checker-rule-link")).to_be_visible(timeout=T)


def test_a_rule_opens_over_the_screen_and_closes_back_to_it(
    app_server: AppServer, page: Any
) -> None:
    _checker_with_jacks(page, app_server.url)
    before = page.url
    page.get_by_test_id("checker-rule-link").click()
    sheet = page.get_by_test_id("rule-sheet")
    expect(sheet).to_be_visible(timeout=T)
    expect(page.get_by_role("heading", name="Rule U5.1 · Umtali")).to_be_visible()
    close = page.get_by_test_id("rule-sheet-close")
    assert in_view(page, close)  # one tap, no scrolling
    assert page.url == before  # nothing navigated: the screen underneath is untouched
    assert_words_people_use(page, "rule sheet")
    painted_screenshot(page, f"rules-sheet-{page.size_name}")

    close.click()
    expect(sheet).to_have_count(0, timeout=T)
    # the same screen, in the same state: the three jacks still chosen, the verdict shown
    for name in ("jack of hearts", "jack of diamonds", "jack of spades"):
        expect(page.get_by_role("button", name=f"Remove {name}")).to_be_attached()
    expect(page.get_by_test_id("checker-rule-link")).to_be_visible()
    assert page.url == before


def test_open_in_the_rulebook_then_back_returns_to_the_screen(
    app_server: AppServer, phone_page: Any
) -> None:
    page = phone_page
    _checker_with_jacks(page, app_server.url)
    page.get_by_test_id("checker-rule-link").click()
    page.get_by_test_id("rule-sheet-open").click()
    expect(page).to_have_url(re.compile(r"/rules/umtali/U5\.1/\?back="), timeout=T)
    expect(page.get_by_role("heading", name="Rule U5.1")).to_be_visible(timeout=T)
    page.get_by_test_id("rules-back").click()  # one tap, not rule -> game -> rules -> home
    expect(page).to_have_url(re.compile(r"/check$"), timeout=T)
    expect(page.get_by_test_id("checker-game-umtali")).to_be_visible(timeout=T)


def test_the_rules_search_is_one_tap_from_a_rule_sheet(
    app_server: AppServer, phone_page: Any
) -> None:
    """Issue 18: inside a game, a rule sheet was a dead end for a question it did not
    answer; its "Search the rules" opens the search, whose Back returns to the screen."""
    page = phone_page
    _checker_with_jacks(page, app_server.url)
    page.get_by_test_id("checker-rule-link").click()
    page.get_by_test_id("rule-sheet-search").click()
    expect(page).to_have_url(re.compile(r"/rules\?back="), timeout=T)
    box = page.get_by_role("textbox", name="Search rules")
    expect(box).to_be_visible(timeout=T)
    flutter_fill(page, box, "who deals nxt")  # one word the rulebook does not know
    expect(page.get_by_role("button", name=re.compile("^Rummy rule R1.2"))).to_be_visible(timeout=T)
    # Back returns to the screen the sheet was opened on.  This step once timed out in
    # CI: the page had frozen after drawing the results -- Flutter's multi-threaded
    # skwasm renderer crashed ("memory access out of bounds" in skwasm.wasm), about one
    # page in twenty under load.  The page is no longer cross-origin isolated, so the
    # renderer runs on the page's own thread (companion.web_addresses.one_render_thread).
    assert page.evaluate("crossOriginIsolated") is False
    page.get_by_test_id("rules-back").click()
    expect(page).to_have_url(re.compile(r"/check$"), timeout=T)


def test_back_from_a_search_result_keeps_the_search(app_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    open_app(page, app_server.url.rstrip("/") + "/rules")
    box = page.get_by_role("textbox", name="Search rules")
    expect(box).to_be_visible(timeout=30_000)
    flutter_fill(page, box, "marrige")  # a typo
    result = page.get_by_role("button", name="Umtali rule U5.3: Marriage")
    expect(result).to_be_visible(timeout=T)
    painted_screenshot(page, "rules-search-phone")
    result.click()
    expect(page.get_by_role("heading", name="Rule U5.3")).to_be_visible(timeout=T)
    page.get_by_test_id("rules-back").click()
    expect(page).to_have_url(re.compile(r"/rules\?q=marrige$"), timeout=T)
    expect(result).to_be_visible(timeout=T)

    result.click()  # and the browser's own Back
    expect(page.get_by_role("heading", name="Rule U5.3")).to_be_visible(timeout=T)
    page.go_back()
    expect(result).to_be_visible(timeout=T)


def test_a_question_is_answered_for_each_game(app_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    open_app(page, app_server.url.rstrip("/") + "/rules?q=how+many+cards+to+deal")
    for answer in ("Umtali rule U3.1", "Rummy rule R1.3", "Rummoli rule M2.1"):
        expect(page.get_by_role("button", name=re.compile(f"^{answer}"))).to_be_visible(
            timeout=30_000
        )
    assert_words_people_use(page, "rules search")
    painted_screenshot(page, "rules-question-phone")


def test_a_rule_address_reloads_to_the_rule(app_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    response = page.goto(app_server.url.rstrip("/") + "/rules/umtali/U5.1/")
    assert response is not None and response.status == 200
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    expect(page.get_by_role("heading", name="Rule U5.1")).to_be_visible(timeout=30_000)
    response = page.reload()
    assert response is not None and response.status == 200
