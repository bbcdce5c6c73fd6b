"""The rules search's pure-Python typo distance answers as rapidfuzz does (a phone has none)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from companion.rulebook import osa_fallback

WORDS = st.text(alphabet="abcdejkmr", max_size=9)


@given(WORDS, WORDS, st.none() | st.integers(0, 3))
def test_same_distance_as_rapidfuzz(a: str, b: str, cutoff: int | None) -> None:
    assert osa_fallback.distance(a, b, score_cutoff=cutoff) == OSA.distance(
        a, b, score_cutoff=cutoff
    )


def test_adjacent_swap_is_one_edit() -> None:
    assert osa_fallback.distance("jakc", "jack") == 1
    assert osa_fallback.distance("marrige", "marriage") == 1
    assert osa_fallback.distance("ca", "abc") == 3  # OSA, not Damerau: no edit after a swap


def test_search_finds_a_typo_without_rapidfuzz(monkeypatch) -> None:
    import sys

    import companion.rulebook as rulebook

    monkeypatch.setitem(sys.modules, "rapidfuzz", None)
    monkeypatch.setitem(sys.modules, "rapidfuzz.distance", None)
    rulebook._expand.cache_clear()
    try:
        found = rulebook._expand("marrige")
    finally:
        rulebook._expand.cache_clear()
    assert "marriage" in found
