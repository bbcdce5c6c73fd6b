"""`companion check` prints exactly what it printed before the check stopped using pydantic.

The text and the ``--json`` output of ``companion check`` are a public contract
(command names, options, JSON fields such as ``legal`` and ``points``).  Every
case below was run once and its exit code, standard output and standard error
recorded in ``tests/data/golden/cli_check.json``; the test runs each again and
compares byte for byte.  The cases cover each game's legal and illegal plays,
bad and duplicate cards, ``--onto`` / ``--hand`` / ``--going-out``, house rules
(good, unknown and bad values) and argument errors.

Regenerate (only when a change of the output is meant):
``.venv/bin/python -m tests.companion.test_cli_check_golden``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

import pytest

from companion.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "cli_check.json"

UMTALI: list[list[str]] = [
    ["5H", "6H", "7H"],
    ["5H 6H 7H"],
    ["5♥", "6♥", "7♥"],
    ["th", "jh", "qh"],
    ["10S", "JS", "QS", "KS"],
    ["AH", "2H", "3H"],
    ["QH", "KH", "AH"],
    ["9S", "9D", "9H"],
    ["9S", "9D", "9H", "9C"],
    ["KH", "QH"],
    ["KH", "QS"],
    ["JH"],
    ["JH", "JD", "JS"],
    ["5H"],
    ["5H", "6H"],
    ["5H", "6H", "8H"],
    ["9S", "9D"],
    ["9S", "9D", "--going-out"],
    ["9S", "3D", "--going-out"],
    ["9S", "3D", "--going-out", "--rules", "loose_pair"],
    ["9S", "9D", "--going-out", "--hand", "3C"],
    ["9S", "9D", "--going-out", "--hand", "3C 4D"],
    ["9S", "9D", "--going-out", "--hand", "9H"],
    ["5H", "6H", "7H", "--going-out", "--hand", "8H"],
    ["5H", "6H", "7H", "--going-out", "--hand", "KC"],
    ["9S", "9D", "--hand", "9H 2C"],
    ["JK", "5H", "6H"],
    ["8H", "--onto", "5H 6H 7H"],
    ["4H", "--onto", "5H 6H 7H"],
    ["9H", "--onto", "5H 6H 7H"],
    ["8H", "9H", "--onto", "5H 6H 7H"],
    ["7H", "--onto", "5H 6H 7H"],
    ["JK", "--onto", "5H 6H 7H"],
    ["QH", "--onto", "JC"],
    ["QH", "--onto", "JC", "--rules", "jack_extends_any_suit"],
    ["10D", "--onto", "JC", "--rules", "jack_extends_any_suit"],
    ["KD", "--onto", "KH QH"],
    ["KD", "--onto", "KH QH", "--rules", "marriage_extendable"],
    ["JH", "--onto", "KH QH", "--rules", "marriage_extendable"],
    ["9C", "--onto", "9S 9D"],
    ["9C", "--onto", "9S 9D 9H"],
    ["5S", "--onto", "5H"],
    ["5H", "--onto", "4H", "--hand", "6H 7H KC"],
    ["5H", "--onto", "4H", "--hand", "6H 7H KC", "--rules", "no_no_breaking"],
    ["5H", "--onto", "4H", "--hand", "9C"],
    ["5H", "--onto", "4H", "--hand", ""],
    ["5C", "--onto", "5D", "--hand", "5C 6C"],
    ["5C", "--onto", "5D", "--hand", "5D 6C"],
    ["5C", "--onto", "5D", "--hand", "6C"],
    ["5C", "--onto", "5C 6C 7C"],
    ["5H", "5H", "6H"],
    ["5H", "5h", "6H"],
    ["1X"],
    ["5H", "6H", "7H", "--onto", "QQ"],
    ["5H", "--onto", "4H", "--hand", "ZZ"],
    ["5H", "6H", "7H", "--rules", "wild"],
    ["5H", "6H", "7H", "--rules", "no_breaking=maybe"],
    ["5H", "6H", "7H", "--rules", "no_breaking=false,loose_pair=true"],
    ["5H", "6H", "7H", "--rules", "jack_extends_any_suit", "--rules", "winner_deals"],
    ["5H", "6H", "7H", "--rules", ""],
    [" ", "5H", "6H", "7H"],
]

RUMMY: list[list[str]] = [
    ["7H", "8H", "9H"],
    ["7H 8H 9H 10H"],
    ["AH", "2H", "3H"],
    ["QH", "KH", "AH"],
    ["QH", "KH", "AH", "--rules", "ace_high_or_low"],
    ["KH", "AH", "2H", "--rules", "ace_high_or_low,round_the_corner"],
    ["KH", "AH", "2H", "--rules", "ace_high_or_low"],
    ["KH", "AH", "2H", "--rules", "round_the_corner"],
    ["5H", "5D", "5S"],
    ["5H", "5D", "5S", "5C"],
    ["5H", "5D"],
    ["5H", "6H"],
    ["5H", "6D", "7H"],
    ["5H", "6H", "8H"],
    ["JK", "5H", "6H"],
    ["JK", "5H", "6H", "--rules", "jokers"],
    ["JK", "5H", "5D", "--rules", "jokers"],
    ["JK", "JK", "5D", "--rules", "jokers"],
    ["10C", "--onto", "10S 10D 10H"],
    ["10C", "--onto", "10S 10D 10H 10C"],
    ["5H", "--onto", "6H 7H 8H"],
    ["9H", "10H", "--onto", "6H 7H 8H"],
    ["10H", "--onto", "6H 7H 8H"],
    ["4H", "--onto", "JK 6H 7H", "--rules", "jokers"],
    ["5H", "--onto", "JK 6H 7H", "--rules", "jokers"],
    ["7H", "8H", "9H", "--hand", "9H 2C"],
    ["7H", "8H", "9H", "--hand", "2C"],
    ["7H", "8H", "9H", "--hand", ""],
    ["7H", "8H", "9H", "--going-out"],
    ["7H", "8H", "9H", "--going-out", "--rules", "must_discard_to_go_out"],
    ["7H", "8H", "9H", "--hand", "", "--rules", "must_discard_to_go_out"],
    ["1X"],
    ["5H", "5H", "5D"],
    ["7H", "8H", "9H", "--rules", "target=abc"],
    ["7H", "8H", "9H", "--rules", "target=0"],
    ["7H", "8H", "9H", "--rules", "joker_swap"],
    ["7H", "8H", "9H", "--rules", "cash"],
    ["7H", "8H", "9H", "--rules", "nonsense"],
]

RUMMOLI: list[list[str]] = [
    ["2C", "5H", "JD"],
    ["2C", "3C", "4D"],
    ["2C 3C 4D 5D 6D 8S"],
    ["7H", "8H", "9H", "2C"],
    ["8H", "9H", "10H", "2C", "--rules", "board=eight_nine_ten"],
    ["7H", "8H", "9H", "2C", "--rules", "board=eight_nine_ten"],
    ["10S", "KD", "AD", "2C"],
    ["10S", "3C", "--rules", "no_widow_needs_no_pay_card"],
    ["10S", "3C", "--rules", "widow_needs_no_pay_card=false"],
    ["2C", "3C", "--onto", "5H"],
    ["2C", "3C", "--going-out"],
    ["2C", "3C", "--hand", "4C"],
    ["1X"],
    ["2C", "2C"],
    ["JK", "2C"],
    ["2C", "--rules", "claim=sometimes"],
    ["2C", "--rules", "board=nine"],
    ["2C", "--rules", "bet_limit=0"],
    ["2C", "--rules", "nope"],
]

OTHER: list[list[str]] = [
    ["check", "chess", "5H"],
    ["check", "umtali"],
    ["check", "rum", "7H", "8H", "9H"],
    ["check", "Rumoli", "2C"],
    ["check", "umtali", "5H", "--nope"],
]


def cases() -> list[list[str]]:
    """Every argv, each game's both as text and as --json."""
    out: list[list[str]] = []
    for game, rows in (("umtali", UMTALI), ("rummy", RUMMY), ("rummoli", RUMMOLI)):
        for row in rows:
            out.append(["check", game, *row])
            out.append(["check", game, *row, "--json"])
    out.extend(OTHER)
    return out


def run(argv: list[str]) -> dict[str, object]:
    """Exit code, standard output and standard error of ``companion *argv``."""
    out, err = io.StringIO(), io.StringIO()
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps its usage lines to the terminal's width
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refuses the arguments
            code = exc.code if isinstance(exc.code, int) else 2
        finally:
            if width is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = width
    return {"argv": argv, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _recorded() -> dict[str, dict[str, object]]:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return {json.dumps(row["argv"], ensure_ascii=False): row for row in data}


def test_every_case_is_recorded() -> None:
    assert sorted(_recorded()) == sorted(json.dumps(a, ensure_ascii=False) for a in cases())


@pytest.mark.parametrize("argv", cases(), ids=lambda a: " ".join(a[1:]) or "-")
def test_check_output_is_unchanged(argv: list[str]) -> None:
    expected = _recorded()[json.dumps(argv, ensure_ascii=False)]
    assert run(argv) == expected


def test_the_cases_reach_every_outcome() -> None:
    """The record holds legal, illegal and refused input, text and JSON, in every game."""
    rows = list(_recorded().values())
    for game in ("umtali", "rummy", "rummoli"):
        codes = {r["code"] for r in rows if r["argv"][1:2] == [game]}  # type: ignore[index]
        assert codes == {0, 1, 2}, game


if __name__ == "__main__":  # regenerate the record
    GOLDEN.write_text(
        json.dumps([run(a) for a in cases()], ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {GOLDEN}", file=sys.stderr)
