"""The command line on Rummoli and poker: check (widow), score, replay and poker (issue #5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_m4_3_poker_cli_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "poker", "AS KS QS JS 10S 2H", "9C 9D 9H 2S 2C 4H", "--json")
    assert code == 0
    assert out["winners"] == [0]
    assert out["hands"][0]["label"] == "Straight flush"
    assert out["hands"][1]["name"] == "Full house, 9s over 2s"
    assert out["hands"][1]["best"] == ["9C", "9D", "9H", "2S", "2C"]


def test_m4_4_poker_cli_names_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["poker", "2H 2D 5S 6S 9C", "2S 2C 5H 6H 9D", "--names", "Ann,Bob"])
    text = capsys.readouterr().out
    assert code == 0
    assert "Ann: One pair, 2s" in text and "Ann, Bob" in text


def test_m2_4_check_widow(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "rummoli", "2C", "5H", "JD", "--json")
    assert code == 1 and out["legal"] is False and out["rule"] == "M2.4"
    assert "JD" in out["reason"]
    code, out = run(capsys, "check", "rummoli", "2C 5H 3D", "--json")
    assert code == 0 and out["legal"] is True
    code, out = run(
        capsys, "check", "rummoli", "2C 10S", "--rules", "no_widow_needs_no_pay_card", "--json"
    )
    assert code == 0 and out["legal"] is True


def test_m6_1_score_one_chip_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "score", "rummoli", "2C 5H JD KS", "--json")
    assert code == 0 and out["points"] == 4 and out["rule"] == "M6.1"


def test_replay_sample_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "replay", str(DATA / "rummoli_sample_game.json"), "--json")
    assert code == 0
    assert out["game"] == "rummoli" and out["finished"] is True
    assert out["totals"] == {"Ann": 35, "Bob": 33, "Cy": 22}
    assert out["chips_total"] == 90
    assert set(out["pots"]) >= {"poker", "rummoli", "AS", "AD+KD", "7-8-9"}
    assert out["winners"] == ["Ann"]


def test_m1_1_a_card_listed_twice_names_the_one_pack_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "rummoli", "KH", "QS", "kh"]) == 2
    assert 'companion: "KH QS kh": KH is listed twice (M1.1)' in capsys.readouterr().err
