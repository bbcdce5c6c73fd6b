"""The meld checker laid out for a thumb, audited (issue 18): Meld and Extend a meld.

In each state -- a meld picked; Extend with the grid filling the anchor (the meld on
the table); the anchor picked and the grid filling the card to add; the extension
judged -- at 390x844 (an Android phone), 360x640 (a small phone) and a desktop, the
layout audit (``tests/browser/layout_audit.py``) finds nothing cut, covered or out
of reach: the chosen-cards strip, the anchor's row, the group switches and every
card of the grid, with the verdict in sight without scrolling.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from rulesets.cards import parse_card
from tests.browser.conftest import DESKTOP, PHONE, AppServer, new_page, unexpected_external
from tests.browser.layout import open_phone, settle, watch_server
from tests.browser.layout_audit import assert_layout
from tests.browser.shots import painted_screenshot
from tests.browser.test_checker import _says
from tests.browser.test_umtali_game import settled_click

T = 20_000
SMALL = {"width": 360, "height": 640}
SIZES = {"phone": PHONE, "small": SMALL, "desktop": DESKTOP}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for s in "SHDC" for r in RANKS]


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    name = request.param
    pg = new_page(browser, SIZES[name], android=name != "desktop")
    pg.size_name = name
    yield pg
    pg.context.close()


def _pick(page: Any, ident: str, cards: str) -> None:
    """Tap each card of the grid ``ident`` and wait for the strip to hold it."""
    for n, text in enumerate(cards.split()):
        settled_click(page, page.get_by_test_id(f"{ident}-card-{text}"))
        expect(page.get_by_test_id(f"{ident}-chosen-{n}")).to_have_count(1, timeout=T)
        expect(page.get_by_role("button", name=f"Remove {parse_card(text).words}")).to_be_attached()


def _audit(page: Any, grid: str, chosen: int, more: list[str], where: str) -> None:
    settle(page)
    # the grid's cards: the ones not in another group are drawn (the rest are hidden)
    cards = [f"{grid}-card-{c}" for c in DECK if page.get_by_test_id(f"{grid}-card-{c}").count()]
    assert len(cards) >= 40, f"{where}: only {len(cards)} cards in the grid"
    assert_layout(
        page,
        [
            "checker-mode-meld",
            "checker-mode-extend",
            *more,
            *(f"{grid}-chosen-{i}" for i in range(chosen)),
            *cards,
        ],
        # (the strip's clear button is in the tree once there is something to clear)
        fixed=["checker-verdict", *([f"{grid}-clear"] if chosen else [])],
        where=f"{where}, {page.size_name}",
    )


def test_checker_meld_and_extend_pass_the_layout_audit(fresh_server: AppServer, sized: Any) -> None:
    page = sized
    watch_server(page)
    open_phone(page, fresh_server.url)
    settled_click(page, page.get_by_role("button", name="Check a meld"))
    expect(page.get_by_test_id("checker-cards-card-7H")).to_be_visible(timeout=T)

    _pick(page, "checker-cards", "5H 6H 7H")
    _audit(page, "checker-cards", 3, [], "Meld, 5♥ 6♥ 7♥")

    settled_click(page, page.get_by_test_id("checker-mode-extend"))
    expect(page.get_by_test_id("checker-anchor-card-7H")).to_have_count(1, timeout=T)
    targets = ["checker-target-anchor", "checker-target-cards"]
    _audit(page, "checker-anchor", 0, targets, "Extend, the anchor empty")

    _pick(page, "checker-anchor", "2C 3C 4C")
    _audit(page, "checker-anchor", 3, targets, "Extend, the anchor 2♣ 3♣ 4♣")

    settled_click(page, page.get_by_test_id("checker-target-cards"))
    expect(page.get_by_test_id("checker-cards-card-5C")).to_have_count(1, timeout=T)
    # the cards of the meld tapped first are still the card to add; the anchor's row
    _audit(page, "checker-cards", 3, [*targets, "checker-anchor-row"], "Extend, the card to add")
    settled_click(page, page.get_by_test_id("checker-cards-clear"))
    expect(page.get_by_test_id("checker-cards-chosen-0")).to_have_count(0, timeout=T)
    _pick(page, "checker-cards", "5C")
    _says(page.get_by_test_id("checker-verdict"), re.compile(r"^Legal: extension"), timeout=T)
    _audit(page, "checker-cards", 1, targets, "Extend, 2♣ 3♣ 4♣ + 5♣ judged")
    painted_screenshot(page, f"checker-extend-{page.size_name}")
    assert unexpected_external(page) == []
