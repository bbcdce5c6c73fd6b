from __future__ import annotations

from pathlib import Path

import pytest

from companion.presets import builtin_presets, load_presets, save_preset, user_file
from rulesets import GAMES, HouseRuleError


def _named(presets: list, name: str):  # type: ignore[no-untyped-def]
    return next(p for p in presets if p.name == name)


@pytest.mark.parametrize("game", GAMES)
def test_shipped_presets_are_valid_and_listed(game: str) -> None:
    shipped = builtin_presets(game)
    assert shipped, f"no presets shipped for {game}"
    assert shipped[0].rules == {}  # the rulebook's own rules come first
    assert load_presets(game, None) == shipped


def test_saved_preset_comes_back_and_replaces_its_namesake(tmp_path: Path) -> None:
    save_preset("rummy", "Pub rules", {"multi_meld": True, "target": 150}, tmp_path)
    assert _named(load_presets("rummy", tmp_path), "Pub rules").rules == {
        "multi_meld": True,
        "target": 150,
    }
    save_preset("rummy", "Pub rules", {"target": 200}, tmp_path)
    pubs = [p for p in load_presets("rummy", tmp_path) if p.name == "Pub rules"]
    assert len(pubs) == 1 and pubs[0].rules == {"target": 200}


def test_damaged_user_file_is_ignored_then_rewritten(tmp_path: Path) -> None:
    path = user_file(tmp_path, "umtali")
    path.parent.mkdir(parents=True)
    path.write_text("{ broken")
    assert load_presets("umtali", tmp_path) == builtin_presets("umtali")
    save_preset("umtali", "Mine", {"winner_deals": True}, tmp_path)
    assert _named(load_presets("umtali", tmp_path), "Mine").rules == {"winner_deals": True}


def test_preset_needs_a_name_and_valid_rules(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        save_preset("umtali", "  ", {}, tmp_path)
    with pytest.raises(HouseRuleError):
        save_preset("rummy", "Bad", {"target": "lots"}, tmp_path)
    assert not user_file(tmp_path, "rummy").exists()
