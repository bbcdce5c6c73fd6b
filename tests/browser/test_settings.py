"""Settings in a real browser: backup out (JSON download, CSV download) and back in
(upload into an empty data folder shows the same history), demo games, players,
default house rules and the theme."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_games, load_demo
from companion.preferences import default_rules
from companion.storage import open_repository
from tests.browser.conftest import (
    AT_PHONE,
    PHONE,
    AppServer,
    flutter_fill,
    new_page,
    open_app,
    stable_screenshot,
    unexpected_external,
)


def _open_settings(page: Any, url: str) -> None:
    open_app(page, url)
    settings = page.get_by_role("button", name="Settings", exact=True)
    expect(settings).to_be_visible(timeout=20_000)
    settings.click()
    expect(page.get_by_test_id("settings-data-dir")).to_be_visible(timeout=20_000)


def _result(page: Any, pattern: str) -> None:
    expect(page.get_by_test_id("settings-last-result")).to_contain_text(
        re.compile(pattern), timeout=15_000
    )


def _history_ids(page: Any) -> list[str]:
    tiles = page.locator("[flt-semantics-identifier^='history-game-']")
    return [str(t.get_attribute("flt-semantics-identifier")) for t in tiles.all()]


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[AppServer, AppServer]]:
    full = tmp_path / "full"
    repo = open_repository(full)
    load_demo(repo)
    repo.close()
    a = AppServer(full).start()
    try:
        b = AppServer(tmp_path / "empty").start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def test_export_then_import_into_empty_folder(
    two_servers: tuple[AppServer, AppServer], phone_page: Any, tmp_path: Path
) -> None:
    full, empty = two_servers
    page = phone_page
    _open_settings(page, full.url)
    stable_screenshot(page, "settings-phone")
    with page.expect_download(timeout=20_000) as info:
        page.get_by_test_id("settings-export-json").click()
    download = info.value
    assert re.fullmatch(r"rummy-companion-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    backup = json.loads(saved.read_text(encoding="utf-8"))
    assert {g["id"] for g in backup["games"]} == {g.id for g in demo_games()}
    _result(page, r"^Downloaded rummy-companion-")

    with page.expect_download(timeout=20_000) as info:
        page.get_by_test_id("settings-export-csv").click()
    csv_path = tmp_path / info.value.suggested_filename
    info.value.save_as(csv_path)
    lines = csv_path.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == "game_id,started,game,status,players,winners,hand,player,score"
    assert any(line.startswith("demo-rummy-1,") for line in lines)

    # the same history in a new, empty data folder
    page.get_by_role("button", name="Back", exact=True).click()
    page.get_by_role("button", name="History", exact=True).click()
    expect(page.get_by_test_id("history-tab-games")).to_be_visible(timeout=15_000)
    expect(page.locator("[flt-semantics-identifier^='history-game-']")).to_have_count(
        len(demo_games()), timeout=15_000
    )
    before = _history_ids(page)

    _open_settings(page, empty.url)
    with page.expect_file_chooser(timeout=20_000) as chooser:
        page.get_by_test_id("settings-import").click()
    chooser.value.set_files(str(saved))
    _result(page, rf"Imported {len(demo_games())} games, 0 already here\.")
    page.get_by_role("button", name="Back", exact=True).click()
    page.get_by_role("button", name="History", exact=True).click()
    expect(page.locator("[flt-semantics-identifier^='history-game-']")).to_have_count(
        len(before), timeout=15_000
    )
    assert _history_ids(page) == before
    repo = open_repository(empty.data_dir)
    try:
        assert repo.export_json()["games"] == backup["games"]
    finally:
        repo.close()
    assert unexpected_external(page) == []


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[AppServer]:
    repo = open_repository(tmp_path / "fresh")
    repo.create_game("umtali", ["Tandi", "Sam"])  # Thandi, mistyped at another table
    repo.close()
    server = AppServer(tmp_path / "fresh").start()
    try:
        yield server
    finally:
        server.stop()


@AT_PHONE
def test_demo_players_rules_and_theme(fresh_server: AppServer, page: Any) -> None:
    _open_settings(page, fresh_server.url)
    n = len(demo_games())
    page.get_by_test_id("settings-load-demo").click()
    _result(page, rf"^Demo games: {n} added, 0 already there\.$")
    page.get_by_test_id("settings-load-demo").click()
    _result(page, rf"^Demo games: 0 added, {n} already there\.$")

    # rename a player
    rename = page.get_by_test_id("settings-rename-Grace")
    rename.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    rename.click()
    field = page.get_by_role("textbox", name="New name")
    expect(field).to_be_visible(timeout=10_000)
    flutter_fill(page, field, "Gracie")
    page.get_by_test_id("settings-rename-ok").click()
    _result(page, r"^Grace is now Gracie\.$")
    # a player who sat at the same table cannot be merged: the dialog says why
    merge = page.get_by_test_id("settings-merge-Gracie")
    expect(merge).to_be_attached(timeout=10_000)
    merge.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    merge.click()
    page.get_by_test_id("settings-merge-into-Thandi").click()
    expect(page.get_by_text(re.compile(r"^Not merged: "))).to_be_visible(timeout=10_000)
    page.get_by_role("button", name="Cancel").click()
    # merge the duplicate Tandi into Thandi
    merge = page.get_by_test_id("settings-merge-Tandi")
    merge.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    merge.click()
    page.get_by_test_id("settings-merge-into-Thandi").click()
    _result(page, r"^Tandi's games now belong to Thandi\.$")
    expect(page.get_by_test_id("settings-player-Tandi")).not_to_be_attached()

    # default house rules: a preset, then a switch; saved in the data folder
    page.get_by_test_id("settings-rules-rummy").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.get_by_test_id("settings-rules-rummy").click()
    page.get_by_test_id("settings-preset-rummy-1").click()  # "Family"
    switch = page.get_by_test_id("settings-rule-rummy-going_rummy_double")
    expect(switch.get_by_role("switch")).to_be_checked(timeout=10_000)
    stable_screenshot(page, f"settings-rules-{page.size_name}")
    switch.click()
    expect(switch.get_by_role("switch")).not_to_be_checked(timeout=10_000)
    page.get_by_test_id("settings-rules-done").click()
    expect(page.get_by_test_id("settings-rules-rummy")).to_have_accessible_name(
        "Rummy house rules: Several melds a turn, Ace high or low", timeout=10_000
    )
    assert default_rules(fresh_server.data_dir, "rummy") == {
        "multi_meld": True,
        "ace_high_or_low": True,
    }

    # theme
    page.mouse.wheel(0, -3000)
    page.get_by_test_id("settings-theme-dark").click()
    expect(page.get_by_test_id("settings-theme-dark")).to_have_attribute(
        "aria-current", "true", timeout=10_000
    )
    stable_screenshot(page, f"settings-dark-{page.size_name}")
    page.get_by_test_id("settings-theme-light").click()
    assert unexpected_external(page) == []


def test_settings_desktop_dark_screenshot(fresh_server: AppServer, browser: Any) -> None:
    page = new_page(browser, {"width": 1280, "height": 800}, dark=True)
    try:
        _open_settings(page, fresh_server.url)
        stable_screenshot(page, "settings-desktop-system-dark")
    finally:
        page.context.close()
    page = new_page(browser, PHONE, dark=True)
    try:
        open_app(page, fresh_server.url + "check")
        expect(page.get_by_test_id("checker-verdict")).to_be_visible(timeout=20_000)
        for card in ("JH", "JD", "JS"):
            page.get_by_test_id(f"checker-cards-card-{card}").click()
            expect(page.get_by_test_id("checker-cards-chosen-0")).to_be_attached(timeout=10_000)
        expect(page.get_by_test_id("checker-rule-link")).to_be_visible(timeout=10_000)
        page.wait_for_timeout(500)
        stable_screenshot(page, "checker-phone-system-dark")
    finally:
        page.context.close()
