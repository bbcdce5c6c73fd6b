"""A complete 4-hand Umtali game played through the UI, every score checked by hand.

Hand-computed score sheet (U9.1: 10/J/Q/K = 5, A-9 = 1; U9.2: marriage = 20).
Ann deals hand 1 (chosen on the new-game screen); the deal alternates (U2.3).

Hand 1 -- Ann deals, Bob plays first
  Bob   JH JD JS                 refused: jacks never form a set (U5.1)
  Bob   5H 6H 7H  sequence       1+1+1           =  3   Bob side  3
  Ann   9C 9D 9S  (wrong entry, undone)                 Ann side  0
  Ann   8H on Bob's sequence     single          =  1   Ann side  1   (extension on opponent's side)
  Ann   KS QS     marriage                       = 20   Ann side 21
  Bob   JC        jack                           =  5   Bob side  8
  Bob   goes out, pair 4C 4D (1+1 = 2), 2C discarded face down   Bob side 10
  Ann   final turn: 4H on Bob's pair             =  1   Ann side 22
  Ann   leftovers 3S KD -> Bob's side: 1+5       =  6   Bob side 16
  Hand 1: Ann 22, Bob 16

Hand 2 -- Bob deals, Ann plays first           (page reload mid-hand)
  Ann   10C 10D 10H set          5+5+5           = 15   Ann side 15
  Bob   2S 3S 4S  sequence       1+1+1           =  3   Bob side  3
  Ann   goes out, no pair, 7D discarded face up         Ann side 15
  Bob   final turn: 10S on Ann's set             =  5   Bob side  8
  Bob   leftovers entered as 9H 9C (wrong): Ann 15+1+1 = 17
        edited (Edit hand 2): leftovers 9H only: Ann 15+1 = 16
  Hand 2: Ann 16, Bob 8

Hand 3 -- Ann deals, Bob plays first; the stock runs out (U4.6)
  Bob   "My hand" QH KH 9S 4D -> best line: marriage QH KH = 20   Bob side 20
  Ann   AC 2C 3C  sequence       1+1+1           =  3   Ann side  3
  stock empty: each side scores itself, nothing transferred
  Hand 3: Ann 3, Bob 20

Hand 4 -- Bob deals, Ann plays first
  Ann   JS        jack                           =  5   Ann side  5
  Bob   6C 7C 8C  sequence       1+1+1           =  3   Bob side  3
  Ann   goes out (hand empty, no discard)
  Bob   final turn: goes out too with pair 5S 5D (1+1 = 2)    Bob side 5
        both out: nothing transferred (U8.5)
  Hand 4: Ann 5, Bob 5

Totals: Ann 22+16+3+5 = 46, Bob 16+8+20+5 = 49 -> Bob wins, 49 to 46.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DESKTOP,
    AppServer,
    flutter_fill,
    new_page,
    stable_screenshot,
    unexpected_external,
)
from tests.browser.layout import (
    android_page,
    open_phone,
    reveal,
    settle,
    visible_box,
    watch_server,
)
from tests.browser.layout_audit import assert_layout
from tests.browser.test_new_game import add_players
from tests.browser.words import assert_words_people_use

T = 20_000


def start_game(page: Any, url: str, dealer: str = "Ann") -> None:
    watch_server(page)
    open_phone(page, url)
    expect(page.get_by_role("button", name="New Umtali game")).to_have_count(1, timeout=T)
    assert_words_people_use(page, "home")
    settled_click(page, page.get_by_role("button", name="New Umtali game"))
    expect(page.get_by_role("textbox", name="Player name")).to_be_visible(timeout=T)
    add_players(page, ["Ann", "Bob"])
    assert_words_people_use(page, "new umtali game")
    page.get_by_role("radio", name=dealer).click()
    settled_click(page, page.get_by_role("button", name="Start Umtali"))
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=T)


def side(page: Any, name: str, points: int) -> None:
    """The running points of a side, as the table shows them."""
    text = f"{name}'s side: {points} point{'s' if points != 1 else ''}"
    expect(page.get_by_text(text, exact=True)).to_have_count(1, timeout=T)


def sheet(page: Any, hand: int, ann: int, bob: int) -> None:
    shows(page, f"hand-row-{hand}", f"Hand {hand}: Ann {ann}, Bob {bob}")


def acting(page: Any, name: str) -> None:
    settled_click(page, page.get_by_test_id(f"acting-{name.lower()}"))


def mode(page: Any, m: str) -> None:
    settled_click(page, page.get_by_test_id(f"mode-{m}"))


def settled_click(page: Any, locator: Any) -> None:
    expect(locator).to_have_count(1, timeout=T)
    settle(page)
    reveal(page, locator)
    page.wait_for_timeout(60)
    clicked = time.monotonic()
    locator.click()
    settle(page, since=clicked)


def tap(page: Any, ident: str, cards: str) -> None:
    """Tap the cards in picker ``ident`` (back from typing to the grid, if need be)."""
    settle(page)
    if page.get_by_test_id(f"{ident}-card-{cards.split()[0]}").count() == 0:
        settled_click(page, page.get_by_test_id(f"{ident}-type"))
    for c in cards.split():
        settled_click(page, page.get_by_test_id(f"{ident}-card-{c}"))


def typed(page: Any, picker: str, label: str, cards: str) -> None:
    """Type the cards into picker ``picker`` (its "Type" switch first, if the grid shows)."""
    box = page.get_by_role("textbox", name=f"Type {label}")
    settle(page)
    if box.count() == 0:
        settled_click(page, page.get_by_test_id(f"{picker}-type"))
    expect(box).to_have_count(1, timeout=T)
    # Flutter web gives a text field's node a box larger than the field (it pokes out
    # of the scrolling area it sits in): it only has to be in sight to be typed into
    if visible_box(page, box) is None:
        reveal(page, box)
    flutter_fill(page, box, cards)
    page.keyboard.press("Enter")


def shows(page: Any, ident: str, text: str) -> None:
    """The node ``ident`` says ``text`` (as its label or its text content)."""
    loc = page.get_by_test_id(ident)
    said = ""
    for _ in range(100):
        if loc.count() == 1:
            said = loc.evaluate("e => (e.getAttribute('aria-label') || '') + ' ' + e.textContent")
            if " ".join(text.split()) in " ".join(said.split()):
                return
        page.wait_for_timeout(200)
    raise AssertionError(f"{ident} says {said!r}, not {text!r}")


def verdict(page: Any, text: str) -> None:
    expect(page.get_by_test_id("verdict")).to_have_attribute(
        "aria-label", re.compile(re.escape(text)), timeout=T
    )


def press(page: Any, ident: str) -> None:
    btn = page.get_by_test_id(ident)
    expect(btn.get_by_role("button")).to_be_enabled(timeout=T)
    settled_click(page, btn)


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    """A 390x844 Android phone (its user agent: Flutter sizes controls by platform)."""
    page = android_page(browser)
    yield page
    page.context.close()


@pytest.mark.slow
def test_full_umtali_game_through_the_ui(fresh_server: AppServer, phone_page: Any) -> None:
    page = phone_page
    start_game(page, fresh_server.url)

    def shot(name: str) -> None:
        stable_screenshot(page, f"umtali-{name}-phone")
        assert_words_people_use(page, f"umtali {name}")

    # ---------------------------------------------------------------- hand 1
    shows(page, "scoreline", "Ann 0 · Bob 0. Hand 1 of 4 · Bob to play")
    typed(page, "meld", "meld cards", "JH JD JS")
    verdict(page, "jacks never form a set")
    # the link shows the rule's title, its ID small ("Sets U5.1"), and is read so
    link = page.get_by_test_id("verdict-rule")
    expect(link).to_have_accessible_name("Sets, rule U5.1")
    expect(link.get_by_role("button", name=re.compile(r"^Sets\s+U5\.1$"))).to_have_count(1)
    expect(page.get_by_test_id("add-meld").get_by_role("button")).to_be_disabled()
    shot("illegal-meld")
    # the rule link opens the rule in a sheet over the table; closing it returns to the
    # same table, the entry still picked
    before = page.url
    settled_click(page, link.get_by_role("button", name=re.compile(r"^Sets\s+U5\.1$")))
    expect(page.get_by_test_id("rule-sheet")).to_be_visible(timeout=T)
    expect(page.get_by_role("heading", name="Rule U5.1 · Umtali")).to_be_visible()
    assert page.url == before
    assert_words_people_use(page, "umtali rule sheet")
    settled_click(page, page.get_by_test_id("rule-sheet-close"))
    expect(page.get_by_test_id("rule-sheet")).to_have_count(0, timeout=T)
    verdict(page, "jacks never form a set")
    expect(page.get_by_test_id("mode-meld")).to_have_count(1, timeout=T)
    settled_click(page, page.get_by_test_id("meld-clear"))

    tap(page, "meld", "5H 6H 7H")
    verdict(page, "Sequence: 3 points")
    press(page, "add-meld")
    side(page, "Bob", 3)

    # a wrong entry, then undo
    acting(page, "Ann")
    typed(page, "meld", "meld cards", "9C 9D 9S")
    verdict(page, "Set: 3 points")
    press(page, "add-meld")
    side(page, "Ann", 3)
    settled_click(page, page.get_by_role("button", name="Undo"))
    side(page, "Ann", 0)
    side(page, "Bob", 3)

    # an extension on the opponent's side: the single lands on Ann's side
    acting(page, "Ann")
    mode(page, "extend")
    settled_click(page, page.get_by_test_id("meld-bob-0"))
    shows(page, "extend-chosen", "On Bob's meld 1: none chosen")
    tap(page, "extend", "8H")
    verdict(page, "Extension: 1 point")
    shot("extend")
    press(page, "add-extend")
    side(page, "Ann", 1)
    side(page, "Bob", 3)

    # a marriage scores 20
    mode(page, "meld")
    tap(page, "meld", "KS QS")
    verdict(page, "Marriage: 20 points")
    press(page, "add-meld")
    side(page, "Ann", 21)
    expect(page.get_by_test_id("meld-ann-1")).to_have_accessible_name(
        "Ann's meld 2: Marriage K♠ Q♠, 20 points", timeout=T
    )

    acting(page, "Bob")
    typed(page, "meld", "meld cards", "JC")
    verdict(page, "Jack: 5 points")
    press(page, "add-meld")
    side(page, "Bob", 8)

    # going out with a pair and a face-down discard
    acting(page, "Bob")
    mode(page, "go_out")
    tap(page, "pair", "4C 4D")
    settled_click(page, page.get_by_test_id("part-discard"))
    tap(page, "out-discard", "2C")
    settled_click(page, page.get_by_test_id("face-down"))
    shows(page, "part-discard", "Discard: 2♣ (face down)")
    verdict(page, "Ann must draw from the stock")
    shot("go-out")
    press(page, "add-go-out")
    side(page, "Bob", 10)
    shows(page, "scoreline", "Bob went out: Ann's final turn")
    # turn order: the acting player is Ann for her final turn, no tap needed
    expect(page.get_by_test_id("acting-ann")).to_have_attribute("aria-current", "true")
    # the final turn as it opens: the going-out pair it must extend and both sides'
    # totals in sight with the verdict and the action; every meld reachable (issue 18)
    settle(page)
    shot("final-turn")
    assert_layout(
        page,
        ["meld-ann-0", "meld-ann-1", "meld-bob-0", "meld-bob-1"],
        fixed=["meld-bob-2", "side-total-ann", "side-total-bob", "verdict", "undo", "add-meld"],
        where="umtali final turn, phone",
    )
    reveal(page, page.get_by_test_id("mode-extend"))  # the audit scrolled the board

    # the opponent's final turn: the pair takes a fourth... here a third 4
    mode(page, "extend")
    settled_click(page, page.get_by_test_id("meld-bob-2"))
    tap(page, "extend", "4H")
    verdict(page, "Extension: 1 point")
    press(page, "add-extend")
    side(page, "Ann", 22)

    # leftovers move to Bob's side as singles: after the final turn's entry the
    # screen is already on them
    expect(page.get_by_test_id("mode-leftovers")).to_have_attribute("aria-current", "true")
    typed(page, "leftovers", "leftover cards", "3S KD")
    verdict(page, "6 points")
    shot("leftovers")
    press(page, "add-leftovers")
    sheet(page, 1, 22, 16)
    shows(page, "next-hand", "Hand 2 of 4: Bob deals (the deal alternates).")
    shot("hand-result")

    # ---------------------------------------------------------------- hand 2
    settled_click(page, page.get_by_role("button", name="Start hand 2"))
    shows(page, "scoreline", "Hand 2 of 4 · Ann to play")
    typed(page, "meld", "meld cards", "10C 10D 10H")
    verdict(page, "Set: 15 points")
    press(page, "add-meld")
    side(page, "Ann", 15)
    acting(page, "Bob")
    typed(page, "meld", "meld cards", "2S 3S 4S")
    press(page, "add-meld")
    side(page, "Bob", 3)

    # reload mid-game: everything comes back
    page.reload()
    open_phone(page, page.url)
    side(page, "Ann", 15)
    side(page, "Bob", 3)
    # the totals so far are on the collapsed scoreboard; its sheet is one tap away
    shows(page, "scoreline", "Ann 22 · Bob 16. Hand 2 of 4 · Bob to play")

    acting(page, "Ann")
    mode(page, "go_out")
    settled_click(page, page.get_by_test_id("part-discard"))
    tap(page, "out-discard", "7D")
    verdict(page, "Bob draws normally")
    press(page, "add-go-out")
    shows(page, "scoreline", "Ann went out: Bob's final turn")
    mode(page, "extend")
    settled_click(page, page.get_by_test_id("meld-ann-0"))
    tap(page, "extend", "10S")
    press(page, "add-extend")
    side(page, "Bob", 8)
    mode(page, "leftovers")
    typed(page, "leftovers", "leftover cards", "9H 9C")
    press(page, "add-leftovers")
    sheet(page, 2, 17, 8)

    # correct the finished hand's leftovers: replay rescored it
    settled_click(page, page.get_by_test_id("edit-hand-2"))
    expect(page.get_by_text("Edit hand 2")).to_have_count(1, timeout=T)
    settled_click(page, page.get_by_test_id("fix-leftovers-card-9C"))
    expect(page.get_by_text("Leftover cards: 9♥", exact=True)).to_have_count(1, timeout=T)
    shot("edit-hand")
    settled_click(page, page.get_by_test_id("save-leftovers"))
    sheet(page, 2, 16, 8)

    # ---------------------------------------------------------------- hand 3
    settled_click(page, page.get_by_role("button", name="Start hand 3"))
    shows(page, "scoreline", "Hand 3 of 4 · Bob to play")
    mode(page, "hand")
    typed(page, "hand", "my hand", "QH KH 9S 4D")
    shows(page, "suggestion", "Best melding this turn: 20 points • Bob melds Q♥ K♥ Kept: 9♠ 4♦")
    shot("my-hand")
    settled_click(page, page.get_by_role("button", name="Record this line"))
    side(page, "Bob", 20)
    acting(page, "Ann")
    mode(page, "meld")
    tap(page, "meld", "AC 2C 3C")
    press(page, "add-meld")
    side(page, "Ann", 3)
    # a rare, destructive action: not in the bar, but on the board the scoreboard opens
    expect(page.get_by_test_id("empty-stock")).to_have_count(0)
    settled_click(page, page.get_by_test_id("scoreline"))
    shot("board-open")
    settled_click(page, page.get_by_test_id("empty-stock"))
    settled_click(page, page.get_by_role("button", name="Tap again: end the hand, stock empty"))
    sheet(page, 3, 3, 20)
    expect(page.get_by_text(re.compile("The stock ran out")).first).to_have_count(1)

    # ---------------------------------------------------------------- hand 4
    settled_click(page, page.get_by_role("button", name="Start hand 4"))
    shows(page, "scoreline", "Hand 4 of 4 · Ann to play")
    typed(page, "meld", "meld cards", "JS")
    press(page, "add-meld")
    side(page, "Ann", 5)
    acting(page, "Bob")
    typed(page, "meld", "meld cards", "6C 7C 8C")
    press(page, "add-meld")
    side(page, "Bob", 3)
    acting(page, "Ann")
    mode(page, "go_out")
    press(page, "add-go-out")
    mode(page, "go_out")
    tap(page, "pair", "5S 5D")
    verdict(page, "nothing is transferred")
    press(page, "add-go-out")

    sheet(page, 4, 5, 5)
    for n, ann, bob in ((1, 22, 16), (2, 16, 8), (3, 3, 20), (4, 5, 5)):
        sheet(page, n, ann, bob)
    shows(page, "totals-row", "Totals: Ann 46, Bob 49")
    expect(page.get_by_text("Bob wins, 49 to 46.").first).to_have_count(1, timeout=T)
    # the ending every game shares: the places, the next game's deal (U2.3), the actions
    shows(page, "result", "Result: Bob wins, 49 to 46.")
    shows(page, "rank-bob", "1. Bob: 49 points, winner")
    shows(page, "rank-ann", "2. Ann: 46 points")
    shows(page, "game-over", "Next game: Ann deals first (the deal alternates).")
    for ident in ("undo", "play-again", "go-home", "share-result"):
        expect(page.get_by_test_id(ident)).to_have_count(1, timeout=T)
    shot("game-over")
    assert unexpected_external(page) == []


@pytest.mark.parametrize(
    ("viewport", "dark", "name"),
    # light at a desktop's size, dark on a phone (the full game runs light on a phone)
    [(DESKTOP, False, "desktop"), (None, True, "phone-dark")],
    ids=["desktop", "phone-dark"],
)
def test_umtali_screens_sizes_and_dark(
    fresh_server: AppServer, browser: Any, viewport: dict[str, int] | None, dark: bool, name: str
) -> None:
    # the phone is an Android one (viewport None): Flutter sizes some controls by platform
    page = new_page(browser, viewport, dark=dark) if viewport else android_page(browser, dark=dark)
    try:
        start_game(page, fresh_server.url, dealer="Bob")
        tap(page, "meld", "KH QH")
        press(page, "add-meld")
        side(page, "Ann", 20)
        acting(page, "Bob")
        typed(page, "meld", "meld cards", "5S 6S 7S")
        press(page, "add-meld")
        mode(page, "extend")
        settled_click(page, page.get_by_test_id("meld-bob-0"))
        typed(page, "extend", "extension card", "9S")
        verdict(page, "play 8♠ first")
        stable_screenshot(page, f"umtali-extend-{name}")
        mode(page, "go_out")
        tap(page, "pair", "3D 3C")
        stable_screenshot(page, f"umtali-go-out-{name}")
        mode(page, "hand")
        typed(page, "hand", "my hand", "8S 9S 4H 4D 4C JD")
        shows(page, "suggestion", "Best melding this turn")
        stable_screenshot(page, f"umtali-my-hand-{name}")
        assert_words_people_use(page, f"umtali my hand {name}")
    finally:
        page.context.close()
