"""The referee against an older checkout of itself, interleaved in one run.

Run: ``.venv/bin/python benchmarks/versus.py --base DIR [--rounds 40] [--work NAME,...]``
where ``DIR`` is another checkout (``git worktree add /tmp/base <commit>``).

On a shared machine the per-run medians of ``bench_rummy.py`` move by 2x between
runs (other work comes and goes), so two runs one after the other cannot say
whether a change made the referee slower.  Here each workload runs in two
long-lived worker processes, one importing ``rulesets`` from this checkout and
one from ``DIR``, and the parent hands them the same batch of calls in turn
(A B, then B A, ...), so both meet the same machine.  Each round gives a ratio
(this checkout / base) of CPU time per call; the median of those ratios is the
figure to read, with both medians of CPU and wall time per call beside it.

Workloads (the calls the referee benchmarks time, through APIs both sides have):

* ``rummy-verdict`` -- ``RULESET.check`` of a 3-4 card meld and of a lay-off
  (``bench_rummy.py``'s verdict series);
* ``umtali-verdict`` -- ``UmtaliGame.judge`` of a meld and two extensions on
  mid-hand tables (``bench_umtali.py``'s);
* ``poker`` -- ``rulesets.poker.judge`` of 8-player Rummoli deals.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ("rummy-verdict", "umtali-verdict", "poker")


def _rummy_verdict() -> list[Callable[[], object]]:
    from rulesets.cards import DECK
    from rulesets.rummy import RULESET, RummyRules

    rng = random.Random(2026)
    plain, wild = RummyRules(), RummyRules(jokers=True, ace_high_or_low=True)
    calls: list[Callable[[], object]] = []
    for _ in range(300):
        cards = rng.sample(DECK, 11)
        rules = rng.choice((plain, wild))
        meld, onto = cards[: rng.randint(3, 4)], cards[4:7]
        calls.append(lambda m=meld, r=rules: RULESET.check(m, rules=r))
        calls.append(lambda c=cards[:1], o=onto, r=rules: RULESET.check(c, onto=o, rules=r))
    return calls


def _umtali_verdict() -> list[Callable[[], object]]:
    from rulesets.cards import DECK
    from rulesets.umtali import Extend, Meld, Phase, UmtaliGame, random_game

    rng = random.Random(2026)
    games = [random_game(seed) for seed in range(20)]
    calls: list[Callable[[], object]] = []
    while len(calls) < 300:
        game = rng.choice(games)
        g = UmtaliGame(game.players, game.rules, game.actions[: rng.randrange(len(game.actions))])
        if g.phase is not Phase.PLAY:
            continue
        player = g.turn or g.players[0]
        free = [c for c in DECK if c not in g.table_cards]
        rng.shuffle(free)
        hand = free[:11]
        anchors = [ref for ref, _ in g.anchors()] or [(g.players[0], 0)]
        a1, a2 = rng.choice(anchors), rng.choice(anchors)
        meld = Meld(player=player, cards=tuple(str(c) for c in hand[:3]))
        one = Extend(player=player, card=str(hand[0]), anchor=a1)
        two = Extend(player=player, card=str(hand[1]), anchor=a2)
        calls.append(lambda g=g, a=meld, h=hand: g.judge(a, hand=h))
        calls.append(lambda g=g, a=one, h=hand: g.judge(a, hand=h))
        calls.append(lambda g=g, a=two: g.judge(a))
    return calls


def _poker() -> list[Callable[[], object]]:
    from rulesets.cards import DECK
    from rulesets.poker import judge

    rng = random.Random(2026)
    calls: list[Callable[[], object]] = []
    for _ in range(40):
        deck = rng.sample(DECK, 48)
        hands = [" ".join(str(c) for c in deck[i * 6 : i * 6 + 6]) for i in range(8)]
        calls.append(lambda h=hands: judge(h))
    return calls


def worker(work: str) -> None:
    """Build the calls, then run them all once for every line read; answer the time."""
    calls = {
        "rummy-verdict": _rummy_verdict,
        "umtali-verdict": _umtali_verdict,
        "poker": _poker,
    }[work]()
    for call in calls:  # warm up: imports, caches, lazily built models
        call()
    import gc

    gc.disable()
    out = sys.stdout
    for _line in sys.stdin:
        cpu, wall = time.process_time_ns(), time.perf_counter_ns()
        for call in calls:
            call()
        cpu, wall = time.process_time_ns() - cpu, time.perf_counter_ns() - wall
        out.write(f"{cpu} {wall} {len(calls)}\n")
        out.flush()


def _start(tree: Path, work: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))  # before the editable install of this one
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--worker", work],
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _batch(proc: subprocess.Popen[str]) -> tuple[float, float]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("run\n")
    proc.stdin.flush()
    cpu, wall, n = (int(x) for x in proc.stdout.readline().split())
    return cpu / n / 1000, wall / n / 1000  # microseconds per call


def compare(base: Path, work: str, rounds: int) -> float:
    ours, theirs = _start(ROOT, work), _start(base, work)
    got: dict[str, list[tuple[float, float]]] = {"this": [], "base": []}
    ratios: list[float] = []
    try:
        for i in range(rounds):
            order = [("this", ours), ("base", theirs)]
            if i % 2:
                order.reverse()
            now = {name: _batch(proc) for name, proc in order}
            for name, figures in now.items():
                got[name].append(figures)
            ratios.append(now["this"][0] / now["base"][0])
    finally:
        for proc in (ours, theirs):
            proc.kill()
    line = [f"{work:15s}"]
    for name in ("this", "base"):
        cpu = statistics.median(f[0] for f in got[name])
        wall = statistics.median(f[1] for f in got[name])
        line.append(f"{name}: CPU {cpu:8.2f} us wall {wall:8.2f} us per call")
    ratio = statistics.median(ratios)
    q = statistics.quantiles(ratios, n=4)
    line.append(f"this/base CPU x{ratio:.3f} (quartiles {q[0]:.3f}-{q[2]:.3f}, {rounds} rounds)")
    print("  ".join(line), flush=True)
    return ratio


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, help="the other checkout")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--work", default=",".join(WORKLOADS))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0
    if args.base is None:
        ap.error("--base DIR is needed")
    print(f"this checkout {ROOT} against {args.base.resolve()}; load {os.getloadavg()[0]:.2f}")
    for work in args.work.split(","):
        compare(args.base.resolve(), work, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
