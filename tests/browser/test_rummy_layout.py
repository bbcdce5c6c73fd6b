"""A Rummy hand at six players with the table log, audited at every step (issue 18).

Ann deals to six; five melds are on the table when the browser opens the game
(Bob's run 7♥-10♥ with Dee's lay-off, Cy's run, Eve's set, Fay's run, Ann's set).
Through the UI: the table log opens, J♥ is picked (a lay-off onto Bob's run, or
not a new meld), recorded; then the hand over: Bob went out and the others' cards
are entered.  At every state the layout audit (``layout_audit.assert_layout``)
checks that the six players' chips, every lay-off chip, every meld of "On the
table" and the card grid are on screen or reachable by scrolling, nothing covers
anything, and the verdict, Undo and the action are in sight -- on a 390x844 phone,
a 360x640 phone and a desktop.

Before this issue "On the table" was a 39 px box behind the player chips while
the lay-offs were offered as "Onto meld 1 / 2 / 3".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, AppServer, new_page, stable_screenshot
from tests.browser.layout import open_phone, reveal, settle, watch_server
from tests.browser.layout_audit import assert_layout
from tests.browser.test_rummy_game import seed
from tests.browser.test_umtali_game import settled_click
from tests.browser.words import assert_words_people_use

T = 20_000
SMALL = {"width": 360, "height": 640}
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
OPENING: list[dict[str, Any]] = [
    {"type": "start_hand", "dealer": "Ann"},
    {"type": "meld", "player": "Bob", "cards": ["7H", "8H", "9H"]},
    {"type": "lay_off", "player": "Dee", "cards": ["10H"], "meld": 0},
    {"type": "meld", "player": "Cy", "cards": ["4S", "5S", "6S"]},
    {"type": "meld", "player": "Eve", "cards": ["KC", "KD", "KS"]},
    {"type": "meld", "player": "Fay", "cards": ["2D", "3D", "4D"]},
    {"type": "meld", "player": "Ann", "cards": ["9C", "9D", "9S"]},
]

SIZES = [
    pytest.param(PHONE, True, id="phone"),
    pytest.param(SMALL, True, id="small-phone"),
    pytest.param(DESKTOP, False, id="desktop"),
]


def log_state(melds: int) -> list[str]:
    """What the table log needs: the table's melds, who, which way, the grid's corners."""
    return [
        *(f"meld-{n}" for n in range(1, melds + 1)),
        *(f"log-player-{p.lower()}" for p in SIX),
        "log-target-meld",
        *(f"log-target-{n}" for n in range(1, melds + 1)),
        "log-card-AS",
        "log-card-KC",
        "log-type",
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "android"), SIZES)
def test_rummy_six_player_log_is_all_reachable(
    browser: Any, tmp_path: Path, viewport: dict[str, int], android: bool
) -> None:
    data = tmp_path / "data"
    gid = seed(data, SIX, OPENING)
    server = AppServer(data).start()
    page = new_page(browser, viewport, android=android)
    size = f"{viewport['width']}x{viewport['height']}"
    try:
        watch_server(page)
        open_phone(page, f"{server.url}play/{gid}")
        settled_click(page, page.get_by_test_id("table-log-switch"))
        expect(page.get_by_test_id("meld-5")).to_have_count(1, timeout=T)
        settle(page)
        fixed = ["log-verdict", "undo", "hand-over"]
        assert_layout(page, log_state(5), fixed=fixed, where=f"{size}: the log, 5 melds")

        # J♥: the referee marks every way; the lay-off chip shows the meld's cards
        settled_click(page, page.get_by_test_id("log-card-JH"))
        expect(page.get_by_test_id("log-target-1")).to_have_attribute(
            "aria-label", "Onto meld 1, Bob's run 7♥ 8♥ 9♥ 10♥: allowed", timeout=T
        )
        settle(page)
        fixed = ["log-verdict", "undo", "log-record"]
        assert_layout(page, log_state(5), fixed=fixed, where=f"{size}: J♥ picked")
        assert_words_people_use(page, f"rummy log, six players, {size}")
        if viewport == PHONE:
            reveal(page, page.get_by_test_id("meld-1"))
            settle(page)
            stable_screenshot(page, "rummy-log-six-phone")  # docs/rummy-log-six-phone.png
        elif viewport == SMALL:
            reveal(page, page.get_by_test_id("meld-1"))
            settle(page)
            stable_screenshot(page, "rummy-log-six-small")  # to be looked at
        settled_click(page, page.get_by_test_id("log-record"))
        expect(page.get_by_test_id("meld-1")).to_have_text(
            "Meld 1: Bob's run, 7♥ 8♥ 9♥ 10♥ J♥", timeout=T
        )

        # the hand over: Bob went out; six players' rows and the grid
        settled_click(page, page.get_by_test_id("hand-over"))
        settled_click(page, page.get_by_test_id("went-out-bob"))
        expect(page.get_by_test_id("live-cy")).to_have_count(1, timeout=T)
        settle(page)
        rows = [f"live-{p.lower()}" for p in SIX if p != "Bob"]
        assert_layout(
            page,
            [*rows, "went-out-bob"],
            fixed=["hand-verdict", "undo", "confirm-hand"],
            where=f"{size}: the hand over",
        )
    finally:
        page.context.close()
        server.stop()
