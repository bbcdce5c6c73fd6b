"""Optimal string alignment distance in plain Python, for where rapidfuzz cannot be installed.

A phone's browser (Pyodide) has no WebAssembly wheel of rapidfuzz; the rules
search imports this instead.  Same answer as ``rapidfuzz.distance.OSA.distance``
(insert, delete, substitute, or swap two adjacent letters, each 1; a distance
above ``score_cutoff`` is reported as ``score_cutoff + 1``), fast enough for
the short words of a search.
"""

from __future__ import annotations


def distance(s1: str, s2: str, *, score_cutoff: int | None = None) -> int:
    """Edits (with adjacent swaps) that turn ``s1`` into ``s2``."""
    n, m = len(s1), len(s2)
    before: list[int] = []
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        row = [i] + [0] * m
        for j in range(1, m + 1):
            cost = 0 if s1[i - 1] == s2[j - 1] else 1
            best = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and s1[i - 1] == s2[j - 2] and s1[i - 2] == s2[j - 1]:
                best = min(best, before[j - 2] + 1)
            row[j] = best
        before, prev = prev, row
    result = prev[m]
    if score_cutoff is not None and result > score_cutoff:
        return score_cutoff + 1
    return result
