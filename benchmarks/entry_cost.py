"""Server-side cost of one accepted entry through ``GameSession``, early and late in a game.

Run: ``.venv/bin/python benchmarks/entry_cost.py [--runs 5] [--memory]``

For each game a long recorded game (at least 210 entries) is entered action by
action through :class:`companion.session.GameSession` on the real history store
in a temporary folder (``--memory``: the in-memory twin, to see the referee alone).
Each ``session.add`` is timed in CPU time of this process (what a server pays;
the fsync wait is not CPU) and in wall time.  The cost "at entry 10" is the median
of entries 5-15, "at entry 200" the median of entries 195-205, each the median over
``--runs`` fresh games.  Target (issue 12): entry 200 costs at most 1.5x entry 10.
Exit code 0 when every game meets it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.hub import TableHub  # noqa: E402
from companion.session import GameSession  # noqa: E402
from companion.storage import GameRepository, MemoryRepository, open_repository  # noqa: E402
from rulesets import load_ruleset  # noqa: E402
from rulesets.protocol import GameRecord  # noqa: E402

TARGET = 1.5
EARLY = range(5, 16)
LATE = range(195, 206)
MIN_LENGTH = 210


def _long_rummoli(seed: int) -> GameRecord:
    """Eight players dealing round after round until the record is long enough."""
    from rulesets.rummoli import RummoliGame, RummoliRules
    from rulesets.rummoli.actions import Deal, End, Start
    from rulesets.rummoli.simulate import _random_round, _Table

    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
    table = _Table(RummoliGame(names, RummoliRules()), rng, by_name=True)
    game = table.game
    game.push(Start(chips=[200] * len(names), dealer="Ann"))
    while len(game.actions) < MIN_LENGTH + 20 and game.can(Deal()):
        game.push(Deal())
        _random_round(table)
    game.push(End())
    return game.to_record()


def long_record(game: str) -> GameRecord:
    """A recorded game of at least ``MIN_LENGTH`` entries (the first such random game)."""
    if game == "rummoli":
        return _long_rummoli(1)
    ruleset = load_ruleset(game)
    for seed in range(2000):
        record = ruleset.random_record(seed)
        if len(record.actions) >= MIN_LENGTH:
            return record
    raise SystemExit(f"no {game} game of {MIN_LENGTH} entries in 2,000 random games")


def one_run(record: GameRecord, repo: GameRepository) -> tuple[list[float], list[float]]:
    """(cpu ms, wall ms) of each ``session.add`` of the record's actions."""
    session = GameSession.start(TableHub(repo), record.game, record.players, dict(record.rules))
    cpu: list[float] = []
    wall: list[float] = []
    for action in record.actions:
        c0, w0 = time.process_time(), time.perf_counter()
        refusal = session.add(action)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        if refusal is not None:
            raise SystemExit(f"{record.game}: entry {len(cpu)} refused: {refusal.message}")
    return cpu, wall


def measure(game: str, runs: int, memory: bool) -> dict[str, Any]:
    record = long_record(game)
    early_cpu, late_cpu, early_wall, late_wall = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            repo = MemoryRepository() if memory else open_repository(Path(tmp))
            try:
                cpu, wall = one_run(record, repo)
            finally:
                repo.close()
        early_cpu.append(statistics.median(cpu[i] for i in EARLY))
        late_cpu.append(statistics.median(cpu[i] for i in LATE))
        early_wall.append(statistics.median(wall[i] for i in EARLY))
        late_wall.append(statistics.median(wall[i] for i in LATE))
    e, lt = statistics.median(early_cpu), statistics.median(late_cpu)
    return {
        "game": game,
        "entries": len(record.actions),
        "early_cpu": e,
        "late_cpu": lt,
        "ratio": lt / e if e else float("inf"),
        "early_wall": statistics.median(early_wall),
        "late_wall": statistics.median(late_wall),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--memory", action="store_true", help="the in-memory store (referee only)")
    args = ap.parse_args(argv)
    store = "in-memory store" if args.memory else "history store on disk"
    print(f"one accepted entry through GameSession ({store}), median of {args.runs} games")
    print(f"{'game':<8} {'entries':>7} {'cpu@10':>8} {'cpu@200':>8} {'ratio':>6}  wall@10 wall@200")
    ok = True
    for game in ("umtali", "rummy", "rummoli"):
        r = measure(game, args.runs, args.memory)
        ok &= r["ratio"] <= TARGET
        print(
            f"{game:<8} {r['entries']:>7} {r['early_cpu']:>6.2f}ms {r['late_cpu']:>6.2f}ms "
            f"{r['ratio']:>5.2f}x  {r['early_wall']:>5.2f}ms {r['late_wall']:>6.2f}ms"
        )
    print(
        f"target: entry 200 costs at most {TARGET}x entry 10 (cpu) -> {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
