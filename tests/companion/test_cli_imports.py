"""`companion check` is a script's tool: it imports its game's meld rules and no pydantic.

Nearly all of a check's time is interpreter start and imports (benchmarks/cli_start.py
measures it); here, in a fresh interpreter each, is *what* it imports: for each game,
the plain check and the meld rules (or Rummoli's board) it judges by, and nothing that
builds a model -- no pydantic, no game class, no protocol.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: what every check imports of this project: the command, cards and words, the judgement
COMMON = (
    "companion",
    "companion.cli",
    "rulesets",
    "rulesets.cards",
    "rulesets.errors",
    "rulesets.judgement",
    "rulesets.lazy",
    "rulesets.words",
)
#: and what each game's check adds: its package, its check and the rules it judges by
GAMES = {
    "umtali": ("rulesets.umtali", "rulesets.umtali.check", "rulesets.umtali.melds"),
    "rummy": (
        "rulesets.rummy",
        "rulesets.rummy.check",
        "rulesets.rummy.melds",
        "rulesets.switches",
    ),
    "rummoli": (
        "rulesets.rummoli",
        "rulesets.rummoli.board",
        "rulesets.rummoli.check",
        "rulesets.switches",
    ),
}
CASES = {
    "umtali": [
        ["5H", "6H", "7H"],
        ["8H", "--onto", "5H 6H 7H", "--hand", "2C 3D", "--json"],
        ["9S", "9D", "--going-out", "--hand", "9H"],
        ["5H", "5H"],
    ],
    "rummy": [
        ["7H", "8H", "9H"],
        ["10C", "--onto", "10S 10D 10H", "--json"],
        ["QH", "KH", "AH", "--hand", ""],
        ["1X"],
    ],
    "rummoli": [["2C", "5H", "JD"], ["2C", "3C", "--onto", "5H", "--json"], ["2C", "2C"]],
}


def _imported_by(argv: list[str]) -> tuple[int, list[str]]:
    """The exit code and this project's and pydantic's modules after ``companion *argv``."""
    script = textwrap.dedent(
        f"""
        import contextlib, io, sys
        from companion.cli import main
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main({argv!r})
        names = [m for m in sys.modules if m.split(".")[0] in ("companion", "rulesets")
                 or m.startswith("pydantic")]
        print(code, *sorted(names))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    code, *names = out.stdout.split()
    return int(code), names


@pytest.mark.parametrize(
    "game, args",
    [(g, a) for g, cases in CASES.items() for a in cases],
    ids=lambda v: v if isinstance(v, str) else " ".join(v),
)
def test_a_check_imports_its_meld_rules_and_no_pydantic(game: str, args: list[str]) -> None:
    code, names = _imported_by(["check", game, *args])
    assert code in (0, 1, 2)
    assert not [n for n in names if n.startswith("pydantic")], names
    assert names == sorted({*COMMON, *GAMES[game]})


def test_house_rules_are_read_by_their_model_alone() -> None:
    """``--rules`` is read and checked by the game's house-rules model (pydantic), with its
    exact messages, as before; the check still judges by the plain meld rules and builds
    no game (the plain path is a check by RULES.md's rules, the scripts' usual one)."""
    argv = ["check", "umtali", "QH", "--onto", "JC", "--rules", "jack_extends_any_suit"]
    code, names = _imported_by(argv)
    assert code == 0 and "pydantic" in names and "rulesets.umtali.house_rules" in names
    assert [n for n in names if n.startswith("rulesets.umtali.")] == [
        "rulesets.umtali.check",
        "rulesets.umtali.house_rules",
        "rulesets.umtali.melds",
    ]
