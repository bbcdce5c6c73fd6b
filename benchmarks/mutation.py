"""Sampled mutation testing of ``rulesets/``: would the tests notice a wrong rule?

Run: ``.venv/bin/python benchmarks/mutation.py [--mutants 300] [--seed 2026] [--jobs 2]``
(about 2-4 s per mutant on a 2-core machine).  It prints each surviving mutant and
the score: killed / (killed + survivors that change behaviour).  ``--again RUN.json``
judges only the survivors of an earlier run's ``--json`` (after tests were added,
the referee untouched: the same sample, and a killed mutant stays killed).  Exit code 0 when
the score is at least ``--target`` (default 0.90).

How it works:

1. Every mutation point of every module in ``rulesets/`` is listed from the AST:
   comparison operators (``<`` ↔ ``<=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``, ``is``
   ↔ ``is not``), arithmetic (``+`` ↔ ``-``, ``*`` → ``//``), ``and`` ↔ ``or``,
   ``not x`` → ``x``, integer constants (``n`` → ``n + 1``), ``True`` ↔ ``False``,
   and ``if c:`` → ``if not c:``.  Docstrings, ``__all__`` and type annotations are
   left alone.
2. A fixed-seed sample of ``--mutants`` points is drawn (the same sample every run,
   while the code is the same).
3. Each mutant is written into a private copy of the checkout and the tests that
   cover its package run there (``tests/rulesets/test_<game>*.py``, the conformance,
   golden and card tests, and the package's doctests), stopping at the first
   failure.  A failure or a time-out kills the mutant.
4. A survivor is then run against an oracle: random games of every ruleset
   (``random_record`` → ``replay``), ``check`` and ``score`` on random cards, and the
   poker judge, compared with the unmutated code.  A survivor the oracle cannot tell
   apart is counted as *equivalent* (it changes no behaviour we can observe) and
   left out of the score, as the issue asks ("mutants that change behaviour").
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: where mutants are read from: a snapshot taken at the start of a run, so that
#: editing the checkout while the run goes on changes nothing.
SOURCE = ROOT

_SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP_BIN: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
}


@dataclass(frozen=True)
class Mutant:
    path: str  # relative to ROOT
    index: int  # the n-th mutation point of that file
    line: int
    what: str

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line} {self.what}"


def _skipped_lines(tree: ast.Module) -> set[int]:
    """Lines of docstrings and ``__all__``: never mutated."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                skip.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            skip.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return skip


def _annotation_nodes(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        for attr in ("annotation", "returns"):
            ann = getattr(node, attr, None)
            if isinstance(ann, ast.AST):
                ids.update(id(sub) for sub in ast.walk(ann))
    return ids


def _points(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """Every mutation point of a module, in a stable order: (node, description)."""
    skip = _skipped_lines(tree)
    annotations = _annotation_nodes(tree)
    out: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", None)
        if line is None or line in skip or id(node) in annotations:
            continue
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in _SWAP_CMP:
                    out.append((node, f"cmp{k}:{type(op).__name__}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BIN:
            out.append((node, f"bin:{type(node.op).__name__}"))
        elif isinstance(node, ast.BoolOp):
            out.append((node, f"bool:{type(node.op).__name__}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "drop-not"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((node, f"int:{node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            out.append((node, f"bool-const:{node.value}"))
        elif isinstance(node, ast.If):
            out.append((node, "negate-if"))
    return out


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, what: str) -> None:
        self.target = target
        self.what = what

    def visit(self, node: ast.AST) -> ast.AST:
        if node is not self.target:
            return self.generic_visit(node)
        what = self.what
        if isinstance(node, ast.Compare) and what.startswith("cmp"):
            k = int(what[3 : what.index(":")])
            node.ops[k] = _SWAP_CMP[type(node.ops[k])]()
        elif isinstance(node, ast.BinOp):
            node.op = _SWAP_BIN[type(node.op)]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp) and what == "drop-not":
            return node.operand
        elif isinstance(node, ast.Constant) and what.startswith("int"):
            node.value = node.value + 1
        elif isinstance(node, ast.Constant) and what.startswith("bool-const"):
            node.value = not node.value
        elif isinstance(node, ast.If):
            node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
        return node


def all_mutants() -> list[Mutant]:
    out: list[Mutant] = []
    for path in sorted((SOURCE / "rulesets").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = str(path.relative_to(SOURCE))
        for i, (node, what) in enumerate(_points(tree)):
            out.append(Mutant(rel, i, getattr(node, "lineno", 0), what))
    return out


def mutated_source(m: Mutant) -> str:
    tree = ast.parse((SOURCE / m.path).read_text(encoding="utf-8"))
    node, what = _points(tree)[m.index]
    tree = _Apply(node, what).visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def tests_for(m: Mutant) -> tuple[list[str], str | None]:
    """The tests that cover the mutated module, and a ``-k`` filter for the shared ones.

    A game's module runs that game's tests, its CLI tests, its doctests and the
    conformance and golden tests of that game only (another game's failing test
    must not kill its mutants).
    """
    parts = Path(m.path).parts  # ("rulesets", "rummy", "game.py") or ("rulesets", "cards.py")
    common = [
        "tests/rulesets/test_conformance.py",
        "tests/rulesets/test_golden_replay.py",
        "tests/companion/test_cli_check_golden.py",  # case ids name their game: -k filters
    ]
    if len(parts) >= 3:
        game = parts[1]
        mine = sorted(
            str(p.relative_to(SOURCE)) for p in (SOURCE / "tests/rulesets").glob(f"test_{game}*.py")
        )
        cli = sorted(
            str(p.relative_to(SOURCE))
            for p in (SOURCE / "tests/companion").glob(f"test_cli_{game}*.py")
        )
        others = [g for g in ("umtali", "rummy", "rummoli") if g != game]
        return [*mine, *cli, *common, f"rulesets/{game}"], f"not ({' or '.join(others)})"
    if parts[-1] == "poker.py":
        return ["tests/rulesets/test_poker.py", "tests/rulesets/test_rummoli.py", m.path], None
    return ["tests/rulesets", m.path], None


ORACLE = r"""
import json, random, sys
from rulesets import GAMES, RulesetError, load_ruleset
from rulesets.cards import DECK
from rulesets import poker
out = []
rng = random.Random(7)
for game in GAMES:
    rs = load_ruleset(game)
    for seed in range(25):
        try:
            out.append(json.dumps(rs.replay(rs.random_record(seed)), sort_keys=True, default=str))
        except Exception as exc:
            out.append(f"{game} {seed} {type(exc).__name__} {exc}")
    for _ in range(300):
        cards = rng.sample(DECK, rng.randint(1, 6))
        onto = rng.sample([c for c in DECK if c not in cards], rng.randint(0, 4)) or None
        for kw in ({}, {"going_out": True}):
            try:
                v = rs.check(cards, onto=onto, **kw)
                out.append(json.dumps(v.to_json(), sort_keys=True))
            except Exception as exc:
                out.append(f"check {type(exc).__name__} {exc}")
        try:
            out.append(json.dumps(rs.score(cards).to_json(), sort_keys=True))
        except Exception as exc:
            out.append(f"score {type(exc).__name__} {exc}")
for _ in range(200):
    hands = [rng.sample(DECK, rng.randint(5, 8)) for _ in range(3)]
    try:
        out.append(repr([poker.evaluate(h) for h in hands]))
    except Exception as exc:
        out.append(f"poker {type(exc).__name__} {exc}")
sys.stdout.write("\n".join(out))
"""


def _copy_tree(dest: Path, source: Path = ROOT) -> None:
    for name in ("rulesets", "tests", "companion", "seeds", "pyproject.toml"):
        src = source / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dest / name)


def _run(cmd: list[str], cwd: Path, timeout: float) -> tuple[int, str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "timeout"
    return p.returncode, p.stdout


def _pytest(cwd: Path, tests: list[str], timeout: float, keyword: str | None = None) -> int:
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--no-header",
        "-o",
        "addopts=--doctest-modules",
        *(["-k", keyword] if keyword else []),
        *tests,
    ]
    code, _ = _run(cmd, cwd, timeout)
    return code


def _oracle(cwd: Path) -> str:
    code, out = _run([sys.executable, "-c", ORACLE], cwd, 600)
    return out if code == 0 else f"oracle failed {code}: {out[-500:]}"


@dataclass
class Result:
    mutant: Mutant
    outcome: str  # killed | survived | equivalent | unparsable | timeout (judged again)


def judge(m: Mutant, workdir: Path, baseline_oracle: str, timeout: float) -> Result:
    target = workdir / m.path
    original = (SOURCE / m.path).read_text(encoding="utf-8")
    try:
        target.write_text(mutated_source(m), encoding="utf-8")
    except (SyntaxError, ValueError):
        return Result(m, "unparsable")
    try:
        tests, keyword = tests_for(m)
        code = _pytest(workdir, tests, timeout, keyword)
        if code == -1:
            return Result(m, "timeout")
        if code != 0:
            return Result(m, "killed")
        same = _oracle(workdir) == baseline_oracle
        return Result(m, "equivalent" if same else "survived")
    finally:
        target.write_text(original, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--target", type=float, default=0.90)
    ap.add_argument("--json", type=Path, help="write every result here")
    ap.add_argument(
        "--again",
        type=Path,
        help="a previous run's --json: judge only its survivors again (tests added since; "
        "the referee unchanged, so the sample and every other outcome are the same)",
    )
    args = ap.parse_args(argv)

    global SOURCE
    base = Path(tempfile.mkdtemp(prefix="mutation-"))
    SOURCE = base / "pristine"
    SOURCE.mkdir()
    _copy_tree(SOURCE)
    mutants = all_mutants()
    sample = random.Random(args.seed).sample(mutants, min(args.mutants, len(mutants)))
    print(f"{len(mutants)} mutation points in rulesets/; sampling {len(sample)} (seed {args.seed})")
    kept: list[Result] = []
    if args.again is not None:
        old = json.loads(args.again.read_text())
        if sorted(r["mutant"] for r in old) != sorted(m.name for m in sample):
            print(f"{args.again} is another sample: the referee changed since; run them all")
            return 2
        outcomes: dict[str, set[str]] = {}
        for r in old:
            outcomes.setdefault(r["mutant"], set()).add(r["outcome"])

        def settled(m: Mutant) -> bool:  # (two mutants of one name: judged again if unsure)
            return len(outcomes[m.name]) == 1 and "survived" not in outcomes[m.name]

        kept = [Result(m, next(iter(outcomes[m.name]))) for m in sample if settled(m)]
        sample = [m for m in sample if not settled(m)]
        print(f"judging again the {len(sample)} survivors of {args.again}")
    t0 = time.monotonic()
    workdirs = []
    for j in range(args.jobs):
        w = base / f"w{j}"
        w.mkdir()
        _copy_tree(w, SOURCE)
        workdirs.append(w)
    t_base = time.monotonic()
    if _pytest(workdirs[0], ["tests/rulesets", "rulesets"], 900) != 0:
        print("the unmutated tests fail: fix them first")
        return 2
    timeout = max(60.0, 5 * (time.monotonic() - t_base))
    baseline_oracle = _oracle(workdirs[0])

    chunks = [sample[j :: args.jobs] for j in range(args.jobs)]

    def work(j: int) -> list[Result]:
        results = []
        for m in chunks[j]:
            r = judge(m, workdirs[j], baseline_oracle, timeout)
            results.append(r)
            mark = {
                "killed": ".",
                "equivalent": "=",
                "survived": "S",
                "unparsable": "x",
                "timeout": "t",
            }
            print(mark[r.outcome], end="", flush=True)
        return results

    with ThreadPoolExecutor(args.jobs) as pool:
        results = kept + [r for part in pool.map(work, range(args.jobs)) for r in part]
    print()
    # A time-out on a shared, loaded machine may be the load, not the mutant: each one is
    # judged again, alone, with ten times the limit; only a second time-out kills it.
    timed_out = [r for r in results if r.outcome == "timeout"]
    slow = 0
    for r in timed_out:
        again = judge(r.mutant, workdirs[0], baseline_oracle, 10 * timeout)
        slow += again.outcome == "timeout"
        r.outcome = "killed" if again.outcome == "timeout" else again.outcome
    if timed_out:
        print(f"{len(timed_out)} time-outs judged again; {slow} timed out again (killed)")
    shutil.rmtree(base, ignore_errors=True)
    count = {
        k: sum(r.outcome == k for r in results)
        for k in ("killed", "survived", "equivalent", "unparsable")
    }
    for r in sorted(results, key=lambda r: r.mutant.name):
        if r.outcome == "survived":
            print(f"  survived: {r.mutant.name}")
    behaving = count["killed"] + count["survived"]
    score = count["killed"] / behaving if behaving else 1.0
    raw = count["killed"] / max(1, len(results) - count["unparsable"])
    print(
        f"killed {count['killed']}, survived {count['survived']}, equivalent "
        f"{count['equivalent']}, unparsable {count['unparsable']} of {len(results)} mutants "
        f"in {time.monotonic() - t0:.0f} s"
    )
    print(
        f"score: {score:.1%} of the mutants that change behaviour "
        f"(raw {raw:.1%}); target {args.target:.0%}"
    )
    if args.json:
        args.json.write_text(
            json.dumps([{"mutant": r.mutant.name, "outcome": r.outcome} for r in results], indent=1)
        )
    return 0 if score >= args.target else 1


if __name__ == "__main__":
    raise SystemExit(main())
