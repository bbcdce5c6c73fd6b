"""Preferences kept beside the history: each game's default house rules, and presets.

Stored as ``<data_dir>/preferences.json``, written atomically (temp file, fsync,
rename) under the history's writer lock, so a crash leaves the old or the new
file and two windows saving at once never undo each other's change::

    {"schema_version": 1, "house_rules": {"umtali": {"marriage_extendable": true}, ...},
     "dark": true}

A file that cannot be read (damaged, wrong shapes, nested too deeply) is set
aside in the history's quarantine folder with a note (Settings > Problems) and
the defaults are used.

Only switches that differ from RULES.md's defaults are stored.  Presets are
read-only JSON files shipped in ``seeds/presets/<game>.json``::

    {"game": "rummy", "presets": [{"name": "...", "note": "...", "rules": {...}}]}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, ValidationError

from companion import jsonsafe
from companion.storage import quarantine
from companion.storage.atomic import atomic_write_bytes
from companion.storage.files import first_error, read_tables
from companion.storage.locking import folder_lock
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


class _Shape(BaseModel):
    """What preferences.json must hold (other keys are kept as they are)."""

    model_config = ConfigDict(extra="allow")

    schema_version: StrictInt = SCHEMA_VERSION
    house_rules: dict[str, dict[str, Any]] = {}
    dark: StrictBool | None = None


def _problem(data_dir: Path) -> tuple[dict[str, Any], str | None]:
    """The preferences and, if they cannot be used, why not."""
    try:
        found = read_tables(_path(data_dir))
    except jsonsafe.JsonInputError as exc:
        return {}, exc.reason
    if found is None:
        return {}, None
    try:
        _Shape.model_validate(found[0])
    except ValidationError as exc:
        return {}, first_error(exc)
    return dict(found[0]), None


def _set_aside(data_dir: Path) -> None:
    """Move damaged preferences to the quarantine folder with a note (if still damaged)."""
    with folder_lock(Path(data_dir)).hold():
        _, reason = _problem(data_dir)
        if reason is None:
            return  # rewritten meanwhile
        dest = quarantine.set_aside(Path(data_dir), _path(data_dir))
        quarantine.write_note(
            dest,
            f"The preferences (theme, default house rules) could not be read ({reason}). "
            f"They were kept as {dest}; the defaults are used until you change them.",
        )


def load_preferences(data_dir: Path | None) -> dict[str, Any]:
    """The stored preferences (empty if none, or if the file cannot be read: it is set aside)."""
    if data_dir is None:
        return {}
    data, reason = _problem(data_dir)
    if reason is not None:
        _set_aside(data_dir)
    return data


def _update(data_dir: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Read, change and write the preferences under the history's writer lock."""
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    with folder_lock(Path(data_dir)).hold():
        data = load_preferences(data_dir)
        change(data)
        data["schema_version"] = SCHEMA_VERSION
        text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
        atomic_write_bytes(_path(data_dir), text.encode("utf-8"))


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

    def change(data: dict[str, Any]) -> None:
        house = data.get("house_rules")
        data["house_rules"] = {**(house if isinstance(house, dict) else {}), game: keep}

    _update(data_dir, change)
    return keep


def saved_theme(data_dir: Path | None) -> bool | None:
    """The theme chosen in settings: True dark, False light, None follow the system."""
    value = load_preferences(data_dir).get("dark")
    return value if isinstance(value, bool) else None


def save_theme(data_dir: Path, dark: bool | None) -> None:
    def change(data: dict[str, Any]) -> None:
        data["dark"] = dark

    _update(data_dir, change)
