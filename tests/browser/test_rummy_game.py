"""A complete game of Rummy played through the UI in a phone-sized Chromium.

Three players (Ann, Bob, Cy, seated clockwise), Ann deals first, target 50,
house rule going_rummy_double on.  The game covers: an illegal meld refused
with its rule ID, a legal meld, a wrong entry undone, a lay-off verdict from
the table log, remaining cards entered in the picker (penalty shown live,
cards already entered for another player not offered), a typed total marked
"typed", a going-rummy double, a reload of the page mid-game that resumes,
a correction of a finished hand, and the result with a shared win.

The score sheet, computed by hand (R6.1: K Q J 10 = 10, 2-9 face value, A = 1;
R6.2 the player who went out scores 0; R7 going_rummy_double: penalties x2):

| Hand | Dealer | Out        | Ann                 | Bob                    | Cy             |
|------|--------|------------|---------------------|------------------------|----------------|
| 1    | Ann    | Bob        | K♠ 7♦ A♣ 10+7+1=18  | 0                      | typed 12       |
| 2    | Bob    | Cy, rummy  | 2♣ 3♦ (2+3)x2=10    | 9♠ 4♥ (9+4)x2=26       | 0              |
| 3    | Cy     | Ann        | 0                   | K♦ Q♣ J♥ 10♠ 4x10=40   | 5♦ 6♣ 5♥ 5+6+5=16 |

Totals (Ann / Bob / Cy): after hand 1: 18 / 0 / 12; after hand 2: 18+10=28 /
0+26=26 / 12+0=12; after hand 3: 28+0=28 / 26+40=66 / 12+16=28.

Bob's 66 reaches the target 50 after hand 3, so the game ends (R6.3); the
lowest total, 28, is shared by Ann and Cy: a shared win (A-R11).  Deal passes
clockwise (R1.2): Ann, Bob, Cy.

Hand 1 is first entered with Ann holding only K♠ 7♦ (17) and corrected to
K♠ 7♦ A♣ (18) after hand 2 (totals 27/26/12 become 28/26/12).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    AppServer,
    flutter_fill,
    new_page,
    open_app,
    stable_screenshot,
    unexpected_external,
)

TIMEOUT = 20_000


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[AppServer]:
    server = AppServer(tmp_path / "data").start()
    yield server
    server.stop()


# ---------------------------------------------------------------- driving helpers ------


def show(page: Any, loc: Any, timeout: float = 15.0) -> None:
    """Scroll the Flutter view (mouse wheel, like a user) until ``loc`` is on screen."""
    loc.wait_for(state="attached", timeout=int(timeout * 1000))
    vh = page.viewport_size["height"]
    vw = page.viewport_size["width"]
    deadline = time.monotonic() + timeout
    last = None
    while True:
        box = loc.bounding_box()
        if box and box["y"] >= 60 and box["y"] + box["height"] <= vh - 8:
            if box == last:  # on screen and no longer moving (layout settled)
                return
            last = box
            page.wait_for_timeout(80)
            continue
        if time.monotonic() > deadline:
            raise AssertionError(f"could not scroll {loc} into view (box {box})")
        delta = (box["y"] + box["height"] / 2 - vh / 2) if box else 300
        page.mouse.move(vw / 2, vh / 2)
        page.mouse.wheel(0, max(-600.0, min(600.0, delta)))
        page.wait_for_timeout(120)


def tap(page: Any, loc: Any) -> None:
    show(page, loc)
    loc.click()


def said(page: Any, ident: str, text: str) -> None:
    """The read-only sentence with test id ``ident`` says exactly ``text``."""
    expect(page.get_by_test_id(ident)).to_have_text(text, timeout=TIMEOUT)


def pick(page: Any, picker: str, cards: list[str], summary: str) -> None:
    """Tap cards in a picker one by one, waiting for each to show up."""
    for i, card in enumerate(cards):
        tap(page, page.get_by_test_id(f"{picker}-card-{card}"))
        expect(page.get_by_test_id(f"{picker}-chosen-{i}")).to_be_attached(timeout=TIMEOUT)
    expect(page.get_by_text(summary, exact=True)).to_be_attached(timeout=TIMEOUT)


def clear(page: Any, picker: str, label: str) -> None:
    tap(page, page.get_by_test_id(f"{picker}-clear"))
    expect(page.get_by_text(f"{label}: none chosen", exact=True)).to_be_attached(timeout=TIMEOUT)


def type_cards(page: Any, label: str, text: str, summary: str) -> None:
    """Type cards in a picker's text box and press Enter."""
    box = page.get_by_role("textbox", name=f"Type {label.lower()}")
    show(page, box)
    flutter_fill(page, box, text)
    page.keyboard.press("Enter")
    expect(page.get_by_text(summary, exact=True)).to_be_attached(timeout=TIMEOUT)


def radio(page: Any, group: str, name: str) -> None:
    tap(page, page.get_by_test_id(group).get_by_role("radio", name=name))
    expect(page.get_by_test_id(group).get_by_role("radio", name=name)).to_be_checked(
        timeout=TIMEOUT
    )


def start_game(page: Any, url: str, rules: dict[str, str], switches: list[str]) -> None:
    """New game screen: Ann, Bob, Cy; Ann deals; some house rules; start."""
    open_app(page, url)
    page.get_by_role("button", name="New Rummy game").click()
    field = page.get_by_role("textbox", name="Player name")
    expect(field).to_be_visible(timeout=TIMEOUT)
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        flutter_fill(page, field, name)
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"{seat}. {name}")).to_be_visible(timeout=TIMEOUT)
    tap(page, page.get_by_role("radio", name="Ann"))
    if switches or rules:  # the house rules fold into one row that opens them
        tap(page, page.get_by_test_id("house-rules"))
        for name in switches:
            switch = page.get_by_test_id(f"rummy-rules-{name}").get_by_role("switch")
            tap(page, switch)
            expect(switch).to_be_checked(timeout=TIMEOUT)
        for name, value in rules.items():
            box = page.get_by_test_id(f"rummy-rules-{name}").get_by_role("textbox")
            show(page, box)
            flutter_fill(page, box, value)
            page.keyboard.press("Enter")
        page.get_by_test_id("house-rules-done").click()
        expect(page.get_by_test_id("house-rules-done")).to_have_count(0, timeout=TIMEOUT)
    tap(page, page.get_by_role("button", name="Start Rummy"))
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=TIMEOUT)


def hand_over(page: Any, went_out: str, rummy: bool = False) -> None:
    tap(page, page.get_by_test_id("hand-over"))
    radio(page, "went-out", went_out)
    if rummy:
        tap(page, page.get_by_test_id("going-rummy"))
        switch = page.get_by_test_id("going-rummy").get_by_role("switch")
        expect(switch).to_be_checked(timeout=TIMEOUT)


def confirm(page: Any, preview: str) -> None:
    said(page, "hand-preview", preview)
    tap(page, page.get_by_test_id("confirm-hand"))
    expect(page.get_by_test_id("confirm-hand")).to_have_count(0, timeout=TIMEOUT)


def totals(page: Any, ann: int, bob: int, cy: int, dealer: str | None) -> None:
    for name, value in (("Ann", ann), ("Bob", bob), ("Cy", cy)):
        extra = ", dealer" if name == dealer else ""
        said(page, f"total-{name.lower()}", f"{name}: total {value} penalty points{extra}")


# ---------------------------------------------------------------- the game -------------


def test_rummy_full_game_to_target_phone(fresh_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    start_game(page, fresh_server.url, {"target": "50"}, ["going_rummy_double"])
    said(page, "hand-status", "Hand 1: Ann deals; Bob, on the dealer's left, plays first.")
    totals(page, 0, 0, 0, "Ann")
    stable_screenshot(page, "rummy-table-start-phone")

    # ---- hand 1: the table log ---------------------------------------------------------
    tap(page, page.get_by_test_id("table-log-switch"))
    radio(page, "log-player", "Cy")
    pick(page, "log", ["QH", "KH", "AH"], "Cards going down: Q♥ K♥ A♥")
    said(
        page,
        "verdict-meld",
        'As a new meld: refused. "QH KH AH": the ace is low, so Q-K-A is not a run'
        " (the house rule “Ace high or low” allows it) (rule R2.2)",
    )
    rule_link = page.get_by_test_id("verdict-meld-rule").get_by_role("button", name="Rule R2.2")
    expect(rule_link).to_be_attached()
    tap(page, page.get_by_test_id("record-meld"))  # the referee refuses it: nothing saved
    said(
        page,
        "log-refusal",
        'Not recorded: "QH KH AH": the ace is low, so Q-K-A is not a run'
        " (the house rule “Ace high or low” allows it) (rule R2.2)",
    )
    link = page.get_by_test_id("log-refusal-rule").get_by_role("button", name="Rule R2.2")
    expect(link).to_be_attached()
    show(page, link)
    stable_screenshot(page, "rummy-illegal-meld-phone")
    expect(page.get_by_test_id("meld-1")).to_have_count(0)

    clear(page, "log", "Cards going down")
    radio(page, "log-player", "Bob")
    pick(page, "log", ["7H", "8H", "9H"], "Cards going down: 7♥ 8♥ 9♥")
    said(page, "verdict-meld", 'As a new meld: legal. "7H 8H 9H" is a run of 3 cards (rule R2.2)')
    tap(page, page.get_by_test_id("record-meld"))
    said(page, "meld-1", "Meld 1: Bob's run, 7H 8H 9H")

    # a wrong entry (Ann never put down 4♠ 5♠ 6♠), undone
    radio(page, "log-player", "Ann")
    pick(page, "log", ["4S", "5S", "6S"], "Cards going down: 4♠ 5♠ 6♠")
    tap(page, page.get_by_test_id("record-meld"))
    said(page, "meld-2", "Meld 2: Ann's run, 4S 5S 6S")
    page.get_by_role("button", name="Undo").click()  # in the app bar
    expect(page.get_by_test_id("meld-2")).to_have_count(0, timeout=TIMEOUT)
    said(page, "meld-1", "Meld 1: Bob's run, 7H 8H 9H")

    # lay-off verdicts against the meld on the table
    radio(page, "log-player", "Cy")
    pick(page, "log", ["JS"], "Cards going down: J♠")
    said(
        page,
        "verdict-lay-off-1",
        'Lay off onto meld 1 (Bob\'s run): refused. "JS" onto "7H 8H 9H": JS is not a heart;'
        " the run would break (rule R3.3)",
    )
    clear(page, "log", "Cards going down")
    pick(page, "log", ["10H"], "Cards going down: 10♥")
    said(
        page,
        "verdict-lay-off-1",
        'Lay off onto meld 1 (Bob\'s run): legal. "10H" lays off onto "7H 8H 9H", making a'
        " 4-card run (rule R3.3)",
    )
    stable_screenshot(page, "rummy-table-log-phone")
    tap(page, page.get_by_test_id("record-lay-off-1"))
    said(page, "meld-1", "Meld 1: Bob's run, 7H 8H 9H 10H")

    # ---- hand 1 over: Bob went out; Ann's cards (entered short: K♠ 7♦), Cy typed 12 ----
    hand_over(page, "Bob")
    # cards on the table are not offered: tapping 10♥ adds nothing
    tap(page, page.get_by_test_id("rem-ann-card-10H"))
    pick(page, "rem-ann", ["KS", "7D"], "Ann's cards: K♠ 7♦")
    said(page, "live-ann", "Ann: penalty 17")
    tap(page, page.get_by_test_id("typed-switch-cy"))
    box = page.get_by_role("textbox", name="Cy's typed total")
    show(page, box)
    flutter_fill(page, box, "12")
    said(page, "live-cy", "Cy: typed 12")
    stable_screenshot(page, "rummy-hand-over-phone")
    confirm(
        page, "This hand: Ann 17 · Bob 0 · Cy 12 typed\nTotals after it: Ann 17 · Bob 0 · Cy 12"
    )
    said(page, "hand-status", "Hand 2: Bob deals; Cy, on the dealer's left, plays first.")
    totals(page, 17, 0, 12, "Bob")
    said(page, "hand-1-cy", "Hand 1, Cy: typed 12")
    # Undo takes back the deal of hand 2 (the next dealer by R1.2), then it is dealt again
    page.get_by_role("button", name="Undo").click()  # in the app bar
    said(
        page,
        "hand-status",
        "Hand 1 is scored. Next, hand 2: Bob deals; Cy, on the dealer's left, plays first.",
    )
    stable_screenshot(page, "rummy-between-hands-phone")
    tap(page, page.get_by_test_id("start-hand"))
    said(page, "hand-status", "Hand 2: Bob deals; Cy, on the dealer's left, plays first.")

    # ---- hand 2: Cy goes rummy, doubled ------------------------------------------------
    hand_over(page, "Cy", rummy=True)
    type_cards(page, "Ann's cards", "2c 3d", "Ann's cards: 2♣ 3♦")
    said(page, "live-ann", "Ann: penalty 5")
    # a card Ann holds is not offered for Bob
    tap(page, page.get_by_test_id("rem-bob-card-2C"))
    pick(page, "rem-bob", ["9S", "4H"], "Bob's cards: 9♠ 4♥")
    said(page, "live-bob", "Bob: penalty 13")
    confirm(
        page,
        "This hand: Ann 10 · Bob 26 · Cy 0\nGoing rummy: every penalty doubled.\n"
        "Totals after it: Ann 27 · Bob 26 · Cy 12",
    )
    totals(page, 27, 26, 12, "Cy")
    said(page, "hand-2-bob", "Hand 2, Bob: 9♠ 4♥ = 13 ×2 = 26")

    # ---- correct hand 1: Ann also held A♣ (10 + 7 + 1 = 18) ----------------------------
    tap(page, page.get_by_test_id("edit-hand-1"))
    pick(page, "rem-ann", ["AC"], "Ann's cards: K♠ 7♦ A♣")
    said(page, "live-ann", "Ann: penalty 18")
    confirm(
        page, "This hand: Ann 18 · Bob 0 · Cy 12 typed\nTotals after it: Ann 18 · Bob 0 · Cy 12"
    )
    totals(page, 28, 26, 12, "Cy")
    said(page, "hand-1-ann", "Hand 1, Ann: K♠ 7♦ A♣ = 18")

    # ---- reload mid-game: everything is back -------------------------------------------
    page.reload()
    page.wait_for_selector("flt-glass-pane", state="attached", timeout=90_000)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    said(page, "hand-status", "Hand 3: Cy deals; Ann, on the dealer's left, plays first.")
    totals(page, 28, 26, 12, "Cy")

    # ---- hand 3: Ann goes out; Bob passes the target -----------------------------------
    hand_over(page, "Ann")
    pick(page, "rem-bob", ["KD", "QC", "JH", "10S"], "Bob's cards: K♦ Q♣ J♥ 10♠")
    said(page, "live-bob", "Bob: penalty 40")
    tap(page, page.get_by_test_id("rem-cy-card-KD"))  # Bob's king is not offered to Cy
    pick(page, "rem-cy", ["5D", "6C", "5H"], "Cy's cards: 5♦ 6♣ 5♥")
    said(page, "live-cy", "Cy: penalty 16")
    confirm(
        page,
        "This hand: Ann 0 · Bob 40 · Cy 16\nTotals after it: Ann 28 · Bob 66 · Cy 28\n"
        "This ends the game: shared win, Ann and Cy.",
    )

    # ---- the result ----------------------------------------------------------------------
    said(page, "result", "Result: Shared win: Ann and Cy (28 each)")
    said(page, "final-ann", "Final: Ann 28, winner")
    said(page, "final-cy", "Final: Cy 28, winner")
    said(page, "final-bob", "Final: Bob 66")
    said(page, "hand-3-bob", "Hand 3, Bob: K♦ Q♣ J♥ 10♠ = 40")
    expect(page.get_by_test_id("hand-over")).to_have_count(0)
    page.mouse.wheel(0, -5000)
    stable_screenshot(page, "rummy-result-phone")
    assert unexpected_external(page) == []


# ---------------------------------------------------------------- screenshots ----------


@pytest.mark.parametrize(
    ("size", "dark"),
    [(PHONE, True), (DESKTOP, False), (DESKTOP, True)],
    ids=["phone-dark", "desktop", "desktop-dark"],
)
def test_rummy_screens_at_each_size(
    fresh_server: AppServer, browser: Any, size: dict[str, int], dark: bool
) -> None:
    """Every Rummy screen (table, table log, hand over, result) for people to look at."""
    name = ("phone" if size is PHONE else "desktop") + ("-dark" if dark else "")
    page = new_page(browser, size, dark=dark)
    try:
        start_game(page, fresh_server.url, {"target": "10"}, [])
        stable_screenshot(page, f"rummy-table-start-{name}")
        tap(page, page.get_by_test_id("table-log-switch"))
        radio(page, "log-player", "Bob")
        type_cards(page, "Cards going down", "7h 8h 9h", "Cards going down: 7♥ 8♥ 9♥")
        tap(page, page.get_by_test_id("record-meld"))
        said(page, "meld-1", "Meld 1: Bob's run, 7H 8H 9H")
        type_cards(page, "Cards going down", "10h", "Cards going down: 10♥")
        show(page, page.get_by_test_id("verdict-lay-off-1"))
        stable_screenshot(page, f"rummy-table-log-{name}")
        hand_over(page, "Bob", rummy=True)
        page.mouse.wheel(0, -5000)
        stable_screenshot(page, f"rummy-hand-over-top-{name}")
        type_cards(page, "Ann's cards", "ks 7d", "Ann's cards: K♠ 7♦")
        tap(page, page.get_by_test_id("typed-switch-cy"))
        box = page.get_by_role("textbox", name="Cy's typed total")
        show(page, box)
        flutter_fill(page, box, "4")
        show(page, page.get_by_test_id("hand-preview"))
        stable_screenshot(page, f"rummy-hand-over-{name}")
        confirm(
            page,
            "This hand: Ann 17 · Bob 0 · Cy 4 typed\nTotals after it: Ann 17 · Bob 0 · Cy 4\n"
            "This ends the game: Bob wins.",
        )
        said(page, "result", "Result: Bob wins with 0")
        page.mouse.wheel(0, -5000)
        stable_screenshot(page, f"rummy-result-{name}")
        assert unexpected_external(page) == []
    finally:
        page.context.close()
