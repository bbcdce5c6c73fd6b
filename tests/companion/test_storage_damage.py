"""Issue 13: nothing a file, a backup or a crash can do stops the store from opening.

Each test reproduces one reported failure: a damaged file that is still valid
JSON, a deeply nested file, a file of an unknown version, a backup that cannot
be listed, an interrupted change whose journal cannot be finished.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.storage import (
    NewerVersionError,
    StorageError,
    StoredGame,
    TinyDbRepository,
    actionlog,
    open_repository,
)
from companion.storage.folder import STORE_FORMAT

DEEP = b"[" * 100_000 + b"]" * 100_000
BACKUP = {"format": "rummy-companion-backup", "schema_version": 1}


def game_file(repo: TinyDbRepository, gid: str) -> Path:
    return repo.data_dir / "games" / f"{gid}.json"


def quarantined(folder: Path) -> list[Path]:
    """The files set aside with a note (a game's log goes along with its game, noteless)."""
    return sorted(p.with_suffix("") for p in (folder / "quarantine").glob("*.txt"))


def store_with_a_game(folder: Path) -> tuple[TinyDbRepository, StoredGame]:
    repo = open_repository(folder)
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "x"})
    return repo, g


# ---- 1. a backup that cannot be listed never reaches the disk ----------------------------
@pytest.mark.parametrize("winners", [[1], [None], "Ann", [["Ann"]]], ids=repr)
def test_backup_with_non_string_winners_is_refused_and_the_store_still_opens(
    tmp_path: Path, winners: Any
) -> None:
    repo = open_repository(tmp_path)
    bad = StoredGame(game="rummy", players=["Ann"]).model_dump(mode="json")
    bad["summary"] = {"winners": winners}  # what once stopped the app from ever starting
    good = StoredGame(game="rummy", players=["Bob"])
    backup = {**BACKUP, "games": [bad, good.model_dump(mode="json")]}
    report = repo.import_json(backup)
    assert report.added == [good.id] and len(report.problems) == 1
    assert "winners" in report.problems[0]
    assert not (tmp_path / "journal.json").exists()
    again = open_repository(tmp_path)
    assert [i.id for i in again.list_games()] == [good.id]
    assert again.problems == []


def test_a_journal_that_cannot_be_finished_is_set_aside_and_the_store_opens(
    tmp_path: Path,
) -> None:
    repo, g = store_with_a_game(tmp_path)
    bad = StoredGame(game="rummy", players=["Ann"]).model_dump(mode="json")
    bad["summary"] = {"winners": [1]}  # what today's app wrote before it crashed
    journal = {
        "meta": {"1": {"schema_version": 1, "kind": "journal"}},
        "op": {"1": {"kind": "import", "games": [bad], "trash": [], "players": []}},
    }
    (tmp_path / "journal.json").write_text(json.dumps(journal))
    again = open_repository(tmp_path)
    assert [i.id for i in again.list_games()] == [g.id]
    assert not (tmp_path / "journal.json").exists()
    [kept] = [p for p in quarantined(tmp_path) if "journal" in p.name]
    assert json.loads(kept.read_text()) == journal
    assert any("interrupted change" in p for p in again.problems)
    again.append_action(g.id, {"type": "y"})  # and it keeps working
    assert len(open_repository(tmp_path).get_game(g.id).actions) == 2


# ---- 2. every read validates shape ---------------------------------------------------------
SHAPES = {
    "a list": b"[]",
    "tables as lists": b'{"meta": [], "game": [], "actions": []}',
    "a table of strings": b'{"meta": {"1": "x"}, "game": {"1": "y"}}',
    "deep nesting": DEEP,
    "deep object inside": b'{"meta": {"1": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}}",
}


@pytest.mark.parametrize("damage", list(SHAPES.values()), ids=list(SHAPES))
def test_damaged_game_of_any_shape_is_quarantined(tmp_path: Path, damage: bytes) -> None:
    repo, g = store_with_a_game(tmp_path)
    ok = repo.create_game("rummy", ["Cy"])
    game_file(repo, g.id).write_bytes(damage)
    fresh = open_repository(tmp_path)
    with pytest.raises(StorageError, match="could not be read"):
        fresh.get_game(g.id)
    assert [i.id for i in fresh.list_games()] == [ok.id]
    [kept] = quarantined(tmp_path)
    assert kept.read_bytes() == damage


@pytest.mark.parametrize("damage", list(SHAPES.values()), ids=list(SHAPES))
def test_damaged_index_of_any_shape_is_quarantined_and_rebuilt(
    tmp_path: Path, damage: bytes
) -> None:
    repo, g = store_with_a_game(tmp_path)
    [shard] = (tmp_path / "index").glob("*.json")
    shard.write_bytes(damage)
    fresh = open_repository(tmp_path)
    assert [i.id for i in fresh.list_games()] == [g.id]
    assert any("history index" in p for p in fresh.problems)
    assert [p.read_bytes() for p in quarantined(tmp_path)] == [damage]


@pytest.mark.parametrize(
    "damage", [*SHAPES.values(), b'{"players": {"1": {"name": 7}}}'], ids=[*SHAPES, "bad line"]
)
def test_damaged_player_list_of_any_shape_is_quarantined(tmp_path: Path, damage: bytes) -> None:
    repo, g = store_with_a_game(tmp_path)
    (tmp_path / "players.json").write_bytes(damage)
    fresh = open_repository(tmp_path)
    assert fresh.list_players() == []
    assert any("player list could not be read" in p for p in fresh.problems)
    fresh.add_player("Dee")
    assert [p.name for p in fresh.list_players()] == ["Dee"]
    assert fresh.get_game(g.id).players == ["Ann", "Bob"]


@pytest.mark.parametrize("damage", [*SHAPES.values(), b'{"meta": {"1": {}}}'], ids=[*SHAPES, "x"])
def test_damaged_format_marker_is_quarantined_and_recreated(tmp_path: Path, damage: bytes) -> None:
    _, g = store_with_a_game(tmp_path)
    (tmp_path / "format.json").write_bytes(damage)
    fresh = open_repository(tmp_path)
    assert fresh.get_game(g.id).actions == [{"type": "x"}]
    assert any("format marker" in p for p in fresh.problems)
    assert [p.read_bytes() for p in quarantined(tmp_path)] == [damage]


@pytest.mark.parametrize("damage", list(SHAPES.values()), ids=list(SHAPES))
def test_damaged_journal_is_set_aside_and_the_index_checked(tmp_path: Path, damage: bytes) -> None:
    _, g = store_with_a_game(tmp_path)
    (tmp_path / "journal.json").write_bytes(damage)
    fresh = open_repository(tmp_path)
    assert [i.id for i in fresh.list_games()] == [g.id]
    assert not (tmp_path / "journal.json").exists()
    assert [p.read_bytes() for p in quarantined(tmp_path)] == [damage]


# ---- 3. versions -----------------------------------------------------------------------------
@pytest.mark.parametrize("version", [0, -1, "1", None, 10**6])
def test_unknown_or_newer_store_format_is_refused_untouched(tmp_path: Path, version: Any) -> None:
    store_with_a_game(tmp_path)
    raw = json.dumps({"meta": {"1": {"schema_version": version, "kind": "store"}}}).encode()
    (tmp_path / "format.json").write_bytes(raw)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.name != ".lock")
    if isinstance(version, int):
        with pytest.raises(StorageError, match="format") as err:
            open_repository(tmp_path)
        assert isinstance(err.value, NewerVersionError) == (version > 1)
        assert (tmp_path / "format.json").read_bytes() == raw
        after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.name != ".lock")
        assert after == before
    else:  # no version at all: a damaged marker, set aside and recreated
        assert open_repository(tmp_path).list_games()


def test_a_game_file_at_version_zero_is_quarantined_not_retried_forever(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    data = json.loads(game_file(repo, g.id).read_text())
    data["meta"]["1"]["schema_version"] = 0
    game_file(repo, g.id).write_text(json.dumps(data))
    fresh = open_repository(tmp_path)
    with pytest.raises(StorageError, match="could not be read") as err:
        fresh.get_game(g.id)
    assert "format 0" in str(err.value)
    assert fresh.list_games() == []
    assert len(quarantined(tmp_path)) == 1


# ---- 11. the action log: one line per entry, crash-safe -------------------------------------
def log_file(repo: TinyDbRepository, gid: str) -> Path:
    return game_file(repo, gid).with_suffix(".log")


def folded_in(log: Path) -> bool:
    """A game being played, its log folded in: the next log, made by the fold, holds no
    entry yet (a finished game's fold leaves none)."""
    read = actionlog.parse(log.read_bytes())
    return read.token is not None and not read.ops and not read.torn


def test_an_entry_is_one_line_appended_and_undo_is_another(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    size = log_file(repo, g.id).stat().st_size
    before = game_file(repo, g.id).read_bytes()
    assert repo.append_action(g.id, {"type": "y"}) == 2
    assert log_file(repo, g.id).read_bytes().count(b"\n") == 3  # header + 2 entries
    assert log_file(repo, g.id).stat().st_size > size
    assert repo.pop_action(g.id) == {"type": "y"}
    assert game_file(repo, g.id).read_bytes() == before  # the game file was not rewritten
    assert open_repository(tmp_path).get_game(g.id).actions == [{"type": "x"}]
    assert repo.append_action(g.id, {"type": "z"}) == 2


def test_a_new_game_has_its_log_so_its_first_save_is_one_plain_append(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Creating the log (a new file, then its folder synced) is paid when the game
    starts: the first tap costs what every other one does."""
    import os

    repo = open_repository(tmp_path)
    g = repo.create_game("umtali", ["Ann", "Bob"])
    assert log_file(repo, g.id).read_bytes().count(b"\n") == 1  # the header alone
    assert repo.get_game(g.id).actions == []
    syncs: list[str] = []
    for name in ("fsync", "fdatasync"):
        real = getattr(os, name)
        monkeypatch.setattr(
            os, name, lambda fd, real=real, name=name: (syncs.append(name), real(fd))[1]
        )
    assert repo.append_action(g.id, {"type": "x"}) == 1
    assert syncs == ["fdatasync"]
    monkeypatch.undo()
    assert open_repository(tmp_path).get_game(g.id).actions == [{"type": "x"}]


def test_a_save_opens_no_file_and_a_replaced_log_is_not_written_through_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log of a game being played stays open between saves (no open() and close()
    per tap); once another writer replaced it, the next save writes to the new one."""
    import os

    repo, g = store_with_a_game(tmp_path)
    opened: list[str] = []
    real = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (opened.append(str(p)), real(p, *a, **k))[1])
    assert repo.append_action(g.id, {"type": "y"}) == 2
    assert opened == []
    monkeypatch.undo()
    other = open_repository(tmp_path)
    other.replace_actions(g.id, [{"type": "z"}])  # a new game file, the old log removed
    assert repo.append_action(g.id, {"type": "w"}) == 2
    for fresh in (repo, other, open_repository(tmp_path)):
        assert fresh.get_game(g.id).actions == [{"type": "z"}, {"type": "w"}]


def test_a_torn_last_line_is_ignored_then_cut_off(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    repo.append_action(g.id, {"type": "y"})
    whole = log_file(repo, g.id).read_bytes()
    with log_file(repo, g.id).open("ab") as fh:
        fh.write(b'{"n":3,"t":"2026","a":{"type":"torn')  # killed mid-write
    fresh = open_repository(tmp_path)
    assert fresh.get_game(g.id).actions == [{"type": "x"}, {"type": "y"}]
    assert fresh.append_action(g.id, {"type": "z"}) == 3
    assert log_file(repo, g.id).read_bytes().startswith(whole)
    assert open_repository(tmp_path).get_game(g.id).actions[-1] == {"type": "z"}
    assert fresh.problems == []


def test_a_line_with_a_wrong_checksum_at_the_end_is_a_torn_tail(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    repo.append_action(g.id, {"type": "y"})
    raw = log_file(repo, g.id).read_bytes()
    log_file(repo, g.id).write_bytes(raw[:-3] + b"00\n")
    assert open_repository(tmp_path).get_game(g.id).actions == [{"type": "x"}]


def test_a_damaged_log_is_set_aside_and_the_game_opens_from_its_file(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    repo.replace_actions(g.id, [{"type": "x"}])  # rewrites the file: the log is folded in
    repo.append_action(g.id, {"type": "y"})
    repo.append_action(g.id, {"type": "z"})
    lines = log_file(repo, g.id).read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"y"', b'"Y"')  # damage in the middle: checksum fails
    damaged = b"\n".join(lines)
    log_file(repo, g.id).write_bytes(damaged)
    fresh = open_repository(tmp_path)
    assert fresh.get_game(g.id).actions == [{"type": "x"}]
    [problem] = fresh.problem_reports()
    assert "latest entries" in problem.note and problem.file_name.endswith(".log")
    assert fresh.problem_file(problem.id)[1] == damaged
    assert fresh.append_action(g.id, {"type": "again"}) == 2


def test_a_log_left_behind_by_a_rewrite_is_ignored(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    stale = log_file(repo, g.id).read_bytes()
    repo.replace_actions(g.id, [{"type": "new"}])
    log_file(repo, g.id).write_bytes(stale)  # as if killed before the old log was removed
    fresh = open_repository(tmp_path)
    assert fresh.get_game(g.id).actions == [{"type": "new"}]
    assert fresh.append_action(g.id, {"type": "more"}) == 2
    assert open_repository(tmp_path).get_game(g.id).actions == [{"type": "new"}, {"type": "more"}]


def test_another_process_appending_is_seen_by_a_cached_writer(tmp_path: Path) -> None:
    a, g = store_with_a_game(tmp_path)
    b = TinyDbRepository(tmp_path)
    assert a.append_action(g.id, {"type": "a"}) == 2
    assert b.append_action(g.id, {"type": "b"}) == 3
    b.set_summary(g.id, None, "in_progress")  # b rewrites the file
    assert a.append_action(g.id, {"type": "a2"}) == 4
    assert [x["type"] for x in b.get_game(g.id).actions] == ["x", "a", "b", "a2"]


def test_two_processes_appending_to_a_log_one_of_them_made_lose_nothing(tmp_path: Path) -> None:
    """The writer that makes a log keeps it open for its next save.  It was opened
    without O_APPEND: its next line went where its own last one ended, over the line
    the other process had appended meanwhile (and the game read back without either).
    Now every log a writer keeps appends at the end of the file, whoever wrote last."""
    a, g = store_with_a_game(tmp_path)
    b = TinyDbRepository(tmp_path)
    b.rename_player("Ann", "Ann2")  # a rewrite: the game file only, no log
    assert not log_file(a, g.id).exists()
    assert a.append_action(g.id, {"type": "a1"}) == 2  # a makes the log, and keeps it
    assert b.append_action(g.id, {"type": "b1"}) == 3
    assert a.append_action(g.id, {"type": "a2"}) == 4
    for fresh in (a, b, open_repository(tmp_path)):
        assert [x["type"] for x in fresh.get_game(g.id).actions] == ["x", "a1", "b1", "a2"]
    assert open_repository(tmp_path).problems == []


# ---- a data folder written by the previous version opens and shows every game ------------------
V1 = Path(__file__).resolve().parents[1] / "data" / "store-v1"


def test_a_folder_from_the_previous_version_opens_with_every_game(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "data"
    shutil.copytree(V1, folder)
    repo = open_repository(folder)
    listed = repo.list_games(limit=100)
    assert {i.id for i in listed} == {p.stem for p in (V1 / "games").glob("*.json")}
    assert len(listed) == 4 and repo.problems == []
    [mine] = [i for i in listed if not i.id.startswith("demo-")]
    assert mine.status == "finished"  # its old-format journal was finished on open
    assert repo.get_game(mine.id).actions == [{"type": "note", "n": i} for i in range(3)]
    assert [i.game for i in repo.list_trash()] == ["rummy"]
    assert repo.append_action(mine.id, {"type": "note", "n": 3}) == 4
    fmt = json.loads((folder / "format.json").read_text())["meta"]["1"]
    assert fmt["schema_version"] == STORE_FORMAT and fmt["documents"] == 1
    names = ["Ann", "Bob", "Cy", "Dee", "Farai", "Sam", "Thandi"]
    assert [p.name for p in repo.list_players()] == names


def test_a_long_log_is_folded_into_the_game_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.storage import tinydb_repo

    monkeypatch.setattr(tinydb_repo, "COMPACT_AFTER", 5)
    repo, g = store_with_a_game(tmp_path)
    for n in range(3):
        repo.append_action(g.id, {"type": "n", "n": n})
    repo.pop_action(g.id)  # the 5th line: folded in, in the background
    repo.settle()
    assert folded_in(log_file(repo, g.id))
    assert repo.append_action(g.id, {"type": "z"}) == 4
    expected = [{"type": "x"}, {"type": "n", "n": 0}, {"type": "n", "n": 1}, {"type": "z"}]
    assert open_repository(tmp_path).get_game(g.id).actions == expected


def test_the_save_that_makes_a_log_long_does_not_fold_it_in_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folding rewrites the whole game file: it happens after the tap, not inside it."""
    from companion.storage import compaction, tinydb_repo

    monkeypatch.setattr(tinydb_repo, "COMPACT_AFTER", 3)
    monkeypatch.setattr(compaction, "IDLE", 60.0)  # the table never pauses in this test
    repo, g = store_with_a_game(tmp_path)
    before = game_file(repo, g.id).read_bytes()
    for n in range(4):
        repo.append_action(g.id, {"type": "n", "n": n})
    assert game_file(repo, g.id).read_bytes() == before  # every save only appended
    assert log_file(repo, g.id).exists()
    repo.settle()  # folds now
    assert folded_in(log_file(repo, g.id))
    assert game_file(repo, g.id).read_bytes() != before
    assert len(repo.get_game(g.id).actions) == 5
    assert repo.game_revision(g.id) == 5


def test_an_entry_saved_while_the_log_is_being_folded_in_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new game file is written outside the writer lock; a save in between wins."""
    from companion.storage import gamefiles

    repo, g = store_with_a_game(tmp_path)
    repo.append_action(g.id, {"type": "y"})
    real = gamefiles.write_temp
    other = open_repository(tmp_path)

    def save_meanwhile(path: Path, data: bytes, *, durable: bool = True) -> Path:
        other.append_action(g.id, {"type": "meanwhile"})
        return real(path, data, durable=durable)

    monkeypatch.setattr(gamefiles, "write_temp", save_meanwhile)
    assert repo._games.compact(g.id) is False
    assert [p.name for p in tmp_path.joinpath("games").iterdir() if p.name.startswith(".")] == []
    monkeypatch.setattr(gamefiles, "write_temp", real)
    expected = [{"type": "x"}, {"type": "y"}, {"type": "meanwhile"}]
    assert open_repository(tmp_path).get_game(g.id).actions == expected
    assert repo._games.compact(g.id) is True
    assert folded_in(log_file(repo, g.id))
    assert open_repository(tmp_path).get_game(g.id).actions == expected
    assert repo.append_action(g.id, {"type": "after"}) == 4


# ---- finishing a game appends; the index months keep logs too ------------------------------
def index_files(folder: Path) -> tuple[Path, Path]:
    [month] = (folder / "index").glob("*.json")
    return month, month.with_suffix(".log")


def test_finishing_a_game_appends_two_lines_and_rewrites_no_file(tmp_path: Path) -> None:
    repo, g = store_with_a_game(tmp_path)
    repo.create_game("rummy", ["Cy"])  # the month's file exists: changes go to its log
    month, month_log = index_files(tmp_path)
    files = {p: p.read_bytes() for p in (game_file(repo, g.id), month)}
    logs = {p: p.stat().st_size for p in (log_file(repo, g.id), month_log)}
    summary = {"winners": ["Ann"], "totals": {"Ann": 9, "Bob": 3}, "hands": [{"number": 1}]}
    repo.set_summary(g.id, summary, "finished")
    assert {p: p.read_bytes() for p in files} == files
    for path, size in logs.items():
        assert path.read_bytes()[size:].count(b"\n") == 1, path
    assert repo.game_revision(g.id) == 1  # a summary is not a change of the actions
    for fresh in (repo, open_repository(tmp_path)):
        [line] = [i for i in fresh.list_games() if i.id == g.id]
        assert (line.status, line.winners, line.hands) == ("finished", ["Ann"], 1)
        stored = fresh.get_game(g.id)
        assert (stored.status, stored.summary, stored.actions) == (
            "finished",
            summary,
            [{"type": "x"}],
        )
    repo.settle()  # a finished game's log is folded in after the tap
    assert not log_file(repo, g.id).exists()
    assert open_repository(tmp_path).get_game(g.id).summary == summary


def test_a_month_log_with_a_torn_tail_is_cut_and_one_damaged_inside_is_set_aside(
    tmp_path: Path,
) -> None:
    repo, g = store_with_a_game(tmp_path)
    other = repo.create_game("rummy", ["Cy"])
    _, month_log = index_files(tmp_path)
    month_log.write_bytes(month_log.read_bytes() + b'{"rm":["' + g.id.encode())  # torn
    fresh = open_repository(tmp_path)
    assert {i.id for i in fresh.list_games()} == {g.id, other.id}
    fresh.set_summary(g.id, {"hands": []}, "finished")
    assert month_log.read_bytes().endswith(b"\n") and b'"rm"' not in month_log.read_bytes()
    assert fresh.problems == []
    raw = month_log.read_bytes()
    month_log.write_bytes(raw.replace(b'"Cy"', b'"Cx"', 1))  # checksum fails, later lines good
    again = open_repository(tmp_path)
    listed = {i.id: i for i in again.list_games()}
    assert set(listed) == {g.id, other.id} and listed[g.id].status == "finished"
    [problem] = again.problem_reports()
    assert "history index" in problem.note and problem.file_name.endswith(".log")


def test_a_long_month_log_is_folded_into_its_file(tmp_path: Path) -> None:
    from companion.storage import index

    repo, g = store_with_a_game(tmp_path)
    month, month_log = index_files(tmp_path)
    before = month.read_bytes()
    for n in range(index.FOLD_AFTER):
        repo.set_summary(g.id, {"hands": [{"number": h} for h in range(n + 1)]}, "in_progress")
    assert month.read_bytes() == before
    assert month_log.read_bytes().count(b"\n") == index.FOLD_AFTER
    repo.set_summary(g.id, {"hands": [{"number": h} for h in range(99)]}, "in_progress")
    assert not month_log.exists() and month.read_bytes() != before
    assert open_repository(tmp_path).list_games()[0].hands == 99
    repo.set_summary(g.id, {"hands": [{"number": h} for h in range(100)]}, "in_progress")
    assert month_log.read_bytes().count(b"\n") == 1
    [line] = open_repository(tmp_path).list_games()
    assert line.hands == 100


def test_a_writer_killed_between_the_summary_and_the_list_line_is_mended_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.storage import index

    repo, g = store_with_a_game(tmp_path)
    repo.create_game("rummy", ["Cy"])

    def die(*_: Any) -> None:
        raise KeyboardInterrupt  # stands for the kill: nothing after it runs

    monkeypatch.setattr(index.IndexShards, "_stage", die)  # the list line is never written
    with pytest.raises(KeyboardInterrupt):
        repo.set_summary(g.id, {"winners": ["Bob"], "hands": []}, "finished")
    monkeypatch.undo()
    (tmp_path / "journal.json").unlink()  # a kill leaves no journal: only its marker
    marker = next(tmp_path.glob(".writer-*"))
    marker.rename(tmp_path / ".writer-999999999-dead")
    [line] = [i for i in open_repository(tmp_path).list_games() if i.id == g.id]
    assert (line.status, line.winners) == ("finished", ["Bob"])


def test_a_list_line_that_outlived_its_summary_line_is_mended_on_open(tmp_path: Path) -> None:
    """The two lines of a finish are synced together: a power cut may keep the list
    line and lose the game's summary line (never acknowledged).  The next open
    puts the list line back in line with the game."""
    repo, g = store_with_a_game(tmp_path)
    repo.create_game("rummy", ["Cy"])
    game_log = log_file(repo, g.id)
    before = game_log.read_bytes()
    repo.set_summary(g.id, {"winners": ["Bob"], "hands": []}, "finished")
    game_log.write_bytes(before)  # the summary line lost, the list line kept
    marker = next(tmp_path.glob(".writer-*"))
    marker.rename(tmp_path / ".writer-999999999-dead")
    again = open_repository(tmp_path)
    [line] = [i for i in again.list_games() if i.id == g.id]
    assert (line.status, line.winners) == ("in_progress", [])
    assert again.get_game(g.id).status == "in_progress"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="names an fd through /proc")
@pytest.mark.parametrize("failing", ["games", "index"])
def test_a_finish_whose_sync_fails_says_so_and_the_list_is_mended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """Either of the two syncs of a finish failing (the list line's runs in a helper
    thread) reaches the caller, and the next writer puts the list line in line with
    the game, whatever it holds."""
    import os

    repo, g = store_with_a_game(tmp_path)
    repo.create_game("rummy", ["Cy"])
    real = os.fdatasync

    def sync(fd: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).parent.name == failing:
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fdatasync", sync)
    with pytest.raises(OSError, match="Input/output"):
        repo.set_summary(g.id, {"winners": ["Bob"], "hands": []}, "finished")
    monkeypatch.undo()
    assert (tmp_path / "journal.json").exists()  # the next writer mends the list line
    repo.append_action(g.id, {"type": "y"})
    assert not (tmp_path / "journal.json").exists()
    for fresh in (repo, open_repository(tmp_path)):
        game = fresh.get_game(g.id)
        [line] = [i for i in fresh.list_games() if i.id == g.id]
        item = game.list_item()
        assert (line.status, line.winners) == (item.status, item.winners)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="names an fd through /proc")
def test_finishing_syncs_the_game_line_and_the_list_line_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both fdatasyncs are in flight together (the file system then commits them in one
    go: a finish costs about one save, not two), and both end before the finish returns."""
    import os
    import threading

    repo, g = store_with_a_game(tmp_path)
    repo.create_game("rummy", ["Cy"])  # the month's file exists: its log is appended to
    both = threading.Barrier(2, timeout=10)  # broken (an error) if the syncs come one by one
    done: list[str] = []
    real = os.fdatasync

    def sync(fd: int) -> None:
        name = os.readlink(f"/proc/self/fd/{fd}")
        both.wait()
        real(fd)
        done.append(Path(name).parent.name)

    monkeypatch.setattr(os, "fdatasync", sync)
    repo.set_summary(g.id, {"winners": ["Bob"], "hands": []}, "finished")
    assert sorted(done) == ["games", "index"]
