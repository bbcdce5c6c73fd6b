"""Rummoli: the referee and chip settler (RULES.md section 3, M1-M7, A-M1..A-M19).

Glossary:

* **pot** -- one of the nine piles of chips on the board (M1.2): ``poker``,
  ``10S``, ``JD``, ``QC``, ``KH``, ``AS``, ``AD+KD``, ``7-8-9`` (``8-9-10`` on
  the regional board, A-M19) and the centre ``rummoli`` pot.  Pots carry over.
* **ante** -- 1 chip into each of the 9 pots before every deal (M1.3).
* **widow** -- the extra hand dealt face down (M2.1); **dead hand** -- the hand
  given up for the widow (M2.3).
* **pay card** -- 10S JD QC KH AS KD AD, or holding 7-8-9 of one suit (M2.4).
* **lay** -- putting one card face up in the Rummoli (stops) phase (M5);
  a **break** is a lay that does not continue the suit (M5.3, M5.4).
* **stack** -- the chips in front of a player.

Modules: :mod:`~rulesets.rummoli.board` (house rules, pots, pay cards, deal
sizes), :mod:`~rulesets.rummoli.actions` (the recorded actions),
:mod:`~rulesets.rummoli.game` (:class:`RummoliGame`, the live game),
:mod:`~rulesets.rummoli.summary` (the typed summary),
:mod:`~rulesets.rummoli.ruleset` (:data:`RULESET`),
:mod:`~rulesets.rummoli.simulate` (random legal games),
:mod:`~rulesets.rummoli.suggest` (advice for a private hand).

How a game is recorded
----------------------
A game is a :class:`~rulesets.protocol.GameRecord` (``game="rummoli"``) whose
``rules`` are a :class:`RummoliRules` dump and whose ``actions`` are the action
models dumped to JSON.  Players are named by name (older records: by seat
number, 0-based clockwise; both replay).  The **first action is always**
``start``, which holds the starting stacks and the first dealer.  A round is::

    deal                         antes (M1.3) and deal sizes (M2.1)
    widow?                       dealer swap (M2.2) or auction (M2.3)
    bet* / fold*                 one betting round (M4.2), if the table bets
    poker                        winners, or the hands for the referee to judge
    then EITHER the live log:    lay* (+ claim* when claim=strict), impasse?
    OR the quick settlement:     claim* (who laid each pay card), out | impasse

In the live log the referee follows every card from public information and
ends the round itself when a hand empties.  ``end`` closes the game; then one
``final_poker`` (or one per pot with ``final_poker=per_pot``) settles the board.
``adjust`` (between rounds) is the only way chips enter or leave: stacks +
pots never change otherwise.  Payments never exceed a stack: a player short of
chips pays what they have and the rest is not owed (A-M17).

The ledger
----------
Every chip movement is a :class:`~rulesets.protocol.LedgerEntry`; a player's
stack is exactly the sum of their entries.  The ``kind`` words:

========== ======================================================== ==========
kind       movement                                                 hand
========== ======================================================== ==========
start      the starting stack (M1.1)                                None
buy_in     chips added to a stack between rounds                    None
adjust     chips taken out of a stack between rounds                None
out        out of the game: cannot pay the full ante (0 chips, M7.1) the round
ante       9 chips, 1 into each pot (M1.3)                          the round
widow_bid  the bid paid to the dealer / received (M2.3)             the round
bet        a poker bet into the Poker pot (M4.2)                    the round
poker      the Poker pot won (M4.3) or a share of it (M4.4)         the round
pot        a pay-card pot won (M5.6, A-M8, A-M9, A-M19)             the round
pass_fine  1 chip to the centre for not being able to start (M5.5)  the round
centre     the Rummoli pot won by going out first (M6.1)            the round
held       1 chip per card held, paid to the one out (M6.1)         the round
owed       the chips for cards held, received (A-M11)               the round
impasse    1 chip per card held into the centre (M5.7)              the round
final_poker a final-poker bet or win (M4.2, M7.2)                   None
========== ======================================================== ==========

>>> g = RummoliGame(["Ann", "Bob", "Cy"])
>>> _ = g.push(Start(chips=[50, 50, 50], dealer="Ann"))
>>> _ = g.push(Deal())
>>> g.summary().detail.deal.sizes
{'Bob': 13, 'Cy': 13, 'Ann': 13}
"""

from __future__ import annotations

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
    RummoliRules,
    deal_sizes,
    pay_cards_in,
    pay_cards_text,
    pot_names,
    run_pot,
    run_ranks,
)
from rulesets.rummoli.game import RummoliGame
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
