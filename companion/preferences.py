"""Preferences kept beside the history: each game's default house rules, and presets.

Stored as ``<data_dir>/preferences.json``, written atomically (temp file, fsync,
rename), so a crash leaves the old or the new file, never half of one::

    {"schema_version": 1, "house_rules": {"umtali": {"marriage_extendable": true}, ...}}

Only switches that differ from RULES.md's defaults are stored.  Presets are
read-only JSON files shipped in ``seeds/presets/<game>.json``::

    {"game": "rummy", "presets": [{"name": "...", "note": "...", "rules": {...}}]}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.storage.atomic import DamagedFileError, atomic_write_bytes, read_json_file
from rulesets import RulesetError, load_ruleset
from rulesets.protocol import HouseRulesBase

__all__ = [
    "PREFERENCES_FILE",
    "default_rules",
    "describe_rules",
    "load_preferences",
    "rules_model",
    "save_default_rules",
    "save_theme",
    "saved_theme",
    "validate_rules",
]

PREFERENCES_FILE = "preferences.json"
SCHEMA_VERSION = 1


def rules_model(game: str) -> type[HouseRulesBase]:
    return load_ruleset(game).house_rules


def validate_rules(game: str, rules: dict[str, Any]) -> HouseRulesBase:
    """The house-rules model of ``game`` built from ``rules``; HouseRuleError if invalid."""
    from pydantic import ValidationError

    from rulesets import HouseRuleError

    model = rules_model(game)
    try:
        return model.model_validate(rules)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "rules"
        msg = str(first["msg"]).removeprefix("Value error, ")
        raise HouseRuleError(f"{where}: {msg}" if where != "rules" else msg) from None


def changed_only(game: str, rules: dict[str, Any]) -> dict[str, Any]:
    """Only the switches that differ from the game's defaults (RULES.md)."""
    defaults = rules_model(game)().model_dump()
    return {k: v for k, v in rules.items() if k in defaults and defaults[k] != v}


def describe_rules(game: str, rules: dict[str, Any]) -> str:
    """The switches that differ from the rulebook, in plain words, in the model's order.

    >>> describe_rules("rummy", {"target": 60, "jokers": True, "cash": False})
    'Jokers, Target 60'
    >>> describe_rules("rummy", {})
    'as in the rulebook'
    """
    model: type[HouseRulesBase] = HouseRulesBase
    try:
        changed = changed_only(game, rules)
        model = rules_model(game)
        order = list(model.model_fields)
    except RulesetError:
        changed, order = dict(rules), sorted(rules)
    words = []
    for name in order:
        if name not in changed:
            continue
        title = model.title_of(name)  # the switch and its value in players' words
        value = changed[name]
        if value is True:
            words.append(title)
        elif value is False or value is None:
            words.append(f"{title} off")
        elif isinstance(value, int):
            words.append(f"{title} {value}")
        else:
            words.append(f"{title}: {model.value_title(value)}")
    return ", ".join(words) or "as in the rulebook"


def _path(data_dir: Path) -> Path:
    return Path(data_dir) / PREFERENCES_FILE


def load_preferences(data_dir: Path | None) -> dict[str, Any]:
    """The stored preferences (empty if none, or if the file cannot be read)."""
    if data_dir is None:
        return {}
    try:
        data = read_json_file(_path(data_dir))
    except DamagedFileError:
        return {}
    return data or {}


def default_rules(data_dir: Path | None, game: str) -> dict[str, Any]:
    """The table's default house rules for ``game`` (valid ones only; ``{}`` = RULES.md)."""
    stored = load_preferences(data_dir).get("house_rules", {})
    rules = stored.get(game, {}) if isinstance(stored, dict) else {}
    if not isinstance(rules, dict):
        return {}
    try:
        validate_rules(game, rules)
    except RulesetError:
        return {}
    return dict(rules)


def save_default_rules(data_dir: Path, game: str, rules: dict[str, Any]) -> dict[str, Any]:
    """Validate and store ``rules`` as the defaults of ``game``; returns what was stored."""
    validate_rules(game, rules)
    keep = changed_only(game, rules)
    data = load_preferences(data_dir)
    house = data.get("house_rules")
    if not isinstance(house, dict):
        house = {}
    house[game] = keep
    data["house_rules"] = house
    data["schema_version"] = SCHEMA_VERSION
    _write(data_dir, data)
    return keep


def _write(data_dir: Path, data: dict[str, Any]) -> None:
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    atomic_write_bytes(_path(data_dir), text.encode("utf-8"))


def saved_theme(data_dir: Path | None) -> bool | None:
    """The theme chosen in settings: True dark, False light, None follow the system."""
    value = load_preferences(data_dir).get("dark")
    return value if isinstance(value, bool) else None


def save_theme(data_dir: Path, dark: bool | None) -> None:
    data = load_preferences(data_dir)
    data["dark"] = dark
    data["schema_version"] = SCHEMA_VERSION
    _write(data_dir, data)
