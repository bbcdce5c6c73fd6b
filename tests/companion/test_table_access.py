"""Table mode: the PIN, the host link, devices, and roles enforced where screens call.

Everything here runs without a browser; ``tests/browser/test_table.py`` drives the
same through real browser contexts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import access
from companion.access import (
    FIRST_WAIT,
    FREE_TRIES,
    TABLE_MISSES,
    Capability,
    Device,
    GuardedRepository,
    NotAllowed,
    Role,
    Table,
    new_pin,
)
from companion.backup import export_csv_bytes, export_json_bytes, import_backup_bytes
from companion.config import AppConfig
from companion.hub import TableHub
from companion.services import Services
from companion.session import GameSession
from companion.storage import GameRepository, MemoryRepository, StorageError
from tests.companion.tally import PLAYERS, _add, tally  # noqa: F401


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _table(pin: str = "204518") -> tuple[Table, Clock]:
    clock = Clock()
    return Table(pin=pin, clock=clock), clock


def test_a_pin_is_six_random_digits() -> None:
    pins = {new_pin() for _ in range(200)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 150
    assert len(Table().pin) == 6
    with pytest.raises(ValueError, match="6 digits"):
        Table(pin="12345")


def test_the_right_pin_joins_a_phone_and_its_token_lets_it_back_in() -> None:
    table, _ = _table()
    result = table.join("10.0.0.7", "204 518")  # spaces as people type them
    assert result.device is not None and result.device.role is Role.PHONE
    assert result.device.words == "Phone 1" and result.token
    assert table.device(result.token) is result.device  # a reload: no question
    assert table.device("not-a-token") is None and table.device(None) is None
    second = table.join("10.0.0.8", "204518").device
    assert second is not None and second.words == "Phone 2"


def test_wrong_pins_five_tries_then_a_wait_that_grows_and_is_per_client() -> None:
    table, clock = _table()
    for n in range(1, FREE_TRIES):
        result = table.join("10.0.0.7", "000000")
        assert result.device is None and result.wait == 0
        assert f"{FREE_TRIES - n} more tr" in result.refusal
    result = table.join("10.0.0.7", "000000")
    assert result.wait == FIRST_WAIT and "wait 30 s" in result.refusal
    # while waiting, even the right PIN is not looked at
    assert table.join("10.0.0.7", "204518").device is None
    assert table.join("10.0.0.9", "204518").device is not None  # another client is not held up
    clock.now += FIRST_WAIT
    result = table.join("10.0.0.7", "111111")
    assert result.wait == 2 * FIRST_WAIT  # each miss after the free tries doubles the wait
    clock.now += 2 * FIRST_WAIT
    assert table.join("10.0.0.7", "204518").device is not None
    # a phone getting in does not wipe the count (else one join resets a guesser's budget)
    assert table.join("10.0.0.7", "000000").wait == 4 * FIRST_WAIT


def test_pins_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, Any]] = []
    real = access.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(access.hmac, "compare_digest", spy)
    table, _ = _table()
    table.join("10.0.0.7", "123456")
    assert calls == [(b"123456", b"204518")]


def test_the_host_link_works_once() -> None:
    table, _ = _table()
    link = table.host_link()
    first = table.claim_host(link)
    assert first.device is not None and first.device.role is Role.HOST
    assert first.device.can(Capability.RUN_TABLE)
    again = table.claim_host(link)
    assert again.device is None and "already used" in again.refusal
    assert table.claim_host("guess").device is None


def test_ending_the_table_drops_every_phone_and_changes_the_pin() -> None:
    table, _ = _table()
    host = table.claim_host(table.host_link())
    phone = table.join("10.0.0.7", "204518")
    assert host.device is not None and phone.device is not None
    heard: list[int] = []
    keep = lambda: heard.append(table.revision)  # noqa: E731 (held: listeners are weak)
    table.subscribe(keep)
    with pytest.raises(NotAllowed):
        table.end(phone.device)  # a phone cannot end the table
    pin = table.end(host.device)
    assert pin != "204518" and table.pin == pin and heard
    assert not phone.device.active and table.device(phone.token) is None
    assert table.device(host.token) is host.device
    assert table.join("10.0.0.7", "204518").device is None  # the old PIN is gone
    assert [d.role for d in table.devices()] == [Role.HOST]


# ---- roles, enforced where the screens call --------------------------------------------


def _phone_services(hub: TableHub) -> tuple[Services, Table]:
    table, _ = _table()
    services = Services.at_table(AppConfig(), hub, table)
    joined = table.join("10.0.0.7", "204518").device
    assert joined is not None
    services.admit(joined)
    return services, table


def _backup(repo: GameRepository) -> bytes:
    other = MemoryRepository()
    other.create_game("rummy", ["Zed", "Yan"])
    return export_json_bytes(other)


@pytest.mark.parametrize(
    ("handler", "need"),
    [
        (lambda s, gid: s.repo.delete_game(gid), Capability.DELETE),
        (lambda s, gid: s.repo.restore_game(gid), Capability.DELETE),
        (lambda s, gid: s.repo.list_trash(), Capability.DELETE),
        (lambda s, gid: export_json_bytes(s.repo), Capability.BACKUP),
        (lambda s, gid: export_csv_bytes(s.repo), Capability.BACKUP),
        (lambda s, gid: import_backup_bytes(s.repo, _backup(s.repo)), Capability.BACKUP),
        (lambda s, gid: s.repo.rename_player("Ann", "Anna"), Capability.PLAYERS),
        (lambda s, gid: s.repo.merge_players("Ann", "Bob"), Capability.PLAYERS),
        (lambda s, gid: s.repo.quarantine_notes(), Capability.SETTINGS),  # unknown: host-only
        (lambda s, gid: s.require(Capability.SETTINGS), Capability.SETTINGS),
        (lambda s, gid: s.require(Capability.DATA_PATH), Capability.DATA_PATH),
    ],
)
def test_a_phone_is_refused_host_only_work_even_when_it_calls_the_handler_directly(
    handler: Any, need: Capability
) -> None:
    repo = MemoryRepository()
    gid = repo.create_game("rummy", ["Ann", "Bob"]).id
    before = json.dumps(repo.export_json()["games"])
    services, _ = _phone_services(TableHub(repo))
    with pytest.raises(NotAllowed, match=f"Only the host can {need.value}"):
        handler(services, gid)
    assert json.dumps(repo.export_json()["games"]) == before
    assert isinstance(NotAllowed("x"), StorageError)  # screens show it like any refusal


def test_a_phone_plays_but_does_not_see_the_data_folder(tmp_path: Any) -> None:
    from companion.storage import open_repository

    repo = open_repository(tmp_path)
    try:
        services, _ = _phone_services(TableHub(repo))
        assert services.repo.data_dir is None and services.repo.problems == []
        assert services.repo.problem_reports() == []  # notes name files: Home still draws
        game = services.repo.create_game("rummy", ["Ann", "Bob"])
        assert [g.id for g in services.repo.list_games()] == [game.id]
        assert services.repo.get_game(game.id).players == ["Ann", "Bob"]
        assert services.can(Capability.PLAY) and not services.can(Capability.SETTINGS)
    finally:
        repo.close()


def test_the_host_may_do_everything_and_without_a_table_the_one_device_is_the_host() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    gid = repo.create_game("rummy", ["Ann", "Bob"]).id
    table, _ = _table()
    services = Services.at_table(AppConfig(), hub, table)
    host = table.claim_host(table.host_link()).device
    assert host is not None
    services.admit(host)
    services.repo.delete_game(gid)
    assert services.repo.list_trash()[0].id == gid
    solo = Services(config=AppConfig(), hub=hub)
    assert all(solo.can(c) for c in Capability)


@pytest.mark.usefixtures("tally")
def test_before_joining_and_after_the_table_ends_a_device_may_do_nothing() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    table, _ = _table()
    services = Services.at_table(AppConfig(), hub, table)
    with pytest.raises(NotAllowed, match="not at the table"):
        services.repo.list_games()
    host = table.claim_host(table.host_link()).device
    phone = table.join("10.0.0.7", "204518").device
    assert host is not None and phone is not None
    services.admit(phone)
    gid = services.repo.create_game("tally", PLAYERS).id
    session = services.open_game(gid)
    table.end(host)
    assert services.gate.state == "pin" and "ended the table" in services.gate.message
    with pytest.raises(NotAllowed):
        services.repo.get_game(gid)
    refusal = session.add(_add("Ann", 1))
    assert refusal is not None and "not at the table" in refusal.message
    assert repo.get_game(gid).actions == []


@pytest.mark.usefixtures("tally")
def test_a_seat_is_the_name_others_read_and_hides_other_private_hands() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    services, table = _phone_services(hub)
    gid = services.repo.create_game("tally", PLAYERS).id
    session = services.open_game(gid)
    services.opened(session)
    assert session.seat is None and not session.private_view("Ann")
    services.set_seat("Ann")
    assert session.seat == "Ann" and session.who.words == "Ann"
    assert session.private_view("Ann") and not session.private_view("Bob")
    assert [d.seat for d in table.devices()] == ["Ann"]
    alone = GameSession.open(hub, gid)  # one screen, no table: every hand may show
    assert alone.private_view("Ann") and alone.private_view("Bob")


def test_device_words() -> None:
    assert Device(id="h", role=Role.HOST, at_table=True).words == "The host"
    assert Device(id="p", role=Role.PHONE, number=3, at_table=True).words == "Phone 3"
    assert Device(id="p", role=Role.PHONE, number=3, seat="Cy", at_table=True).words == "Cy"
    assert Device(id="s", role=Role.HOST).words == "Another window"


def test_guard_is_a_view_of_the_hubs_history_and_a_phone_shares_the_hosts_hub() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    services, table = _phone_services(hub)
    host = Services(config=AppConfig(), hub=hub)
    assert isinstance(services.repo, GuardedRepository) and services.repo.inner is repo
    assert services.hub is host.hub is hub  # handed the same hub, not looked up
    gid = host.repo.create_game("rummy", ["Ann", "Bob"]).id
    assert services.open_game(gid).live is GameSession.open(hub, gid).live
    # a history that is not the hub's (nor a guarded view of it) is refused
    with pytest.raises(ValueError, match="the hub's own"):
        GameSession.open(hub, gid, repo=MemoryRepository())
    with pytest.raises(ValueError, match="the hub's own"):
        GameSession.open(TableHub(MemoryRepository()), gid, repo=services.repo)


@pytest.mark.usefixtures("tally")
def test_one_phone_per_seat_a_taken_seat_is_refused_and_the_host_can_free_it() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    table, _ = _table()
    ann_phone, other_phone = (Services.at_table(AppConfig(), hub, table) for _ in range(2))
    host = table.claim_host(table.host_link()).device
    first, second = (table.join(f"10.0.0.{n}", "204518").device for n in (7, 8))
    assert host is not None and first is not None and second is not None
    ann_phone.admit(first)
    other_phone.admit(second)
    gid = ann_phone.repo.create_game("tally", PLAYERS).id
    mine = ann_phone.open_game(gid)
    theirs = other_phone.open_game(gid)
    ann_phone.opened(mine)
    other_phone.opened(theirs)
    assert ann_phone.set_seat("Ann") == ""
    refusal = other_phone.set_seat("Ann")  # "I am Ann" on a second phone
    assert refusal.startswith("Ann's seat is taken on another phone")
    assert second.seat is None and not theirs.private_view("Ann") and mine.private_view("Ann")
    assert [d.seat for d in table.devices()].count("Ann") == 1
    assert ann_phone.set_seat("Ann") == ""  # sitting down again where one sits is fine
    with pytest.raises(NotAllowed):
        table.free_seat(second, first.id)  # a phone cannot free another's seat
    table.free_seat(host, first.id)  # the host frees it: Ann's phone no longer shows her hand
    assert first.seat is None and not mine.private_view("Ann")
    assert other_phone.set_seat("Ann") == "" and theirs.private_view("Ann")
    assert not mine.private_view("Ann")


# ---- kept through a restart (issue 19 item 3) -------------------------------------------


def test_the_table_is_kept_in_the_data_folder_and_a_restart_keeps_everyone_joined(
    tmp_path: Path,
) -> None:
    path = tmp_path / "table.json"
    table = Table.open(path, pin="204518")
    host = table.claim_host(table.host_link())
    ann = table.join("10.0.0.7", "204518")
    bob = table.join("10.0.0.8", "204518")
    assert host.device is not None and ann.device is not None and bob.device is not None
    assert table.set_seat(ann.device, "Ann") == ""
    kept = path.read_text()
    for secret in (host.token, ann.token, bob.token):
        assert secret not in kept  # only hashes of tokens are kept
    assert path.stat().st_mode & 0o077 == 0  # the PIN is in it: this user's only

    again = Table.open(path)  # a crash, a restart: no --pin, the same table
    assert again.pin == "204518"
    back_host, back_ann = again.device(host.token), again.device(ann.token)
    assert back_host is not None and back_host.role is Role.HOST and back_host.id == host.device.id
    assert back_ann is not None and back_ann.seat == "Ann" and back_ann.words == "Ann"
    assert again.seat_holder("Ann") is back_ann  # still one phone per seat
    third = again.join("10.0.0.9", "204518").device
    assert third is not None and third.number == 3  # numbers go on, never reused

    pin = again.end(back_host)  # End the table: for good, also through a restart
    after = Table.open(path)
    assert after.pin == pin and after.device(ann.token) is None and after.device(bob.token) is None
    assert after.device(host.token) is not None
    assert Table.open(path, pin="111111").pin == "111111"  # a PIN given at the start wins


def test_a_table_file_that_cannot_be_read_starts_a_new_table(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text("{not json")
    table = Table.open(path, pin="204518")
    assert table.pin == "204518" and table.devices() == []
    assert Table.open(path).pin == "204518"  # and it is kept from then on


# ---- PIN limits that hold (issue 19 item 5) ---------------------------------------------


def test_wrong_pins_still_count_after_the_table_is_ended() -> None:
    table, _ = _table()
    host = table.claim_host(table.host_link()).device
    assert host is not None
    for _ in range(FREE_TRIES):
        table.join("10.0.0.7", "000000")
    table.end(host)
    result = table.join("10.0.0.7", table.pin)
    assert result.device is None and "wait" in result.refusal


def test_a_table_wide_budget_holds_against_guesses_from_ever_new_addresses(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "table.json", pin="204518")
    host = table.claim_host(table.host_link()).device
    assert host is not None
    for n in range(TABLE_MISSES):  # a forged address per guess: each one's own count is 1
        assert table.join(f"10.1.{n // 250}.{n % 250}", f"{n:06d}").device is None
    refused = table.join("10.0.0.7", "204518")  # even the right PIN, from a new address
    assert refused.device is None and "Ask the host" in refused.refusal
    assert Table.open(tmp_path / "table.json").locked  # a restart does not reset it
    with pytest.raises(NotAllowed):
        table.let_phones_try(Device(id="p", role=Role.PHONE, at_table=True))
    table.let_phones_try(host)
    assert table.join("10.0.0.7", "204518").device is not None
