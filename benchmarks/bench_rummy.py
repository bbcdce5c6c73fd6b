"""Latency of the Rummy referee: verdicts (p99 <= 1 ms) and exact suggest (p99 <= 5 ms).

Run with ``.venv/bin/python benchmarks/bench_rummy.py``; exits 1 if a budget is missed.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from rulesets.cards import DECK, JOKER
from rulesets.rummy import RULESET, RummyRules, suggest

HANDS = 1000


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def main() -> int:
    rng = random.Random(2026)
    plain = RummyRules()
    wild = RummyRules(jokers=True, ace_high_or_low=True)
    verdicts: list[float] = []
    suggests: list[float] = []
    suggests_wild: list[float] = []
    for _ in range(HANDS):
        cards = rng.sample(DECK, 11)
        meld = cards[: rng.randint(3, 4)]
        onto = cards[4:7]
        rules = rng.choice((plain, wild))
        verdicts.append(_time(lambda m=meld, r=rules: RULESET.check(m, rules=r)))
        verdicts.append(
            _time(lambda c=cards, o=onto, r=rules: RULESET.check(c[:1], onto=o, rules=r))
        )
        n = rng.choice((10, 11))
        suggests.append(_time(lambda c=cards[:n]: suggest(c, plain)))
        wild_hand = [*cards[: n - 1], JOKER]
        suggests_wild.append(_time(lambda c=wild_hand: suggest(c, wild)))
    ok = True
    for label, samples, budget in (
        ("verdict (check meld / lay-off)", verdicts, 1.0),
        ("suggest, exact, 10-11 cards", suggests, 5.0),
        ("suggest, exact, 10-11 cards with a joker", suggests_wild, 5.0),
    ):
        med, p99 = statistics.median(samples), _p99(samples)
        passed = p99 <= budget
        ok &= passed
        print(
            f"{label:45s} n={len(samples):5d} median={med:.3f} ms  p99={p99:.3f} ms"
            f"  budget {budget:.1f} ms  {'PASS' if passed else 'FAIL'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
