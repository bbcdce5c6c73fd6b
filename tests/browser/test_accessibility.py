"""Screen readers can press what a thumb can: activating a control through the
accessibility tree (a DOM click on its semantics node, as assistive technology
does) must work like a tap, for the card picker above all."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import AppServer, open_app


def test_picker_cards_and_chosen_cards_work_through_the_accessibility_tree(
    app_server: AppServer, phone_page: Any
) -> None:
    page = phone_page
    open_app(page, app_server.url.rstrip("/") + "/check")
    expect(page.get_by_test_id("checker-cards-card-7H")).to_be_attached(timeout=20_000)
    # no pointer: dispatch the click the way a screen reader activates a control
    expect(page.get_by_role("button", name="seven of hearts")).to_have_count(1)
    for words in ("seven of hearts", "eight of hearts", "nine of hearts"):
        page.get_by_role("button", name=words).dispatch_event("click")
    expect(page.get_by_role("button", name="Remove nine of hearts")).to_be_attached(timeout=10_000)
    page.get_by_role("button", name="Remove nine of hearts").dispatch_event("click")
    expect(page.get_by_role("button", name="Remove nine of hearts")).to_have_count(0)
    expect(page.get_by_role("button", name="Remove seven of hearts")).to_be_attached()


def test_typed_cards_then_clear_empties_the_text_box(
    app_server: AppServer, phone_page: Any
) -> None:
    from tests.browser.conftest import flutter_fill

    page = phone_page
    open_app(page, app_server.url.rstrip("/") + "/check")
    # typing is one tap away: the last cell of the card grid swaps it for a text box
    switch = page.get_by_test_id("checker-cards-type")
    expect(switch).to_be_attached(timeout=20_000)
    switch.dispatch_event("click")
    box = page.get_by_role("textbox", name="Type meld")
    expect(box).to_be_attached(timeout=20_000)
    flutter_fill(page, box, "5h 6h 7h")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Remove seven of hearts")).to_be_attached(timeout=10_000)
    page.get_by_role("button", name="Clear meld").dispatch_event("click")
    expect(page.get_by_role("button", name="Remove seven of hearts")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Type meld")).to_have_value("", timeout=10_000)


def test_icon_buttons_are_named_and_pressable(app_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    open_app(page, app_server.url)
    toggle = page.get_by_role("button", name="Dark theme", exact=True)
    expect(toggle).to_have_count(1, timeout=20_000)
    toggle.dispatch_event("click")
    expect(page.get_by_role("button", name="Light theme", exact=True)).to_have_count(1)
