"""Umtali, the two-player rummy of RULES.md section 1 (U1-U9, A-U1..A-U16).

Glossary:

* **side** -- each player's own part of the table; everything a player melds
  lands on their side (U3.2) and is scored there (U9.1).
* **meld** -- cards put down together: a **set** (3-4 of one rank, never jacks),
  a **sequence** (3+ of one suit within A..10, ace low), a **marriage** (K+Q of
  one suit, 20 points), a **jack** (any J alone), a **pair** (only when going out).
* **extension** -- one card played against a named meld, its **anchor**, on
  either side; it becomes a new **single** on the extender's side (U6).
* **leftovers** -- the opponent's cards after the final turn, moved to the
  going-out side as singles (U8.4).

Entry points: :class:`UmtaliGame` (referee + record + replay),
:func:`suggest`, :data:`RULESET` (the protocol object for the CLI).

>>> g = UmtaliGame(("Ann", "Bob"))
>>> _ = g.start_hand("Bob")
>>> g.check_meld("Ann", "JH JD JS").reason
'"JH JD JS": jacks never form a set; meld each jack alone'
"""

from __future__ import annotations

from rulesets.umtali.actions import (
    Action,
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
    parse_action,
)
from rulesets.umtali.core import (
    MeldKind,
    UmtaliRules,
    accepted_cards,
    breaking_meld,
    card_points,
    check_anchor,
    classify_meld,
    classify_pair,
    meld_points,
)
from rulesets.umtali.game import U7_UNCHECKED, HandResult, Phase, TableMeld, UmtaliGame
from rulesets.umtali.ruleset import RULESET, UmtaliRuleset
from rulesets.umtali.simulate import random_game, random_record
from rulesets.umtali.suggest import Play, Suggestion, suggest, suggest_table

__all__ = [
    "RULESET",
    "U7_UNCHECKED",
    "Action",
    "Discard",
    "Draw",
    "EndHandEmptyStock",
    "Extend",
    "GoOut",
    "HandResult",
    "Leftovers",
    "Meld",
    "MeldKind",
    "Phase",
    "Play",
    "StartHand",
    "Suggestion",
    "TableMeld",
    "TakeDiscards",
    "UmtaliGame",
    "UmtaliRules",
    "UmtaliRuleset",
    "accepted_cards",
    "breaking_meld",
    "card_points",
    "check_anchor",
    "classify_meld",
    "classify_pair",
    "meld_points",
    "parse_action",
    "random_game",
    "random_record",
    "suggest",
    "suggest_table",
]
