"""Crash storm: SIGKILL a saving writer hundreds of times, then prove nothing was lost.

Run: ``.venv/bin/python benchmarks/crash_storm.py [--trials 400] [--check-every 50]``

Each trial forks a child that saves table entries (and creates and finishes
games) in a loop, acknowledging every save once it returned, and kills it with
SIGKILL a random 0-30 ms after its first acknowledged save.  Every
``--check-every`` trials, and at the end, the store is reopened and checked
(``tests/companion/crash_writer.py``):
every file opens, nothing is quarantined, no temp file is left, the index
matches the game files, and every acknowledged entry is there, in order.
With ``--writers 2`` two children write at once (both killed).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.companion import crash_writer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--check-every", type=int, default=50)
    parser.add_argument("--writers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        data, acks = Path(tmp) / "data", Path(tmp) / "acks.txt"
        for trial in range(1, args.trials + 1):
            seeds = [trial * 10 + w for w in range(args.writers)]
            codes = crash_writer.kill_while_saving(str(data), str(acks), seeds, rng)
            if codes != [-9] * args.writers:
                print(f"trial {trial}: writers exited with {codes} before the kill")
                return 1
            if trial % args.check_every == 0 or trial == args.trials:
                try:
                    counts = crash_writer.check_store(str(data), str(acks))
                except AssertionError as exc:
                    print(f"after {trial} kills: LOSS OR DAMAGE: {exc}")
                    return 1
                print(
                    f"after {trial:>4} kills: {counts['games']} games, {counts['entries']} "
                    f"entries on disk, {counts['acked']} acknowledged -- all present, "
                    "every file opens"
                )
    print(
        f"{args.trials} SIGKILLs with {args.writers} writer(s): no loss, no damaged file "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
