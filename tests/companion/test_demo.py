"""Demo games, presets, preferences and backup glue (no browser)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import companion.backup
import companion.demo
import companion.preferences
import companion.stats
from companion.backup import export_csv_bytes, export_json_bytes, import_backup_bytes
from companion.demo import DEMO_DIR, demo_games, demo_records, load_demo
from companion.preferences import (
    default_rules,
    load_preferences,
    save_default_rules,
    save_theme,
    saved_theme,
    validate_rules,
)
from companion.presets import builtin_presets
from companion.storage import MemoryRepository, StorageError, open_repository
from rulesets import GAMES, HouseRuleError, load_ruleset
from rulesets.protocol import GameRecord


@pytest.mark.parametrize(
    "module", [companion.demo, companion.backup, companion.preferences, companion.stats]
)
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0


def test_every_demo_file_is_a_complete_game_the_referee_replays() -> None:
    records = demo_records()
    assert {r.game for _, r in records} == set(GAMES)
    for game in GAMES:
        assert sum(1 for _, r in records if r.game == game) >= 2
    for stem, record in records:
        raw = json.loads((DEMO_DIR / f"{stem}.json").read_text())
        summary = load_ruleset(record.game).replay(GameRecord.from_json(raw))
        assert summary["finished"], stem
        assert summary["winners"], stem
        assert summary["hands"], stem
        assert set(summary["totals"]) == set(record.players)


def test_load_demo_is_idempotent_on_disk(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    n = len(demo_records())
    assert load_demo(repo) == f"Demo games: {n} added, 0 already there."
    assert load_demo(repo) == f"Demo games: 0 added, {n} already there."
    listed = repo.list_games(limit=100)
    assert len(listed) == n
    assert [g.created for g in listed] == sorted((g.created for g in listed), reverse=True)
    assert all(g.status == "finished" and g.winners for g in listed)


def test_a_deleted_demo_game_is_not_brought_back() -> None:
    repo = MemoryRepository()
    load_demo(repo)
    first = demo_games()[0].id
    repo.delete_game(first)
    report = load_demo(repo)
    assert report.startswith("Demo games: 0 added")
    assert first not in {g.id for g in repo.list_games(limit=100)}


def test_load_demo_reports_unreadable_folder(tmp_path: Path) -> None:
    (tmp_path / "umtali-1.json").write_text("{not json")
    assert load_demo(MemoryRepository(), tmp_path).startswith("Demo games could not be read")


def test_every_preset_is_valid_and_each_game_has_the_rulebook_one() -> None:
    for game in GAMES:
        shipped = builtin_presets(game)
        assert len(shipped) >= 3, game
        assert shipped[0].rules == {}
        for preset in shipped:
            validate_rules(game, preset.rules)  # raises if a preset is wrong
            assert preset.name and preset.note


def test_invalid_presets_are_left_out(tmp_path: Path) -> None:
    (tmp_path / "rummy.json").write_text(
        json.dumps(
            {"presets": [{"name": "bad", "rules": {"round_the_corner": True}}, {"name": "ok"}]}
        )
    )
    assert [p.name for p in builtin_presets("rummy", tmp_path)] == ["ok"]


def test_default_rules_round_trip_and_keep_only_changes(tmp_path: Path) -> None:
    assert default_rules(tmp_path, "rummy") == {}
    kept = save_default_rules(tmp_path, "rummy", {"target": 100, "jokers": True})
    assert kept == {"jokers": True}  # target 100 is the rulebook's own value
    assert default_rules(tmp_path, "rummy") == {"jokers": True}
    save_default_rules(tmp_path, "umtali", {"loose_pair": True})
    assert default_rules(tmp_path, "rummy") == {"jokers": True}
    assert load_preferences(tmp_path)["house_rules"]["umtali"] == {"loose_pair": True}
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically, nothing left over


def test_theme_is_remembered_beside_the_rules(tmp_path: Path) -> None:
    assert saved_theme(tmp_path) is None
    save_default_rules(tmp_path, "umtali", {"loose_pair": True})
    save_theme(tmp_path, True)
    assert saved_theme(tmp_path) is True
    save_theme(tmp_path, None)
    assert saved_theme(tmp_path) is None
    assert default_rules(tmp_path, "umtali") == {"loose_pair": True}


def test_invalid_default_rules_are_refused_and_damaged_file_ignored(tmp_path: Path) -> None:
    with pytest.raises(HouseRuleError, match="round_the_corner needs ace_high_or_low"):
        save_default_rules(tmp_path, "rummy", {"round_the_corner": True})
    (tmp_path / "preferences.json").write_text("{truncated")
    assert default_rules(tmp_path, "rummy") == {}


def test_backup_export_import_round_trip_into_empty_folder(tmp_path: Path) -> None:
    source = open_repository(tmp_path / "a")
    load_demo(source)
    data = export_json_bytes(source)
    target = open_repository(tmp_path / "b")
    n = len(demo_records())
    assert import_backup_bytes(target, data) == f"Imported {n} games, 0 already here."
    assert import_backup_bytes(target, data) == f"Imported 0 games, {n} already here."
    assert [g.model_dump() for g in target.list_games(limit=100)] == [
        g.model_dump() for g in source.list_games(limit=100)
    ]
    csv_text = export_csv_bytes(target).decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("game_id,started,game")
    assert "demo-umtali-1" in csv_text


def test_import_refuses_non_backups() -> None:
    with pytest.raises(StorageError, match="not a JSON backup"):
        import_backup_bytes(MemoryRepository(), b"\xff\xfe")
    with pytest.raises(StorageError, match="not a Rummy Companion backup"):
        import_backup_bytes(MemoryRepository(), b'{"games": []}')


@pytest.mark.parametrize(
    "data",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"format": "rummy-companion-backup", "schema_version": 1, "games": '
        + b"[" * 3000
        + b"]" * 3000
        + b"}",
        b'{"n": ' + b"9" * 5000 + b"}",
    ],
    ids=["deep list", "deep games", "huge number"],
)
def test_a_deeply_nested_backup_is_a_clear_refusal(tmp_path: Path, data: bytes) -> None:
    repo = open_repository(tmp_path)
    with pytest.raises(StorageError, match="not a JSON backup|nested"):
        import_backup_bytes(repo, data)
    assert repo.list_games() == [] and not (tmp_path / "journal.json").exists()
