"""Every write error in words (issue 19, item 6): a full disk, no permission, a read-only
folder.  The device says what happened and that nothing was lost; the log gets no
traceback; the game and its history are as they were."""

from __future__ import annotations

import errno
import logging
from pathlib import Path
from typing import Any

import pytest

from companion.hub import TableHub
from companion.session import GameSession
from companion.storage import StorageError, TinyDbRepository, open_repository
from tests.companion.tally import PLAYERS, _add, tally  # noqa: F401

CASES = [
    (errno.ENOSPC, "No space left on device", "disk of the machine running the table is full"),
    (errno.EACCES, "Permission denied", "may not write to its data folder (permission denied)"),
    (errno.EROFS, "Read-only file system", "data folder is on a read-only disk"),
]


def _failing(monkeypatch: pytest.MonkeyPatch, names: list[str], code: int, text: str) -> None:
    def fail(*_: Any, **__: Any) -> Any:
        raise OSError(code, text)

    for name in names:
        monkeypatch.setattr(TinyDbRepository, name, fail)


@pytest.mark.usefixtures("tally")
@pytest.mark.parametrize(("code", "text", "words"), CASES, ids=["full", "denied", "read-only"])
def test_add_undo_redo_and_start_on_a_disk_that_refuses_say_so_and_lose_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    code: int,
    text: str,
    words: str,
) -> None:
    repo = open_repository(tmp_path)
    hub = TableHub(repo)
    try:
        game = GameSession.start(hub, "tally", PLAYERS, {})
        assert game.add(_add("Ann", 2)) is None and game.add(_add("Bob", 1)) is None
        assert game.undo() is not None  # something to redo
        before = repo.get_game(game.game_id).actions
        caplog.set_level(logging.DEBUG)
        with monkeypatch.context() as m:
            _failing(
                m, ["append_action", "append_actions", "pop_action", "create_game"], code, text
            )
            refusal = game.add(_add("Cy", 3))
            assert refusal is not None and words in refusal.message, refusal
            assert "Nothing was lost" in refusal.message
            assert game.undo() is None
            assert game.error is not None and words in game.error.message
            refusal = game.redo()
            assert refusal is not None and words in refusal.message
            with pytest.raises(StorageError, match="no game was started"):
                GameSession.start(hub, "tally", PLAYERS, {})
        assert repo.get_game(game.game_id).actions == before
        assert [a.to_json() for a in game.actions] == before and game.can_redo
        assert not [r for r in caplog.records if r.exc_info], "a traceback in the log"
        assert game.add(_add("Cy", 3)) is None  # the disk is back: on it goes
    finally:
        repo.close()


@pytest.mark.usefixtures("tally")
def test_a_folder_whose_lock_cannot_be_taken_refuses_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = open_repository(tmp_path)
    hub = TableHub(repo)
    try:
        game = GameSession.start(hub, "tally", PLAYERS, {})
        _failing(monkeypatch, ["writer_lock"], errno.EROFS, "Read-only file system")
        refusal = game.add(_add("Ann", 2))
        assert refusal is not None and "read-only disk" in refusal.message
        assert game.undo() is None and game.error is not None
        assert GameSession.open(hub, game.game_id).actions == ()  # it still opens to read
    finally:
        monkeypatch.undo()
        repo.close()
