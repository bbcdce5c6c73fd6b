"""The play frame around a one-thumb table, on a phone: the collapsed scoreboard has the
app bar to itself (the rare actions fold into one menu), even at a table of six."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.hub import TableHub
from companion.session import GameSession
from companion.storage import open_repository
from tests.browser.conftest import AppServer, open_app, stable_screenshot, unexpected_external
from tests.browser.words import assert_words_people_use

T = 20_000
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture
def six_at_rummy(tmp_path: Path) -> Iterator[tuple[AppServer, str]]:
    repo = open_repository(tmp_path)
    hub = TableHub(repo)
    gid = GameSession.start(hub, "rummy", SIX, {}, [{"type": "start_hand", "dealer": "Ann"}])
    repo.close()
    server = AppServer(tmp_path).start()
    try:
        yield server, gid.game_id
    finally:
        server.stop()


def test_six_players_totals_fit_the_app_bar_and_the_menu_holds_the_rest(
    six_at_rummy: tuple[AppServer, str], phone_page: Any
) -> None:
    server, gid = six_at_rummy
    page = phone_page
    open_app(page, f"{server.url}play/{gid}")
    totals = " · ".join(f"{p} 0" for p in SIX)
    scoreline = page.get_by_role("button", name=f"{totals}. ", exact=False)
    expect(scoreline.first).to_be_visible(timeout=T)
    assert_words_people_use(page, "six at the table")
    stable_screenshot(page, "play-frame-six-phone")
    page.get_by_test_id("more").click()
    expect(page.get_by_role("menuitem", name="Redo")).to_be_disabled(timeout=T)
    page.get_by_role("menuitem", name="Rules").click()
    expect(page.get_by_role("heading", name="Rummy rules")).to_be_visible(timeout=T)
    assert unexpected_external(page) == []
