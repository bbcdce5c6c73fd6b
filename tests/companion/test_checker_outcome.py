"""The checker's whole-hand panel says each fact once (issue 18: a verdict box that
repeats itself is read twice to a screen reader and pushes lines out of its box)."""

from __future__ import annotations

from companion.views.checker import evaluate
from rulesets.cards import parse_cards


def test_a_rummoli_hand_says_the_widow_once_and_each_play_once() -> None:
    out = evaluate("rummoli", {}, "hand", parse_cards("2C 3C 4C 5H 6D JD"))
    assert out.verdict is not None
    shown = [out.verdict.said, *out.verdict.said_notes, *out.lines]
    assert sum("widow" in line for line in shown) == 1, shown
    assert sum("Poker hand" in line for line in shown) == 1, shown
    assert any("J♦ pot" in line for line in out.lines), shown
