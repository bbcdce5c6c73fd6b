"""The public JSON of ``companion replay`` stays as it was (a contract scripts rely on).

Golden files were written by the app before the one-referee-API redesign, for
every sample game in ``tests/data`` and every demo game in ``seeds/demo``.
Every key they hold must come back with the same value; new keys may be added.
A golden file changes only with a rule fix, named in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets import load_ruleset
from rulesets.protocol import GameRecord

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
SOURCES = {"data": ROOT / "tests" / "data", "demo": ROOT / "seeds" / "demo"}


def _cases() -> list[tuple[Path, Path]]:
    out = []
    for golden in sorted(GOLDEN.glob("*.replay.json")):
        folder, stem = golden.name.removesuffix(".replay.json").split("__", 1)
        out.append((SOURCES[folder] / f"{stem}.json", golden))
    return out


@pytest.mark.parametrize(("source", "golden"), _cases(), ids=lambda p: p.stem)
def test_replay_json_is_unchanged(source: Path, golden: Path) -> None:
    record = GameRecord.from_json(json.loads(source.read_text(encoding="utf-8")))
    expected = json.loads(golden.read_text(encoding="utf-8"))
    got = json.loads(json.dumps(load_ruleset(record.game).replay(record)))
    for key, value in expected.items():
        assert got.get(key) == value, f"{source.name}: {key!r} changed"
