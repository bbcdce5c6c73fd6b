"""`companion check|score|replay umtali ...` from the terminal (public JSON contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_u5_2_cli_check_sequence(capsys: pytest.CaptureFixture[str]) -> None:
    code, v = run_json(capsys, "check", "umtali", "5H", "6H", "7H")
    assert code == 0
    assert (v["legal"], v["kind"], v["points"], v["rule"]) == (True, "sequence", 3, "U5.2")


def test_u6_2_cli_check_extension(capsys: pytest.CaptureFixture[str]) -> None:
    code, v = run_json(capsys, "check", "umtali", "8H", "--onto", "5H 6H 7H")
    assert code == 0 and v["legal"] and v["kind"] == "extension" and v["points"] == 1
    assert any("U7" in n for n in v["notes"])  # type: ignore[union-attr]


def test_u6_3_cli_check_skipped_rank_is_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    code, v = run_json(capsys, "check", "umtali", "9H", "--onto", "5H 6H 7H")
    assert code == 1 and not v["legal"] and v["rule"] == "U6.3"


def test_u5_5_cli_check_pair_going_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, v = run_json(capsys, "check", "umtali", "9S", "9D", "--going-out")
    assert code == 0 and v["kind"] == "pair" and v["points"] == 2
    code, v = run_json(capsys, "check", "umtali", "9S", "9D")
    assert code == 1 and v["rule"] == "U5.5"


def test_u7_2_cli_check_with_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, v = run_json(capsys, "check", "umtali", "5H", "--onto", "4H", "--hand", "6H 7H KC")
    assert code == 1 and v["rule"] == "U7.2"
    code, v = run_json(capsys, "check", "umtali", "5H", "--onto", "4H", "--hand", "9C")
    assert code == 0 and v["notes"] == []


def test_a_u2_cli_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_json(capsys, "check", "umtali", "QH", "--onto", "JC")
    assert code == 1
    code, _ = run_json(
        capsys, "check", "umtali", "QH", "--onto", "JC", "--rules", "jack_extends_any_suit"
    )
    assert code == 0


def test_u9_2_cli_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, r = run_json(capsys, "score", "umtali", "KH", "QH")
    assert code == 0 and r["points"] == 20 and r["rule"] == "U9.2"
    code, r = run_json(capsys, "score", "umtali", "10S 3H")
    assert r["points"] == 6


def test_u2_1_cli_replay_sample_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, s = run_json(capsys, "replay", str(DATA / "umtali_game_1.json"))
    # hand-computed in tests/rulesets/test_umtali_record.py: 32+15+5+27, 15+42+5+6
    assert code == 0 and s["totals"] == {"Ann": 79, "Bob": 68} and s["winners"] == ["Ann"]
    assert main(["replay", str(DATA / "umtali_game_1.json")]) == 0
    assert "totals: Ann 79, Bob 68" in capsys.readouterr().out


def test_u1_1_five_thousand_cards_say_the_pack_rule_without_the_whole_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "umtali", *(["5H"] * 5000)]) == 2  # 15 KB of input
    err = capsys.readouterr().err
    assert "5H is listed twice" in err and "(U1.1)" in err
    assert len(err) < 200, err  # a short repeat of the input, not 15 KB of it
    assert err.startswith('companion: "5H 5H 5H ') and err.count("5H") < 40


def test_u1_1_a_duplicate_card_in_json_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "score", "umtali", "QH", "qh")
    assert code == 2 and out["rule"] == "U1.1" and "QH is listed twice" in str(out["error"])


def test_u6_2_plain_check_words_one_point(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "umtali", "8H", "--onto", "5H 6H 7H"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("LEGAL extension, 1 point — ") and "1 points" not in out


def test_u1_1_cli_check_a_card_played_and_still_held_is_listed_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --hand is the player's other cards: 5C cannot be played and held (one pack)
    # an impossible play is refused as one (exit 1, as Rummy's check does), not a typo (exit 2)
    code, v = run_json(capsys, "check", "umtali", "5C", "--onto", "5D", "--hand", "5C 6C")
    assert code == 1 and not v["legal"] and v["rule"] == "U1.1"
    assert "5C is listed twice" in v["reason"]
    # ... nor held while it lies on the table as the anchor
    assert main(["check", "umtali", "5C", "--onto", "5D", "--hand", "5D 6C"]) == 1
    assert "5D is listed twice" in capsys.readouterr().out
    code, v = run_json(capsys, "check", "umtali", "5C", "--onto", "5D", "--hand", "6C")
    assert code == 0 and v["legal"]
