"""House-rule presets: the ones shipped in ``seeds/presets/<game>.json`` and the
table's own, saved in ``<data dir>/presets/<game>.json``.

Both files have one format::

    {"game": "rummy", "presets": [{"name": "...", "note": "...", "rules": {...}}, ...]}

``rules`` holds only the switches that differ from the game's defaults.  Entries
the game's rules model refuses are left out; a damaged user file is ignored
(never fatal) and rewritten on the next save.  Writes are atomic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import SEEDS_DIR
from companion.storage.atomic import atomic_write_bytes
from rulesets import GAMES, RulesetError, load_ruleset
from rulesets.protocol import parse_house_rules

BUILTIN_DIR = SEEDS_DIR / "presets"


@dataclass(frozen=True)
class Preset:
    game: str
    name: str
    note: str
    rules: dict[str, Any]


def _valid(game: str, rules: dict[str, Any]) -> bool:
    try:
        load_ruleset(game).house_rules.model_validate(rules)
    except (ValueError, RulesetError):
        return False
    return True


def _read(path: Path, game: str) -> list[Preset]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    out: list[Preset] = []
    for raw in data.get("presets", []) if isinstance(data, dict) else []:
        if not isinstance(raw, dict) or not isinstance(raw.get("rules", {}), dict):
            continue
        rules = dict(raw.get("rules", {}))
        name = str(raw.get("name", "")).strip()
        if name and _valid(game, rules):
            out.append(Preset(game, name, str(raw.get("note", "")), rules))
    return out


def user_file(data_dir: Path, game: str) -> Path:
    return data_dir / "presets" / f"{game}.json"


def builtin_presets(game: str, folder: Path | None = None) -> list[Preset]:
    """The presets shipped for ``game`` (invalid entries are left out)."""
    if game not in GAMES:
        return []
    return _read((folder or BUILTIN_DIR) / f"{game}.json", game)


def load_presets(game: str, data_dir: Path | None) -> list[Preset]:
    """The shipped presets (the first is the rulebook's own rules), then the table's
    own; a saved preset replaces a shipped one of the same name."""
    mine = _read(user_file(data_dir, game), game) if data_dir is not None else []
    names = {p.name for p in mine}
    return [*(p for p in builtin_presets(game) if p.name not in names), *mine]


def save_preset(
    game: str, name: str, rules: dict[str, Any], data_dir: Path, note: str = ""
) -> Preset:
    """Save (or replace) the table's preset ``name``; the rules are validated first."""
    name = name.strip()
    if not name:
        raise ValueError("a preset needs a name")
    parse_house_rules(load_ruleset(game).house_rules, [f"{k}={v}" for k, v in rules.items()])
    preset = Preset(game, name, note or "Saved at this table.", dict(rules))
    path = user_file(data_dir, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = [p for p in _read(path, game) if p.name != name]
    data = {
        "game": game,
        "presets": [{"name": p.name, "note": p.note, "rules": p.rules} for p in [*kept, preset]],
    }
    atomic_write_bytes(path, json.dumps(data, indent=2, sort_keys=True).encode())
    return preset
