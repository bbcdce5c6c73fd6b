"""Repository behaviour, run on both implementations (memory and TinyDB on disk)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

import companion.backup
from companion.backup import replay_and_store, replayed_summary
from companion.storage import (
    GameListItem,
    GameNotFoundError,
    GameRepository,
    MemoryRepository,
    StorageError,
    StoredGame,
    TinyDbRepository,
    open_repository,
)
from companion.storage.base import Archive, GameHistory, GameStore, PlayerDirectory, ProblemLog


@pytest.fixture(params=["memory", "tinydb"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> GameRepository:
    if request.param == "memory":
        return MemoryRepository()
    return open_repository(tmp_path / "data")


def summary_for(players: list[str], hands: list[dict[str, int]], finished: bool) -> dict[str, Any]:
    totals = {p: sum(h[p] for h in hands) for p in players}
    best = max(totals.values()) if totals else 0
    return {
        "game": "umtali",
        "players": players,
        "finished": finished,
        "winners": [p for p in players if totals[p] == best] if finished else [],
        "totals": totals,
        "hands": [{"number": n, "scores": h} for n, h in enumerate(hands, 1)],
    }


def test_satisfies_protocol(repo: GameRepository) -> None:
    assert isinstance(repo, GameRepository)


@pytest.mark.parametrize("part", [GameStore, GameHistory, PlayerDirectory, Archive, ProblemLog])
def test_each_small_protocol_is_met_and_no_wider_than_it_says(
    repo: GameRepository, part: type
) -> None:
    """A third backend may implement the parts one by one; the whole is exactly their union."""
    assert isinstance(repo, part)
    whole = protocol_members(GameRepository)
    assert protocol_members(part) < whole
    parts = (GameStore, GameHistory, PlayerDirectory, Archive, ProblemLog)
    union = set().union(*(protocol_members(p) for p in parts))
    assert whole - union == {"data_dir", "close"}
    assert protocol_members(GameStore) == {
        "create_game",
        "get_game",
        "snapshot",
        "game_revision",
        "writer_lock",
        "append_action",
        "append_actions",
        "pop_action",
        "replace_actions",
    }


def protocol_members(protocol: type) -> set[str]:
    return {
        name
        for cls in protocol.__mro__
        if getattr(cls, "_is_protocol", False) and cls.__module__ == "companion.storage.base"
        for name in vars(cls)
        if not name.startswith("_")
    }


def test_create_and_get(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann", "Bob"], {"jokers": True})
    assert isinstance(g, StoredGame)
    assert len(g.id) == 32
    got = repo.get_game(g.id)
    assert got == g
    assert got.status == "in_progress" and got.actions == [] and got.summary is None
    assert got.rules == {"jokers": True}
    assert [p.name for p in repo.list_players()] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    "players", [[], ["Ann", "ann"], ["Ann", ""], "Ann", ["Ann", "  "]], ids=repr
)
def test_create_rejects_bad_players(repo: GameRepository, players: Any) -> None:
    with pytest.raises(StorageError) as err:
        repo.create_game("rummy", players)
    assert repo.list_games() == []
    assert "player" in str(err.value) or "twice" in str(err.value)


def test_append_returns_count_and_keeps_order(repo: GameRepository) -> None:
    g = repo.create_game("rummy", ["Ann", "Bob"])
    counts = [repo.append_action(g.id, {"type": "meld", "n": i}) for i in range(5)]
    assert counts == [1, 2, 3, 4, 5]
    assert [a["n"] for a in repo.get_game(g.id).actions] == [0, 1, 2, 3, 4]


def test_append_copies_the_action(repo: GameRepository) -> None:
    g = repo.create_game("rummy", ["Ann"])
    action = {"type": "draw", "cards": ["QH"]}
    repo.append_action(g.id, action)
    action["cards"].append("KH")
    assert repo.get_game(g.id).actions == [{"type": "draw", "cards": ["QH"]}]


@pytest.mark.parametrize("action", [["not", "a dict"], {"x": object()}, {"x": float("nan")}])
def test_append_rejects_non_json(repo: GameRepository, action: Any) -> None:
    g = repo.create_game("rummy", ["Ann"])
    with pytest.raises(StorageError):
        repo.append_action(g.id, action)
    assert repo.get_game(g.id).actions == []


def test_unknown_game_raises_not_found(repo: GameRepository) -> None:
    for call in (
        lambda: repo.get_game("0" * 32),
        lambda: repo.append_action("0" * 32, {"type": "x"}),
        lambda: repo.pop_action("../../etc/passwd"),
        lambda: repo.set_summary("nope", None),
        lambda: repo.delete_game("0" * 32),
        lambda: repo.restore_game("0" * 32),
    ):
        with pytest.raises(GameNotFoundError):
            call()


def test_pop_is_undo(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann", "Bob"])
    assert repo.pop_action(g.id) is None
    repo.append_action(g.id, {"type": "a"})
    repo.append_action(g.id, {"type": "b"})
    assert repo.pop_action(g.id) == {"type": "b"}
    assert repo.append_action(g.id, {"type": "c"}) == 2
    assert repo.get_game(g.id).actions == [{"type": "a"}, {"type": "c"}]


def test_replace_actions(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann", "Bob"])
    for t in "abc":
        repo.append_action(g.id, {"type": t})
    repo.replace_actions(g.id, [{"type": "z"}])
    assert repo.get_game(g.id).actions == [{"type": "z"}]
    assert repo.append_action(g.id, {"type": "y"}) == 2


def test_updated_moves_forward(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann"])
    repo.append_action(g.id, {"type": "a"})
    after = repo.get_game(g.id)
    assert after.updated > g.updated and after.created == g.created


def test_set_summary_shows_in_list(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann", "Bob"])
    summary = summary_for(["Ann", "Bob"], [{"Ann": 10, "Bob": 4}, {"Ann": 0, "Bob": 30}], True)
    repo.set_summary(g.id, summary, "finished")
    [item] = repo.list_games()
    assert isinstance(item, GameListItem)
    assert item.status == "finished"
    assert item.winners == ["Bob"] and item.totals == {"Ann": 10, "Bob": 34} and item.hands == 2
    assert repo.get_game(g.id).summary == summary
    with pytest.raises(StorageError):
        repo.set_summary(g.id, summary, "won")  # type: ignore[arg-type]


def test_list_newest_first_with_paging_and_filters(repo: GameRepository) -> None:
    made = []
    for i in range(7):
        players = ["Ann", "Bob"] if i % 2 == 0 else ["Cy", "Dee"]
        made.append(repo.create_game("umtali" if i < 4 else "rummy", players))
    newest_first = [g.id for g in reversed(made)]
    assert [i.id for i in repo.list_games()] == newest_first
    assert [i.id for i in repo.list_games(limit=3)] == newest_first[:3]
    assert [i.id for i in repo.list_games(limit=3, offset=5)] == newest_first[5:]
    assert [i.id for i in repo.list_games(game="rummy")] == newest_first[:3]
    cy = repo.list_games(player="Cy")
    assert [i.id for i in cy] == [made[5].id, made[3].id, made[1].id]
    assert repo.list_games(player="Zed") == []


def test_delete_moves_to_trash_and_restore_undoes(repo: GameRepository) -> None:
    keep = repo.create_game("rummy", ["Ann"])
    gone = repo.create_game("rummy", ["Bob"])
    repo.append_action(gone.id, {"type": "x"})
    repo.delete_game(gone.id)
    assert [i.id for i in repo.list_games()] == [keep.id]
    assert [i.id for i in repo.list_trash()] == [gone.id]
    with pytest.raises(GameNotFoundError):
        repo.get_game(gone.id)
    with pytest.raises(GameNotFoundError):
        repo.append_action(gone.id, {"type": "y"})
    restored = repo.restore_game(gone.id)
    assert restored.actions == [{"type": "x"}]
    assert [i.id for i in repo.list_games()] == [gone.id, keep.id]
    assert repo.list_trash() == []


def test_players_add_is_idempotent_case_insensitive(repo: GameRepository) -> None:
    a = repo.add_player(" Ann ")
    assert a.name == "Ann"
    assert repo.add_player("ann").name == "Ann"
    assert [p.name for p in repo.list_players()] == ["Ann"]
    with pytest.raises(StorageError):
        repo.add_player("   ")


def test_rename_player_everywhere(repo: GameRepository) -> None:
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "meld", "player": "Ann", "cards": ["QH", "KH", "AH"]})
    repo.set_summary(g.id, summary_for(["Ann", "Bob"], [{"Ann": 5, "Bob": 1}], True), "finished")
    repo.rename_player("Ann", "Annie")
    got = repo.get_game(g.id)
    assert got.players == ["Annie", "Bob"]
    assert got.actions[0]["player"] == "Annie"
    assert got.summary is not None and got.summary["totals"] == {"Annie": 5, "Bob": 1}
    assert repo.list_games(player="Annie")[0].winners == ["Annie"]
    assert repo.list_games(player="Ann") == []
    assert [p.name for p in repo.list_players()] == ["Annie", "Bob"]
    with pytest.raises(StorageError, match="merge"):
        repo.rename_player("Annie", "Bob")
    with pytest.raises(StorageError, match="no such player"):
        repo.rename_player("Zed", "Zack")


def test_merge_players(repo: GameRepository) -> None:
    g1 = repo.create_game("rummy", ["Bobby", "Cy"])
    g2 = repo.create_game("rummy", ["Bob", "Dee"])
    repo.merge_players("Bobby", "Bob")
    assert repo.get_game(g1.id).players == ["Bob", "Cy"]
    assert repo.get_game(g2.id).players == ["Bob", "Dee"]
    assert [p.name for p in repo.list_players()] == ["Bob", "Cy", "Dee"]
    assert {i.id for i in repo.list_games(player="Bob")} == {g1.id, g2.id}
    repo.create_game("rummy", ["Cy", "Dee"])
    with pytest.raises(StorageError, match="both played"):
        repo.merge_players("Cy", "Dee")


def test_export_import_roundtrip_and_merge(repo: GameRepository, tmp_path: Path) -> None:
    a = repo.create_game("umtali", ["Ann", "Bob"], {"target": 100})
    repo.append_action(a.id, {"type": "x", "cards": ["10H"]})
    b = repo.create_game("rummy", ["Cy"])
    repo.delete_game(b.id)
    backup = repo.export_json()
    fresh = MemoryRepository() if repo.data_dir is None else open_repository(tmp_path / "copy")
    report = fresh.import_json(backup)
    assert sorted(report.added) == sorted([a.id, b.id]) and report.skipped == []
    again = fresh.export_json()
    for key in ("players", "games", "trash"):
        assert again[key] == backup[key]
    report2 = fresh.import_json(backup)
    assert report2.added == [] and sorted(report2.skipped) == sorted([a.id, b.id])


def test_import_refuses_foreign_or_newer(repo: GameRepository) -> None:
    with pytest.raises(StorageError, match="not a Rummy Companion backup"):
        repo.import_json({"games": []})
    with pytest.raises(StorageError, match="newer version"):
        repo.import_json({"format": "rummy-companion-backup", "schema_version": 99})


def test_import_skips_bad_entries_with_a_reason(repo: GameRepository) -> None:
    good = StoredGame(game="rummy", players=["Ann"]).model_dump(mode="json")
    bad = {"game": "rummy"}
    report = repo.import_json(
        {"format": "rummy-companion-backup", "schema_version": 1, "games": [bad, good]}
    )
    assert report.added == [good["id"]]
    assert len(report.problems) == 1 and "entry 1" in report.problems[0]
    assert repo.get_game(good["id"]).players == ["Ann"]


class FakeReferee:
    """Replays a record whose actions are {"type": "hand", "scores": {...}}."""

    def replay(self, record: Any) -> dict[str, Any]:
        hands = [a["scores"] for a in record.actions if a.get("type") == "hand"]
        if any(a.get("type") == "bad" for a in record.actions):
            from rulesets.errors import RecordError

            raise RecordError("bad action")
        return summary_for(record.players, hands, True)


def test_csv_one_row_per_player_per_hand(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    # storage never replays: the referee's hands come from above it (companion.backup)
    monkeypatch.setattr(companion.backup, "load_ruleset", lambda name: FakeReferee())
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "hand", "scores": {"Ann": 12, "Bob": -3}})
    repo.append_action(g.id, {"type": "hand", "scores": {"Ann": 0, "Bob": 40}})
    broken = repo.create_game("rummy", ["Cy", "Dee"])
    repo.append_action(broken.id, {"type": "bad"})
    rows = list(csv.DictReader(io.StringIO(repo.export_csv(replayed_summary))))
    mine = [r for r in rows if r["game_id"] == g.id]
    assert [(r["hand"], r["player"], r["score"]) for r in mine] == [
        ("1", "Ann", "12"),
        ("1", "Bob", "-3"),
        ("2", "Ann", "0"),
        ("2", "Bob", "40"),
    ]
    assert {r["winners"] for r in mine} == {"Bob"}
    [fallback] = [r for r in rows if r["game_id"] == broken.id]
    assert fallback["players"] == "Cy; Dee" and fallback["hand"] == "" and fallback["score"] == ""


def test_csv_with_the_real_referees_never_fails(repo: GameRepository) -> None:
    for game in ("umtali", "rummy", "rummoli"):
        repo.create_game(game, ["Ann", "Bob", "Cy"])
    rows = list(csv.DictReader(io.StringIO(repo.export_csv(replayed_summary))))
    assert {r["game"] for r in rows} == {"umtali", "rummy", "rummoli"}


def test_problems_empty_and_data_dir(repo: GameRepository, tmp_path: Path) -> None:
    assert repo.problems == []
    if isinstance(repo, TinyDbRepository):
        assert repo.data_dir == tmp_path / "data"
    else:
        assert repo.data_dir is None


def test_default_data_dir_platformdirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    from companion.storage import default_data_dir

    assert default_data_dir() == tmp_path / "xdg" / "rummy-companion"


def test_replay_and_store_keeps_summary_and_status(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(companion.backup, "load_ruleset", lambda name: FakeReferee())
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "hand", "scores": {"Ann": 7, "Bob": 9}})
    summary = replay_and_store(repo, g.id)
    assert summary["totals"] == {"Ann": 7, "Bob": 9}
    [item] = repo.list_games()
    assert item.status == "finished" and item.winners == ["Bob"] and item.hands == 1
    repo.append_action(g.id, {"type": "bad"})
    from rulesets.errors import RulesetError

    with pytest.raises(RulesetError):
        replay_and_store(repo, g.id)
    assert repo.get_game(g.id).summary == summary


# ---- issue 13: a backup is checked whole before anything is written ------------------------
def backup_of(*games: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"format": "rummy-companion-backup", "schema_version": 1, "games": list(games), **extra}


def state(repo: GameRepository) -> tuple[Any, ...]:
    data = repo.export_json()
    return (data["players"], data["games"], data["trash"])


@pytest.mark.parametrize(
    "backup",
    [
        {"format": "rummy-companion-backup", "schema_version": 0},
        {"format": "rummy-companion-backup", "schema_version": True},
        {"format": "rummy-companion-backup", "schema_version": 1, "games": {"a": 1}},
        {"format": "rummy-companion-backup", "schema_version": 1, "players": "Ann"},
        backup_of({"x": [[[[]]]]}, deep=json.loads("[" * 90 + "]" * 90)),
    ],
    ids=["version 0", "version true", "games not a list", "players not a list", "too deep"],
)
def test_import_refuses_a_broken_backup_whole(repo: GameRepository, backup: Any) -> None:
    repo.create_game("rummy", ["Ann"])
    before = state(repo)
    with pytest.raises(StorageError, match="nothing was imported|schema version|format 0"):
        repo.import_json(backup)
    assert state(repo) == before


def test_import_refuses_a_backup_listing_a_game_twice(repo: GameRepository) -> None:
    a = StoredGame(game="rummy", players=["Ann"]).model_dump(mode="json")
    b = {**StoredGame(game="umtali", players=["Bob"]).model_dump(mode="json"), "id": a["id"]}
    with pytest.raises(StorageError, match="twice; nothing was imported"):
        repo.import_json(backup_of(a, b))
    with pytest.raises(StorageError, match="twice"):
        repo.import_json(backup_of(a, trash=[a]))
    assert repo.list_games() == [] and repo.list_players() == []


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"players": ["Ann", "ann"]}, "twice"),
        ({"players": ["Ann", " "]}, "empty"),
        ({"players": ["A" * 101]}, "at most 100"),
        ({"players": ["Ann\x00"]}, "control"),
        ({"players": ["\ud800"]}, "control"),
        ({"game": ""}, "empty"),
        ({"summary": {"winners": [1]}}, "winners"),
        ({"summary": {"totals": []}}, "totals"),
        ({"actions": [{"x": "y" * 70_000}]}, "too big"),
        ({"actions": [json.loads('{"a":' * 50 + "1" + "}" * 50)]}, "levels deep"),
        ({"actions": [{"n": float("nan")}]}, "plain JSON"),
        ({"created": "yesterday"}, "date"),
        ({"id": "../x"}, "id"),
        ({"status": "won"}, "status"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_import_skips_a_game_that_could_not_be_stored_with_its_reason(
    repo: GameRepository, change: dict[str, Any], reason: str
) -> None:
    bad = {**StoredGame(game="rummy", players=["Ann"]).model_dump(mode="json"), **change}
    good = StoredGame(game="rummy", players=["Bob"]).model_dump(mode="json")
    report = repo.import_json(backup_of(bad, good))
    assert report.added == [good["id"]]
    [problem] = report.problems
    assert "games entry 1" in problem and reason in problem
    assert [i.id for i in repo.list_games()] == [good["id"]]
    assert [p.name for p in repo.list_players()] == ["Bob"]


def test_set_summary_refuses_what_the_list_cannot_show(repo: GameRepository) -> None:
    g = repo.create_game("rummy", ["Ann"])
    for summary in ({"winners": [1]}, {"winners": "Ann"}, {"hands": 3}, {"totals": [1]}):
        with pytest.raises(StorageError):
            repo.set_summary(g.id, summary, "finished")
    assert repo.list_games()[0].status == "in_progress"


def test_rename_refuses_a_name_already_at_the_same_table(repo: GameRepository) -> None:
    g = repo.create_game("rummy", ["Ann", "Bob"])
    repo.import_json({**backup_of(), "players": []})
    with pytest.raises(StorageError, match="merge|already"):
        repo.rename_player("Ann", "Bob")
    assert repo.get_game(g.id).players == ["Ann", "Bob"]


# ---- issue 13: CSV cells are safe in a spreadsheet ------------------------------------------
def test_csv_neutralises_formulas_and_strips_control_characters(repo: GameRepository) -> None:
    evil = ['=HYPERLINK("http://x","y")', "+1", "-1", "@SUM(A1)"]
    g = repo.create_game("rummy", evil)
    scores: dict[str, Any] = {name: -3 for name in evil}
    scores.update({"\tTab": 1, "\rCr": 2, "Bel\x07l": "=1+1"})  # a summary is not checked
    repo.set_summary(g.id, {"winners": [evil[0]], "hands": [{"number": 1, "scores": scores}]})
    rows = list(csv.DictReader(io.StringIO(repo.export_csv())))
    assert [(r["player"], r["score"]) for r in rows] == [
        ('\'=HYPERLINK("http://x","y")', "-3"),  # numbers stay numbers
        ("'+1", "-3"),
        ("'-1", "-3"),
        ("'@SUM(A1)", "-3"),
        ("'Tab", "1"),
        ("'Cr", "2"),
        ("Bell", "'=1+1"),
    ]
    assert rows[0]["winners"].startswith("'=") and rows[0]["players"].startswith("'=")


def test_append_actions_is_one_entry_of_several(repo: GameRepository) -> None:
    g = repo.create_game("rummy", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "a"})
    assert repo.append_actions(g.id, [{"type": "b"}, {"type": "c"}]) == 3
    assert [a["type"] for a in repo.get_game(g.id).actions] == ["a", "b", "c"]
    assert repo.pop_action(g.id) == {"type": "c"}  # undo still takes one action
    with pytest.raises(StorageError):
        repo.append_actions(g.id, [{"type": "ok"}, ["not a dict"]])  # type: ignore[list-item]
    with pytest.raises(StorageError):
        repo.append_actions(g.id, [])
    assert [a["type"] for a in repo.get_game(g.id).actions] == ["a", "b"]
