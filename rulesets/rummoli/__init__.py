"""Rummoli: the referee and chip settler (RULES.md section 3, M1-M7, A-M1..A-M19).

The glossary (pot, ante, widow, pay card, lay, stack), how a game is recorded
(``start``, then rounds of ``deal``, ``widow``, bets, ``poker`` and the live log or
the quick settlement) and the ledger's kinds: ``docs/ARCHITECTURE.md``, section 2.7.

Modules: :mod:`~rulesets.rummoli.actions` (the recorded actions),
:mod:`~rulesets.rummoli.house_rules` (:class:`RummoliRules`, the switches),
:mod:`~rulesets.rummoli.board` (pots, pay cards, deal sizes),
:mod:`~rulesets.rummoli.state` (the referee's state),
:mod:`~rulesets.rummoli.rounds` (one action applied: the dispatch and the rounds),
:mod:`~rulesets.rummoli.lay` (the live card log), :mod:`~rulesets.rummoli.settle`
(chips when pots are won and rounds end), :mod:`~rulesets.rummoli.game`
(:class:`RummoliGame`, the live game), :mod:`~rulesets.rummoli.summary`,
:mod:`~rulesets.rummoli.verdicts`, :mod:`~rulesets.rummoli.notes` and
:mod:`~rulesets.rummoli.results` (what the referee reports),
:mod:`~rulesets.rummoli.ruleset` (:data:`RULESET`),
:mod:`~rulesets.rummoli.simulate` (random legal games),
:mod:`~rulesets.rummoli.suggest` (advice for a private hand).

>>> from rulesets.rummoli import Deal, RummoliGame, Start
>>> g = RummoliGame(["Ann", "Bob", "Cy"])
>>> _ = g.push(Start(chips=[50, 50, 50], dealer="Ann"))
>>> _ = g.push(Deal())
>>> g.summary().detail.deal.sizes
{'Bob': 13, 'Cy': 13, 'Ann': 13}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rulesets.lazy import lazy_names

if TYPE_CHECKING:  # the names below, imported when first asked for (rulesets.lazy)
    from rulesets.rummoli.actions import (
        Adjust,
        Bet,
        Claim,
        Deal,
        End,
        FinalPoker,
        Fold,
        Impasse,
        Lay,
        Out,
        Poker,
        RummoliAction,
        Start,
        Widow,
        parse_action,
    )
    from rulesets.rummoli.board import (
        AK_DIAMONDS,
        ANTE,
        ANTE_POTS,
        POT_LABELS,
        POTS,
        SINGLE_POTS,
        PotRule,
        deal_sizes,
        pay_cards_in,
        pay_cards_text,
        pot_names,
        run_pot,
        run_ranks,
    )
    from rulesets.rummoli.game import RummoliGame
    from rulesets.rummoli.house_rules import RummoliRules
    from rulesets.rummoli.results import FinalResult, PokerResult, ShownHand, WidowResult
    from rulesets.rummoli.ruleset import RULESET, RummoliRuleset
    from rulesets.rummoli.simulate import PlayResult, random_game, random_record, simulate_play
    from rulesets.rummoli.state import Phase
    from rulesets.rummoli.suggest import suggest
    from rulesets.rummoli.summary import (
        Adjustment,
        BettingView,
        DealView,
        FinalNext,
        PendingClaim,
        PlayView,
        PotView,
        RummoliDetail,
        RummoliHand,
        RummoliSummary,
        WidowView,
        statement,
    )


__all__ = [
    "AK_DIAMONDS",
    "ANTE",
    "ANTE_POTS",
    "POTS",
    "POT_LABELS",
    "RULESET",
    "SINGLE_POTS",
    "Adjust",
    "Adjustment",
    "Bet",
    "BettingView",
    "Claim",
    "Deal",
    "DealView",
    "End",
    "FinalNext",
    "FinalPoker",
    "FinalResult",
    "Fold",
    "Impasse",
    "Lay",
    "Out",
    "PendingClaim",
    "Phase",
    "PlayResult",
    "PlayView",
    "Poker",
    "PokerResult",
    "PotRule",
    "PotView",
    "RummoliAction",
    "RummoliDetail",
    "RummoliGame",
    "RummoliHand",
    "RummoliRules",
    "RummoliRuleset",
    "RummoliSummary",
    "ShownHand",
    "Start",
    "Widow",
    "WidowResult",
    "WidowView",
    "deal_sizes",
    "parse_action",
    "pay_cards_in",
    "pay_cards_text",
    "pot_names",
    "random_game",
    "random_record",
    "run_pot",
    "run_ranks",
    "simulate_play",
    "statement",
    "suggest",
]

#: where each name lives; a name's module is imported when the name is first used,
#: so importing this package (or its plain check) builds no model.
_HOMES: Final = {
    "actions": (
        "Adjust",
        "Bet",
        "Claim",
        "Deal",
        "End",
        "FinalPoker",
        "Fold",
        "Impasse",
        "Lay",
        "Out",
        "Poker",
        "RummoliAction",
        "Start",
        "Widow",
        "parse_action",
    ),
    "board": (
        "AK_DIAMONDS",
        "ANTE",
        "ANTE_POTS",
        "POT_LABELS",
        "POTS",
        "SINGLE_POTS",
        "PotRule",
        "deal_sizes",
        "pay_cards_in",
        "pay_cards_text",
        "pot_names",
        "run_pot",
        "run_ranks",
    ),
    "game": ("RummoliGame",),
    "house_rules": ("RummoliRules",),
    "results": (
        "FinalResult",
        "PokerResult",
        "ShownHand",
        "WidowResult",
    ),
    "ruleset": (
        "RULESET",
        "RummoliRuleset",
    ),
    "simulate": (
        "PlayResult",
        "random_game",
        "random_record",
        "simulate_play",
    ),
    "state": ("Phase",),
    "suggest": ("suggest",),
    "summary": (
        "Adjustment",
        "BettingView",
        "DealView",
        "FinalNext",
        "PendingClaim",
        "PlayView",
        "PotView",
        "RummoliDetail",
        "RummoliHand",
        "RummoliSummary",
        "WidowView",
        "statement",
    ),
}
lazy_names(__name__, _HOMES)
