"""The one snapshot rule (rulesets.snapshot.capture): a capture shares no mutable part
of the state with the original, for every game and through a whole random game."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rulesets import GAMES, load_ruleset
from rulesets.snapshot import capture


def _mutable_parts(value: Any, path: str, out: dict[int, str], *, history: bool = False) -> None:
    """Every list, dict, set and mutable dataclass reachable from ``value`` (by id)."""
    kind = type(value)
    if kind in (list, dict, set):
        out[id(value)] = path
        items = value.values() if kind is dict else value
        for i, item in enumerate(list(items)):
            if history and i < len(value) - 1:
                continue  # a history's earlier entries are shared on purpose
            _mutable_parts(item, f"{path}[{i}]", out)
    elif dataclasses.is_dataclass(value) and not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        out[id(value)] = path
        for f in dataclasses.fields(value):
            hist = f.metadata.get("snapshot") == "history"
            _mutable_parts(getattr(value, f.name), f"{path}.{f.name}", out, history=hist)


@pytest.mark.parametrize("game", GAMES)
def test_a_capture_shares_no_mutable_part_with_the_state(game: str) -> None:
    ruleset = load_ruleset(game)
    record = ruleset.random_record(11)
    live = ruleset.new_game(record.players, record.rules)
    for data in record.actions:
        live.push(data)
        state = live._state  # type: ignore[attr-defined]
        twin = capture(state)
        mine: dict[int, str] = {}
        theirs: dict[int, str] = {}
        _mutable_parts(state, "state", mine)
        _mutable_parts(twin, "state", theirs)
        shared = sorted(mine[i] for i in set(mine) & set(theirs))
        assert not shared, shared
        assert twin == state
