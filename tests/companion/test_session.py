"""The game session: the live referee judges and pushes, history saves at once; undo/redo.

Most tests run a tiny tally game through the session (the mechanics do not depend on
a game's rules); the last ones run real Rummy entries end to end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hub import HistoryListing, TableHub
from companion.session import GameSession, Who
from companion.storage import GameRepository, MemoryRepository, StorageError, open_repository
from rulesets.protocol import Summary
from tests.companion.tally import PLAYERS, TALLY, Add, TallyGame, _add, tally  # noqa: F401


@pytest.fixture(params=["memory", "tinydb"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameRepository]:
    r: GameRepository = (
        MemoryRepository() if request.param == "memory" else open_repository(tmp_path)
    )
    yield r
    r.close()


@pytest.fixture
def hub(repo: GameRepository) -> TableHub:
    """The live games of ``repo``, as the app's services hold them (one per process)."""
    return TableHub(repo)


@pytest.mark.usefixtures("tally")
def test_accepted_entries_are_saved_at_once_and_survive_a_restart(
    repo: GameRepository, hub: TableHub
) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    assert s.add(_add("Ann", 3)) is None
    assert s.add(_add("Bob", 4)) is None
    assert s.summary.totals == {"Ann": 3, "Bob": 4, "Cy": 0}
    assert [a["points"] for a in repo.get_game(s.game_id).actions] == [3, 4]
    again = GameSession.open(hub, s.game_id)  # e.g. after the app was closed
    assert again.summary == s.summary
    assert repo.get_game(s.game_id).summary == s.summary.to_json()


@pytest.mark.usefixtures("tally")
def test_an_entry_is_judged_and_pushed_not_replayed(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    live = s.game
    assert isinstance(live, TallyGame)
    for n in range(5):
        s.add(_add("Cy", 1))
        assert live.pushes == n + 1  # one push per entry: the record is never replayed
    assert s.game is live


@pytest.mark.usefixtures("tally")
def test_a_refused_entry_keeps_everything(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    s.add(_add("Ann", 2))
    before = s.summary
    assert s.judge(_add("Bob", -1)).legal is False
    assert s.can(_add("Bob", -1)) is False
    refusal = s.add(_add("Bob", -1))
    assert refusal is not None and refusal.rule == "T1" and "-1" in refusal.message
    assert s.summary == before and s.error == refusal
    assert len(repo.get_game(s.game_id).actions) == 1


@pytest.mark.usefixtures("tally")
def test_add_many_is_all_or_nothing(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    assert s.add_many([_add("Ann", 1), _add("Bob", -5)]) is not None
    assert s.actions == () and repo.get_game(s.game_id).actions == []
    assert s.add_many([_add("Ann", 1), _add("Bob", 5)]) is None
    assert len(repo.get_game(s.game_id).actions) == 2


@pytest.mark.usefixtures("tally")
def test_undo_pops_redo_pushes_and_a_new_entry_clears_redo(
    repo: GameRepository, hub: TableHub
) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    s.add(_add("Ann", 3))
    s.add(_add("Bob", 4))
    assert isinstance(s.undo(), Add)
    assert s.summary.totals["Bob"] == 0 and s.can_redo
    assert len(repo.get_game(s.game_id).actions) == 1
    assert s.redo() is None
    assert s.summary.totals["Bob"] == 4 and not s.can_redo
    s.undo()
    s.add(_add("Cy", 1))
    assert not s.can_redo
    assert [a["player"] for a in repo.get_game(s.game_id).actions] == ["Ann", "Cy"]


@pytest.mark.usefixtures("tally")
def test_replace_edits_history_and_refuses_an_illegal_edit(
    repo: GameRepository, hub: TableHub
) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    s.add_many([_add("Ann", 3), _add("Bob", 4)])
    assert s.replace([_add("Ann", 5), _add("Bob", -1)]) is not None
    assert s.summary.totals["Ann"] == 3  # unchanged
    assert s.replace([_add("Ann", 5), _add("Bob", 1)]) is None
    assert s.summary.totals == {"Ann": 5, "Bob": 1, "Cy": 0}
    assert [a["points"] for a in repo.get_game(s.game_id).actions] == [5, 1]


@pytest.mark.usefixtures("tally")
def test_the_history_line_follows_the_game(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})
    s.add(_add("Ann", 10))
    (item,) = repo.list_games()
    assert item.status == "finished" and item.winners == ["Ann"]
    s.undo()
    (item,) = repo.list_games()
    assert item.status == "in_progress" and item.winners == []


@pytest.mark.usefixtures("tally")
def test_a_save_that_fails_takes_the_entry_back(
    repo: GameRepository, hub: TableHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = GameSession.start(hub, "tally", PLAYERS, {})

    def broken(*_: Any, **__: Any) -> int:
        raise StorageError("the disk is full")

    monkeypatch.setattr(repo, "append_action", broken)
    refusal = s.add(_add("Ann", 3))
    assert refusal is not None and "disk is full" in refusal.message
    assert s.actions == () and s.summary.totals["Ann"] == 0


@pytest.mark.usefixtures("tally")
def test_entries_the_referee_no_longer_accepts_are_kept_and_can_be_undone(
    repo: GameRepository,
    hub: TableHub,
) -> None:
    stored = repo.create_game("tally", PLAYERS)
    for data in (_add("Ann", 2), _add("Bob", -3), _add("Cy", 1)):
        repo.append_action(stored.id, data)
    s = GameSession.open(hub, stored.id)
    assert s.error is not None and "entry 2" in s.error.message
    assert s.summary.totals["Ann"] == 2
    assert s.add(_add("Ann", 1)) is not None  # nothing is added past a broken entry
    assert len(repo.get_game(stored.id).actions) == 3  # and nothing is lost
    s.undo()
    s.undo()
    assert s.error is None and s.add(_add("Ann", 1)) is None
    assert s.summary.totals["Ann"] == 3


# -- real games end to end ---------------------------------------------------------------


def _hand(went_out: str, remaining: dict[str, list[str]], dealer: str | None = None) -> list[Any]:
    return [
        {"type": "start_hand", "dealer": dealer},
        {"type": "hand_end", "went_out": went_out, "remaining": remaining},
    ]


def test_r6_2_rummy_entries_are_scored_and_saved(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "rummy", PLAYERS, {})
    assert s.add_many(_hand("Ann", {"Bob": ["KS", "7D"], "Cy": ["AC"]}, "Cy")) is None
    assert s.summary.totals == {"Ann": 0, "Bob": 17, "Cy": 1}
    again = GameSession.open(hub, s.game_id)
    assert again.summary.totals == {"Ann": 0, "Bob": 17, "Cy": 1}


def test_r2_2_a_refused_rummy_meld_names_its_rule(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "rummy", PLAYERS, {})
    s.add({"type": "start_hand", "dealer": "Cy"})
    refusal = s.add({"type": "meld", "player": "Bob", "cards": ["QH", "KH", "AH"]})
    assert refusal is not None and refusal.rule == "R2.2"
    assert "Q♥ K♥ A♥" in refusal.message
    assert len(repo.get_game(s.game_id).actions) == 1


def test_r6_2_edit_a_finished_rummy_hand_recomputes(repo: GameRepository, hub: TableHub) -> None:
    s = GameSession.start(hub, "rummy", PLAYERS, {})
    s.add_many(_hand("Ann", {"Bob": ["KS"], "Cy": ["AC"]}, "Cy"))
    s.add_many(_hand("Bob", {"Ann": ["2S"], "Cy": ["2C"]}))
    edited: list[Any] = [a.to_json() for a in s.actions]
    edited[1] = {"type": "hand_end", "went_out": "Ann", "remaining": {"Bob": ["3S"], "Cy": []}}
    assert s.replace(edited) is None
    assert s.summary.totals == {"Ann": 2, "Bob": 3, "Cy": 2}


# -- several windows on one game -------------------------------------------------------------


@pytest.mark.usefixtures("tally")
def test_two_windows_lose_no_entry_when_multi_entry_saves_interleave(
    repo: GameRepository,
    hub: TableHub,
) -> None:
    """Issue 14: two windows on one game, multi-entry saves interleaved, then undo in the
    other window.  Every acknowledged entry stays, in order, and the game replays."""
    a = GameSession.start(hub, "tally", PLAYERS, {})
    b = GameSession.open(hub, a.game_id)
    acknowledged: list[dict[str, Any]] = []
    for _ in range(4):
        pair = [_add("Ann", 1), _add("Bob", 0)]
        assert a.add_many(pair) is None
        acknowledged += pair
        one = _add("Cy", 1)
        assert b.add(one) is None
        acknowledged.append(one)
        pair = [_add("Bob", 1), _add("Cy", 0)]
        assert b.add_many(pair) is None
        acknowledged += pair
    assert repo.get_game(a.game_id).actions == acknowledged
    undone = a.undo()  # window A takes off B's last entry, which it has seen
    assert undone is not None and undone.to_json() == acknowledged[-1]
    kept = acknowledged[:-1]
    assert repo.get_game(a.game_id).actions == kept
    assert [x.to_json() for x in a.actions] == [x.to_json() for x in b.actions] == kept
    assert a.summary == b.summary
    assert _replayed(repo, a.game_id).totals == a.summary.totals == {"Ann": 4, "Bob": 4, "Cy": 4}


def _replayed(repo: GameRepository, game_id: str) -> Summary:
    """The stored game replayed from scratch by a fresh referee (raises if it cannot be)."""
    fresh = TALLY.new_game(PLAYERS)
    for data in repo.get_game(game_id).actions:
        fresh.push(data)
    return fresh.summary()


ANN = Who(device="phone-1", words="Ann", seat="Ann", at_table=True)
BOB = Who(device="phone-2", words="Bob", seat="Bob", at_table=True)


@pytest.mark.usefixtures("tally")
def test_every_screen_hears_who_did_what(repo: GameRepository, hub: TableHub) -> None:
    a = GameSession.start(hub, "tally", PLAYERS, {}, who=ANN)
    b = GameSession.open(hub, a.game_id, who=BOB)
    seen_by_b = b.revision
    assert b.add(_add("Bob", 3)) is None
    assert a.summary == b.summary and a.summary.totals["Bob"] == 3
    assert a.notice == "Bob: Bob add" and b.notice == ""  # nobody is told of their own entry
    assert a.undo() is not None
    assert b.notice == "Ann undid Bob's Bob add" and b.revision > seen_by_b
    assert b.summary.totals["Bob"] == 0 and b.can_redo  # one redo stack for the table
    assert b.redo() is None
    assert a.notice == "Bob redid Bob add" and a.summary.totals["Bob"] == 3


@pytest.mark.usefixtures("tally")
def test_an_entry_on_a_stale_screen_is_judged_now_and_a_refusal_says_what_changed(
    repo: GameRepository,
    hub: TableHub,
) -> None:
    a = GameSession.start(hub, "tally", PLAYERS, {}, who=ANN)
    b = GameSession.open(hub, a.game_id, who=BOB)
    b.mark_shown()  # b's screen shows the empty game ...
    assert a.add(_add("Ann", 2)) is None  # ... and is not redrawn before b's next tap
    assert b.add(_add("Bob", 1)) is None  # still legal now: accepted
    b.mark_shown()
    assert a.add(_add("Cy", 5)) is None
    refusal = b.add(_add("Bob", -1))
    assert refusal is not None and refusal.rule == "T1"
    assert refusal.message.startswith("Ann just recorded Cy add; your entry was not added: ")
    assert refusal.changed == ("Ann just recorded Cy add",)
    assert [x["points"] for x in repo.get_game(a.game_id).actions] == [2, 1, 5]


@pytest.mark.usefixtures("tally")
def test_undo_on_a_stale_screen_takes_nothing_off_another_device_added(
    repo: GameRepository,
    hub: TableHub,
) -> None:
    a = GameSession.start(hub, "tally", PLAYERS, {}, who=ANN)
    b = GameSession.open(hub, a.game_id, who=BOB)
    assert b.add(_add("Bob", 1)) is None
    a.mark_shown()
    assert b.add(_add("Bob", 4)) is None  # a's screen has not shown this one yet
    assert a.undo() is None
    assert a.error is not None and "Bob just recorded Bob add" in a.error.message
    assert "nothing was undone" in a.error.message
    assert len(repo.get_game(a.game_id).actions) == 2
    a.mark_shown()  # the screen is redrawn: now the undo is what the person meant
    assert a.undo() is not None and len(repo.get_game(a.game_id).actions) == 1


@pytest.mark.usefixtures("tally")
def test_a_retried_entry_is_applied_once(repo: GameRepository, hub: TableHub) -> None:
    a = GameSession.start(hub, "tally", PLAYERS, {}, who=ANN)
    a.mark_shown()
    assert a.add(_add("Ann", 2)) is None
    assert a.add(_add("Ann", 2)) is None  # the same tap again: the screen never changed
    assert len(repo.get_game(a.game_id).actions) == 1
    a.undo()
    a.undo()  # the same undo again: applied once
    assert len(repo.get_game(a.game_id).actions) == 0 and a.can_redo
    a.mark_shown()
    assert a.add(_add("Ann", 2)) is None
    a.mark_shown()
    assert a.add(_add("Ann", 2)) is None  # a new tap on a redrawn screen: a new entry
    assert len(repo.get_game(a.game_id).actions) == 2


@pytest.mark.usefixtures("tally")
def test_many_threads_writing_at_once_lose_nothing(repo: GameRepository, hub: TableHub) -> None:
    import threading

    first = GameSession.start(hub, "tally", PLAYERS, {})
    sessions = [GameSession.open(hub, first.game_id) for _ in range(4)]
    barrier = threading.Barrier(len(sessions))

    def write(s: GameSession, player: str) -> None:
        barrier.wait()
        for n in range(10):
            if n % 3 == 0:
                assert s.add_many([_add(player, 0), _add(player, 0)]) is None
            else:
                assert s.add(_add(player, 0)) is None

    threads = [
        threading.Thread(target=write, args=(s, PLAYERS[i % 3])) for i, s in enumerate(sessions)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = repo.get_game(first.game_id).actions
    assert len(stored) == 4 * (10 + 4)
    assert all(s.actions == first.actions for s in sessions)
    assert [a.to_json() for a in first.actions] == stored


@pytest.mark.usefixtures("tally")
def test_in_the_app_the_history_line_is_saved_after_every_screen_heard(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the app (the hub's listing is ``deferred``), the list line's save (a rewrite,
    several fsyncs) runs on the listing's worker thread, so the tap's handler and every
    device's redraw do not wait for it."""
    import threading
    import time

    hub = TableHub(repo, listing=HistoryListing(deferred=True))
    assert hub.listing.deferred
    saved_on: list[int] = []
    real = repo.set_summary

    def noting(*args: Any, **kw: Any) -> None:
        saved_on.append(threading.get_ident())
        real(*args, **kw)

    try:
        s = GameSession.start(hub, "tally", PLAYERS, {})
        monkeypatch.setattr(repo, "set_summary", noting)
        assert s.add(_add("Ann", 10)) is None
        deadline = time.monotonic() + 10
        while repo.list_games()[0].status != "finished":
            assert time.monotonic() < deadline, "the history line was never saved"
            time.sleep(0.01)
    finally:
        hub.close()
    assert saved_on and threading.get_ident() not in saved_on


@pytest.mark.usefixtures("tally")
def test_closing_the_hub_saves_every_history_line_still_waiting(repo: GameRepository) -> None:
    """Shutting down (the server stops) does not lose a line its worker had not saved yet."""
    import threading

    hub = TableHub(repo, listing=HistoryListing(deferred=True))
    s = GameSession.start(hub, "tally", PLAYERS, {})
    busy = threading.Event()
    hub.listing.save(busy.wait)  # the worker is busy: the entry's line waits behind
    assert s.add(_add("Ann", 10)) is None
    assert repo.list_games()[0].status == "in_progress"  # not saved yet
    threading.Thread(target=busy.set).start()
    hub.close()
    (item,) = repo.list_games()
    assert item.status == "finished" and item.winners == ["Ann"]


@pytest.mark.usefixtures("tally")
def test_a_running_event_loop_alone_does_not_defer_the_history_line(
    repo: GameRepository,
    hub: TableHub,
) -> None:
    """A loop someone else runs in this thread (a browser driver's) may never run a job
    handed to it: outside the app the line is saved before the entry returns (CI once
    saw the list stay "in progress" after a browser test left its loop running)."""

    async def scenario() -> None:
        s = GameSession.start(hub, "tally", PLAYERS, {})
        assert s.add(_add("Ann", 10)) is None
        (item,) = repo.list_games()
        assert item.status == "finished" and item.winners == ["Ann"]

    from tests.companion.flet_harness import run_async

    run_async(scenario())


# -- two processes, one data folder -----------------------------------------------------------


@pytest.mark.usefixtures("tally")
def test_two_servers_on_one_folder_lose_no_entry_and_the_game_replays(tmp_path: Path) -> None:
    """Each server has its own hub on its own repository, as a second process would."""
    one, two = open_repository(tmp_path), open_repository(tmp_path)
    try:
        a = GameSession.start(TableHub(one), "tally", PLAYERS, {}, who=ANN)
        second = TableHub(two)
        b = GameSession.open(second, a.game_id, who=BOB)
        acknowledged: list[dict[str, Any]] = []
        for _ in range(4):
            pair = [_add("Ann", 1), _add("Bob", 0)]
            assert a.add_many(pair) is None  # a's hub learns of b's entries only on writing
            acknowledged += pair
            one_entry = _add("Cy", 1)
            assert b.add(one_entry) is None
            acknowledged.append(one_entry)
        assert one.get_game(a.game_id).actions == acknowledged
        assert [x.to_json() for x in b.actions] == acknowledged  # b reloaded before judging
        assert b.notice == "Another copy of the app using this data folder changed the game"
        assert a.undo() is None  # a's screen has not seen b's last entry: nothing undone
        assert a.error is not None and "another copy of the app" in a.error.message
        assert two.get_game(a.game_id).actions == acknowledged
        assert a.undo() is not None  # the screen shows the game as it is now: undone
        assert one.get_game(a.game_id).actions == acknowledged[:-1]
        assert _replayed(one, a.game_id).totals == {"Ann": 4, "Bob": 0, "Cy": 3}
        again = GameSession.open(second, a.game_id)  # a device opening the game catches up
        assert again.summary.totals == {"Ann": 4, "Bob": 0, "Cy": 3}
    finally:
        one.close()
        two.close()


@pytest.mark.usefixtures("tally")
def test_an_entry_another_server_made_illegal_is_refused_with_what_changed(
    tmp_path: Path,
) -> None:
    one, two = open_repository(tmp_path), open_repository(tmp_path)
    try:
        a = GameSession.start(TableHub(one), "tally", PLAYERS, {}, who=ANN)
        second = TableHub(two)
        b = GameSession.open(second, a.game_id, who=BOB)
        assert b.add(_add("Bob", 4)) is None
        assert b.undo() is not None
        assert b.add(_add("Cy", 2)) is None
        refusal = a.add(_add("Ann", -1))
        assert refusal is not None and refusal.rule == "T1"
        assert refusal.message.startswith(
            "another copy of the app using this data folder just changed the game; "
            "your entry was not added: "
        )
        assert one.get_game(a.game_id).actions == [_add("Cy", 2)]
    finally:
        one.close()
        two.close()


@pytest.mark.usefixtures("tally")
def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    repo = open_repository(tmp_path)
    gid = GameSession.start(TableHub(repo), "tally", PLAYERS, {}).game_id
    repo.close()
    writers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.companion.table_writer", str(tmp_path), gid, name, "60"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("proc-A", "proc-B")
    ]
    acknowledged: dict[str, list[dict[str, Any]]] = {}
    for name, proc in zip(("A", "B"), writers, strict=True):
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        lines = [json.loads(line) for line in out.splitlines()]
        assert not [x for x in lines if isinstance(x, dict)], lines  # nothing refused
        acknowledged[name] = [a for entry in lines for a in entry]
    repo = open_repository(tmp_path)
    try:
        stored = repo.get_game(gid).actions
    finally:
        repo.close()
    assert sorted(a["points"] for a in stored) == sorted(
        a["points"] for entry in acknowledged.values() for a in entry
    )
    for name, mine in acknowledged.items():  # each process's entries, in its order
        assert [a for a in stored if a in mine] == mine, name
    fresh = TALLY.new_game(PLAYERS)
    for data in stored:
        fresh.push(data)
