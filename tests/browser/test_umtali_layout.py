"""An Umtali hand with a full board, audited at every step (issue 18).

Ann deals; by the time the browser opens the game, six melds lie on each side
(a marriage, sets, sequences, a jack), Bob to play.  Then, through the UI: Bob
goes out with the pair 4♣ 4♦ (a seventh meld on his side) and discards 2♣ face
down; in Ann's final turn she puts 8♥ onto Bob's sequence, then moves her
leftovers.  At every state the layout audit (``layout_audit.assert_layout``)
checks that every meld, both sides' totals, the top of the discard pile (5♣, then
face down), the acting player, the mode row, the chosen strip and the card grid
are on screen or reachable by scrolling the
page, nothing covers anything, and the verdict, Undo and the action are in sight
without scrolling -- on a 390x844 phone, a 360x640 phone and a desktop.

Before this issue the board was a 134 px box: from the third row of melds on
they hid behind the mode buttons, the pair could only be reached inside it, and
on the small phone the bar was pushed off the screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, AppServer, new_page, stable_screenshot
from tests.browser.layout import open_phone, reveal, settle, watch_server
from tests.browser.layout_audit import assert_layout
from tests.browser.test_umtali_game import settled_click, shows, side
from tests.browser.words import assert_words_people_use

T = 20_000
SMALL = {"width": 360, "height": 640}

#: six melds a side, Ann's discard 5♣ on the pile, Bob to play (Ann dealt)
OPENING: list[dict[str, Any]] = [
    {"type": "start_hand", "dealer": "Ann"},
    {"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]},
    {"type": "meld", "player": "Ann", "cards": ["KS", "QS"]},
    {"type": "meld", "player": "Bob", "cards": ["JC"]},
    {"type": "meld", "player": "Ann", "cards": ["9C", "9D", "9S"]},
    {"type": "meld", "player": "Bob", "cards": ["2S", "3S", "4S"]},
    {"type": "meld", "player": "Ann", "cards": ["AD", "2D", "3D"]},
    {"type": "meld", "player": "Bob", "cards": ["KH", "QH"]},
    {"type": "meld", "player": "Ann", "cards": ["JD"]},
    {"type": "meld", "player": "Bob", "cards": ["10C", "10D", "10H"]},
    {"type": "meld", "player": "Ann", "cards": ["6C", "7C", "8C"]},
    {"type": "meld", "player": "Bob", "cards": ["JH"]},
    {"type": "meld", "player": "Ann", "cards": ["KC", "QC"]},
    {"type": "discard", "player": "Ann", "card": "5C"},
]


def seed(data_dir: Path) -> str:
    """The game above in the history of ``data_dir`` (before the server starts)."""
    from companion.storage import open_repository
    from rulesets import load_ruleset

    live = load_ruleset("umtali").new_game(["Ann", "Bob"], {})
    for action in OPENING:
        live.push(action)
    repo = open_repository(data_dir)
    stored = repo.create_game("umtali", ["Ann", "Bob"], rules={})
    repo.replace_actions(stored.id, [a.to_json() for a in live.actions])
    return stored.id


def melds(ann: int, bob: int) -> list[str]:
    return [f"meld-ann-{i}" for i in range(ann)] + [f"meld-bob-{i}" for i in range(bob)]


def entry(picker: str, modes: list[str]) -> list[str]:
    """The entry's rows: who acts, the modes, the chosen strip, the grid's corners."""
    return [
        "side-total-ann",
        "side-total-bob",
        "discard-top",
        "scoreline",
        "acting-ann",
        "acting-bob",
        *(f"mode-{m}" for m in modes),
        f"{picker}-card-AS",
        f"{picker}-card-7S",
        f"{picker}-card-KC",
        f"{picker}-type",
    ]


def audited(page: Any, required: list[str], action: str, where: str) -> None:
    settle(page)
    assert_layout(page, required, fixed=["verdict", "undo", action], where=where)


SIZES = [
    pytest.param(PHONE, True, id="phone"),
    pytest.param(SMALL, True, id="small-phone"),
    pytest.param(DESKTOP, False, id="desktop"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "android"), SIZES)
def test_umtali_full_board_is_all_reachable(
    browser: Any, tmp_path: Path, viewport: dict[str, int], android: bool
) -> None:
    data = tmp_path / "data"
    gid = seed(data)
    server = AppServer(data).start()
    page = new_page(browser, viewport, android=android)
    size = f"{viewport['width']}x{viewport['height']}"
    play = ["meld", "extend", "discard", "go_out"]
    try:
        watch_server(page)
        open_phone(page, f"{server.url}play/{gid}")
        side(page, "Ann", 54)
        side(page, "Bob", 51)
        shows(page, "discard-top", "Top of the discard pile: 5♣")
        audited(page, melds(6, 6) + entry("meld", play), "add-meld", f"{size}: six melds a side")

        # an anchor tapped on the board: the entry becomes an extension
        settled_click(page, page.get_by_test_id("meld-ann-0"))
        shows(page, "extend-chosen", "On Ann's meld 1")
        audited(page, melds(6, 6) + entry("extend", play), "add-extend", f"{size}: extending")

        # Bob goes out: the pair, then the discard face down
        settled_click(page, page.get_by_test_id("acting-bob"))
        settled_click(page, page.get_by_test_id("mode-go_out"))
        for card in ("4C", "4D"):
            settled_click(page, page.get_by_test_id(f"pair-card-{card}"))
        settled_click(page, page.get_by_test_id("part-discard"))
        settled_click(page, page.get_by_test_id("out-discard-card-2C"))
        settled_click(page, page.get_by_test_id("face-down"))
        audited(
            page,
            [*melds(6, 6), "part-pair", "part-discard", "face-down"],
            "add-go-out",
            f"{size}: going out",
        )
        settled_click(page, page.get_by_test_id("add-go-out"))
        shows(page, "scoreline", "Bob went out: Ann's final turn")
        shows(page, "discard-top", "Top of the discard pile: face down")

        # Ann's final turn: the pair is the 7th meld on Bob's side; Go out kept its place
        final = ["meld", "extend", "leftovers", "go_out"]
        audited(page, melds(6, 7) + entry("meld", final), "add-meld", f"{size}: final turn")
        assert_words_people_use(page, f"umtali final turn, full board, {size}")
        if viewport == PHONE:
            reveal(page, page.get_by_test_id("meld-ann-0"))
            settle(page)
            stable_screenshot(page, "umtali-board-phone")  # docs/umtali-board-phone.png
        elif viewport == SMALL:
            reveal(page, page.get_by_test_id("meld-ann-0"))
            settle(page)
            stable_screenshot(page, "umtali-board-small")  # to be looked at
        settled_click(page, page.get_by_test_id("meld-bob-0"))
        settled_click(page, page.get_by_test_id("extend-card-8H"))
        settled_click(page, page.get_by_test_id("add-extend"))
        side(page, "Ann", 55)

        # the leftovers: the last entry of the hand (the mode the table moves on to)
        expect(page.get_by_test_id("mode-leftovers")).to_have_attribute(
            "aria-current", "true", timeout=T
        )
        settled_click(page, page.get_by_test_id("leftovers-card-5S"))
        settled_click(page, page.get_by_test_id("leftovers-card-8D"))
        audited(
            page,
            [*melds(7, 7), "part-pair", "part-discard", "leftovers-card-AS"],
            "add-leftovers",
            f"{size}: leftovers",
        )
        settled_click(page, page.get_by_test_id("add-leftovers"))
        expect(page.get_by_test_id("next-hand-start")).to_have_count(1, timeout=T)
        settle(page)
        assert_layout(page, ["next-hand"], fixed=["next-hand-start"], where=f"{size}: hand over")
    finally:
        page.context.close()
        server.stop()
