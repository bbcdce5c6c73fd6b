"""Table mode in real browsers: one server, several Playwright browser contexts (devices).

Each context shares nothing with the others (cookies, client storage), like separate
phones.  Every wait is on a condition (a node appearing, a label reading something),
never a fixed sleep.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.access import TABLE_MISSES, NotAllowed
from companion.backup import export_json_bytes, import_backup_bytes
from companion.storage import MemoryRepository
from tests.browser.conftest import DESKTOP, PHONE, new_page, stable_screenshot
from tests.browser.table_server import T, TableServer, arrive, keep_failure, said, type_pin


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableServer]:
    running = TableServer(tmp_path_factory.mktemp("table")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def devices(
    request: pytest.FixtureRequest, browser: Any, server: TableServer
) -> Iterator[list[Any]]:
    """Pages opened by a test (each its own browser context), closed after it; on a
    failure each one's screenshot and accessibility tree are kept in artifacts/."""
    opened: list[Any] = []
    server.table._tries.clear()  # every test starts with no wrong PINs counted
    server.table._table_misses = 0
    yield opened
    for n, page in enumerate(opened):
        keep_failure(page, f"{request.node.name}-device{n}")  # the last run's, for people
        page.context.close()


TABLET = {"width": 760, "height": 520}


def _device(browser: Any, devices: list[Any], size: dict[str, int] = PHONE) -> Any:
    page = new_page(browser, size)
    devices.append(page)
    return page


def _home(page: Any) -> None:
    expect(page.get_by_role("button", name="History")).to_be_visible(timeout=T)


def test_a_phone_without_the_host_token_sees_the_pin_screen_and_a_reload_keeps_it_in(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    phone = _device(browser, devices)
    arrive(phone, server.url)
    expect(phone.get_by_role("button", name="Join")).to_be_visible(timeout=T)
    expect(phone.get_by_role("button", name="History")).to_have_count(0)
    type_pin(phone, "111111")
    said(phone, "pin-message", "That is not the PIN. 4 more tries")
    type_pin(phone, server.table.pin)
    _home(phone)
    phone.reload()  # the device token in its client storage lets it back in
    arrive(phone, server.url)
    _home(phone)
    expect(phone.get_by_role("button", name="Join")).to_have_count(0)

    host = _device(browser, devices, TABLET)
    arrive(host, server.host_url())
    said(host, "table-pin", f"PIN {server.table.pin}")
    expect(host.get_by_role("img", name=f"QR code of {server.url}")).to_be_visible(timeout=T)
    expect(host.get_by_text("At the table: 1 phone")).to_be_visible(timeout=T)
    stable_screenshot(host, "table-host")  # docs/table-host.png


def test_wrong_pins_are_refused_and_then_rate_limited(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    phone = _device(browser, devices)
    arrive(phone, server.url)
    for left in (4, 3, 2, 1):
        type_pin(phone, "000000")
        said(phone, "pin-message", f"That is not the PIN. {left} more tr")
    type_pin(phone, "000000")
    said(phone, "pin-message", "Too many wrong PINs: wait 30 s")
    type_pin(phone, server.table.pin)  # even the right PIN waits its turn
    said(phone, "pin-message", "Too many wrong PINs: wait")
    expect(phone.get_by_role("button", name="History")).to_have_count(0)


def test_host_only_work_is_refused_for_a_phone_even_when_the_request_is_forged(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    game = server.repo.create_game("rummoli", ["Ann", "Bob"])
    phone = _device(browser, devices)
    arrive(phone, server.url + "settings")
    type_pin(phone, server.table.pin)
    said(phone, "host-only", "Only the host can change settings")
    expect(phone.get_by_text("Data folder", exact=False)).to_have_count(0)

    # Forged: call what the settings and history screens call, in the phone's own session.
    phone_services = server.services_of(f"Phone {server.table.devices()[-1].number}")
    other = MemoryRepository()
    other.create_game("umtali", ["Zed", "Yan"])
    forged = [
        lambda: phone_services.repo.delete_game(game.id),
        lambda: import_backup_bytes(phone_services.repo, export_json_bytes(other)),
        lambda: export_json_bytes(phone_services.repo),
        lambda: phone_services.repo.rename_player("Ann", "Mallory"),
        lambda: phone_services.repo.merge_players("Ann", "Bob"),
    ]
    for call in forged:
        with pytest.raises(NotAllowed, match="Only the host can"):
            call()
    assert phone_services.repo.data_dir is None
    assert server.repo.get_game(game.id).players == ["Ann", "Bob"]
    assert [g.id for g in server.repo.list_games(limit=50)].count(game.id) == 1

    host = _device(browser, devices, DESKTOP)
    arrive(host, server.host_url())
    said(host, "table-pin", "PIN")
    arrive(host, server.url + "settings")  # a reload: the host's token lets it back in
    expect(host.get_by_role("textbox", name=f"Data folder: {server.data_dir}")).to_be_visible(
        timeout=T
    )


def test_ending_the_table_drops_every_phone(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    phone = _device(browser, devices)
    arrive(phone, server.url)
    type_pin(phone, server.table.pin)
    _home(phone)
    host = _device(browser, devices, DESKTOP)
    arrive(host, server.host_url())
    old_pin = server.table.pin
    host.get_by_role("button", name="End the table").click()
    host.get_by_role("button", name="End it").click()
    said(host, "table-message", "every phone left")
    assert server.table.pin != old_pin
    said(host, "table-pin", f"PIN {server.table.pin}")
    said(phone, "pin-message", "The host ended the table")  # without a reload
    phone.reload()
    arrive(phone, server.url)
    expect(phone.get_by_role("button", name="Join")).to_be_visible(timeout=T)


def test_a_phone_on_home_sees_a_game_the_host_starts_and_no_request_leaves_the_table(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    """Issue 18: "Continue" appears on a phone sitting on Home when the host starts a game,
    without a reload.  Issue 19: host-only controls are not drawn on a phone, and every
    request either device makes stays at the table (outside ones are blocked and counted:
    none, not even Flet's Rive runtime from a CDN)."""
    from companion.session import GameSession

    phone = _device(browser, devices)
    arrive(phone, server.url)
    type_pin(phone, server.table.pin)
    _home(phone)
    expect(phone.get_by_role("button", name="Settings")).to_have_count(0)  # host-only
    host = _device(browser, devices, DESKTOP)
    arrive(host, server.host_url())
    said(host, "table-pin", "PIN")
    started = GameSession.start(server.hub, "umtali", ["Ann", "Bob"], {})  # the host starts
    gid = started.game_id
    tile = phone.get_by_test_id(f"continue-{gid}")
    expect(tile).to_have_count(1, timeout=T)  # no reload
    arrive(phone, f"{server.url}history/{gid}")
    expect(phone.get_by_role("button", name="Continue")).to_be_visible(timeout=T)
    expect(phone.get_by_test_id("detail-delete")).to_have_count(0)  # host-only
    arrive(host, f"{server.url}history/{gid}")
    expect(host.get_by_test_id("detail-delete")).to_be_visible(timeout=T)
    for page in (phone, host):
        page.wait_for_load_state("networkidle")
        assert page.external_requests == [], page.external_requests


# ---- the host's controls on the table screen ----------------------------------------------


def _phone_at_game(browser: Any, devices: list[Any], server: TableServer, gid: str) -> Any:
    phone = _device(browser, devices)
    arrive(phone, f"{server.url}play/{gid}")
    type_pin(phone, server.table.pin)
    expect(phone.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
    return phone


def _sit(phone: Any, player: str) -> None:
    phone.get_by_test_id("seat").click()  # "This device: … Change"
    phone.get_by_test_id(f"seat-{player}").click()  # "I am …"


def test_the_host_frees_a_seat_and_another_phone_may_take_it(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    """Ann's phone is put away (or sits in the wrong place): the host frees Ann's seat on
    the table screen; her hand leaves that phone at once, and another phone may sit there."""
    from companion.session import GameSession

    opening = [{"type": "start_hand", "dealer": "Ann"}]
    gid = GameSession.start(server.hub, "umtali", ["Ann", "Bob"], {}, opening).game_id
    first = _phone_at_game(browser, devices, server, gid)
    _sit(first, "Ann")
    expect(first.get_by_role("button", name="This device: Ann. Change")).to_have_count(1)
    (ann,) = [d for d in server.table.devices() if d.seat == "Ann"]
    second = _phone_at_game(browser, devices, server, gid)

    host = _device(browser, devices, TABLET)
    arrive(host, server.host_url())  # the table screen
    said(host, f"device-{ann.id}", rf"Ann \(phone {ann.number}\)")
    host.get_by_role("button", name="Free Ann's seat").click()
    said(host, f"device-{ann.id}", rf"^\s*Phone {ann.number}\b")  # no seat now
    expect(host.get_by_test_id("free-seat-Ann")).to_have_count(0)
    # Ann's phone hears it without a reload: it is just watching now
    expect(first.get_by_role("button", name="This device: just watching. Change")).to_have_count(
        1, timeout=T
    )
    _sit(second, "Ann")  # the seat is free: another phone may take it
    expect(second.get_by_role("button", name="This device: Ann. Change")).to_have_count(1)
    holder = server.table.seat_holder("Ann")
    assert holder is not None and holder is not ann and ann.seat is None
    said(host, f"device-{holder.id}", rf"Ann \(phone {holder.number}\)")


def test_past_the_tables_wrong_pin_budget_the_host_lets_new_phones_try(
    browser: Any, server: TableServer, devices: list[Any]
) -> None:
    """Wrong PINs from many addresses (a guesser changing address) use up the table's
    budget: no PIN is looked at, the right one neither, until the host lets phones try."""
    for n in range(TABLE_MISSES):
        assert server.table.join(f"10.9.0.{n + 1}", "000000").device is None
    assert server.table.locked
    phone = _device(browser, devices)
    arrive(phone, server.url)
    type_pin(phone, server.table.pin)
    said(phone, "pin-message", "Too many wrong PINs were typed at this table")
    expect(phone.get_by_role("button", name="History")).to_have_count(0)

    host = _device(browser, devices, TABLET)
    arrive(host, server.host_url())  # the table screen
    said(host, "table-locked", f"{TABLE_MISSES} wrong PINs were typed at this table")
    host.get_by_role("button", name="Let new phones try").click()
    said(host, "table-message", "New phones may try the PIN again")
    expect(host.get_by_test_id("table-locked")).to_have_count(0)
    expect(host.get_by_role("button", name="Let new phones try")).to_have_count(0)
    assert not server.table.locked
    type_pin(phone, server.table.pin)
    _home(phone)
