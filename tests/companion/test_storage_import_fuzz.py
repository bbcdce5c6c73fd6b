"""Fuzz: any JSON handed to import is a clear refusal or a clean import (issue 13).

Random shapes and values -- wholly random JSON, backups with random fields,
and good games with one value swapped for a random one.  On refusal
(:class:`StorageError`) not one byte of the data folder changed; after an
import the store reopens with no problem, lists every game it added and opens
each of them.  No other exception may escape.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.storage import StorageError, StoredGame, TinyDbRepository
from companion.storage.base import BACKUP_FORMAT

leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["Ann", "", " ", "in_progress", "finished", "2026-11-29", "\x00", "\ud800"])
)
json_value = st.recursive(
    leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def good_game(n: int) -> dict[str, Any]:
    return StoredGame(
        id=f"fuzz-{n}",
        game="rummy",
        players=["Ann", "Bob"],
        actions=[{"type": "x", "n": 1}],
        summary={"winners": ["Ann"], "totals": {"Ann": 3}, "hands": [{"number": 1}]},
        status="finished",
    ).model_dump(mode="json")


PATHS = [
    ("id",),
    ("game",),
    ("players",),
    ("players", 0),
    ("rules",),
    ("actions",),
    ("actions", 0),
    ("summary",),
    ("summary", "winners"),
    ("summary", "totals"),
    ("summary", "hands"),
    ("status",),
    ("created",),
    ("updated",),
    ("schema_version",),
    ("extra",),
]
nasty = st.sampled_from(
    [
        [1],
        [None],
        [["Ann"]],
        "Ann",
        {"a": 1},
        [],
        "",
        "x" * 70_000,
        float("nan"),
        10**400,
        ["Ann", "ann"],
        "../etc",
        json.loads("[" * 70 + "]" * 70),
    ]
)


@st.composite
def mutated_game(draw: st.DrawFn) -> Any:
    """A good game with one value, anywhere that matters, replaced by a random or nasty one."""
    game: Any = good_game(draw(st.integers(0, 3)))
    *where, last = draw(st.sampled_from(PATHS))
    target = game
    for key in where:
        target = target[key]
    target[last] = draw(nasty | json_value)
    return game


@st.composite
def backups(draw: st.DrawFn) -> Any:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(json_value)
    backup: dict[str, Any] = {"format": BACKUP_FORMAT, "schema_version": 1}
    if kind == 1:
        backup.update(
            draw(
                st.dictionaries(
                    st.sampled_from(list(backup) + ["games", "trash", "players"]),
                    json_value,
                    max_size=3,
                )
            )
        )
        return backup
    games = draw(st.lists(mutated_game() | st.builds(good_game, st.integers(0, 5)), max_size=4))
    backup["games"] = games
    backup["trash"] = draw(st.lists(mutated_game(), max_size=2))
    backup["players"] = draw(
        st.lists(json_value | st.fixed_dictionaries({"name": leaf}), max_size=3)
    )
    return backup


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".lock" and not p.name.startswith(".writer-")
    }


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(backups())
def test_any_backup_is_refused_cleanly_or_imported_cleanly(backup: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        repo = TinyDbRepository(folder, durable=False)
        repo.import_json({"format": BACKUP_FORMAT, "schema_version": 1, "games": [good_game(0)]})
        before = files(folder)
        try:
            report = repo.import_json(backup)
        except StorageError as exc:
            assert str(exc)  # a clear message
            assert files(folder) == before, "a refused backup changed the data folder"
            report = None
        again = TinyDbRepository(folder, durable=False)
        assert again.check_all() == [], again.problems
        assert again.problem_reports() == []
        listed = {i.id for i in again.list_games(limit=1000)}
        listed |= {i.id for i in again.list_trash()}
        for gid in report.added if report else []:
            assert gid in listed
        for gid in listed:
            if gid not in {i.id for i in again.list_trash()}:
                again.get_game(gid)
        assert "fuzz-0" in listed
