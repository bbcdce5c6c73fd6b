from __future__ import annotations

from pathlib import Path

import pytest

from companion.presets import load_presets, save_preset, user_file


def test_saved_preset_comes_back_and_wins(tmp_path: Path) -> None:
    save_preset("rummy", "Pub rules", {"multi_meld": True, "target": 150}, tmp_path)
    presets = load_presets("rummy", tmp_path)
    assert presets["Pub rules"] == {"multi_meld": True, "target": 150}
    assert presets["Standard (RULES.md)"] == {}


def test_damaged_user_file_is_ignored(tmp_path: Path) -> None:
    path = user_file(tmp_path, "umtali")
    path.parent.mkdir(parents=True)
    path.write_text("{ broken")
    assert "Standard (RULES.md)" in load_presets("umtali", tmp_path)
    save_preset("umtali", "Mine", {"winner_deals": True}, tmp_path)
    assert load_presets("umtali", tmp_path)["Mine"] == {"winner_deals": True}


def test_preset_needs_a_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        save_preset("umtali", "  ", {}, tmp_path)
