"""A complete game of Rummy played through the UI on a 390x844 Android phone in Chromium.

Three players (Ann, Bob, Cy, seated clockwise), Ann deals first, target 50,
house rule "Going rummy doubles" on.  The game covers: an illegal meld judged in
the bar with its rule ID (its button greyed), a legal meld, a wrong entry undone
from the bar, a lay-off verdict, the hand over one player at a time (cards
tapped, cards typed, a typed total for a player who won't show, cards already on
the table or shown by another player greyed), a going-rummy double, a reload
mid-game that resumes, a correction of a finished hand, and the result with a
shared win.  Every screen it visits is checked for words people use.

The score sheet, computed by hand (R6.1: K Q J 10 = 10, 2-9 face value, A = 1;
R6.2 the player who went out scores 0; R7 going rummy doubles: penalties x2):

| Hand | Dealer | Out        | Ann                 | Bob                    | Cy               |
|------|--------|------------|---------------------|------------------------|------------------|
| 1    | Ann    | Bob        | K♠ 7♦ A♣ 10+7+1=18  | 0                      | typed 12         |
| 2    | Bob    | Cy, rummy  | 2♣ 3♦ (2+3)x2=10    | 9♠ 4♥ (9+4)x2=26       | 0                |
| 3    | Cy     | Ann        | 0                   | K♦ Q♣ J♥ 10♠ 4x10=40   | 5♦ 6♣ 5♥ 5+6+5=16 |

Totals (Ann / Bob / Cy): after hand 1: 18 / 0 / 12; after hand 2: 18+10=28 /
0+26=26 / 12+0=12; after hand 3: 28+0=28 / 26+40=66 / 12+16=28.

Bob's 66 reaches the target 50 after hand 3, so the game ends (R6.3); the
lowest total, 28, is shared by Ann and Cy: a shared win (A-R11).  Deal passes
clockwise (R1.2): Ann, Bob, Cy.  In each hand over the players show their cards
round the table from the left of the one who went out.

Hand 1 is first entered with Ann holding only K♠ 7♦ (17) and corrected to
K♠ 7♦ A♣ (18) after hand 2 (totals 27/26/12 become 28/26/12).

Also here: "nothing jumps" -- every tappable control's box before and after the
first card tap of a hand over (3 and 6 players) -- and the screenshots of the
reworked screens at phone and desktop size.
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
    AppServer,
    flutter_fill,
    new_page,
    open_app,
    unexpected_external,
)
from tests.browser.layout import (
    android_page,
    assert_nothing_moved,
    open_phone,
    settle,
    settled_boxes,
    visible_box,
    watch_server,
)
from tests.browser.layout_audit import assert_layout
from tests.browser.shots import painted_screenshot
from tests.browser.words import assert_words_people_use

TIMEOUT = 20_000


def phone(browser: Any, *, dark: bool = False) -> Any:
    """A 390x844 Android phone page (the suite's guards), watching the server's answers."""
    page = android_page(browser, dark=dark)
    watch_server(page)
    return page


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    page = phone(browser)
    yield page
    page.context.close()


# ---------------------------------------------------------------- driving helpers ------


def board_show(page: Any, loc: Any, timeout: float = 15.0) -> None:
    """Scroll the board (the only part that scrolls) until ``loc`` is wholly on screen."""
    loc.wait_for(state="attached", timeout=int(timeout * 1000))
    deadline = time.monotonic() + timeout
    while True:
        seen = visible_box(page, loc)
        if seen is not None and abs(seen["height"] - seen["full"]["height"]) < 1:
            return
        assert time.monotonic() < deadline, f"could not scroll {loc} into view"
        board = page.get_by_test_id("rummy-board").bounding_box()
        full = loc.bounding_box()
        page.mouse.move(board["x"] + board["width"] / 2, board["y"] + board["height"] / 2)
        delta = 200 if full is None else full["y"] - (board["y"] + board["height"] / 2)
        page.mouse.wheel(0, max(-400.0, min(400.0, delta)))
        page.wait_for_timeout(150)


def wholly_seen(seen: dict[str, Any] | None) -> bool:
    """``visible_box``'s answer says the whole control can be seen."""
    if seen is None:
        return False
    full = seen["full"]
    return abs(seen["height"] - full["height"]) < 1 and abs(seen["width"] - full["width"]) < 1


def tap(page: Any, ident: str) -> None:
    """Tap the control with test id ``ident``; it must be on screen without scrolling."""
    loc = page.get_by_test_id(ident)
    expect(loc).to_have_count(1, timeout=TIMEOUT)
    # the accessibility tree can lag a frame behind the screen on a busy machine: wait
    # (never scroll) until the whole control is on screen
    deadline = time.monotonic() + TIMEOUT / 1000
    seen = visible_box(page, loc)
    while not wholly_seen(seen) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        seen = visible_box(page, loc)
    assert wholly_seen(seen), f"{ident} is not wholly on screen: {seen}"
    clicked = time.monotonic()
    loc.click()
    settle(page, since=clicked)  # the server's answer drawn: the next tap meets it


def said(page: Any, ident: str, text: str) -> None:
    """The read-only sentence with test id ``ident`` says exactly ``text``."""
    expect(page.get_by_test_id(ident)).to_have_text(text, timeout=TIMEOUT)


def named(page: Any, ident: str, text: str) -> None:
    """The control with test id ``ident`` is named (aria-label) ``text``."""
    expect(page.get_by_test_id(ident)).to_have_attribute("aria-label", text, timeout=TIMEOUT)


def chosen(page: Any, ident: str) -> None:
    """The chip ``ident`` is the chosen one (Flutter marks a selected button aria-current)."""
    expect(page.get_by_test_id(ident)).to_have_attribute("aria-current", "true", timeout=TIMEOUT)


def cards(page: Any, picker: str, names: list[str], player: str, shown: str) -> None:
    """Tap cards one by one in a hand-over picker; the entry row then says ``shown``."""
    for card in names:
        tap(page, f"{picker}-card-{card}")
    said(page, f"{picker}-chosen", f"{player}'s cards: {shown}")


def log_cards(page: Any, names: list[str], shown: str) -> None:
    for card in names:
        tap(page, f"log-card-{card}")
    expect(page.get_by_text(f"Cards going down: {shown}", exact=True)).to_be_attached(
        timeout=TIMEOUT
    )


def keys(page: Any, player: str, digits: str) -> None:
    for d in digits:
        tap(page, f"typed-{player.lower()}-key-{d}")


def scoreline(page: Any, totals: str, hand: str) -> None:
    named(page, "scoreline", f"{totals}. {hand}. Show the score sheet")


def start_game(page: Any, url: str, rules: dict[str, str], switches: list[str]) -> None:
    """New game screen: Ann, Bob, Cy; Ann deals; some house rules; start."""
    if page.evaluate("() => navigator.maxTouchPoints > 0"):
        open_phone(page, url)
    else:
        open_app(page, url)
    page.get_by_role("button", name="New Rummy game").click()
    field = page.get_by_role("textbox", name="Player name")
    expect(field).to_be_visible(timeout=TIMEOUT)
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        flutter_fill(page, field, name)
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"{seat}. {name}")).to_be_visible(timeout=TIMEOUT)
    page.get_by_role("radio", name="Ann").click()
    assert_words_people_use(page, "new game", penalty=True)
    if switches or rules:  # the house rules fold into one row that opens them
        page.get_by_test_id("house-rules").click()
        expect(page.get_by_test_id("house-rules-done")).to_be_visible(timeout=TIMEOUT)
        assert_words_people_use(page, "house rules", penalty=True)
        for name in switches:
            switch = page.get_by_test_id(f"rummy-rules-{name}").get_by_role("switch")
            switch.scroll_into_view_if_needed()
            switch.click()
            expect(switch).to_be_checked(timeout=TIMEOUT)
        for name, value in rules.items():
            box = page.get_by_test_id(f"rummy-rules-{name}").get_by_role("textbox")
            flutter_fill(page, box, value)
            page.keyboard.press("Enter")
        page.get_by_test_id("house-rules-done").click()
        expect(page.get_by_test_id("house-rules-done")).to_have_count(0, timeout=TIMEOUT)
    page.get_by_role("button", name="Start Rummy").click()
    expect(page.get_by_test_id("hand-over")).to_be_visible(timeout=TIMEOUT)


def rule_sheet_and_back(page: Any, link: str, heading: str) -> None:
    """Open the rule behind ``link`` in its sheet over the table, then close it."""
    before = page.url
    tap(page, link)
    expect(page.get_by_test_id("rule-sheet")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=TIMEOUT)
    # the rules search is one tap away inside a game too (issue 18; test_rules follows it)
    expect(page.get_by_test_id("rule-sheet-search")).to_be_visible(timeout=TIMEOUT)
    assert page.url == before  # nothing navigated: the table is still underneath
    assert_words_people_use(page, "the rule sheet", penalty=True)
    tap(page, "rule-sheet-close")
    expect(page.get_by_test_id("rule-sheet")).to_have_count(0, timeout=TIMEOUT)
    assert page.url == before


def confirm(page: Any, preview: str) -> None:
    said(page, "hand-preview", preview)
    tap(page, "confirm-hand")
    expect(page.get_by_test_id("confirm-hand")).to_have_count(0, timeout=TIMEOUT)


# ---------------------------------------------------------------- the game -------------


@pytest.mark.slow
def test_rummy_full_game_to_target_phone(fresh_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    start_game(page, fresh_server.url, {"target": "50"}, ["going_rummy_double"])
    said(page, "hand-status", "Hand 1: Ann deals; Bob, on the dealer's left, plays first.")
    scoreline(page, "Ann 0 · Bob 0 · Cy 0", "Hand 1 · Ann deals")
    assert_words_people_use(page, "the table", penalty=True)

    # ---- hand 1: the table log; the referee answers in the bar -------------------------
    tap(page, "table-log-switch")
    chosen(page, "log-player-bob")  # nobody has put cards down: the dealer's left first
    tap(page, "log-player-cy")
    log_cards(page, ["QH", "KH", "AH"], "Q♥ K♥ A♥")
    named(
        page,
        "log-verdict",
        "Not allowed. Q♥ K♥ A♥: the ace is low, so Q-K-A is not a run"
        " (the house rule “Ace high or low” allows it) (Runs, rule R2.2)",
    )
    expect(page.get_by_test_id("log-verdict-rule").get_by_role("button")).to_be_attached()
    expect(page.get_by_test_id("log-record").get_by_role("button")).to_be_disabled()
    assert_words_people_use(page, "the table log", penalty=True)
    painted_screenshot(page, "rummy-illegal-meld-phone")
    # the rule opens in a sheet over the table; closing it finds the table as it was
    rule_sheet_and_back(page, "log-verdict-rule", "Rule R2.2 · Rummy")
    expect(page.get_by_text("Cards going down: Q♥ K♥ A♥", exact=True)).to_be_attached()
    chosen(page, "log-player-cy")
    named(
        page,
        "log-verdict",
        "Not allowed. Q♥ K♥ A♥: the ace is low, so Q-K-A is not a run"
        " (the house rule “Ace high or low” allows it) (Runs, rule R2.2)",
    )

    tap(page, "log-clear")
    tap(page, "log-player-bob")
    log_cards(page, ["7H", "8H", "9H"], "7♥ 8♥ 9♥")
    named(
        page,
        "log-verdict",
        "Run: 24 penalty points out of the hand. 7♥ 8♥ 9♥ is a run of 3 cards (Runs, rule R2.2)",
    )
    tap(page, "log-record")
    said(page, "meld-1", "Meld 1: Bob's run, 7♥ 8♥ 9♥")
    chosen(page, "log-player-cy")  # the turn passes on: Cy next

    # a wrong entry (Ann never put down 4♠ 5♠ 6♠), undone from the bar
    tap(page, "log-player-ann")
    log_cards(page, ["4S", "5S", "6S"], "4♠ 5♠ 6♠")
    tap(page, "log-record")
    said(page, "meld-2", "Meld 2: Ann's run, 4♠ 5♠ 6♠")
    tap(page, "undo")
    expect(page.get_by_test_id("meld-2")).to_have_count(0, timeout=TIMEOUT)

    # lay-off verdicts against the meld on the table
    tap(page, "log-player-cy")
    log_cards(page, ["JS"], "J♠")
    tap(page, "log-target-1")
    named(
        page,
        "log-verdict",
        "Not allowed. J♠ onto 7♥ 8♥ 9♥: J♠ is not a heart; the run would break"
        " (Lay off onto any meld, rule R3.3)",
    )
    tap(page, "log-clear")
    log_cards(page, ["10H"], "10♥")
    chosen(page, "log-target-1")  # the way the referee accepts
    named(
        page,
        "log-verdict",
        "Run: 10 penalty points out of the hand. 10♥ lays off onto 7♥ 8♥ 9♥, making a 4-card run"
        " (Lay off onto any meld, rule R3.3)",
    )
    painted_screenshot(page, "rummy-table-log-phone")
    tap(page, "log-record")
    said(page, "meld-1", "Meld 1: Bob's run, 7♥ 8♥ 9♥ 10♥")

    # ---- hand 1 over: Bob went out; Cy won't show (typed 12), Ann K♠ 7♦ ---------------
    tap(page, "hand-over")  # the bar's action while no card is chosen
    tap(page, "went-out-bob")
    said(page, "hand-running", "So far: no cards entered yet")
    tap(page, "typed-switch-cy")
    keys(page, "Cy", "12")
    named(page, "live-cy", "Cy: typed 12")
    painted_screenshot(page, "rummy-hand-over-typed-phone")  # the keypad
    tap(page, "next-player")
    tap(page, "rem-ann-card-10H")  # on the table: greyed, a tap adds nothing
    cards(page, "rem-ann", ["KS", "7D"], "Ann", "K♠ 7♦")
    named(page, "live-ann", "Ann: penalty 17")
    assert_words_people_use(page, "the hand over", penalty=True)
    painted_screenshot(page, "rummy-hand-over-phone")  # docs/rummy-hand-over-phone.png
    # what the table confirms by ("This hand: …") is in sight as the screen opens, with
    # the verdict and Confirm, and each player's row is reachable (issue 18: it sat
    # scrolled out of sight above the grid)
    assert_layout(
        page,
        ["went-out-bob", "live-ann", "live-cy", "rem-ann-card-KS"],
        fixed=["hand-preview", "hand-verdict", "confirm-hand"],
        where="rummy hand over, 3 players, phone",
    )
    # the referee's rule from the bar opens over the hand over and closes back to it
    named(
        page,
        "hand-verdict",
        "Hand end: 29 penalty points. Hand 1: Bob went out; this hand scores Ann 17, Bob 0, Cy 12"
        " (Penalty points, rule R6.2)",
    )
    rule_sheet_and_back(page, "hand-verdict-rule", "Rule R6.2 · Rummy")
    said(page, "rem-ann-chosen", "Ann's cards: K♠ 7♦")
    named(page, "live-cy", "Cy: typed 12")
    named(page, "live-ann", "Ann: penalty 17")
    confirm(
        page, "This hand: Ann 17 · Bob 0 · Cy 12 typed\nTotals after it: Ann 17 · Bob 0 · Cy 12"
    )
    said(page, "hand-status", "Hand 2: Bob deals; Cy, on the dealer's left, plays first.")
    scoreline(page, "Ann 17 · Bob 0 · Cy 12", "Hand 2 · Bob deals")
    said(page, "hand-1-cy", "Hand 1, Cy: typed 12")
    # Undo takes back the deal of hand 2 (the next dealer by R1.2), then it is dealt again
    tap(page, "undo")
    said(
        page,
        "hand-status",
        "Hand 1 is scored. Next, hand 2: Bob deals; Cy, on the dealer's left, plays first.",
    )
    painted_screenshot(page, "rummy-between-hands-phone")
    assert_words_people_use(page, "between hands", penalty=True)
    tap(page, "start-hand")
    said(page, "hand-status", "Hand 2: Bob deals; Cy, on the dealer's left, plays first.")

    # ---- hand 2: Cy goes rummy, doubled; Ann's cards typed -----------------------------
    tap(page, "hand-over")
    tap(page, "went-out-cy")
    tap(page, "going-rummy")
    expect(page.get_by_test_id("going-rummy").get_by_role("switch")).to_be_checked()
    tap(page, "rem-ann-type")
    box = page.get_by_role("textbox", name="Type Ann's cards")
    flutter_fill(page, box, "2c 3d")
    page.keyboard.press("Enter")
    said(page, "rem-ann-chosen", "Ann's cards: 2♣ 3♦")
    named(page, "live-ann", "Ann: penalty 5")
    tap(page, "next-player")
    tap(page, "rem-bob-card-2C")  # a card Ann showed is greyed for Bob
    cards(page, "rem-bob", ["9S", "4H"], "Bob", "9♠ 4♥")
    named(page, "live-bob", "Bob: penalty 13")
    confirm(
        page,
        "This hand: Ann 10 · Bob 26 · Cy 0\nGoing rummy: every penalty doubled.\n"
        "Totals after it: Ann 27 · Bob 26 · Cy 12",
    )
    scoreline(page, "Ann 27 · Bob 26 · Cy 12", "Hand 3 · Cy deals")

    # ---- correct hand 1: Ann also held A♣ (10 + 7 + 1 = 18) ----------------------------
    edit = page.get_by_test_id("edit-hand-1")
    board_show(page, edit)
    edit.click()
    said(
        page,
        "hand-preview",
        "This hand: Ann 17 · Bob 0 · Cy 12 typed\nTotals after it: Ann 17 · Bob 0 · Cy 12",
    )
    tap(page, "live-ann")
    cards(page, "rem-ann", ["AC"], "Ann", "K♠ 7♦ A♣")
    named(page, "live-ann", "Ann: penalty 18")
    assert_words_people_use(page, "correcting hand 1", penalty=True)
    confirm(
        page, "This hand: Ann 18 · Bob 0 · Cy 12 typed\nTotals after it: Ann 18 · Bob 0 · Cy 12"
    )
    scoreline(page, "Ann 28 · Bob 26 · Cy 12", "Hand 3 · Cy deals")

    # ---- reload mid-game: everything is back -------------------------------------------
    page.reload()
    open_phone(page, page.url)
    said(page, "hand-status", "Hand 3: Cy deals; Ann, on the dealer's left, plays first.")
    scoreline(page, "Ann 28 · Bob 26 · Cy 12", "Hand 3 · Cy deals")
    # the collapsed scoreboard opens the totals on the board with one tap, and folds back
    tap(page, "scoreline")
    said(page, "total-bob", "Bob: total 26 penalty points")
    assert_words_people_use(page, "the totals", penalty=True)
    tap(page, "scoreline")
    expect(page.get_by_test_id("total-bob")).to_have_count(0, timeout=TIMEOUT)

    # ---- hand 3: Ann goes out; Bob passes the target -----------------------------------
    tap(page, "hand-over")
    tap(page, "went-out-ann")
    cards(page, "rem-bob", ["KD", "QC", "JH", "10S"], "Bob", "K♦ Q♣ J♥ 10♠")
    named(page, "live-bob", "Bob: penalty 40")
    tap(page, "next-player")  # Bob holds fewer than he was dealt: Next moves on
    tap(page, "rem-cy-card-KD")  # Bob's king is greyed for Cy
    cards(page, "rem-cy", ["5D", "6C", "5H"], "Cy", "5♦ 6♣ 5♥")
    named(page, "live-cy", "Cy: penalty 16")
    confirm(
        page,
        "This hand: Ann 0 · Bob 40 · Cy 16\nTotals after it: Ann 28 · Bob 66 · Cy 28\n"
        "This ends the game: shared win, Ann and Cy.",
    )

    # ---- the result ----------------------------------------------------------------------
    said(page, "result", "Result: Shared win: Ann and Cy, 28 penalty points each.")
    said(page, "rank-ann", "1. Ann: 28 penalty points, winner")
    said(page, "rank-cy", "1. Cy: 28 penalty points, winner")
    said(page, "rank-bob", "3. Bob: 66 penalty points")
    expect(page.get_by_test_id("hand-over")).to_have_count(0)
    assert_words_people_use(page, "the result", penalty=True)
    painted_screenshot(page, "rummy-result-phone")
    board_show(page, page.get_by_test_id("hand-3-bob"))
    said(page, "hand-3-bob", "Hand 3, Bob: K♦ Q♣ J♥ 10♠ = 40")
    assert unexpected_external(page) == []


# ---------------------------------------------------------------- nothing jumps --------


def seed(
    data_dir: Path,
    players: list[str],
    opening: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
) -> str:
    """A Rummy game in the history of ``data_dir`` (before the server starts); its id."""
    from companion.storage import open_repository
    from rulesets import load_ruleset

    live = load_ruleset("rummy").new_game(players, rules or {})
    for action in opening:
        live.push(action)
    repo = open_repository(data_dir)
    stored = repo.create_game("rummy", players, rules=rules or {})
    repo.replace_actions(stored.id, [a.to_json() for a in live.actions])
    return stored.id


SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@pytest.mark.parametrize("players", [SIX[:3], SIX], ids=["3-players", "6-players"])
def test_rummy_hand_over_nothing_moves_and_all_on_one_screen(
    tmp_path: Path, browser: Any, players: list[str]
) -> None:
    """The first card tap of a hand over moves no target by more than 2 px, and the
    players, the whole pack and Confirm are on one phone screen, with 6 players too.
    With block rummy (the stock may run out), "Nobody went out" is far from Confirm."""
    rules = {"block_rummy": True} if len(players) == 3 else {}
    opening = [
        {"type": "start_hand", "dealer": "Ann"},
        {"type": "meld", "player": "Bob", "cards": ["7H", "8H", "9H"]},
    ]
    gid = seed(tmp_path, players, opening, rules)
    server = AppServer(tmp_path).start()
    page = phone(browser)
    try:
        open_phone(page, f"{server.url}play/{gid}")
        # the table log: the first card tap marks every way (new meld, onto meld 1) with
        # the referee's yes or no and chooses one -- no chip moves
        tap(page, "table-log-switch")
        chosen(page, "log-player-cy")  # after Bob, who put cards down last
        before = settled_boxes(page)
        tap(page, "log-card-10H")
        chosen(page, "log-target-1")
        named(page, "log-target-1", "Onto meld 1, Bob's run 7♥ 8♥ 9♥: allowed")
        after = settled_boxes(page)
        assert_nothing_moved(before, after, tolerance=2, where="first card tap in the log")
        tap(page, "log-clear")
        tap(page, "hand-over")
        if rules:  # a rare action never sits next to the primary one
            nobody = page.get_by_test_id("went-out-nobody").bounding_box()
            primary = page.get_by_test_id("confirm-hand").bounding_box()
            assert primary["y"] - (nobody["y"] + nobody["height"]) > 300, (nobody, primary)
        tap(page, "went-out-bob")  # Cy, on Bob's left, shows first
        expect(page.get_by_test_id("rem-cy-card-KS")).to_have_count(1, timeout=TIMEOUT)
        chips = [f"live-{p.lower()}" for p in players if p != "Bob"] + ["went-out-bob"]
        for ident in [*chips, "confirm-hand", "undo", "typed-switch-cy"]:
            seen = visible_box(page, page.get_by_test_id(ident))
            assert seen is not None and seen["height"] == seen["full"]["height"], ident
        # no Next before a first card: it would skip Cy (issue 18); it comes with one
        expect(page.get_by_test_id("next-player")).to_have_count(0)
        grid = page.locator("[flt-semantics-identifier^='rem-cy-card-']")
        assert grid.count() == 52
        for i in range(grid.count()):
            seen = visible_box(page, grid.nth(i))
            assert seen is not None and seen["height"] == seen["full"]["height"], i
        assert_words_people_use(page, "the hand over", penalty=True)
        before = settled_boxes(page)
        tap(page, "rem-cy-card-KS")
        said(page, "rem-cy-chosen", "Cy's cards: K♠")
        named(page, "live-cy", "Cy: penalty 10")
        after = settled_boxes(page)
        assert_nothing_moved(before, after, tolerance=2, where="first card tap")
        seen = visible_box(page, page.get_by_test_id("next-player"))
        assert seen is not None and seen["height"] == seen["full"]["height"], "next-player"
        if len(players) == 6:
            painted_screenshot(page, "rummy-hand-over-6-phone")
        # Won't show: the keypad takes the grid's room; the players, the row's buttons
        # and the bar stay where they were (the thumb's next tap is on the same spots)
        still = [*chips, "confirm-hand", "undo", "next-player", "typed-switch-cy"]
        before = {k: v for k, v in settled_boxes(page).items() if k in still}
        tap(page, "typed-switch-cy")
        said(page, "typed-cy", "Cy's total, typed: …")
        after = {k: v for k, v in settled_boxes(page).items() if k in still}
        assert sorted(before) == sorted(after) == sorted(still)
        assert_nothing_moved(before, after, tolerance=2, where="Won't show")
    finally:
        page.context.close()
        server.stop()


# ---------------------------------------------------------------- screenshots ----------


@pytest.mark.parametrize("dark", [False, True], ids=["desktop", "desktop-dark"])
def test_rummy_screens_at_desktop_size(fresh_server: AppServer, browser: Any, dark: bool) -> None:
    """The Rummy screens (table, table log, hand over, result) at 1280x800, to look at."""
    name = "desktop" + ("-dark" if dark else "")
    page = new_page(browser, DESKTOP, dark=dark)
    watch_server(page)  # before the app's websocket opens: tap() waits on its answers
    try:
        start_game(page, fresh_server.url, {"target": "10"}, [])
        assert_words_people_use(page, "the table", penalty=True)
        painted_screenshot(page, f"rummy-table-start-{name}")
        tap(page, "table-log-switch")
        tap(page, "log-player-bob")
        for card in ("7H", "8H", "9H"):
            tap(page, f"log-card-{card}")
        tap(page, "log-record")
        said(page, "meld-1", "Meld 1: Bob's run, 7♥ 8♥ 9♥")
        tap(page, "log-card-10H")
        chosen(page, "log-target-1")
        painted_screenshot(page, f"rummy-table-log-{name}")
        tap(page, "log-clear")
        tap(page, "hand-over")
        tap(page, "went-out-bob")
        tap(page, "going-rummy")
        tap(page, "typed-switch-cy")
        tap(page, "typed-cy-key-4")
        named(page, "live-cy", "Cy: typed 4")
        tap(page, "next-player")
        for card in ("KS", "7D"):
            tap(page, f"rem-ann-card-{card}")
        named(page, "live-ann", "Ann: penalty 17")
        assert_words_people_use(page, "the hand over", penalty=True)
        painted_screenshot(page, f"rummy-hand-over-{name}")  # docs/rummy-desktop.png
        confirm(
            page,
            "This hand: Ann 17 · Bob 0 · Cy 4 typed\nTotals after it: Ann 17 · Bob 0 · Cy 4\n"
            "This ends the game: Bob wins.",
        )
        said(page, "result", "Result: Bob wins with 0 penalty points.")
        assert_words_people_use(page, "the result", penalty=True)
        painted_screenshot(page, f"rummy-result-{name}")
        assert unexpected_external(page) == []
    finally:
        page.context.close()
