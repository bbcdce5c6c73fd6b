"""House-rule presets: the ones shipped in ``seeds/presets/<game>.json`` and the
table's own, saved in ``<data dir>/presets/<game>.json``.

A preset file is ``{"Preset name": {"switch": value, ...}, ...}`` holding only
the values that differ from the game's defaults.  Saved atomically; a damaged
user file is reported, never fatal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.config import SEEDS_DIR
from companion.storage.atomic import atomic_write_bytes

BUILTIN_DIR = SEEDS_DIR / "presets"


def _read(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): dict(v) for k, v in data.items() if isinstance(v, dict)}


def user_file(data_dir: Path, game: str) -> Path:
    return data_dir / "presets" / f"{game}.json"


def load_presets(game: str, data_dir: Path | None) -> dict[str, dict[str, Any]]:
    """Built-in presets first, then the table's own (which win on a name clash)."""
    presets: dict[str, dict[str, Any]] = {"Standard (RULES.md)": {}}
    presets |= _read(BUILTIN_DIR / f"{game}.json")
    if data_dir is not None:
        presets |= _read(user_file(data_dir, game))
    return presets


def save_preset(game: str, name: str, values: dict[str, Any], data_dir: Path) -> None:
    name = name.strip()
    if not name:
        raise ValueError("a preset needs a name")
    path = user_file(data_dir, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    mine = _read(path)
    mine[name] = dict(values)
    atomic_write_bytes(path, json.dumps(mine, indent=2, sort_keys=True).encode())
