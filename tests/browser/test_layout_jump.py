"""Nothing jumps: every tappable control stays where it was when a card is tapped.

On a 390x844 Android phone, the box of every tappable control of the accessibility
tree (``tests/browser/layout.py::boxes``) is read before and after the first card
taps -- in the meld checker and in the Umtali entry -- and none may move or resize
by more than 2 px (a control that appears, such as the rule link of a new verdict,
is not a move).  The issue's case: in the checker, tapping 7♥ moved 8♥ down 107 px,
so a quick second tap landed on 8♠.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from rulesets.cards import parse_card
from tests.browser.conftest import AppServer, stable_screenshot, unexpected_external
from tests.browser.layout import (
    android_page,
    assert_nothing_moved,
    open_phone,
    settle,
    settled_boxes,
    watch_server,
)
from tests.browser.test_umtali_game import settled_click, shows, start_game
from tests.browser.words import assert_words_people_use

T = 20_000


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = android_page(browser)
    yield page
    page.context.close()


def _tap_and_compare(page: Any, target: Any, done: Any, where: str) -> None:
    """Tap ``target`` once the screen is still; wait for ``done`` (a locator that must
    appear, or a function that waits); nothing else moved."""
    expect(target).to_have_count(1, timeout=T)
    settle(page)
    before = settled_boxes(page)
    assert before, f"{where}: no tappable controls"
    target.click()
    if callable(done):
        done()
    else:
        expect(done).to_have_count(1, timeout=T)
    settle(page)
    after = settled_boxes(page)
    assert_nothing_moved(before, after, tolerance=2, where=where)


def test_checker_first_card_taps_move_nothing(fresh_server: AppServer, phone: Any) -> None:
    page = phone
    watch_server(page)
    open_phone(page, fresh_server.url)
    settled_click(page, page.get_by_role("button", name="Check a meld"))
    expect(page.get_by_test_id("checker-cards-card-7H")).to_be_visible(timeout=T)
    assert_words_people_use(page, "checker")
    for n, card in enumerate(("7H", "8H", "9H")):
        words = parse_card(card).words
        _tap_and_compare(
            page,
            page.get_by_test_id(f"checker-cards-card-{card}"),
            page.get_by_test_id(f"checker-cards-chosen-{n}"),
            f"checker, tap {n + 1} ({words})",
        )
        expect(page.get_by_role("button", name=f"Remove {words}")).to_be_attached()
    expect(page.get_by_test_id("checker-rule-link")).to_be_visible(timeout=T)
    assert_words_people_use(page, "checker with a verdict")
    stable_screenshot(page, "checker-phone")  # docs/checker-phone.png
    assert unexpected_external(page) == []


def test_umtali_entry_first_card_taps_move_nothing(fresh_server: AppServer, phone: Any) -> None:
    page = phone
    start_game(page, fresh_server.url)
    expect(page.get_by_test_id("meld-card-5H")).to_be_visible(timeout=T)
    assert_words_people_use(page, "umtali entry")
    chosen = page.get_by_test_id("meld-chosen")
    for n, card in enumerate(("5H", "6H", "7H")):
        shown = " ".join(parse_card(c).symbol for c in ("5H", "6H", "7H")[: n + 1])
        _tap_and_compare(
            page,
            page.get_by_test_id(f"meld-card-{card}"),
            lambda shown=shown: shows(page, "meld-chosen", f"Meld cards: {shown}"),
            f"umtali meld, tap {n + 1} ({card})",
        )
    expect(chosen).to_have_count(1)
    expect(page.get_by_test_id("verdict-rule")).to_have_count(1, timeout=T)
    assert_words_people_use(page, "umtali entry with a verdict")
    stable_screenshot(page, "umtali-entry-phone")
    # going out: the pair's first card
    settled_click(page, page.get_by_test_id("mode-go_out"))
    _tap_and_compare(
        page,
        page.get_by_test_id("pair-card-4C"),
        lambda: shows(page, "part-pair", "Pair: 4♣"),
        "umtali go out, the pair's first card",
    )
    assert unexpected_external(page) == []
