"""A whole Rummoli game played through the UI at phone size (issue #8).

Four players, three rounds and the final poker, started on the new-game screen
and recorded only by taps and typed cards.  Every stack and every pot is
checked against the hand-computed sheet below after each step that moves
chips, and the chips on the table must stay 210 throughout.

Seats: Ann 0, Bob 1, Cy 2, Dan 3 (clockwise).  House rules: the defaults
(claim=auto, one betting round with limit 5, a single final poker, widow only
for a hand without pay cards).  Pots in board order:
Poker, 10♠, J♦, Q♣, K♥, A♠, A♦+K♦, 7-8-9, Rummoli (centre).

THE SHEET (stacks Ann/Bob/Cy/Dan | pots P/10S/JD/QC/KH/AS/AK/789/R)
=========================================================================
Start (new-game screen: Dan's chips field set to 60)  50/50/50/60 | all 0   = 210

Round 1 -- Ann deals (M2.1: Bob 11, Cy 11, Dan 10, Ann 10, widow 10)
  ante 9 each (M1.3)          41/41/41/51  | every pot 4 (36)            = 164+36+... = 210
  widow auction: Cy bids 2, pays dealer Ann (M2.3)
                              43/41/39/51
  bets (M4.2): Bob 1, Cy 1, Ann 1, Dan folds
                              42/40/38/51  | P 4+3 = 7
  poker tie Bob+Cy (tap): 7 // 2 = 3 each, 7 % 2 = 1 stays in P (M4.4)
                              42/43/41/51  | P 1
  10♠ laid by Dan (tap the board tile): Dan +4   -> Dan 55, 10S 0
  7-8-9 all laid by Bob (confirm "one player"): Bob +4 -> Bob 47, 789 0
  A♦+K♦ laid by two players ("different players"): no payout, AK stays 4 (A-M8)
  Cy goes out (M6.1): takes R 4 -> 45; held Ann 2, Bob 1, Dan 3 paid to Cy (A-M11):
    Cy 45 + 6 = 51, Ann 42-2 = 40, Bob 47-1 = 46, Dan 55-3 = 52
  END R1                      40/46/51/52 (189) | 1/0/4/4/4/4/4/0/0 (21)   = 210

Round 2 -- Bob deals (Cy 11, Dan 11, Ann 10, Bob 10, widow 10)
  ante 9 each                 31/37/42/43 (153) | 5/4/8/8/8/8/8/4/4 (57)   = 210
  Bob swaps blind with the widow (M2.2): no chips move, Bob still holds 10
  poker, hands entered and judged by the referee (M4.3):
    Ann KS KC 8S 8C 4C  Two pair, Kings and 8s
    Bob 9S 9C 9D 5S 2S  Three of a kind, 9s
    Cy  AD AC QS QH 10S Two pair, Aces and Queens
    Dan 3C 6C 7C 10C JC Flush, jack high  -> Dan wins P 5 -> Dan 48
  live log (the referee checks each card):
    Dan 3C (lowest), Ann 4C, [Bob 9C refused: 5C not laid, next must be red, M5.3],
    Ann QD (break, red), Bob KD, Cy AD (K♦ and A♦ by two players: no payout, A-M8),
    Cy 10S (after the ace, black; collects 10♠ 4 -> Cy 46), Dan JS
  impasse (M5.7), cards held from the log: Ann 10-2 = 8, Bob 10-1 = 9,
    Cy 11-2 = 9, Dan 11-2 = 9 -> 35 chips into R: R 4 + 35 = 39
    Ann 31-8 = 23, Bob 37-9 = 28, Cy 46-9 = 37, Dan 48-9 = 39
  END R2                      23/28/37/39 (127) | 0/0/8/8/8/8/8/4/39 (83)  = 210

Round 3 -- Cy deals (Dan 11, Ann 11, Bob 10, Cy 10, widow 10)
  ante 9 each                 14/19/28/30 (91)  | 4/4/12/12/12/12/12/8/43 (119) = 210
  nobody takes the widow (M2.3)
  poker: Ann wins alone (tap): P 4 -> Ann 18
  J♦ laid by Bob: JD 12 -> Bob 31
  A♦+K♦ laid by Dan alone (confirm "one player"): AK 12 -> Dan 42
  Ann goes out: takes R 43 (both rounds' centre) -> 61; held Bob 3, Cy 1, Dan 2 -> Ann 67,
    Bob 31-3 = 28, Cy 28-1 = 27, Dan 42-2 = 40
  END R3                      67/28/27/40 (162) | 0/4/0/12/12/12/0/8/0 (48) = 210

End of game -- one final poker for all 48 chips on the board (M7.2): Bob wins -> 76
  FINAL                       67/76/27/40 (210) | board empty              = 210
  Standings (M7.3): 1. Bob 76, 2. Ann 67, 3. Dan 40, 4. Cy 27
"""

from __future__ import annotations

import time
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
from tests.browser.history_sums import assert_history_adds_up
from tests.browser.layout import assert_nothing_moved, settled_boxes
from tests.browser.test_new_game import add_players
from tests.browser.words import assert_words_people_use

WAIT = 20_000
PLAYERS = ["Ann", "Bob", "Cy", "Dan"]
POTS = ("poker", "10S", "JD", "QC", "KH", "AS", "AD+KD", "7-8-9", "rummoli")
POT_WORDS = {
    "poker": "Poker",
    "10S": "10♠",
    "JD": "J♦",
    "QC": "Q♣",
    "KH": "K♥",
    "AS": "A♠",
    "AD+KD": "A♦+K♦",
    "7-8-9": "7-8-9",
    "rummoli": "Rummoli",
}
TOTAL = 210


# --------------------------------------------------------------------------- helpers


def press(loc: Any) -> None:
    """Tap a control through its semantics node (wherever it is scrolled to).

    Waits until Flutter marks the node (or the button inside it) tappable: a button
    enabled by the previous tap is not tappable until that tap has been drawn.
    """
    deadline = time.monotonic() + WAIT / 1000
    while True:
        if loc.count() == 1:
            if loc.get_attribute("flt-tappable") is not None:
                break
            inner = loc.locator("[flt-tappable]")
            if inner.count():
                loc = inner.first
                break
        if time.monotonic() > deadline:
            raise AssertionError(f"{loc} is not tappable")
        time.sleep(0.05)
    loc.dispatch_event("click")


def tap(page: Any, ident: str) -> None:
    press(page.get_by_test_id(ident))


def label_of(page: Any, ident: str) -> str:
    """What a screen reader says for the control (aria-label, or its text)."""
    loc = page.get_by_test_id(ident)
    if loc.count() != 1:
        return f"<{loc.count()} controls>"
    label = loc.get_attribute("aria-label")
    return " ".join((label if label is not None else loc.inner_text()).split())


def _wait_label(page: Any, ident: str, ok: Any, want: str) -> None:
    deadline = time.monotonic() + WAIT / 1000
    seen = ""
    while time.monotonic() < deadline:
        seen = label_of(page, ident)
        if ok(seen):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{ident}: expected {want!r}, the screen says {seen!r}")


def shows(page: Any, ident: str, text: str) -> None:
    _wait_label(page, ident, lambda seen: seen == text, text)


def says(page: Any, ident: str, text: str) -> None:
    _wait_label(page, ident, lambda seen: text in seen, f"... {text} ...")


def step(page: Any, ident: str, label: str, times: int, start: int = 0) -> None:
    """Press + ``times`` times, waiting for each step to show (one thumb, one tap at a time)."""
    for k in range(start + 1, start + times + 1):
        tap(page, f"{ident}-plus")
        shows(page, ident, f"{label}: {k}")


def sheet(page: Any, stacks: tuple[int, int, int, int], pots: tuple[int, ...]) -> None:
    """Every stack and every pot on screen equals the sheet, and no chip was lost."""
    for name, chips in zip(PLAYERS, stacks, strict=True):
        says(page, f"stack-{name}", f"{name}: {chips} chips")
    for pot, chips in zip(POTS, pots, strict=True):
        shows(page, f"pot-{pot}", f"{POT_WORDS[pot]} pot: {chips} chip{'' if chips == 1 else 's'}")
    assert sum(stacks) + sum(pots) == TOTAL  # the sheet itself adds up
    says(page, "chips-total", f"Chips on the table: {TOTAL}")


def type_cards(page: Any, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label)
    flutter_fill(page, box, text)
    page.keyboard.press("Enter")


def lay(page: Any, who: str, card: str, symbol: str) -> None:
    tap(page, f"lay-by-{who.lower()}")
    tap(page, f"lay-card-{card.upper()}")  # one tap in the still grid
    says(page, "lay-verdict", f"Lay. {who} may lay {symbol}")
    tap(page, "record-lay")
    says(page, "laid-log", f"{symbol} by {who}")


def snap(browser: Any, url: str, name: str, main: Any, ready: str = "pots") -> None:
    """The same table in other windows: desktop, and phone + desktop in dark mode
    (each once the node ``ready`` is drawn)."""
    stable_screenshot(main, f"rummoli-{name}-phone")
    for viewport, size, dark in (
        (DESKTOP, "desktop", False),
        (PHONE, "phone-dark", True),
        (DESKTOP, "desktop-dark", True),
    ):
        pg = new_page(browser, viewport, dark=dark)
        try:
            open_app(pg, url)
            expect(pg.get_by_test_id(ready)).to_be_visible(timeout=WAIT)
            pg.wait_for_timeout(1500)  # the theme cross-fade can stall on a loaded machine
            stable_screenshot(pg, f"rummoli-{name}-{size}")
            assert unexpected_external(pg) == []
        finally:
            pg.context.close()


# --------------------------------------------------------------------------- the game


@pytest.mark.slow
def test_four_player_rummoli_game_three_rounds_and_final_poker(
    fresh_server: AppServer, phone_page: Any, browser: Any
) -> None:
    page = phone_page
    t0 = time.monotonic()
    open_app(page, fresh_server.url)
    press(page.get_by_role("button", name="New Rummoli game"))
    expect(page.get_by_role("textbox", name="Player name")).to_be_visible(timeout=WAIT)
    add_players(page, PLAYERS)
    # the dealer first, then Dan's chips: a tap sent while the server is still drawing
    # the last keystroke's answer can meet a node that is being replaced
    press(page.get_by_role("radio", name="Ann"))
    says(page, "opening", "Ann deals; Bob, on the dealer's left, opens the poker betting.")
    flutter_fill(page, page.get_by_test_id("chips-Dan").get_by_role("textbox"), "60")
    assert_words_people_use(page, "new game")
    press(page.get_by_role("button", name="Start Rummoli"))
    expect(page.get_by_test_id("deal")).to_be_visible(timeout=WAIT)
    assert_words_people_use(page, "the table")
    game_url = page.url
    assert "/play/" in game_url
    says(page, "stack-Ann", "Ann: 50 chips, dealer")
    sheet(page, (50, 50, 50, 60), (0,) * 9)

    # ---------------------------------------------------------------- round 1: Ann deals
    shows(page, "deal", "Deal round 1: Ann deals")
    tap(page, "deal")
    says(page, "deal-sizes", "Bob 11, Cy 11, Dan 10, Ann 10, widow 10")
    sheet(page, (41, 41, 41, 51), (4,) * 9)
    # the widow auction: Cy bid highest, 2 chips; pay cards are asked first (M2.4)
    tap(page, "bidder-cy")
    step(page, "bid", "Bid (chips)", 2)
    says(page, "widow-verdict", "Does Cy's hand hold a pay card")
    shows(page, "widow-confirm", "No pay card: Cy pays 2 to Ann")
    assert_words_people_use(page, "widow")
    stable_screenshot(page, "rummoli-widow-auction-phone")
    tap(page, "widow-confirm")
    says(page, "widow-result", "Cy took the widow for 2 chips, paid to Ann.")
    sheet(page, (43, 41, 39, 51), (4,) * 9)
    # one betting round: Bob, Cy and Ann bet 1, Dan folds; the first bet moves no
    # target (the rows, the stacks and the bar keep their room)
    before = settled_boxes(page)
    tap(page, "bet-bob")
    says(page, "stack-Bob", "Bob: 40 chips")
    assert_nothing_moved(before, settled_boxes(page), 2, "the first bet")
    tap(page, "bet-cy")
    says(page, "stack-Cy", "Cy: 38 chips")
    tap(page, "fold-dan")
    says(page, "folded-dan", "Dan folded")
    tap(page, "bet-ann")
    assert_words_people_use(page, "betting")
    stable_screenshot(page, "rummoli-betting-phone")
    sheet(page, (42, 40, 38, 51), (7, 4, 4, 4, 4, 4, 4, 4, 4))
    # a tie: Bob and Cy split 7, the odd chip stays in the Poker pot
    tap(page, "poker-mode-tap")
    tap(page, "winner-bob")
    tap(page, "winner-cy")
    shows(page, "record-poker", "Bob and Cy win 7 chips")
    tap(page, "record-poker")
    says(page, "poker-result-verdict", "Bob and Cy tie and split 7: 3 each, 1 chip left")
    sheet(page, (42, 43, 41, 51), (1, 4, 4, 4, 4, 4, 4, 4, 4))
    # the Rummoli phase, quick: tap a pot on the board, then who laid it
    tap(page, "rummoli-mode-quick")
    tap(page, "pot-10S")
    says(page, "claim-verdict", "Who laid 10♠?")
    tap(page, "claim-by-dan")
    says(page, "won-so-far", "10♠ by Dan")
    tap(page, "pot-7-8-9")
    says(page, "claim-verdict", "Did one player lay all of it?")
    assert_words_people_use(page, "combination pot")
    stable_screenshot(page, "rummoli-combo-question-phone")
    tap(page, "combo-yes")
    tap(page, "claim-by-bob")
    sheet(page, (42, 47, 41, 55), (1, 0, 4, 4, 4, 4, 4, 0, 4))
    tap(page, "pot-AD+KD")
    tap(page, "combo-no")
    says(page, "end-verdict", "Nobody wins the A♦+K♦ pot this round")
    # Cy goes out; the others still hold 2, 1 and 3 cards
    tap(page, "out-cy")
    step(page, "held-ann", "Ann holds", 2)
    step(page, "held-bob", "Bob holds", 1)
    step(page, "held-dan", "Dan holds", 3)
    shows(page, "record-out", "Cy went out: 6 chips + the Rummoli pot")
    assert_words_people_use(page, "going out")
    stable_screenshot(page, "rummoli-going-out-phone")
    tap(page, "record-out")
    expect(page.get_by_test_id("settlement-1")).to_be_visible(timeout=WAIT)
    sheet(page, (40, 46, 51, 52), (1, 0, 4, 4, 4, 4, 4, 0, 0))
    # the settlement: every chip movement per player, each with its rule
    says(page, "statement-cy-net", "Cy +1, now 51 chips")
    shows(page, "statement-cy-line-0", "Cy: ante -9 (The ante, rule M1.3)")
    shows(page, "statement-cy-line-1", "Cy: widow bid to Ann -2 (Auctioning the widow, rule M2.3)")
    shows(page, "statement-cy-line-2", "Cy: poker bet -1 (Betting, rule M4.2)")
    shows(
        page,
        "statement-cy-line-3",
        "Cy: Poker pot +3 (split 2 ways, 1 left in the pot) (Tied poker hands, rule M4.4)",
    )
    shows(page, "statement-cy-line-4", "Cy: Rummoli pot +4 (Going out, rule M6.1)")
    shows(
        page,
        "statement-cy-line-5",
        "Cy: cards owed +6 (Dan 3, Ann 2, Bob 1) (Who gets the per-card chips, our ruling A-M11)",
    )
    says(page, "round-1-carried", "Poker 1, J♦ 4, Q♣ 4, K♥ 4, A♠ 4, A♦+K♦ 4")
    assert_words_people_use(page, "settlement")
    snap(browser, game_url, "settlement", page)
    # one statement at a time: a tap on a player's net shows theirs
    says(page, "statement-tab-ann", "Ann -10, now 40 chips")
    tap(page, "statement-tab-ann")
    shows(
        page, "statement-ann-line-1", "Ann: widow bid from Cy +2 (Auctioning the widow, rule M2.3)"
    )
    shows(page, "statement-ann-line-3", "Ann: 2 cards held, paid to Cy -2 (Going out, rule M6.1)")
    tap(page, "statement-tab-dan")
    shows(page, "statement-dan-line-1", "Dan: 10♠ pot +4 (Collecting a pot, rule M5.6)")
    tap(page, "statement-tab-bob")
    shows(
        page, "statement-bob-line-3", "Bob: 7-8-9 pot +4 (Winning the 7-8-9 pot, our ruling A-M9)"
    )
    # a settlement line's rule opens over the table and closes back to it
    tap(page, "statement-bob-line-3-rule")
    expect(page.get_by_test_id("rule-sheet")).to_be_visible(timeout=WAIT)
    says(page, "rule-sheet-heading", "A-M9")
    assert_words_people_use(page, "the rule sheet")
    tap(page, "rule-sheet-close")
    expect(page.get_by_test_id("rule-sheet")).not_to_be_attached(timeout=WAIT)
    shows(
        page, "statement-bob-line-3", "Bob: 7-8-9 pot +4 (Winning the 7-8-9 pot, our ruling A-M9)"
    )
    # the collapsed scoreboard opens the score sheet (it adds up); a second tap folds it
    tap(page, "scoreline")
    shows(page, "sheet-row-0", "Start: Ann +50, Bob +50, Cy +50, Dan +60")
    shows(page, "sheet-row-1", "Round 1: Ann -10, Bob -4, Cy +1, Dan -8")
    shows(page, "sheet-now", "Now: Ann 40 chips, Bob 46 chips, Cy 51 chips, Dan 52 chips")
    assert_words_people_use(page, "score sheet")
    tap(page, "scoreline")
    expect(page.get_by_test_id("score-sheet")).not_to_be_attached(timeout=WAIT)
    sheet(page, (40, 46, 51, 52), (1, 0, 4, 4, 4, 4, 4, 0, 0))

    # ---------------------------------------------------------------- round 2: Bob deals
    shows(page, "deal", "Deal round 2: Bob deals")
    tap(page, "deal")
    says(page, "deal-sizes", "Cy 11, Dan 11, Ann 10, Bob 10, widow 10")
    sheet(page, (31, 37, 42, 43), (5, 4, 8, 8, 8, 8, 8, 4, 4))
    says(page, "stack-Bob", "Bob: 37 chips, dealer")
    tap(page, "widow-dealer")
    says(page, "widow-verdict", "Does Bob's hand hold a pay card")
    tap(page, "widow-confirm")
    says(page, "widow-result", "Bob took the widow.")
    # the hands, for the referee to judge
    tap(page, "poker-mode-hands")
    for who, cards, name in (
        ("Ann", "ks kc 8s 8c 4c", "Two pair, Kings and 8s"),
        ("Bob", "9s 9c 9d 5s 2s", "Three of a kind, 9s"),
        ("Cy", "ad ac qs qh 10s", "Two pair, Aces and Queens"),
        ("Dan", "3c 6c 7c 10c jc", "Flush, jack high"),
    ):
        tap(page, f"hand-of-{who.lower()}")
        tap(page, f"hand-{who.lower()}-type")  # typing, one tap away from the grid
        type_cards(page, f"Type {who}'s hand", cards)
        says(page, f"eval-{who.lower()}", f"{who}: Poker hand: {name}")
    says(page, "eval-dan", "(J♣ 10♣ 7♣ 6♣ 3♣)")
    assert_words_people_use(page, "poker hands")
    stable_screenshot(page, "rummoli-poker-hands-phone")
    tap(page, "judge-poker")
    says(page, "poker-result-verdict", "Dan wins the Poker pot: 5 chips. Dan starts")
    tap(page, "hands-shown")  # the hands shown fold away under the verdict
    says(page, "poker-result-hand-dan", "Dan: Flush, jack high (J♣ 10♣ 7♣ 6♣ 3♣)")
    says(page, "poker-result-hand-bob", "Bob: Three of a kind, 9s (9♠ 9♣ 9♦ 5♠ 2♠)")
    says(page, "poker-result-verdict", "Dan wins the Poker pot: 5 chips. Dan starts")
    sheet(page, (31, 37, 42, 48), (0, 4, 8, 8, 8, 8, 8, 4, 4))
    # the live log, card by card, the referee checking each
    tap(page, "rummoli-mode-live")
    says(page, "lay-verdict", "Dan starts with their lowest card.")
    assert_words_people_use(page, "card by card")
    # the first card tapped moves nothing either (the chosen strip and the bar keep room)
    before = settled_boxes(page)
    tap(page, "lay-card-3C")
    says(page, "lay-verdict", "Lay. Dan may lay 3♣")
    assert_nothing_moved(before, settled_boxes(page), 2, "the first card of the live log")
    tap(page, "record-lay")
    says(page, "laid-log", "3♣ by Dan")
    lay(page, "Ann", "4c", "4♣")
    tap(page, "lay-by-bob")
    tap(page, "lay-card-9C")
    says(page, "lay-verdict", "the next card must be red")
    lay(page, "Ann", "qd", "Q♦")
    lay(page, "Bob", "kd", "K♦")
    lay(page, "Cy", "ad", "A♦")
    says(page, "lay-verdict", "Cy lays their lowest black card.")
    shows(page, "pot-AD+KD", "A♦+K♦ pot: 8 chips")  # K♦ and A♦ by two players (A-M8)
    lay(page, "Cy", "10s", "10♠")
    says(page, "stack-Cy", "Cy: 46 chips")
    lay(page, "Dan", "js", "J♠")
    snap(browser, game_url, "live-log", page)
    tap(page, "impasse-live")
    says(page, "lay-verdict", "Ann -8 (impasse, 8 cards held); Bob -9 (impasse, 9 cards held)")
    tap(page, "record-lay")
    expect(page.get_by_test_id("settlement-2")).to_be_visible(timeout=WAIT)
    says(page, "round-2-how", "Impasse")
    assert_words_people_use(page, "impasse settlement")
    tap(page, "statement-tab-ann")
    shows(
        page,
        "statement-ann-line-1",
        "Ann: impasse, 8 cards held -8 (Impasse: nobody can play, rule M5.7)",
    )
    tap(page, "statement-tab-cy")
    shows(page, "statement-cy-line-1", "Cy: 10♠ pot +4 (Collecting a pot, rule M5.6)")
    sheet(page, (23, 28, 37, 39), (0, 0, 8, 8, 8, 8, 8, 4, 39))

    # ---------------------------------------------------------------- round 3: Cy deals
    shows(page, "deal", "Deal round 3: Cy deals")
    tap(page, "deal")
    says(page, "deal-sizes", "Dan 11, Ann 11, Bob 10, Cy 10, widow 10")
    sheet(page, (14, 19, 28, 30), (4, 4, 12, 12, 12, 12, 12, 8, 43))
    tap(page, "widow-none")
    tap(page, "widow-confirm")
    says(page, "widow-result", "Nobody took the widow")
    tap(page, "poker-mode-tap")
    tap(page, "winner-ann")
    tap(page, "record-poker")
    sheet(page, (18, 19, 28, 30), (0, 4, 12, 12, 12, 12, 12, 8, 43))
    tap(page, "rummoli-mode-quick")
    tap(page, "pot-JD")
    tap(page, "claim-by-bob")
    tap(page, "pot-AD+KD")
    tap(page, "combo-yes")
    tap(page, "claim-by-dan")
    sheet(page, (18, 31, 28, 42), (0, 4, 0, 12, 12, 12, 0, 8, 43))
    tap(page, "out-ann")
    step(page, "held-bob", "Bob holds", 3)
    step(page, "held-cy", "Cy holds", 1)
    step(page, "held-dan", "Dan holds", 2)
    tap(page, "record-out")
    expect(page.get_by_test_id("settlement-3")).to_be_visible(timeout=WAIT)
    assert_words_people_use(page, "round 3 settlement")
    shows(page, "statement-ann-line-2", "Ann: Rummoli pot +43 (Going out, rule M6.1)")
    shows(
        page,
        "statement-ann-line-3",
        "Ann: cards owed +6 (Bob 3, Cy 1, Dan 2) (Who gets the per-card chips, our ruling A-M11)",
    )
    tap(page, "statement-tab-dan")
    shows(
        page,
        "statement-dan-line-1",
        "Dan: A♦+K♦ pot +12 (Winning the A♦ + K♦ pot, our ruling A-M8)",
    )
    sheet(page, (67, 28, 27, 40), (0, 4, 0, 12, 12, 12, 0, 8, 0))
    shows(page, "deal", "Deal round 4: Dan deals")

    # ---------------------------------------------------------------- the end: final poker
    tap(page, "end-game")
    shows(page, "pot-final", "Final pot: 48 chips")
    says(page, "final-what", "All 48 chips left on the board")
    assert_words_people_use(page, "final poker")
    stable_screenshot(page, "rummoli-final-poker-phone")
    tap(page, "poker-mode-tap")
    tap(page, "winner-bob")
    tap(page, "record-poker")
    expect(page.get_by_test_id("result")).to_be_visible(timeout=WAIT)
    # the ending's score sheet ends with the stacks; the board is empty (M7.2)
    shows(page, "sheet-now", "Now: Ann 67 chips, Bob 76 chips, Cy 27 chips, Dan 40 chips")
    shows(page, "result", "Result: Bob wins with 76 chips.")
    shows(page, "rank-bob", "1. Bob: 76 chips, winner")
    shows(page, "rank-ann", "2. Ann: 67 chips")
    shows(page, "rank-dan", "3. Dan: 40 chips")
    shows(page, "rank-cy", "4. Cy: 27 chips")
    shows(
        page, "final-statement-bob-line-0", "Bob: final poker +48 (The final poker hand, rule M7.2)"
    )
    assert_words_people_use(page, "standings")
    snap(browser, game_url, "standings", page, ready="result")
    assert unexpected_external(page) == []

    # ---------------------------------------------------------------- the history adds up
    gid = game_url.rstrip("/").rsplit("/", 1)[-1]
    open_app(page, fresh_server.url + f"history/{gid}")
    expect(page.get_by_test_id("detail-chart")).to_be_visible(timeout=WAIT)
    titles = assert_history_adds_up(
        page, PLAYERS, {"Ann": 67, "Bob": 76, "Cy": 27, "Dan": 40}, "the game just played"
    )
    assert titles == ["Start", "1", "2", "3", "Final poker"]
    assert_words_people_use(page, "history")
    print(f"\nRummoli game through the UI: {time.monotonic() - t0:.1f} s")
