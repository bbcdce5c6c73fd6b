"""Umtali, the two-player rummy of RULES.md section 1 (U1-U9, A-U1..A-U18).

The glossary (side, meld, extension and anchor, leftovers) and the ledger:
``docs/ARCHITECTURE.md``, section 2.5; the referee's state field by field:
:mod:`~rulesets.umtali.state`.

Modules: :mod:`~rulesets.umtali.melds` (cards, shapes, values, anchors),
:mod:`~rulesets.umtali.actions` (the recorded actions),
:mod:`~rulesets.umtali.house_rules` (:class:`UmtaliRules`, the switches),
:mod:`~rulesets.umtali.game` (:class:`UmtaliGame`: the protocol, and little else),
:mod:`~rulesets.umtali.state` (the referee's state, field by field, and its snapshot),
:mod:`~rulesets.umtali.referee` (one action applied: the dispatch by type),
:mod:`~rulesets.umtali.turns` (deals, turns, draws, the end of a hand),
:mod:`~rulesets.umtali.plays` (melds, extensions, discards, going out, leftovers),
:mod:`~rulesets.umtali.report` (the summary read off the state),
:mod:`~rulesets.umtali.summary` (:class:`UmtaliSummary` and the ledger),
:mod:`~rulesets.umtali.ruleset` (:data:`RULESET`),
:mod:`~rulesets.umtali.suggest` (exact suggestions),
:mod:`~rulesets.umtali.simulate` (random legal games).

>>> from rulesets.umtali import Meld, StartHand, UmtaliGame
>>> g = UmtaliGame(("Ann", "Bob"))
>>> _ = g.push(StartHand(dealer="Bob"))
>>> g.judge(Meld(player="Ann", cards=("JH", "JD", "JS"))).reason
'"JH JD JS": jacks never form a set; meld each jack alone'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rulesets.lazy import lazy_names

if TYPE_CHECKING:  # the names below, imported when first asked for (rulesets.lazy)
    from rulesets.umtali.actions import (
        ACTION_TYPES,
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
        UmtaliAction,
        parse_action,
    )
    from rulesets.umtali.game import HandResult, Phase, TableMeld, UmtaliGame
    from rulesets.umtali.house_rules import UmtaliRules
    from rulesets.umtali.melds import (
        U4_4_OPENING,
        U7_OPENING,
        U7_UNCHECKED,
        MeldKind,
        accepted_cards,
        breaking_meld,
        card_points,
        check_anchor,
        classify_meld,
        classify_pair,
        meld_points,
    )
    from rulesets.umtali.ruleset import RULESET, UmtaliRuleset
    from rulesets.umtali.simulate import random_game, random_record
    from rulesets.umtali.suggest import Play, Suggestion, suggest, suggest_table
    from rulesets.umtali.summary import (
        Said,
        UmtaliCurrent,
        UmtaliDetail,
        UmtaliHand,
        UmtaliMeld,
        UmtaliSummary,
    )


__all__ = [
    "ACTION_TYPES",
    "RULESET",
    "U4_4_OPENING",
    "U7_OPENING",
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
    "Said",
    "StartHand",
    "Suggestion",
    "TableMeld",
    "TakeDiscards",
    "UmtaliAction",
    "UmtaliCurrent",
    "UmtaliDetail",
    "UmtaliGame",
    "UmtaliHand",
    "UmtaliMeld",
    "UmtaliRules",
    "UmtaliRuleset",
    "UmtaliSummary",
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

#: where each name lives; a name's module is imported when the name is first used,
#: so importing this package (or its plain check) builds no model.
_HOMES: Final = {
    "actions": (
        "ACTION_TYPES",
        "Action",
        "Discard",
        "Draw",
        "EndHandEmptyStock",
        "Extend",
        "GoOut",
        "Leftovers",
        "Meld",
        "StartHand",
        "TakeDiscards",
        "UmtaliAction",
        "parse_action",
    ),
    "game": (
        "HandResult",
        "Phase",
        "TableMeld",
        "UmtaliGame",
    ),
    "house_rules": ("UmtaliRules",),
    "melds": (
        "U4_4_OPENING",
        "U7_OPENING",
        "U7_UNCHECKED",
        "MeldKind",
        "accepted_cards",
        "breaking_meld",
        "card_points",
        "check_anchor",
        "classify_meld",
        "classify_pair",
        "meld_points",
    ),
    "ruleset": (
        "RULESET",
        "UmtaliRuleset",
    ),
    "simulate": (
        "random_game",
        "random_record",
    ),
    "suggest": (
        "Play",
        "Suggestion",
        "suggest",
        "suggest_table",
    ),
    "summary": (
        "Said",
        "UmtaliCurrent",
        "UmtaliDetail",
        "UmtaliHand",
        "UmtaliMeld",
        "UmtaliSummary",
    ),
}
lazy_names(__name__, _HOMES)
