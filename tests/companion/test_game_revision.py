"""A game's revision: every change to its actions counts one; a write made from an older
reading is refused (checked under the writer lock), on both repositories and across
two repositories on one data folder (as two processes would have)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.storage import (
    GameRepository,
    MemoryRepository,
    StaleGameError,
    TinyDbRepository,
    open_repository,
)


def _a(n: int) -> dict[str, Any]:
    return {"type": "add", "player": "Ann", "points": n}


@pytest.fixture(params=["memory", "tinydb"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameRepository]:
    r: GameRepository = (
        MemoryRepository() if request.param == "memory" else open_repository(tmp_path)
    )
    yield r
    r.close()


def test_every_change_of_the_actions_counts_one_and_nothing_else_does(
    repo: GameRepository,
) -> None:
    gid = repo.create_game("tally", ["Ann", "Bob"]).id
    assert repo.game_revision(gid) == 0
    repo.append_action(gid, _a(1))
    repo.append_actions(gid, [_a(2), _a(3)])
    assert repo.game_revision(gid) == 2
    repo.set_summary(gid, {"totals": {"Ann": 6}}, "in_progress")  # not an action
    assert repo.game_revision(gid) == 2
    repo.pop_action(gid)
    repo.replace_actions(gid, [_a(9)])
    assert repo.snapshot(gid) == (repo.get_game(gid), 4)
    assert repo.pop_action(gid, expected=4) == _a(9)
    assert repo.pop_action(gid, expected=5) is None  # nothing to undo: no change
    assert repo.game_revision(gid) == 5
    repo.rename_player("Ann", "Anna")  # the game's actions changed under any live game
    assert repo.game_revision(gid) == 6


@pytest.mark.parametrize(
    "write",
    [
        lambda r, g, e: r.append_action(g, _a(5), expected=e),
        lambda r, g, e: r.append_actions(g, [_a(5), _a(6)], expected=e),
        lambda r, g, e: r.pop_action(g, expected=e),
        lambda r, g, e: r.replace_actions(g, [_a(5)], expected=e),
    ],
    ids=["append", "append_many", "pop", "replace"],
)
def test_a_write_from_an_older_reading_is_refused_and_writes_nothing(
    repo: GameRepository, write: Any
) -> None:
    gid = repo.create_game("tally", ["Ann", "Bob"]).id
    repo.append_action(gid, _a(1))
    before = repo.snapshot(gid)
    with pytest.raises(StaleGameError) as info:
        write(repo, gid, 0)
    assert info.value.revision == 1 and "changed since it was read" in str(info.value)
    assert repo.snapshot(gid) == before
    write(repo, gid, 1)
    assert repo.game_revision(gid) == 2


def test_two_repositories_on_one_folder_see_each_others_changes(tmp_path: Path) -> None:
    a = open_repository(tmp_path)
    b = open_repository(tmp_path)  # another process, as far as the files are concerned
    try:
        gid = a.create_game("tally", ["Ann", "Bob"]).id
        seen = b.game_revision(gid)
        a.append_action(gid, _a(1), expected=a.game_revision(gid))
        with pytest.raises(StaleGameError):
            b.append_action(gid, _a(2), expected=seen)
        game, revision = b.snapshot(gid)
        assert game.actions == [_a(1)] and revision == 1
        b.append_action(gid, _a(2), expected=revision)
        assert a.get_game(gid).actions == [_a(1), _a(2)] and a.game_revision(gid) == 2
    finally:
        a.close()
        b.close()


def test_the_revision_survives_folding_the_log_and_reopening(tmp_path: Path) -> None:
    from companion.storage.tinydb_repo import COMPACT_AFTER

    repo = TinyDbRepository(tmp_path, durable=False)
    gid = repo.create_game("tally", ["Ann", "Bob"]).id
    for n in range(COMPACT_AFTER + 3):
        repo.append_action(gid, _a(n), expected=n)
    assert repo.game_revision(gid) == COMPACT_AFTER + 3
    repo.close()
    again = TinyDbRepository(tmp_path, durable=False)
    assert again.snapshot(gid)[1] == COMPACT_AFTER + 3
    again.close()
