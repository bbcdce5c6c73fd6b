"""Taps and scrolls per table entry, on a 390x844 Android phone in Chromium.

Run: .venv/bin/python benchmarks/taps.py [--only umtali] [--shots]

A real `companion --web` server and headless Chromium with an Android phone's
user agent, touch and viewport (``tests/browser/layout.py::phone_context``).
Each scenario's game is put in a fresh data folder before the server starts
(setup is not counted), then every entry is made the way a player with one
thumb would make it, and counted:

* **taps** -- every click the driver makes for the entry: a card, the primary
  action, and a mode or player chip *only when the screen does not already show
  the one wanted* (the driver reads the chip's selected state first; turn order
  that guessed right costs nothing).
* **scrolls** -- before each tap the driver looks at the part of the target a user
  can see (its box cut by the viewport and by every scrolling area it is in,
  ``layout.visible_box``).  Unless the whole target is visible, it scrolls with
  the mouse wheel over the area that holds it, one gesture of at most 300 px at a
  time, and counts each gesture (``layout.reveal``).  It never scrolls "just in case", and
  Playwright's own scroll-into-view is never used (it moves the accessibility
  tree, not Flutter's canvas).

Targets (issue 15): 0 scrolls for every entry; Umtali <= cards + 2 taps an entry;
Rummy hand end <= 2 + cards held + 1, at 3 and at its largest table, 6 players;
Rummoli card by card <= the card + the player chip if turn order guessed wrong + record;
each quick entry at its fewest taps (one per step: a bet, a pot and its winner, the
player out + one per card held + record), at 4 and at its largest table, 8 players
(issue 18).  A scenario is a function taking a
:class:`Driver` and a game id; ``SCENARIOS`` lists them (other tables add theirs).
Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from tests.browser.layout import (  # noqa: E402
    open_phone,
    phone_context,
    reveal,
    settle,
    watch_server,
)

T = 20_000


@dataclass
class Entry:
    """One entry's cost: what it was, how many cards it names, taps and scrolls."""

    name: str
    cards: int
    budget: int | None
    taps: int = 0
    scrolls: int = 0
    steps: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.scrolls == 0 and (self.budget is None or self.taps <= self.budget)


class Driver:
    """Taps like a person with one thumb, counting every tap and scroll."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.entries: list[Entry] = []
        self.current: Entry | None = None

    # -- bookkeeping -------------------------------------------------------------------
    def entry(self, name: str, cards: int, budget: int | None) -> Entry:
        """Start counting a new entry (the previous one is finished)."""
        self.current = Entry(name, cards, budget)
        self.entries.append(self.current)
        return self.current

    def open(self, path: str) -> None:
        open_phone(self.page, self.url + path.lstrip("/"))

    def by_id(self, ident: str) -> Any:
        return self.page.get_by_test_id(ident)

    # -- the thumb ---------------------------------------------------------------------
    def tap(self, ident: str, what: str | None = None) -> None:
        """Tap the control with test id ``ident`` (its button, if it wraps one)."""
        target = self.by_id(ident)
        expect(target).to_have_count(1, timeout=T)
        inner = target.get_by_role("button")
        if inner.count() == 1:
            target = inner
        settle(self.page)
        scrolls = reveal(self.page, target)
        clicked = time.monotonic()
        target.click()
        settle(self.page, since=clicked)
        if self.current is not None:
            self.current.taps += 1
            self.current.scrolls += scrolls
            self.current.steps.append(
                what or ident + (f" (after {scrolls} scrolls)" if scrolls else "")
            )

    def selected(self, ident: str) -> bool:
        node = self.by_id(ident)
        expect(node).to_have_count(1, timeout=T)
        return node.get_attribute("aria-current") == "true" or (
            node.get_attribute("aria-selected") == "true"
        )

    def ensure(self, ident: str) -> None:
        """Tap the chip ``ident`` unless it is already the chosen one (turn order got it)."""
        if not self.selected(ident):
            self.tap(ident)

    def cards(self, picker: str, cards: str) -> None:
        for c in cards.split():
            self.tap(f"{picker}-card-{c}", c)

    def wait_label(self, ident: str, text: str) -> None:
        """Wait until the node ``ident`` says ``text`` (checking the entry landed)."""
        node = self.by_id(ident)
        for _ in range(100):
            if node.count() == 1 and text in (node.get_attribute("aria-label") or ""):
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{ident} never said {text!r}: {node.get_attribute('aria-label')!r}")

    def wait_text(self, text: str) -> None:
        expect(self.page.get_by_text(text, exact=True)).to_have_count(1, timeout=T)


# ---------------------------------------------------------------------------- scenarios


def seed(data_dir: Path, game: str, players: list[str], opening: list[dict[str, Any]]) -> str:
    """A game in the history of ``data_dir`` (before the server starts); its id."""
    from companion.storage import open_repository
    from rulesets import load_ruleset

    live = load_ruleset(game).new_game(players, {})
    for action in opening:
        live.push(action)
    repo = open_repository(data_dir)
    stored = repo.create_game(game, players, rules={})
    repo.replace_actions(stored.id, [a.to_json() for a in live.actions])
    return stored.id


def umtali_setup(data_dir: Path) -> str:
    return seed(data_dir, "umtali", ["Ann", "Bob"], [{"type": "start_hand", "dealer": "Ann"}])


def umtali_hand(d: Driver, gid: str) -> None:
    """One Umtali hand (Ann deals, Bob plays first): three melds, Bob goes out with a
    pair, Ann's final turn (an extension onto Bob's sequence), Ann's leftovers."""
    d.open(f"/play/{gid}")
    d.wait_label("scoreline", "Hand 1 of 4 · Bob to play")

    def meld(who: str, cards: str, words: str) -> None:
        n = len(cards.split())
        d.entry(f"{who} melds {words}", n, n + 2)
        d.ensure(f"acting-{who.lower()}")
        d.ensure("mode-meld")
        d.cards("meld", cards)
        d.tap("add-meld")

    meld("Bob", "5H 6H 7H", "a sequence 5♥ 6♥ 7♥")
    d.wait_text("Bob's side: 3 points")
    meld("Ann", "KS QS", "a marriage K♠ Q♠")
    d.wait_text("Ann's side: 20 points")
    meld("Bob", "JC", "a jack J♣")
    d.wait_text("Bob's side: 8 points")

    d.entry("Bob goes out with the pair 4♣ 4♦", 2, 4)
    d.ensure("acting-bob")
    d.ensure("mode-go_out")
    d.ensure("part-pair")
    d.cards("pair", "4C 4D")
    d.tap("add-go-out")
    d.wait_label("scoreline", "Ann's final turn")

    d.entry("Ann's final turn: 8♥ onto Bob's sequence", 1, 3)
    d.ensure("acting-ann")
    d.tap("meld-bob-0", "anchor: Bob's sequence")  # a tap on a meld extends it
    d.cards("extend", "8H")
    d.tap("add-extend")
    d.wait_text("Ann's side: 21 points")

    d.entry("Ann's leftovers 3♠ K♦ to Bob's side", 2, 4)
    d.ensure("acting-ann")
    d.ensure("mode-leftovers")
    d.ensure("part-pair")
    d.cards("leftovers", "3S KD")
    d.tap("add-leftovers")
    d.wait_label("next-hand", "Hand 2 of 4")


# ---------------------------------------------------------------------------- Rummy


def said(d: Driver, ident: str, text: str) -> None:
    """Wait until the read-only sentence ``ident`` says ``text`` (an entry landed)."""
    expect(d.by_id(ident)).to_contain_text(text, timeout=T)


def rummy3_setup(data_dir: Path) -> str:
    """Ann deals to Ann, Bob, Cy (7 cards each); Cy's meld 7♥ 8♥ 9♥ was logged."""
    return seed(
        data_dir,
        "rummy",
        ["Ann", "Bob", "Cy"],
        [
            {"type": "start_hand", "dealer": "Ann"},
            {"type": "meld", "player": "Cy", "cards": ["7H", "8H", "9H"]},
        ],
    )


def rummy3_hand_end(d: Driver, gid: str) -> None:
    """Bob goes out.  Round the table from his left: Cy shows the 4 cards he has left,
    Ann her 7 (each player moves on by itself once all their cards are in)."""
    d.open(f"/play/{gid}")
    said(d, "hand-status", "Hand 1: Ann deals")
    d.entry("Hand end: Bob out, Cy 4 cards, Ann 7", 11, 2 + 11 + 1)
    d.tap("hand-over")
    d.tap("went-out-bob", "Bob went out")
    d.cards("rem-cy", "KS QS JS 2D")
    d.cards("rem-ann", "AC 2C 3C 4C 5C 6C 7C")
    said(d, "hand-preview", "This hand: Ann 28 · Bob 0 · Cy 32")
    d.tap("confirm-hand")
    said(d, "hand-status", "Hand 2: Bob deals")


SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def rummy6_setup(data_dir: Path) -> str:
    """Ann deals to six (6 cards each); Bob's meld and Dee's lay-off were logged."""
    return seed(
        data_dir,
        "rummy",
        SIX,
        [
            {"type": "start_hand", "dealer": "Ann"},
            {"type": "meld", "player": "Bob", "cards": ["7H", "8H", "9H"]},
            {"type": "lay_off", "player": "Dee", "cards": ["10H"], "meld": 0},
        ],
    )


def rummy6_hand_end(d: Driver, gid: str) -> None:
    """Eve goes out.  From her left: Fay 6 cards, Ann 6, Bob 3, Cy won't show his
    (a typed 42, then Next), Dee 5."""
    d.open(f"/play/{gid}")
    said(d, "hand-status", "Hand 1: Ann deals")
    d.entry("Hand end: Eve out, 5 players show 26 cards", 26, 2 + 26 + 1)
    d.tap("hand-over")
    d.tap("went-out-eve", "Eve went out")
    d.cards("rem-fay", "AS 2S 3S 4S 5S 6S")
    d.cards("rem-ann", "AD 2D 3D 4D 5D 6D")
    d.cards("rem-bob", "KS QS JS")
    d.tap("typed-switch-cy", "Cy won't show")
    d.tap("typed-cy-key-4", "4")
    d.tap("typed-cy-key-2", "2")
    d.tap("next-player", "Next: Dee")
    d.cards("rem-dee", "AC 2C 3C 4C 5C")
    said(d, "hand-preview", "Totals after it: Ann 21 · Bob 30 · Cy 42 · Dee 15 · Eve 0")
    d.tap("confirm-hand")
    said(d, "hand-status", "Hand 2: Bob deals")

    # hand 2, nothing logged: a player who melded holds fewer cards than the referee's
    # most (6), so moving on from them is one tap on Next (the target's one extra tap)
    d.entry("Hand 2 end, melds not logged: +1 Next", 25, 2 + 25 + 1 + 1)
    d.tap("hand-over")
    d.tap("went-out-ann", "Ann went out")
    d.cards("rem-bob", "AS 2S 3S 4S 5S 6S")
    d.cards("rem-cy", "AD 2D 3D")
    d.tap("next-player", "Next: Dee")
    d.cards("rem-dee", "AC 2C 3C 4C 5C 6C")
    d.cards("rem-eve", "AH 2H 3H 4H 5H 6H")
    d.cards("rem-fay", "7S 8S 9S 10S")
    said(d, "hand-preview", "This hand: Ann 0 · Bob 21 · Cy 6 · Dee 21 · Eve 21 · Fay 34")
    d.tap("confirm-hand")
    said(d, "hand-status", "Hand 3: Cy deals")


# ---------------------------------------------------------------------------- Rummoli


RUMMOLI_PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


def rummoli_setup(data_dir: Path) -> str:
    return seed(
        data_dir, "rummoli", RUMMOLI_PLAYERS, [{"type": "start", "chips": [50] * 4, "dealer": 0}]
    )


def _rummoli_says(d: Driver, ident: str, text: str) -> None:
    """Wait until ``ident`` reads ``text`` (its label, or the words inside it)."""
    node = d.by_id(ident)
    seen = ""
    for _ in range(100):
        if node.count() == 1:
            seen = node.get_attribute("aria-label") or node.inner_text()
            if text in " ".join(seen.split()):
                return
        d.page.wait_for_timeout(100)
    raise AssertionError(f"{ident} never said {text!r}: {seen!r}")


def rummoli_round(d: Driver, gid: str) -> None:
    """One 4-player Rummoli round (Ann deals): the deal, nobody takes the widow, a
    betting round (Bob, Cy and Ann bet 1, Dan folds), Bob wins the poker, the quick
    settlement (Dan laid 10♠; Bob laid all of 7-8-9), Cy goes out while Ann, Bob and
    Dan hold 2, 1 and 3 cards."""
    d.open(f"/play/{gid}")
    _rummoli_says(d, "scoreline", "Round 1")

    d.entry("Deal round 1", 0, 1)
    d.tap("deal")
    _rummoli_says(d, "deal-sizes", "widow 10")

    d.entry("Nobody takes the widow", 0, 2)
    d.tap("widow-none")
    d.tap("widow-confirm")
    _rummoli_says(d, "widow-result", "Nobody took the widow")

    for who, what in (("Bob", "bet"), ("Cy", "bet"), ("Dan", "fold"), ("Ann", "bet")):
        d.entry(f"{who} {'folds' if what == 'fold' else 'bets 1'}", 0, 1)
        d.tap(f"{what}-{who.lower()}")
        if what == "fold":
            _rummoli_says(d, f"folded-{who.lower()}", f"{who} folded")
        else:
            _rummoli_says(d, f"stack-{who}", f"{who}: 40 chips")  # 50, ante 9, bet 1

    d.entry("Bob wins the poker", 0, 2)
    d.ensure("poker-mode-tap")
    d.tap("winner-bob")
    d.tap("record-poker")
    _rummoli_says(d, "poker-result-verdict", "Bob wins the Poker pot")

    d.entry("Dan laid 10♠: his pot", 0, 2)
    d.ensure("rummoli-mode-quick")
    d.tap("pot-10S", "pot 10♠")
    d.tap("claim-by-dan")
    _rummoli_says(d, "won-so-far", "10♠ by Dan")

    d.entry("Bob laid all of 7-8-9: his pot", 0, 3)
    d.tap("pot-7-8-9", "pot 7-8-9")
    d.tap("combo-yes")
    d.tap("claim-by-bob")
    _rummoli_says(d, "won-so-far", "7-8-9 by Bob")

    d.entry("Cy goes out; Ann 2, Bob 1, Dan 3 cards", 6, 1 + 6 + 1)
    d.tap("out-cy")
    for who, held in (("ann", 2), ("bob", 1), ("dan", 3)):
        for _ in range(held):
            d.tap(f"held-{who}-plus")
    d.tap("record-out")
    _rummoli_says(d, "deal", "Deal round 2")


def rummoli_live(d: Driver, gid: str) -> None:
    """The same table card by card (the live log): Bob wins the poker, so he starts
    (turn order picks him); Cy follows with 4♣ (tapped: anyone may hold it); then
    nobody can lay -- an impasse."""
    d.open(f"/play/{gid}")
    d.wait_label("scoreline", "Round 1")
    d.tap("deal")
    d.tap("widow-none")
    d.tap("widow-confirm")
    d.tap("winner-bob")
    d.tap("record-poker")
    _rummoli_says(d, "poker-result-verdict", "Bob wins the Poker pot")
    d.tap("rummoli-mode-live")
    _rummoli_says(d, "lay-verdict", "Bob starts")

    d.entry("Bob lays 3♣ (his turn)", 1, 2)
    d.ensure("lay-by-bob")
    d.cards("lay", "3C")
    d.tap("record-lay")
    _rummoli_says(d, "laid-log", "3♣ by Bob")

    d.entry("Cy lays 4♣", 1, 3)
    d.ensure("lay-by-cy")
    d.cards("lay", "4C")
    d.tap("record-lay")
    _rummoli_says(d, "laid-log", "4♣ by Cy")

    d.entry("Nobody can lay: an impasse", 0, 2)
    d.tap("impasse-live")
    d.tap("record-lay")
    _rummoli_says(d, "deal", "Deal round 2")


EIGHT = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal"]


def rummoli8_setup(data_dir: Path) -> str:
    return seed(data_dir, "rummoli", EIGHT, [{"type": "start", "chips": [50] * 8, "dealer": 0}])


def rummoli8_round(d: Driver, gid: str) -> None:
    """The largest table (issue 18): Ann deals to eight, nobody takes the widow, Bob and
    Cy bet 1 and the other six fold, Bob wins the poker, Dan laid 10♠, Cy goes out
    while Eve holds 1 card and Hal -- the 8th, whose row a phone used to cut off -- 3."""
    d.open(f"/play/{gid}")
    _rummoli_says(d, "scoreline", "Round 1")

    d.entry("Deal round 1 (8 players)", 0, 1)
    d.tap("deal")
    _rummoli_says(d, "deal-sizes", "widow")

    d.entry("Nobody takes the widow", 0, 2)
    d.tap("widow-none")
    d.tap("widow-confirm")
    _rummoli_says(d, "widow-result", "Nobody took the widow")

    for who in EIGHT[1:] + EIGHT[:1]:
        what = "bet" if who in ("Bob", "Cy") else "fold"
        d.entry(f"{who} {'folds' if what == 'fold' else 'bets 1'}", 0, 1)
        d.tap(f"{what}-{who.lower()}")
        if what == "fold":
            _rummoli_says(d, f"folded-{who.lower()}", f"{who} folded")
        else:
            _rummoli_says(d, f"stack-{who}", f"{who}: 40 chips")

    d.entry("Bob wins the poker", 0, 2)
    d.ensure("poker-mode-tap")
    d.tap("winner-bob")
    d.tap("record-poker")
    _rummoli_says(d, "poker-result-verdict", "Bob wins the Poker pot")

    d.entry("Dan laid 10♠: his pot", 0, 2)
    d.ensure("rummoli-mode-quick")
    d.tap("pot-10S", "pot 10♠")
    d.tap("claim-by-dan")
    _rummoli_says(d, "won-so-far", "10♠ by Dan")

    d.entry("Cy goes out; Eve 1, Hal 3 cards", 4, 1 + 4 + 1)
    d.tap("out-cy")
    d.tap("held-eve-plus")
    for _ in range(3):
        d.tap("held-hal-plus")
    _rummoli_says(d, "held-hal", "Hal holds: 3")
    d.tap("record-out")
    _rummoli_says(d, "deal", "Deal round 2")


def rummoli8_live(d: Driver, gid: str) -> None:
    """Eight players card by card: Bob wins the poker and starts with 3♣, Cy 4♣, then
    an impasse."""
    d.open(f"/play/{gid}")
    d.wait_label("scoreline", "Round 1")
    d.tap("deal")
    d.tap("widow-none")
    d.tap("widow-confirm")
    d.tap("winner-bob")
    d.tap("record-poker")
    _rummoli_says(d, "poker-result-verdict", "Bob wins the Poker pot")
    d.tap("rummoli-mode-live")
    _rummoli_says(d, "lay-verdict", "Bob starts")

    d.entry("Bob lays 3♣ (his turn, 8 players)", 1, 2)
    d.ensure("lay-by-bob")
    d.cards("lay", "3C")
    d.tap("record-lay")
    _rummoli_says(d, "laid-log", "3♣ by Bob")

    d.entry("Cy lays 4♣", 1, 3)
    d.ensure("lay-by-cy")
    d.cards("lay", "4C")
    d.tap("record-lay")
    _rummoli_says(d, "laid-log", "4♣ by Cy")

    d.entry("Nobody can lay: an impasse", 0, 2)
    d.tap("impasse-live")
    d.tap("record-lay")
    _rummoli_says(d, "deal", "Deal round 2")


@dataclass(frozen=True)
class Scenario:
    name: str
    setup: Callable[[Path], str]
    drive: Callable[[Driver, str], None]


SCENARIOS: list[Scenario] = [
    Scenario("Umtali: one hand", umtali_setup, umtali_hand),
    Scenario("Rummy: 3-player hand end", rummy3_setup, rummy3_hand_end),
    Scenario("Rummy: 6-player hand end", rummy6_setup, rummy6_hand_end),
    Scenario("Rummoli: one 4-player round", rummoli_setup, rummoli_round),
    Scenario("Rummoli: the live log, card by card", rummoli_setup, rummoli_live),
    Scenario("Rummoli: one 8-player round", rummoli8_setup, rummoli8_round),
    Scenario("Rummoli: the live log at 8 players", rummoli8_setup, rummoli8_live),
]


def run(names: list[str] | None, shots: bool) -> list[tuple[str, list[Entry]]]:
    chosen = [s for s in SCENARIOS if not names or any(n in s.name.lower() for n in names)]
    results: list[tuple[str, list[Entry]]] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        data = Path(tmp)
        gids = [s.setup(data) for s in chosen]
        server = AppServer(data).start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p.selectors.set_test_id_attribute("flt-semantics-identifier")
        try:
            for scenario, gid in zip(chosen, gids, strict=True):
                ctx = phone_context(browser)
                page = ctx.new_page()
                watch_server(page)
                driver = Driver(page, server.url)
                try:
                    scenario.drive(driver, gid)
                finally:
                    if shots:
                        page.screenshot(path=f"artifacts/taps-{len(results)}.png")
                    ctx.close()
                results.append((scenario.name, driver.entries))
        finally:
            browser.close()
            server.stop()
    return results


def report(results: list[tuple[str, list[Entry]]]) -> bool:
    ok = True
    for name, entries in results:
        print(f"\n{name}")
        print(f"  {'entry':<46} {'cards':>5} {'taps':>5} {'budget':>6} {'scrolls':>7}")
        for e in entries:
            budget = "-" if e.budget is None else str(e.budget)
            mark = "" if e.ok else "  <-- over target"
            print(f"  {e.name:<46} {e.cards:>5} {e.taps:>5} {budget:>6} {e.scrolls:>7}{mark}")
            ok = ok and e.ok
        taps = sum(e.taps for e in entries)
        scrolls = sum(e.scrolls for e in entries)
        print(f"  {'total':<46} {sum(e.cards for e in entries):>5} {taps:>5} {'':>6} {scrolls:>7}")
        for e in entries:
            print(f"    {e.name}: {' → '.join(e.steps)}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run scenarios whose name has this")
    parser.add_argument("--shots", action="store_true", help="screenshot each scenario's end")
    args = parser.parse_args()
    ok = report(run(args.only, args.shots))
    print("\nall targets met" if ok else "\nsome targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
