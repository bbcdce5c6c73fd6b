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
    open_repository,
)

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
