"""A kill at every file step of every multi-file operation leaves the state before or after it.

Each operation runs in a forked child that dies (SIGKILL) just before its n-th
file step -- a rename, an unlink, a truncate, or half-way through a write --
for every n; the reopened store must equal, exactly, the state before the
operation or the state after it (``crash_model``).  Issue 13 found a rename
killed half-way left 3-91 of 150 games renamed and the index stale.
The random-moment storm of 1,000 kills is ``benchmarks/crash_storm.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.preferences import save_theme
from companion.storage import StoredGame, TinyDbRepository
from tests.companion import crash_model


def build(folder: Path) -> dict[str, str]:
    """A small history: games with and without logs, a deleted game, saved preferences."""
    repo = TinyDbRepository(folder, durable=False)
    ids = {}
    for n, players in enumerate([["Ann", "Bob"], ["Ann", "Cy"], ["Bob", "Cy"], ["Ann", "Dee"]]):
        g = repo.create_game("rummy", players)
        ids[f"g{n}"] = g.id
        for i in range(3):
            repo.append_action(g.id, {"type": "x", "player": players[i % 2], "n": i})
    repo.set_summary(ids["g1"], {"winners": ["Ann"], "totals": {"Ann": 9}, "hands": []}, "finished")
    gone = repo.create_game("umtali", ["Ann", "Eve"])
    repo.delete_game(gone.id)
    ids["trash"] = gone.id
    repo.add_player("Zed")
    save_theme(folder, True)
    repo.close()
    return ids


def operations(ids: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    backup_game = StoredGame(game="rummoli", players=["Ann", "Kim"], actions=[{"type": "y"}])
    trashed = StoredGame(game="rummy", players=["Lou"])
    return [
        ("rename", {"old": "Ann", "new": "Annie"}),
        ("merge", {"source": "Dee", "target": "Bob"}),
        (
            "import",
            {
                "backup": {
                    "games": [backup_game.model_dump(mode="json")],
                    "trash": [trashed.model_dump(mode="json")],
                    "players": [{"name": "Mo"}],
                }
            },
        ),
        ("create", {"game": "umtali", "players": ["Ann", "New"], "rules": {"x": 1}}),
        ("append", {"id": ids["g0"], "action": {"type": "z"}}),
        ("append_many", {"id": ids["g1"], "actions": [{"type": "y"}, {"type": "z"}]}),
        ("undo", {"id": ids["g0"]}),
        ("replace", {"id": ids["g2"], "actions": [{"type": "only"}]}),
        ("summary", {"id": ids["g0"], "summary": {"winners": ["Bob"]}, "status": "finished"}),
        ("delete", {"id": ids["g3"]}),
        ("restore", {"id": ids["trash"]}),
        ("add_player", {"name": "Yan"}),
        ("preferences", {"dark": False}),
        ("preferences", {"game": "rummy", "rules": {"jokers": True}}),
    ]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("template") / "data"
    return folder, build(folder)


def fresh(template: Path, where: Path) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(template, where, ignore=shutil.ignore_patterns(".lock"))
    return where


@pytest.mark.parametrize("index", range(14), ids=lambda i: f"op{i}")
def test_a_kill_at_any_step_leaves_before_or_after(
    template: tuple[Path, dict[str, str]], tmp_path: Path, index: int
) -> None:
    folder, ids = template
    name, args = operations(ids)[index]
    kill_at_every_step(folder, name, args, tmp_path)


def test_a_kill_while_a_long_log_is_folded_in_leaves_before_or_after(
    template: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.storage import tinydb_repo

    monkeypatch.setattr(tinydb_repo, "COMPACT_AFTER", 2)  # the forked children see it too
    folder, ids = template
    kill_at_every_step(folder, "append", {"id": ids["g0"], "action": {"type": "z"}}, tmp_path)


def kill_at_every_step(folder: Path, name: str, args: dict[str, Any], tmp_path: Path) -> None:
    before = crash_model.snapshot(fresh(folder, tmp_path / "before"))
    after = crash_model.expected_after(folder, name, args, tmp_path / "after")
    assert after != before, f"{name} changed nothing"
    steps = crash_model.steps_of(folder, name, args, tmp_path / "count")
    assert steps >= 1
    seen = set()
    for step in range(1, steps + 1):
        data = fresh(folder, tmp_path / "data")
        assert crash_model.kill_at_step(data, name, args, step), f"{name}: no step {step}"
        found = crash_model.verdict(crash_model.snapshot(data), before, after)
        assert found in ("before", "after"), f"{name} killed at step {step}/{steps}: {found}"
        seen.add(found)
    assert seen == {"before", "after"} or steps == 1, (name, steps, seen)


def test_a_kill_while_finishing_a_rename_after_a_crash_still_finishes_it(
    template: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    folder, ids = template
    args = {"old": "Ann", "new": "Annie"}
    after = crash_model.expected_after(folder, "rename", args, tmp_path / "after")
    steps = crash_model.steps_of(folder, "rename", args, tmp_path / "count")
    crashed = fresh(folder, tmp_path / "crashed")
    assert crash_model.kill_at_step(crashed, "rename", args, steps // 2)
    assert (crashed / "journal.json").exists()  # the rename is half-way, journaled
    recovery = crash_model.steps_of(crashed, "open", {}, tmp_path / "count2")
    assert recovery >= 3
    for step in range(1, recovery + 1):  # now kill the open that finishes it, at every step
        data = fresh(crashed, tmp_path / "data")
        assert crash_model.kill_at_step(data, "open", {}, step)
        assert crash_model.verdict(crash_model.snapshot(data), after, after) == "before"
