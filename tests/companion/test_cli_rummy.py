"""The command line on basic Rummy: check, score and replay (issue #4 examples)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_r7_check_qka_legal_with_ace_high_or_low(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "check", "rummy", "QH", "KH", "AH", "--rules", "ace_high_or_low", "--json"
    )
    assert code == 0 and out["legal"] is True and out["kind"] == "run"


def test_r2_2_check_qka_illegal_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "rummy", "QH", "KH", "AH", "--json")
    assert code == 1 and out["legal"] is False and out["rule"] == "R2.2"
    assert "Q♥ K♥ A♥" in str(out["reason"])


def test_r3_3_check_lay_off_onto_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "rummy", "10C", "--onto", "10S 10D 10H", "--json")
    assert code == 0 and out["legal"] is True and out["kind"] == "set" and out["rule"] == "R3.3"


def test_r6_1_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", "rummy", "KS 7D AC", "--json")[1]["points"] == 18
    out = run(capsys, "score", "rummy", "KS 7D AC", "--rules", "ace_high_or_low", "--json")[1]
    assert out["points"] == 32


def test_replay_sample_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "replay", str(DATA / "rummy_three_player_to_100.json"), "--json")
    assert code == 0 and out["winners"] == ["Cy"]
    assert out["totals"] == {"Ann": 94, "Bob": 110, "Cy": 25}


def test_bad_house_rule_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "rummy", "QH", "KH", "AH", "--rules", "round_the_corner"]) == 2


def test_a_r17_cli_round_the_corner_names_the_switch_it_needs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "rummy", "KH", "AH", "2H", "--rules", "round_the_corner"]) == 2
    err = capsys.readouterr().err
    assert "ace_high_or_low" in err and "bad value for :" not in err
    code, out = run(
        capsys,
        "check",
        "rummy",
        "KH AH 2H",
        "--rules",
        "ace_high_or_low,round_the_corner",
        "--json",
    )
    assert code == 0 and out["kind"] == "run"


def test_r1_1_cli_check_a_card_also_in_the_rest_of_the_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "check", "rummy", "7H 8H 9H", "--hand", "9H 2C", "--json")
    assert code == 1 and out["rule"] == "R1.1"


def test_r1_1_a_card_listed_twice_names_the_one_pack_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "rummy", *(["7H", "8H", "9H"] * 1700)]) == 2
    err = capsys.readouterr().err
    assert "7H is listed twice (R1.1)" in err and len(err) < 200, err
