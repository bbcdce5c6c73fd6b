"""The ending every game shares, in a real browser on a 390x844 Android phone (issue 18).

Rummy at its largest table, six players (Ann, Bob, Cy, Dee, Eve, Fay, seated
clockwise), house rule target 10, Fay deals hand 1.  Through the UI: Hand over,
Ann went out, each other player shows one card (Bob K♠, Cy K♥, Dee K♦, Eve K♣,
Fay Q♠: 10 penalty points each, R6.1), Confirm.  Every other total reaches the
target, so the game ends (R6.3) and Ann, on 0, wins.

The ending is checked: the winner in words, the six places, the score sheet,
Undo, New game same players, Home and Share -- with the layout audit (nothing
cut, covered or out of reach; the bar's buttons in sight without scrolling), on
the phone, then opened beside it on a 360x640 phone and on a desktop.
Share copies the result (the browser's clipboard is read back).  "New game,
same players" then opens a new game of the same six, dealt first by Ann: the
deal passes clockwise from Fay (R1.2).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, ROOT, AppServer, new_page
from tests.browser.layout import open_phone, settle, watch_server
from tests.browser.layout_audit import assert_layout
from tests.browser.shots import painted_screenshot
from tests.browser.test_rummy_game import named, phone, said, seed, tap
from tests.browser.words import assert_words_people_use

T = 20_000
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
SMALL = {"width": 360, "height": 640}
SHOWN = {"Bob": "KS", "Cy": "KH", "Dee": "KD", "Eve": "KC", "Fay": "QS"}


@pytest.mark.slow
def test_rummy_six_players_ends_on_the_shared_ending_and_plays_again(
    browser: Any, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    gid = seed(data, SIX, [{"type": "start_hand", "dealer": "Fay"}], {"target": 10})
    server = AppServer(data).start()
    page = phone(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    try:
        open_phone(page, f"{server.url}play/{gid}")
        # ---- the hand over: Ann went out, each other player shows one card -------------
        tap(page, "hand-over")
        tap(page, "went-out-ann")
        for n, (player, card) in enumerate(SHOWN.items()):
            tap(page, f"rem-{player.lower()}-card-{card}")
            named(page, f"live-{player.lower()}", f"{player}: penalty 10")
            if n < len(SHOWN) - 1:
                tap(page, "next-player")
        said(page, "hand-preview", re.compile("This ends the game: Ann wins"))
        tap(page, "confirm-hand")

        # ---- the ending ---------------------------------------------------------------
        said(page, "result", "Result: Ann wins with 0 penalty points.")
        said(page, "rank-ann", "1. Ann: 0 penalty points, winner")
        for player in SHOWN:
            said(page, f"rank-{player.lower()}", f"2. {player}: 10 penalty points")
        named(
            page,
            "game-over",
            "Game over. Next game: Ann deals first (the deal passes clockwise)."
            " (Who deals, rule R1.2)",
        )
        expect(page.get_by_test_id("undo").get_by_role("button")).to_be_enabled()
        settle(page)
        painted_screenshot(page, "game-over-phone")
        shutil.copy(ROOT / "artifacts/screenshots/game-over-phone.png", ROOT / "docs")
        assert_words_people_use(page, "the ending")
        ranks = [f"rank-{p.lower()}" for p in SIX]
        sheet = [f"hand-1-{p.lower()}" for p in SIX]
        needed = ["result", "result-rule", *ranks, *sheet]
        bar = ["game-over", "undo", "play-again", "go-home", "share-result"]
        assert_layout(page, needed, fixed=bar, where="the ending, 6 players, 390x844")
        # the same ending on a small phone and on a desktop, opened beside the phone
        for size, viewport, android in (
            ("small-phone", SMALL, True),
            ("desktop", DESKTOP, False),
        ):
            other = new_page(browser, viewport, android=android)
            try:
                watch_server(other)
                open_phone(other, f"{server.url}play/{gid}")
                said(other, "result", "Result: Ann wins with 0 penalty points.")
                settle(other)
                painted_screenshot(other, f"game-over-{size}")
                assert_layout(other, needed, fixed=bar, where=f"the ending, 6 players, {size}")
            finally:
                other.context.close()
        shutil.copy(ROOT / "artifacts/screenshots/game-over-desktop.png", ROOT / "docs")

        # ---- Share: the result is copied, and a notice says so -------------------------
        tap(page, "share-result")
        notice = page.locator("flt-semantics span", has_text="Result copied: paste it into")
        expect(notice).to_have_text("Result copied: paste it into a message.", timeout=T)
        copied = page.evaluate("() => navigator.clipboard.readText()")
        lines = copied.splitlines()
        assert lines[0].startswith("Rummy, ") and lines[0].endswith(
            ": Ann wins with 0 penalty points."
        ), copied
        assert lines[1:] == [
            "1. Ann: 0 penalty points",
            *(f"2. {p}: 10 penalty points" for p in SHOWN),
            "1 hand played.",
        ]

        # ---- New game, same players: the same six, Ann deals first -------------------------
        tap(page, "play-again")
        expect(page).not_to_have_url(re.compile(f"{gid}$"), timeout=T)
        assert re.search(r"/play/[0-9a-f]+$", page.url), page.url
        said(page, "hand-status", "Hand 1: Ann deals; Bob, on the dealer's left, plays first.")
        named(
            page,
            "scoreline",
            "Ann 0 · Bob 0 · Cy 0 · Dee 0 · Eve 0 · Fay 0. Hand 1 · Ann deals. "
            "Show the score sheet",
        )
        expect(page.get_by_test_id("result")).to_have_count(0)
    finally:
        page.context.close()
        server.stop()
