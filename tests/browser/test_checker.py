"""The meld checker in a real browser: a legal and an illegal play of each game, live
verdicts with their rule links, house-rule switches, and the whole-hand suggestion."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.storage import open_repository
from rulesets.cards import parse_card
from rulesets.poker import evaluate
from rulesets.umtali import suggest_table
from tests.browser.conftest import (
    AT_DESKTOP,
    AT_PHONE,
    AppServer,
    open_app,
    stable_screenshot,
    unexpected_external,
)


def _open_checker(page: Any, url: str) -> None:
    open_app(page, url)
    page.get_by_role("button", name="Check a meld").click()
    expect(page.get_by_test_id("checker-game-umtali")).to_be_visible(timeout=20_000)


def scroll_to(page: Any, locator: Any) -> None:
    """Bring ``locator`` on screen with the mouse wheel: Flutter scrolls its own canvas,
    and a DOM scrollIntoView of a semantics node does not always move it."""
    height = page.viewport_size["height"]
    for _ in range(20):
        box = locator.bounding_box()
        if box is not None and box["y"] >= 60 and box["y"] + box["height"] <= height - 10:
            return
        y = 0 if box is None else box["y"] - height / 2
        page.mouse.move(page.viewport_size["width"] / 2, height / 2)
        page.mouse.wheel(0, y if box is not None else 400)
        page.wait_for_timeout(250)


def _press(page: Any, ident: str) -> None:
    """Tap a control of the checker's board (the game, house rules, the modes): the
    board scrolls with the grid, held at its bottom, so it may be above the screen."""
    control = page.get_by_test_id(ident)
    scroll_to(page, control)
    control.click()


def _rules_shown(page: Any, words: str) -> None:
    """The changed house rules, beside the House rules button (Flutter reads them as
    the name of the row that holds the button, or as its text)."""
    shown = page.get_by_text(words).or_(page.get_by_label(words, exact=True))
    expect(shown.first).to_be_visible(timeout=20_000)


def _tap(page: Any, cards: str, ident: str = "checker-cards") -> None:
    """Tap each card and wait for the picker to show it before the next tap (P6)."""
    for text in cards.split():
        button = page.get_by_test_id(f"{ident}-card-{text}")
        removable = page.get_by_role("button", name=f"Remove {parse_card(text).words}")
        for attempt in range(3):
            scroll_to(page, button)
            button.click()
            try:
                expect(removable.first).to_be_attached(timeout=4_000)
                break
            except AssertionError:
                # a tap that lands while the screen is being rebuilt (e.g. right after
                # switching game) can be lost; a person would tap again
                if attempt == 2:
                    raise


def _clear(page: Any, ident: str = "checker-cards") -> None:
    page.get_by_test_id(f"{ident}-clear").click()
    expect(page.get_by_text(re.compile(r": none chosen$")).first).to_be_visible(timeout=10_000)


def _says(locator: Any, pattern: re.Pattern[str], timeout: float = 10_000) -> None:
    """Wait until a panel says ``pattern``: Flutter puts merged texts in aria-label,
    or leaves them as text content when the panel holds no button."""
    deadline = time.monotonic() + timeout / 1000
    seen = ""
    while time.monotonic() < deadline:
        try:
            seen = (locator.get_attribute("aria-label", timeout=1000) or "") + "\n"
            seen += locator.inner_text(timeout=1000)
        except PlaywrightError:
            seen = ""
        if pattern.search(seen):
            return
        time.sleep(0.1)
    raise AssertionError(f"{pattern.pattern!r} not in {seen!r}")


def _open_rule_sheet(page: Any, rule: str, game: str) -> None:
    """The verdict's rule link opens the rule in a sheet over the checker."""
    page.get_by_test_id("checker-rule-link").click()
    expect(page.get_by_test_id("rule-sheet")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name=f"Rule {rule} · {game}")).to_be_visible()


def _verdict(page: Any) -> Any:
    return page.get_by_test_id("checker-verdict")


@AT_PHONE
def test_umtali_legal_and_illegal_meld_and_rule_link(app_server: AppServer, page: Any) -> None:
    _open_checker(page, app_server.url)
    _says(_verdict(page), re.compile("Tap cards"), timeout=10_000)
    _tap(page, "5H 6H 7H")
    _says(_verdict(page), re.compile(r"^Legal: sequence, 3 points"), timeout=10_000)
    stable_screenshot(page, f"checker-umtali-legal-{page.size_name}")
    _clear(page)
    _tap(page, "JH JD JS")
    _says(_verdict(page), re.compile(r"^Not legal[\s\S]*jacks never form a set"), timeout=10_000)
    stable_screenshot(page, f"checker-umtali-illegal-{page.size_name}")
    _open_rule_sheet(page, "U5.1", "Umtali")
    assert unexpected_external(page) == []


def test_umtali_extension_and_whole_hand(app_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    _open_checker(page, app_server.url)
    _press(page, "checker-mode-extend")
    expect(page.get_by_test_id("checker-target-anchor")).to_be_visible(timeout=10_000)
    _tap(page, "5H 6H 7H", "checker-anchor")
    _press(page, "checker-target-cards")
    _tap(page, "8H")
    _says(_verdict(page), re.compile(r"^Legal: extension, 1 point"), timeout=10_000)
    _clear(page)
    _tap(page, "9C")
    _says(_verdict(page), re.compile(r"^Not legal"), timeout=10_000)
    expect(page.get_by_test_id("checker-rule-link")).to_have_accessible_name(
        re.compile(r"^What can be played on what, rule U6")
    )
    stable_screenshot(page, "checker-umtali-extend-phone")

    _press(page, "checker-mode-hand")
    expect(page.get_by_test_id("checker-suggestion")).to_be_visible(timeout=10_000)
    _clear(page)
    hand = "5H 6H 7H KS QS 9C 9D 2C"
    best = suggest_table([[], []], 0, hand).best_points  # the referee's figure
    _tap(page, hand)
    _says(
        page.get_by_test_id("checker-suggestion"),
        re.compile(rf"Meld Q♠ K♠ as a marriage: 20 points[\s\S]*Best this turn: {best} points"),
        timeout=10_000,
    )
    stable_screenshot(page, "checker-umtali-hand-phone")


@AT_DESKTOP
def test_rummy_legal_illegal_and_house_rule(app_server: AppServer, page: Any) -> None:
    _open_checker(page, app_server.url)
    _press(page, "checker-game-rummy")
    _tap(page, "QH KH AH")
    _says(_verdict(page), re.compile(r"^Not legal[\s\S]*Q-K-A is not a run"), timeout=10_000)
    # the house rule switch makes it legal, live
    _press(page, "checker-house-rules")
    switch = page.get_by_test_id("checker-rule-ace_high_or_low")
    expect(switch).to_be_visible(timeout=10_000)
    switch.click()
    expect(switch.get_by_role("switch")).to_be_checked(timeout=10_000)
    stable_screenshot(page, f"checker-rummy-house-rules-{page.size_name}")
    page.get_by_test_id("checker-rules-done").click()
    expect(switch).not_to_be_attached(timeout=10_000)
    _rules_shown(page, "Ace high or low")
    _says(_verdict(page), re.compile(r"^Legal: run"), timeout=10_000)
    stable_screenshot(page, f"checker-rummy-house-rule-{page.size_name}")
    _press(page, "checker-house-rules")
    switch.click()
    page.get_by_test_id("checker-rules-done").click()
    _says(_verdict(page), re.compile(r"^Not legal"), timeout=10_000)
    _clear(page)
    _tap(page, "7S 7D 7C")
    _says(_verdict(page), re.compile(r"^Legal: set"), timeout=10_000)
    _open_rule_sheet(page, "R2.1", "Rummy")
    assert unexpected_external(page) == []


@AT_PHONE
def test_rummoli_widow_and_poker(app_server: AppServer, page: Any) -> None:
    _open_checker(page, app_server.url)
    _press(page, "checker-game-rummoli")
    _tap(page, "2C 3C 4C 5H 6D")
    poker = evaluate("2C 3C 4C 5H 6D").name  # the referee's name for it
    _says(
        _verdict(page),
        re.compile(rf"^May take the widow[\s\S]*Poker hand: {re.escape(poker)}"),
    )
    _tap(page, "JD")
    _says(_verdict(page), re.compile(r"^May not take the widow[\s\S]*J♦"), timeout=10_000)
    stable_screenshot(page, f"checker-rummoli-{page.size_name}")
    _open_rule_sheet(page, "M2.4", "Rummoli")
    assert unexpected_external(page) == []


def test_link_from_a_game_brings_its_house_rules(tmp_path: Any, phone_page: Any) -> None:
    """A table screen links to /check?gid=<game id>: the checker takes that game's rules."""
    repo = open_repository(tmp_path)
    game = repo.create_game("rummy", ["Ann", "Bob"], rules={"ace_high_or_low": True})
    repo.close()
    server = AppServer(tmp_path).start()
    try:
        page = phone_page
        open_app(page, f"{server.url}check?gid={game.id}")
        _rules_shown(page, "Ace high or low")
        _tap(page, "QH KH AH")
        _says(_verdict(page), re.compile(r"^Legal: run"))
        assert unexpected_external(page) == []
    finally:
        server.stop()
