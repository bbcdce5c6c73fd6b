"""Property: export -> import into an empty store reproduces every game exactly."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.storage import MemoryRepository, StoredGame, TinyDbRepository

names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12
).filter(lambda s: s.strip() == s and s != "")
json_leaf = st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.text(max_size=10)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
actions = st.dictionaries(st.text(max_size=8), json_value, max_size=4).map(
    lambda d: {"type": "t", **d}
)

#: the keys whose shape the store checks (``models.check_summary_shape``): a summary of
#: any other shape is refused when saved, so the generator makes them of the right one
SHAPED = ("winners", "totals", "hands")
summaries = st.builds(
    lambda extra, shaped: {**{k: v for k, v in extra.items() if k not in SHAPED}, **shaped},
    st.dictionaries(st.text(max_size=6), json_value, max_size=3),
    st.fixed_dictionaries(
        {},
        optional={
            "winners": st.lists(names, max_size=3),
            "totals": st.dictionaries(names, st.integers(-999, 999), max_size=3),
            "hands": st.lists(json_value, max_size=2),
        },
    ),
)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.lists(names, min_size=1, max_size=5, unique_by=str.casefold))
    return {
        "game": draw(st.sampled_from(["umtali", "rummy", "rummoli"])),
        "players": players,
        "rules": draw(st.dictionaries(st.text(max_size=6), json_leaf, max_size=3)),
        "actions": draw(st.lists(actions, max_size=6)),
        "summary": draw(st.none() | summaries),
        "status": draw(st.sampled_from(["in_progress", "finished"])),
        "deleted": draw(st.booleans()),
    }


def fill(repo: Any, specs: list[dict[str, Any]]) -> None:
    for spec in specs:
        g = repo.create_game(spec["game"], spec["players"], spec["rules"])
        for action in spec["actions"]:
            repo.append_action(g.id, action)
        if spec["summary"] is not None or spec["status"] == "finished":
            repo.set_summary(g.id, spec["summary"], spec["status"])
        if spec["deleted"]:
            repo.delete_game(g.id)


@settings(max_examples=25, deadline=None)
@given(st.lists(games(), max_size=4))
def test_export_import_reproduces_every_game(specs: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # durable=False: same files and code paths, minus fsync (this tests the mapping)
        source = TinyDbRepository(Path(tmp) / "a", durable=False)
        fill(source, specs)
        backup = json.loads(json.dumps(source.export_json()))  # through real JSON text
        for target in (TinyDbRepository(Path(tmp) / "b", durable=False), MemoryRepository()):
            report = target.import_json(backup)
            assert len(report.added) == len(specs) and report.problems == []
            copy = target.export_json()
            for key in ("players", "games", "trash"):
                assert copy[key] == backup[key]
            for raw in backup["games"]:
                assert target.get_game(raw["id"]) == StoredGame.model_validate(raw)
            assert [i.id for i in target.list_games(limit=100)] == [
                i.id for i in source.list_games(limit=100)
            ]
            if isinstance(target, TinyDbRepository):
                target.close()
        source.close()  # a finished game is folded in the background: done before rmtree
