"""A retry is a retry across reconnects and restarts (issue 19, item 4).

The idempotency key belongs to the device (its table id, kept through a restart) and the
entry on the revision its screen showed -- the game's stored revision, the same number
after a restart -- not to a browser session; the keys are kept with the game, so a tap
sent again after a reconnect or a server restart is applied once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.hub import Actor, KeyBook, TableHub, entry_key
from companion.session import GameSession, Who
from companion.storage import open_repository
from tests.companion.tally import PLAYERS, _add, tally  # noqa: F401

ANN_PHONE = Who(device="d-ann", words="Ann", seat="Ann", at_table=True)


def _send(hub: TableHub, gid: str, seen: int, entry: dict[str, Any]) -> Any:
    """What a device's tap does: the entry, the revision its screen showed, its key."""
    live = GameSession.open(hub, gid, who=ANN_PHONE).live  # (a fresh session each time)
    return live.submit(
        [entry],
        actor=Actor("d-ann-session", "Ann"),
        seen=seen,
        key=entry_key(ANN_PHONE.device, seen, "add", [entry]),
    )


@pytest.mark.usefixtures("tally")
def test_a_tap_sent_again_from_a_new_session_and_after_a_restart_is_applied_once(
    tmp_path: Path,
) -> None:
    repo = open_repository(tmp_path)
    hub = TableHub(repo)
    game = GameSession.start(hub, "tally", PLAYERS, {}, who=ANN_PHONE)
    gid, seen = game.game_id, game.table_revision
    assert _send(hub, gid, seen, _add("Ann", 2)).event is not None  # saved; no answer arrives
    # the phone reconnects (a fresh browser session) and sends the same tap again
    again = GameSession.open(hub, gid, who=ANN_PHONE)
    assert again.actions and _send(hub, gid, seen, _add("Ann", 2)).duplicate
    repo.close()

    restarted = open_repository(tmp_path)  # the server restarts: a new hub, a new process
    after = TableHub(restarted)
    try:
        assert GameSession.open(after, gid).live.revision == seen + 1  # revisions go on
        assert _send(after, gid, seen, _add("Ann", 2)).duplicate
        assert restarted.get_game(gid).actions == [_add("Ann", 2)]
        # the same entry made again on the screen that showed it: a new entry
        assert _send(after, gid, seen + 1, _add("Ann", 2)).event is not None
        assert restarted.get_game(gid).actions == [_add("Ann", 2), _add("Ann", 2)]
    finally:
        restarted.close()


@pytest.mark.usefixtures("tally")
@pytest.mark.parametrize("saved", [True, False], ids=["saved", "not-saved"])
def test_a_crash_between_the_save_and_the_answer_is_settled_from_the_revision(
    tmp_path: Path, saved: bool
) -> None:
    """The key is noted before the save; killed after it (or before it), the next process
    tells which from the game's revision, and a retry is answered accordingly."""
    repo = open_repository(tmp_path)
    hub = TableHub(repo)
    gid = GameSession.start(hub, "tally", PLAYERS, {}).game_id
    seen = repo.game_revision(gid)
    key = entry_key(ANN_PHONE.device, seen, "add", [_add("Ann", 3)])
    book = KeyBook(tmp_path, gid)
    book.before(key, seen)  # ... then the process is killed, after the save or before it
    if saved:
        repo.append_action(gid, _add("Ann", 3), expected=seen)
    repo.close()

    restarted = open_repository(tmp_path)
    try:
        outcome = _send(TableHub(restarted), gid, seen, _add("Ann", 3))
        assert outcome.duplicate is saved and (outcome.event is not None) is not saved
        assert restarted.get_game(gid).actions == [_add("Ann", 3)]  # once, either way
    finally:
        restarted.close()


def test_the_key_file_stays_small_and_a_line_cut_off_by_a_kill_is_ignored(tmp_path: Path) -> None:
    book = KeyBook(tmp_path, "g1")
    for n in range(1000):
        book.before(f"k{n}", n)
        book.applied(f"k{n}", n + 1)
    assert book.path is not None
    assert len(book.path.read_text().splitlines()) <= 4 * 64 + 1  # compacted now and then
    book.before("k1000", 1000)
    with book.path.open("a") as fh:
        fh.write("a k1000 10")  # torn: killed mid-line (no newline)
    again = KeyBook(tmp_path, "g1")
    again.load(stored_revision=1000)  # the revision did not move: k1000 was not saved
    assert "k999" in again and "k1000" not in again
    saved = KeyBook(tmp_path, "g1")
    saved.load(stored_revision=1000)  # settled once: the next process reads the same
    assert "k999" in saved and "k1000" not in saved
