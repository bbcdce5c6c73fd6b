"""What keeping retry keys with the game costs a tap (issue 19: a retry is a retry across
restarts).

Run: ``.venv/bin/python benchmarks/table_keys.py [--entries 200] [--rounds 5]``

A device at a table enters Umtali entries through :class:`companion.session.GameSession`
on the real history store in a temporary folder.  Two contenders, interleaved round by
round in one run: ``keys kept`` (as shipped: the key noted before the save and settled
after it, two lines appended to ``table-keys/<game>.keys``, not fsynced) and ``keys in
memory`` (the KeyBook's file writes switched off -- what the app did before).  Each
``add`` is timed in CPU time of this process and in wall time; the cost of one fsync of
a small file is measured in the same run, for scale.  Prints medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.hub import KeyBook, TableHub  # noqa: E402
from companion.session import GameSession, Who  # noqa: E402
from companion.storage import open_repository  # noqa: E402

PHONE = Who(device="phone-1", words="Ann", at_table=True)
#: legal Umtali entries that can be repeated: a hand started, then undone (two writes)
OPENING = {"type": "start_hand", "dealer": "Ann"}


def _round(entries: int, keys_kept: bool) -> tuple[list[float], list[float]]:
    real = KeyBook._append, KeyBook._compact
    if not keys_kept:
        KeyBook._append = lambda self, line: None  # type: ignore[method-assign]
        KeyBook._compact = lambda self: None  # type: ignore[method-assign]
    cpu: list[float] = []
    wall: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            repo = open_repository(Path(tmp))
            try:
                game = GameSession.start(TableHub(repo), "umtali", ["Ann", "Bob"], {}, who=PHONE)
                for _ in range(entries):
                    c0, w0 = time.process_time(), time.perf_counter()
                    refusal = game.add(OPENING)
                    c1, w1 = time.process_time(), time.perf_counter()
                    assert refusal is None, refusal
                    cpu.append((c1 - c0) * 1000)
                    wall.append((w1 - w0) * 1000)
                    game.mark_shown()
                    assert game.undo() is not None
                    game.mark_shown()
            finally:
                repo.close()
    finally:
        KeyBook._append, KeyBook._compact = real  # type: ignore[method-assign]
    return cpu, wall


def _fsync_ms(times: int = 20) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x"
        samples = []
        for n in range(times):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.write(fd, f"{n}\n".encode())
            t0 = time.perf_counter()
            os.fsync(fd)
            samples.append((time.perf_counter() - t0) * 1000)
            os.close(fd)
        return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    results: dict[str, dict[str, list[float]]] = {
        name: {"cpu": [], "wall": []} for name in ("keys kept", "keys in memory")
    }
    fsyncs: list[float] = []
    for _ in range(args.rounds):  # interleaved: both see the same machine load
        for name, kept in (("keys kept", True), ("keys in memory", False)):
            cpu, wall = _round(args.entries, kept)
            results[name]["cpu"] += cpu
            results[name]["wall"] += wall
        fsyncs.append(_fsync_ms())
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"one fsync of a small file: median {statistics.median(fsyncs):.3f} ms")
    base: dict[str, Any] = {}
    for name, r in results.items():
        cpu, wall = statistics.median(r["cpu"]), statistics.median(r["wall"])
        base.setdefault("cpu", cpu)
        base.setdefault("wall", wall)
        print(
            f"{name:>15}: add median CPU {cpu:.3f} ms, wall {wall:.3f} ms "
            f"({len(r['cpu'])} adds; CPU x{cpu / base['cpu']:.2f} of keys kept)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
