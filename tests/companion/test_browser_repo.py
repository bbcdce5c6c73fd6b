"""The phone's history (BrowserRepository): the same repository contract, and nothing lost.

The contract tests of ``test_storage`` run here on the browser backend, its log
in files (FileLog, the desktop twin of the browser's OPFS slots); every test
then reopens the log and finds the same history.  The browser test
(tests/browser/test_phone_build.py) drives the real OPFS slots in Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.storage import GameRepository, StorageError
from companion.storage.browser_repo import BrowserRepository, FileLog, MemoryLog
from tests.companion import test_storage
from tests.companion.test_storage import *  # noqa: F403  (the contract, run again here)


def _open(folder: Path) -> BrowserRepository:
    return BrowserRepository(FileLog(folder / "a.jsonl"), FileLog(folder / "b.jsonl"))


def _state(repo: GameRepository) -> dict[str, object]:
    export = repo.export_json()
    export.pop("exported", None)
    revisions = {g["id"]: repo.game_revision(g["id"]) for g in export["games"]}
    return {"export": export, "revisions": revisions, "trash": repo.list_trash()}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[GameRepository]:
    """The browser backend; after the test, a reopened log holds exactly what it held."""
    folder = tmp_path / "opfs"
    live = _open(folder)
    yield live
    assert _state(_open(folder)) == _state(live)


assert test_storage.test_create_and_get  # the star import brought the contract in


def play(repo: GameRepository) -> str:
    g = repo.create_game("umtali", ["Ann", "Bob"])
    repo.append_action(g.id, {"type": "hand", "n": 1})
    repo.append_actions(g.id, [{"type": "hand", "n": 2}, {"type": "hand", "n": 3}])
    return g.id


def test_reopened_log_has_every_acknowledged_entry(tmp_path: Path) -> None:
    gid = play(_open(tmp_path))
    again = _open(tmp_path)
    assert [a["n"] for a in again.get_game(gid).actions] == [1, 2, 3]
    assert again.game_revision(gid) == 2


def test_torn_last_line_is_an_entry_never_acknowledged() -> None:
    a, b = MemoryLog(), MemoryLog()
    repo = BrowserRepository(a, b)
    gid = play(repo)
    whole = a.data
    a.data = whole + b'{"game": {"id": "x'  # the page died while writing the next entry
    again = BrowserRepository(a, b)
    assert [x["n"] for x in again.get_game(gid).actions] == [1, 2, 3]
    assert again.problems == []


def test_a_failed_write_is_refused_and_forgotten() -> None:
    class Full(MemoryLog):
        full = False

        def append(self, data: bytes) -> None:
            if self.full:
                raise OSError("QuotaExceededError")
            super().append(data)

    a = Full()
    repo = BrowserRepository(a, MemoryLog())
    gid = play(repo)
    a.full = True
    with pytest.raises(StorageError, match="not kept"):
        repo.append_action(gid, {"type": "hand", "n": 4})
    assert [x["n"] for x in repo.get_game(gid).actions] == [1, 2, 3]  # memory = what is saved
    a.full = False
    assert repo.append_action(gid, {"type": "hand", "n": 4}) == 4


def test_long_log_is_compacted_into_the_other_slot() -> None:
    a, b = MemoryLog(), MemoryLog()
    repo = BrowserRepository(a, b)
    g = repo.create_game("rummy", ["Ann", "Bob", "Cy"])
    for n in range(300):
        repo.append_action(g.id, {"type": "hand", "n": n})
    assert a.data.count(b'{"add":') == 300  # one line an entry
    again = BrowserRepository(a, b)
    assert b.data.startswith(b'{"gen":1}') and b.data.endswith(b'{"ready":true}\n')
    assert b.data.count(b"\n") == 4  # gen, the game, the players, ready
    again.append_action(g.id, {"type": "hand", "n": 300})
    third = BrowserRepository(a, b)
    assert len(third.get_game(g.id).actions) == 301
    assert third.game_revision(g.id) == 301


def test_crash_while_compacting_keeps_the_old_slot() -> None:
    a, b = MemoryLog(), MemoryLog()
    repo = BrowserRepository(a, b)
    g = repo.create_game("rummy", ["Ann", "Bob"])
    for n in range(300):
        repo.append_action(g.id, {"type": "hand", "n": n})
    b.data = b'{"gen":1}\n'  # the copy was cut before its "ready" line
    again = BrowserRepository(MemoryLog(a.data), MemoryLog(b.data))
    assert len(again.get_game(g.id).actions) == 300


def test_unreadable_log_says_so_and_is_left_as_it_is() -> None:
    damaged = MemoryLog(b"\x00garbage\n")
    repo = BrowserRepository(damaged, MemoryLog())
    assert repo.list_games() == []
    assert repo.problems and "could not be read" in repo.problems[0]
    repo.create_game("umtali", ["Ann", "Bob"])
    assert damaged.data == b"\x00garbage\n"
    with pytest.raises(StorageError, match="cannot be read"):
        BrowserRepository(MemoryLog(b"junk\n"), MemoryLog(b"more junk\n"))


def test_an_entry_appends_only_itself_not_the_whole_game() -> None:
    """The log grows with the game, not with the square of its length."""
    a = MemoryLog()
    repo = BrowserRepository(a, MemoryLog())
    g = repo.create_game("umtali", ["Ann", "Bob"])
    growth = []
    for n in range(150):
        before = len(a.data)
        repo.append_action(g.id, {"type": "meld", "cards": ["5H", "6H", "7H"], "n": n})
        repo.set_summary(g.id, {"scores": {"Ann": n, "Bob": 0}}, "in_progress")
        growth.append(len(a.data) - before)
    assert max(growth) < 400, growth[-1]  # an entry and a summary: a few hundred bytes
    assert growth[-1] <= growth[0] + 10  # the 150th costs what the first did
    popped = repo.pop_action(g.id)
    assert popped is not None and popped["n"] == 149
    repo.append_actions(g.id, [{"type": "hand", "n": 1}, {"type": "hand", "n": 2}])
    again = BrowserRepository(MemoryLog(a.data), MemoryLog())
    assert again.get_game(g.id) == repo.get_game(g.id)
    assert again.game_revision(g.id) == repo.game_revision(g.id) == 152
    assert again.problems == []


def test_a_running_log_is_compacted_once_it_doubles() -> None:
    """A long session is copied compact while it runs; each copy is paid by the growth."""
    a, b = MemoryLog(), MemoryLog()
    repo = BrowserRepository(a, b)
    g = repo.create_game("rummy", ["Ann", "Bob"])
    big = "x" * 2000
    sizes = []
    for n in range(400):  # 800 KB of entries, then as many undos
        repo.append_action(g.id, {"type": "hand", "n": n, "note": big})
        sizes.append(len(a.data) + len(b.data))
    for _ in range(399):
        repo.pop_action(g.id)
        sizes.append(len(a.data) + len(b.data))
    assert repo._gen >= 2  # copied while running, more than once
    # never more than the two slots of twice the largest game plus the slack
    assert max(sizes) < 2 * (3 * 400 * 2100 + 256 * 1024), max(sizes)
    again = BrowserRepository(MemoryLog(a.data), MemoryLog(b.data))
    assert [x["n"] for x in again.get_game(g.id).actions] == [0]
    assert again.game_revision(g.id) == repo.game_revision(g.id) == 799


def test_a_copy_that_fails_while_running_loses_no_entry() -> None:
    class Refusing(MemoryLog):
        def reset(self, data: bytes) -> None:
            raise OSError("QuotaExceededError")

    a, b = MemoryLog(), Refusing()
    repo = BrowserRepository(a, b)
    g = repo.create_game("rummy", ["Ann", "Bob"])
    big = "x" * 2000
    for n in range(200):  # past the size that asks for a copy: every entry still kept
        assert repo.append_action(g.id, {"type": "hand", "n": n, "note": big}) == n + 1
    assert repo.problems and "not tidied" in repo.problems[0]
    again = BrowserRepository(MemoryLog(a.data), MemoryLog())
    assert len(again.get_game(g.id).actions) == 200


def test_a_change_to_a_game_the_log_does_not_know_is_skipped_and_said() -> None:
    a = MemoryLog()
    repo = BrowserRepository(a, MemoryLog())
    gid = play(repo)
    a.data += b'{"add":"nobody","actions":[{"type":"hand"}],"rev":1,"at":"x"}\n'
    a.data += b'{"add":"' + gid.encode() + b'","actions":"not a list","rev":9,"at":"x"}\n'
    again = BrowserRepository(a, MemoryLog())
    assert [x["n"] for x in again.get_game(gid).actions] == [1, 2, 3]
    assert len(again.problems) == 2 and "damaged" in again.problems[0]
