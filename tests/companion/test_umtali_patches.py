"""The turn passing on one phone: every other phone's Umtali picker is left as it was (issue 20).

When Bob's discard ends his turn, each phone's entry follows the turn (the acting row
now says Ann).  The card grid fills the same list (the meld's cards) whoever acts, so
none of it is drawn again: no grid, no suit row, no card.  It used to be, on every
phone, because its change handler named the acting player even where no owner is set
(only "My hand" has one).

(Counts, not times: the CPU this saves is measured by ``benchmarks/table_sync.py``.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from companion.components.kit import card_grid
from companion.components.umtali import entry as umtali_entry
from companion.hub import Actor, TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from tests.companion.test_table_patches import _phones_follow


def follow_discard(phones: int, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``phones`` sessions on an Umtali hand in play, Bob to play; another device
    records Bob's discard, which passes the turn to Ann."""
    drawn: list[Counter[str]] = []
    grid, suit_row, acting_row = card_grid.card_grid, card_grid._suit_row, umtali_entry.acting_row

    def counting_grid(*a: Any, **kw: Any) -> Any:
        drawn[-1]["grid"] += 1
        return grid(*a, **kw)

    def counting_acting(*a: Any, **kw: Any) -> Any:
        drawn[-1]["acting row"] += 1
        return acting_row(*a, **kw)

    monkeypatch.setattr(card_grid, "card_grid", counting_grid)
    monkeypatch.setattr(umtali_entry, "acting_row", counting_acting)
    assert suit_row is card_grid._suit_row
    hub = TableHub(MemoryRepository())
    opening = [{"type": "start_hand", "dealer": "Ann"}]
    game = GameSession.start(hub, "umtali", ["Ann", "Bob"], {}, opening)
    assert game.summary.turn == "Bob"
    live = GameSession.open(hub, game.game_id).live

    def discard() -> None:
        entry = {"type": "discard", "player": "Bob", "card": "9C"}
        live.submit([entry], actor=Actor("elsewhere", "Ann"))

    shown = "Ann (to play)"  # the acting row names whose turn it is
    *out, first = _phones_follow(game.game_id, hub, phones, drawn, discard, shown)
    assert all(d["grid"] == 1 and d["acting row"] == 1 for d in first["first"])  # drawn at first
    return out


def test_the_turn_passing_leaves_every_other_phones_card_grid_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    *sessions, drawn = follow_discard(3, monkeypatch)
    assert drawn.get("acting row") == 3  # each phone's entry follows the turn: Ann acts now
    assert drawn.get("grid", 0) == 0, drawn  # the same 52 cards for the same list: not drawn again
    assert len({(s["ops"], s["controls"]) for s in sessions}) == 1  # the same patch for each
