"""The game session: entries are refused by the referee or saved at once; undo/redo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import GameSession
from companion.storage import GameRepository, MemoryRepository, open_repository

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture(params=["memory", "tinydb"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameRepository]:
    r: GameRepository = (
        MemoryRepository() if request.param == "memory" else open_repository(tmp_path)
    )
    yield r
    r.close()


def _hand(
    went_out: str, remaining: dict[str, list[str]], dealer: str | None = None
) -> list[dict[str, object]]:
    return [
        {"type": "start_hand", "dealer": dealer},
        {"type": "hand_end", "went_out": went_out, "remaining": remaining},
    ]


def test_accepted_entries_are_saved_and_scored(repo: GameRepository) -> None:
    s = GameSession.start(repo, "rummy", PLAYERS, {})
    assert s.add_many(_hand("Ann", {"Bob": ["KS", "7D"], "Cy": ["AC"]}, "Cy")) is None
    assert s.summary["totals"] == {"Ann": 0, "Bob": 17, "Cy": 1}
    again = GameSession.open(repo, s.game_id)  # e.g. after the app was closed
    assert again.summary["totals"] == {"Ann": 0, "Bob": 17, "Cy": 1}
    assert repo.get_game(s.game_id).summary == s.summary


def test_refused_entry_keeps_everything(repo: GameRepository) -> None:
    s = GameSession.start(repo, "rummy", PLAYERS, {})
    s.add({"type": "start_hand", "dealer": "Cy"})
    before = list(s.actions)
    refusal = s.add({"type": "meld", "player": "Bob", "cards": ["QH", "KH", "AH"]})
    assert refusal is not None and refusal.rule == "R2.2"
    assert "QH KH AH" in refusal.message
    assert s.actions == before == repo.get_game(s.game_id).actions
    assert s.error == refusal


def test_undo_then_redo_and_new_entry_clears_redo(repo: GameRepository) -> None:
    s = GameSession.start(repo, "rummy", PLAYERS, {})
    s.add_many(_hand("Ann", {"Bob": ["KS"], "Cy": ["AC"]}, "Cy"))
    assert s.undo() is not None
    assert s.summary["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert s.can_redo
    assert s.redo() is None
    assert s.summary["totals"] == {"Ann": 0, "Bob": 10, "Cy": 1}
    s.undo()
    s.add({"type": "hand_end", "went_out": "Bob", "remaining": {"Ann": ["2C"], "Cy": ["3C"]}})
    assert not s.can_redo
    assert s.summary["totals"] == {"Ann": 2, "Bob": 0, "Cy": 3}


def test_two_windows_on_one_game_lose_nothing(repo: GameRepository) -> None:
    a = GameSession.start(repo, "rummy", PLAYERS, {})
    b = GameSession.open(repo, a.game_id)
    a.add({"type": "start_hand", "dealer": "Cy"})
    b.add({"type": "hand_end", "went_out": "Cy", "remaining": {"Ann": ["5C"], "Bob": ["6C"]}})
    assert [x["type"] for x in repo.get_game(a.game_id).actions] == ["start_hand", "hand_end"]
    assert b.summary["totals"] == {"Ann": 5, "Bob": 6, "Cy": 0}


def test_edit_a_finished_hand_recomputes(repo: GameRepository) -> None:
    s = GameSession.start(repo, "rummy", PLAYERS, {})
    s.add_many(_hand("Ann", {"Bob": ["KS"], "Cy": ["AC"]}, "Cy"))
    s.add_many(_hand("Bob", {"Ann": ["2S"], "Cy": ["2C"]}))
    edited = list(s.actions)
    edited[1] = {"type": "hand_end", "went_out": "Ann", "remaining": {"Bob": ["3S"], "Cy": []}}
    assert s.replace(edited) is None
    assert s.summary["totals"] == {"Ann": 2, "Bob": 3, "Cy": 2}
