"""Start-up cost of ``companion check`` (a script's tool) beside ``import pydantic``.

Target (issue 21): ``companion check umtali 5H 6H 7H`` costs at most 2x
``python -c "import pydantic"`` measured in the same run; so does each other
game's check.  Nearly all of a check is interpreter start and imports, so this
is an import-cost benchmark (a check imports no pydantic: ``rulesets/<game>/check.py``).

Run: ``.venv/bin/python benchmarks/cli_start.py [--runs 15]``.  The contenders
are interleaved (one of each per round, so machine load hits them alike); each
is a fresh interpreter.  Prints the median wall time and the median CPU time
(user + system of the child) per contender, and the ratios to ``import
pydantic``; exits 1 if a check's CPU ratio is above 2.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BASE = "import pydantic"
#: each game's check (the issue's target: each at most TARGET x the base, CPU).
CHECKS: dict[str, list[str]] = {
    "companion check umtali 5H 6H 7H": ["umtali", "5H", "6H", "7H"],
    "companion check rummy 7H 8H 9H": ["rummy", "7H", "8H", "9H"],
    "companion check rummoli 2C 5H JD": ["rummoli", "2C", "5H", "JD"],
}
CONTENDERS: dict[str, list[str]] = {
    BASE: [sys.executable, "-c", "import pydantic"],
    **{name: [sys.executable, "-m", "companion", "check", *argv] for name, argv in CHECKS.items()},
    # for scale: a whole game (its models built), what a check paid before issue 21
    "from rulesets.umtali import RULESET": [
        sys.executable,
        "-c",
        "from rulesets.umtali import RULESET",
    ],
}
TARGET = 2.0


def _one(argv: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one fresh interpreter running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # a check says "illegal" with exit 1 (rummoli 2C 5H JD holds a pay card): not a failure
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, env=os.environ.copy())
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    walls: dict[str, list[float]] = {k: [] for k in CONTENDERS}
    cpus: dict[str, list[float]] = {k: [] for k in CONTENDERS}
    for argv in CONTENDERS.values():  # warm the file cache once, not measured
        _one(argv)
    for _ in range(args.runs):
        for name, argv in CONTENDERS.items():
            wall, cpu = _one(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(walls[BASE])
    base_cpu = statistics.median(cpus[BASE])
    load = os.getloadavg()[0]
    print(f"start-up over {args.runs} interleaved runs (load average {load:.2f}), medians:")
    for name in CONTENDERS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(
            f"  {name:36s} wall {wall * 1000:7.1f} ms ({wall / base_wall:4.2f}x)   "
            f"cpu {cpu * 1000:7.1f} ms ({cpu / base_cpu:4.2f}x)"
        )
    worst = max(statistics.median(cpus[name]) / base_cpu for name in CHECKS)
    print(f"slowest check / {BASE} (cpu): {worst:.2f}x, target <= {TARGET:.1f}x")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
