"""Basic Rummy (RULES.md section 2): the referee for melds, lay-offs, turns and scoring.

Rule IDs (``R1.1`` ... ``R7``, ``A-R1`` ... ``A-R17``) refer to RULES.md.  The
glossary (meld, lay-off, deadwood, going out and going rummy, jokers, the
table-only log) and the ledger's kinds: ``docs/ARCHITECTURE.md``, section 2.6.

Modules: :mod:`.actions` (the recorded actions), :mod:`.house_rules`
(:class:`RummyRules`, the switches), :mod:`.melds` (card values, sets and runs),
:mod:`.state` (the referee's state), :mod:`.referee` (the one dispatch) over
:mod:`.turns` and :mod:`.ending` (one handler per action), :mod:`.report` (the
summary read off the state), :mod:`.game` (:class:`RummyGame`, the protocol),
:mod:`.summary` (typed results), :mod:`.suggest` (exact melding advice),
:mod:`.simulate` (random legal games), :mod:`.ruleset` (:data:`RULESET`).

>>> from rulesets.cards import parse_cards
>>> from rulesets.rummy import RULESET
>>> RULESET.check(parse_cards("QH KH AH")).legal
False
>>> RULESET.score(parse_cards("KS 7D AC")).points
18
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rulesets.lazy import lazy_names

if TYPE_CHECKING:  # the names below, imported when first asked for (rulesets.lazy)
    from rulesets.rummy.actions import (
        Action,
        Discard,
        Draw,
        HandEnd,
        LayOff,
        Meld,
        RummyAction,
        StartHand,
        SwapJoker,
        parse_action,
    )
    from rulesets.rummy.game import RummyGame, TableMeld
    from rulesets.rummy.house_rules import RummyRules
    from rulesets.rummy.melds import (
        DEAL_SIZES,
        JOKERS_IN_PACK,
        MeldShape,
        analyse_meld,
        card_value,
        deal_size,
        extend_meld,
        hand_value,
    )
    from rulesets.rummy.ruleset import RULESET, RummyRuleset
    from rulesets.rummy.simulate import random_record
    from rulesets.rummy.suggest import Suggestion, advise, suggest
    from rulesets.rummy.summary import (
        HandLine,
        Phase,
        RummyDetail,
        RummyHand,
        RummyMeld,
        RummyPlay,
        RummySummary,
    )


__all__ = [
    "DEAL_SIZES",
    "JOKERS_IN_PACK",
    "RULESET",
    "Action",
    "Discard",
    "Draw",
    "HandEnd",
    "HandLine",
    "LayOff",
    "Meld",
    "MeldShape",
    "Phase",
    "RummyAction",
    "RummyDetail",
    "RummyGame",
    "RummyHand",
    "RummyMeld",
    "RummyPlay",
    "RummyRules",
    "RummyRuleset",
    "RummySummary",
    "StartHand",
    "Suggestion",
    "SwapJoker",
    "TableMeld",
    "advise",
    "analyse_meld",
    "card_value",
    "deal_size",
    "extend_meld",
    "hand_value",
    "parse_action",
    "random_record",
    "suggest",
]

#: where each name lives; a name's module is imported when the name is first used,
#: so importing this package (or its plain check) builds no model.
_HOMES: Final = {
    "actions": (
        "Action",
        "Discard",
        "Draw",
        "HandEnd",
        "LayOff",
        "Meld",
        "RummyAction",
        "StartHand",
        "SwapJoker",
        "parse_action",
    ),
    "game": (
        "RummyGame",
        "TableMeld",
    ),
    "house_rules": ("RummyRules",),
    "melds": (
        "DEAL_SIZES",
        "JOKERS_IN_PACK",
        "MeldShape",
        "analyse_meld",
        "card_value",
        "deal_size",
        "extend_meld",
        "hand_value",
    ),
    "ruleset": (
        "RULESET",
        "RummyRuleset",
    ),
    "simulate": ("random_record",),
    "suggest": (
        "Suggestion",
        "advise",
        "suggest",
    ),
    "summary": (
        "HandLine",
        "Phase",
        "RummyDetail",
        "RummyHand",
        "RummyMeld",
        "RummyPlay",
        "RummySummary",
    ),
}
lazy_names(__name__, _HOMES)
