"""What only the on-disk store can get wrong: crashes, two writers, damaged and newer files."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from tinydb import Query, TinyDB

from companion.storage import (
    AtomicJSONStorage,
    GameNotFoundError,
    NewerVersionError,
    StorageError,
    TinyDbRepository,
    models,
    open_repository,
)
from companion.storage import migrations as storage_migrations
from companion.storage.folder import STORE_FORMAT
from tests.companion import crash_writer

FORK = multiprocessing.get_context("fork")


def game_file(repo: TinyDbRepository, gid: str) -> Path:
    return repo.data_dir / "games" / f"{gid}.json"


# ---- the custom TinyDB storage ---------------------------------------------------------
def test_atomic_storage_works_as_a_tinydb_storage(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    with TinyDB(path, storage=AtomicJSONStorage) as db:
        db.insert({"name": "Ann", "score": 3})
        db.insert({"name": "Bob", "score": 5})
        assert db.search(Query().score > 4) == [{"name": "Bob", "score": 5}]
    assert json.loads(path.read_text())["_default"]["1"] == {"name": "Ann", "score": 3}
    assert list(tmp_path.iterdir()) == [path]


def test_failed_write_keeps_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.insert({"n": 1})
    before = path.read_bytes()

    def boom(src: Any, dst: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        db.insert({"n": 2})
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]


def dead_pid() -> int:
    child = FORK.Process(target=int)
    child.start()
    child.join()
    assert child.pid is not None
    return child.pid


def test_stale_temp_files_of_a_dead_writer_are_cleaned_on_open(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    repo.close()
    assert not list(tmp_path.glob(".writer-*"))  # a clean close leaves no marker
    gone = dead_pid()  # never a fixed number: on another machine PID 999 may be alive
    stale = tmp_path / "games" / f".{g.id}.json.{gone}.abcd.tmp"
    stale.write_text('{"half": ')
    live = tmp_path / "games" / f".{g.id}.json.{os.getpid()}.abcd.tmp"  # a live writer's: kept
    live.write_text('{"half": ')
    other = tmp_path / "notes.tmp"  # not ours: kept
    other.write_text("x")
    marker = tmp_path / f".writer-{gone}-abcd"  # what a killed writer leaves
    marker.touch()
    reopened = open_repository(tmp_path)
    assert not stale.exists() and not marker.exists()
    assert other.exists() and live.exists()
    assert reopened.get_game(g.id) == g


def test_save_an_entry_touches_only_that_games_file(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    ids = [repo.create_game("rummy", ["Ann", "Bob"]).id for _ in range(5)]

    def files() -> dict[Path, int]:
        return {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}

    for p in files():  # an old stamp: a write shows however coarse the file system's clock
        os.utime(p, ns=(1_000_000_000, 1_000_000_000))
    stamps = files()
    repo.append_action(ids[2], {"type": "x"})
    repo.append_action(ids[2], {"type": "y"})
    changed = {p for p, t in files().items() if t != stamps.get(p)}
    # one game: one line appended to its action log per entry, nothing else written
    assert changed == {game_file(repo, ids[2]).with_suffix(".log")}


# ---- damaged files ---------------------------------------------------------------------
@pytest.mark.parametrize("damage", [b"", b'{"meta": {"1": {"schema_ve', b"\x00\xff garbage"])
def test_damaged_game_is_quarantined_and_named(tmp_path: Path, damage: bytes) -> None:
    repo = open_repository(tmp_path)
    ok = repo.create_game("rummy", ["Cy"])
    bad = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(bad.id, {"type": "x"})
    game_file(repo, bad.id).write_bytes(damage)

    fresh = open_repository(tmp_path)
    with pytest.raises(StorageError) as err:
        fresh.get_game(bad.id)
    assert not isinstance(err.value, GameNotFoundError)
    [problem] = fresh.problems
    assert f"The umtali game of {bad.created[:10]} with Ann, Bob could not be read" in problem
    assert "quarantine" in problem
    kept = list((tmp_path / "quarantine").glob("*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == damage and bad.id in kept[0].name
    assert open_repository(tmp_path).quarantine_notes() == [problem]  # told in later sessions
    assert [i.id for i in fresh.list_games()] == [ok.id]
    assert fresh.get_game(ok.id) == ok
    with pytest.raises(GameNotFoundError):
        fresh.get_game(bad.id)


def test_game_with_invalid_content_is_quarantined(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    data = json.loads(game_file(repo, g.id).read_text())
    data["game"]["1"]["status"] = "exploded"
    game_file(repo, g.id).write_text(json.dumps(data))
    with pytest.raises(StorageError, match="could not be read"):
        repo.append_action(g.id, {"type": "x"})
    assert repo.list_games() == []
    assert len(list((tmp_path / "quarantine").glob("*.json"))) == 1


def test_damaged_index_is_quarantined_and_rebuilt(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    ids = [repo.create_game("rummy", ["Ann"]).id for _ in range(3)]
    [shard] = (tmp_path / "index").glob("*.json")
    shard.write_bytes(shard.read_bytes()[:40])
    fresh = open_repository(tmp_path)
    assert [i.id for i in fresh.list_games()] == ids[::-1]
    assert len(fresh.problems) == 1 and "history index" in fresh.problems[0]
    assert len(list((tmp_path / "quarantine").glob("*.json"))) == 1


def test_damaged_player_list_is_quarantined(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    (tmp_path / "players.json").write_text("[1, 2")
    fresh = open_repository(tmp_path)
    assert fresh.list_players() == []
    assert "player list could not be read" in fresh.problems[0]
    assert fresh.get_game(g.id) == g
    fresh.add_player("Bob")
    assert [p.name for p in fresh.list_players()] == ["Bob"]


def test_check_all_reports_every_damaged_game(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    gs = [repo.create_game("rummy", [f"P{i}"]) for i in range(4)]
    for g in gs[:2]:
        game_file(repo, g.id).write_text("{")
    problems = open_repository(tmp_path).check_all()
    assert len(problems) == 2
    assert any("P0" in p for p in problems) and any("P1" in p for p in problems)


# ---- versions and migrations ------------------------------------------------------------
def test_newer_game_file_is_refused_and_untouched(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("umtali", ["Ann", "Bob"])
    data = json.loads(game_file(repo, g.id).read_text())
    data["meta"]["1"]["schema_version"] = 99
    raw = json.dumps(data).encode()
    game_file(repo, g.id).write_bytes(raw)
    with pytest.raises(NewerVersionError, match="newer version of Rummy Companion"):
        repo.get_game(g.id)
    with pytest.raises(NewerVersionError):
        repo.append_action(g.id, {"type": "x"})
    assert game_file(repo, g.id).read_bytes() == raw
    assert "The umtali game of" in repo.problems[0] and "untouched" in repo.problems[0]
    assert [i.id for i in repo.list_games()] == [g.id]


def test_newer_store_is_refused_on_open(tmp_path: Path) -> None:
    open_repository(tmp_path).create_game("rummy", ["Ann"])
    raw = b'{"meta": {"1": {"schema_version": 7, "kind": "store"}}}'
    (tmp_path / "format.json").write_bytes(raw)
    with pytest.raises(NewerVersionError, match="format 7"):
        open_repository(tmp_path)
    assert (tmp_path / "format.json").read_bytes() == raw


def test_old_files_are_migrated_on_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "x"})

    def game_v1_to_v2(tables: dict[str, Any]) -> dict[str, Any]:
        header = tables["game"]["1"]
        header["rules"] = {**header["rules"], "migrated": True}
        header["schema_version"] = 2
        return tables

    def same(tables: dict[str, Any]) -> dict[str, Any]:
        return tables

    monkeypatch.setattr(models, "STORAGE_SCHEMA_VERSION", 2)
    monkeypatch.setitem(storage_migrations.MIGRATIONS, ("game", 1), game_v1_to_v2)
    monkeypatch.setitem(storage_migrations.MIGRATIONS, ("index", 1), same)
    monkeypatch.setitem(storage_migrations.MIGRATIONS, ("players", 1), same)
    upgraded = open_repository(tmp_path)
    on_disk = json.loads(game_file(upgraded, g.id).read_text())
    assert on_disk["meta"]["1"]["schema_version"] == 2
    assert on_disk["game"]["1"]["rules"] == {"migrated": True}
    marker = json.loads((tmp_path / "format.json").read_text())["meta"]["1"]
    assert marker["schema_version"] == STORE_FORMAT
    assert upgraded.get_game(g.id).actions == [{"type": "x"}]
    assert upgraded.problems == []


def test_journal_repairs_a_stale_index_line(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    # a crash after the game file was written but before its index line was
    data = json.loads(game_file(repo, g.id).read_text())
    data["game"]["1"]["status"] = "finished"
    game_file(repo, g.id).write_text(json.dumps(data))
    (tmp_path / "journal.json").write_text(json.dumps({"ids": {"1": {"ids": [g.id]}}}))
    assert [i.status for i in open_repository(tmp_path).list_games()] == ["finished"]
    assert not (tmp_path / "journal.json").exists()


# ---- crashes ---------------------------------------------------------------------------------
def test_sigkill_at_random_moments_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    data, acks = tmp_path / "data", tmp_path / "acks.txt"
    rng = random.Random(6)
    open_repository(data)
    trials = 30
    for trial in range(trials):
        assert crash_writer.kill_while_saving(str(data), str(acks), [trial], rng) == [-9]
    counts = crash_writer.check_store(str(data), str(acks))
    assert counts["acked"] >= trials, counts  # every child really was saving when killed


def test_sigkill_two_writers_at_once(tmp_path: Path) -> None:
    data, acks = tmp_path / "data", tmp_path / "acks.txt"
    rng = random.Random(7)
    open_repository(data)
    for trial in range(8):
        codes = crash_writer.kill_while_saving(str(data), str(acks), [trial, 100 + trial], rng)
        assert codes == [-9, -9]
    crash_writer.check_store(str(data), str(acks))


# ---- two writers ------------------------------------------------------------------------------
def _append_many(data_dir: str, shared: str, own: str, tag: str, n: int) -> None:
    repo = TinyDbRepository(Path(data_dir))
    for i in range(n):
        repo.append_action(shared, {"type": "entry", "by": tag, "n": i})
        repo.append_action(own, {"type": "entry", "by": tag, "n": i})
        if i % 10 == 0:
            repo.set_summary(own, {"hands": [{}] * i}, "in_progress")


def _check_two_writers(repo: TinyDbRepository, shared: str, own: dict[str, str], n: int) -> None:
    actions = repo.get_game(shared).actions
    assert len(actions) == 2 * n
    for tag, gid in own.items():
        assert [a["n"] for a in actions if a["by"] == tag] == list(range(n))
        assert [a["n"] for a in repo.get_game(gid).actions] == list(range(n))
        [item] = [i for i in repo.list_games() if i.id == gid]
        assert item.hands == (n - 1) // 10 * 10


def test_two_processes_writing_lose_nothing(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    shared = repo.create_game("umtali", ["Ann", "Bob"]).id
    own = {tag: repo.create_game("rummy", [tag]).id for tag in ("A", "B")}
    n = 60
    procs = [
        FORK.Process(target=_append_many, args=(str(tmp_path), shared, gid, tag, n))
        for tag, gid in own.items()
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    _check_two_writers(open_repository(tmp_path), shared, own, n)


def test_two_threads_writing_lose_nothing(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    shared = repo.create_game("umtali", ["Ann", "Bob"]).id
    own = {tag: repo.create_game("rummy", [tag]).id for tag in ("A", "B")}
    n = 40
    errors: list[BaseException] = []

    def run(tag: str) -> None:
        try:
            _append_many(str(tmp_path), shared, own[tag], tag, n)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(tag,)) for tag in own]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    _check_two_writers(repo, shared, own, n)


def test_one_repository_shared_by_threads(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    gid = repo.create_game("umtali", ["Ann"]).id
    counts: list[int] = []

    def run(tag: int) -> None:
        for i in range(25):
            counts.append(repo.append_action(gid, {"type": "entry", "by": tag, "n": i}))

    threads = [threading.Thread(target=run, args=(t,)) for t in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(counts) == list(range(1, 76))
    assert len(open_repository(tmp_path).get_game(gid).actions) == 75


def test_unusable_folder_is_a_plain_storage_error(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.raises(StorageError, match="cannot use .*file for the game history"):
        open_repository(not_a_folder)


def test_damaged_game_in_trash_is_quarantined(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    repo.delete_game(g.id)
    trashed = tmp_path / "trash" / f"{g.id}.json"
    data = json.loads(trashed.read_text())
    del data["game"]["1"]["players"]
    trashed.write_text(json.dumps(data))
    with pytest.raises(StorageError, match="could not be read"):
        repo.restore_game(g.id)
    assert not trashed.exists() and len(list((tmp_path / "quarantine").glob("*.json"))) == 1
    assert repo.list_trash() == [] and repo.list_games() == []


def test_newer_index_month_is_never_overwritten(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    g = repo.create_game("rummy", ["Ann"])
    [shard] = (tmp_path / "index").glob("*.json")
    data = json.loads(shard.read_text())
    data["meta"]["1"]["schema_version"] = 42
    raw = json.dumps(data).encode()
    shard.write_bytes(raw)
    assert repo.list_games() == []  # cannot read it, says so
    assert any("newer version" in p for p in repo.problems)
    with pytest.raises(NewerVersionError):
        repo.create_game("rummy", ["Bob"])  # same month: refused rather than overwritten
    with pytest.raises(NewerVersionError):
        repo.set_summary(g.id, {"hands": []}, "finished")
    assert [p.stem for p in (tmp_path / "games").glob("*.json")] == [g.id]
    assert not (tmp_path / "journal.json").exists()
    repo.rebuild_index()
    assert shard.read_bytes() == raw
    assert repo.get_game(g.id) == g


# ---- the writer lock ---------------------------------------------------------------------
def _hold_lock(folder: str, held: Any) -> None:
    """Take the folder's lock, say so, and keep it until killed."""
    import time

    from companion.storage.locking import folder_lock

    with folder_lock(Path(folder)).hold():
        held.set()
        time.sleep(60)


def _holder(folder: Path, held: Any) -> Any:
    child = FORK.Process(target=_hold_lock, args=(str(folder), held))
    child.start()
    return child


def test_the_writer_lock_keeps_another_process_out_and_a_killed_holder_frees_it(
    tmp_path: Path,
) -> None:
    from companion.storage.locking import folder_lock

    lock = folder_lock(tmp_path)
    with lock.hold():  # opened once in this process before the child is forked
        pass
    held = FORK.Event()
    child = _holder(tmp_path, held)
    try:
        assert held.wait(30)
        with pytest.raises(StorageError, match="still saving"), lock.hold(timeout=0.05):
            pass
    finally:
        child.kill()  # dies holding it: the kernel lets go
        child.join(30)
    with lock.hold(timeout=10) as depth:
        assert depth == 1


def test_a_child_forked_while_the_lock_is_held_does_not_share_it(tmp_path: Path) -> None:
    from companion.storage.locking import folder_lock

    held = FORK.Event()
    with folder_lock(tmp_path).hold():
        child = _holder(tmp_path, held)
        try:
            assert not held.wait(0.3)  # flock is per open file: a shared one would let it in
        except BaseException:
            child.kill()
            raise
    try:
        assert held.wait(30)
    finally:
        child.kill()
        child.join(30)


def test_a_replaced_lock_file_is_locked_afresh(tmp_path: Path) -> None:
    from companion.storage.locking import folder_lock

    lock = folder_lock(tmp_path)
    with lock.hold():
        pass
    os.unlink(tmp_path / ".lock")
    (tmp_path / ".lock").write_text("")
    held = FORK.Event()
    child = _holder(tmp_path, held)
    try:
        assert held.wait(30)
        with pytest.raises(StorageError), lock.hold(timeout=0.05):
            pass  # the child holds the file that is there now, not our old descriptor's
    finally:
        child.kill()
        child.join(30)
