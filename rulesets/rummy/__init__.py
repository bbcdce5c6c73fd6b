"""Basic Rummy (RULES.md section 2): the referee for melds, lay-offs, turns and scoring.

Rule IDs (``R1.1`` ... ``R7``, ``A-R1`` ... ``A-R17``) refer to RULES.md.

Glossary:

* **meld** -- 3+ cards put on the table together: a **set** (3 or 4 of one rank,
  R2.1) or a **run** (3+ consecutive cards of one suit, ace low, R2.2).
* **lay-off** -- cards added to any player's meld on the table, which must stay
  valid (R3.3); melds on the table are never rearranged (R2.3).
* **deadwood** -- cards left in a hand that belong to no meld; they are the
  **penalty** a loser adds to their total (R6).
* **going out** -- emptying one's hand, which ends the hand at once (R4.1);
  **going rummy** -- doing it in one turn with nothing placed before (R4.2, A-R5).
* **joker** -- a wild card (house rule "Jokers") that *stands for* one natural
  card, fixed once melded (A-R8); at the end of a run it takes its written
  place (A-R12).
* **table-only log** -- a hand where only melds and lay-offs are entered; with
  ``turns`` the draws and discards are logged too and the referee knows whose
  turn it is, how many cards each player holds and what lies on the pile.

Ledger kinds (every score is a :class:`~rulesets.protocol.LedgerEntry`):

* ``penalty`` -- a loser's cards held at the hand end (R6.2; R5.2 when nobody
  went out); ``cards`` are those cards.
* ``typed`` -- a loser's total typed in instead of cards (R6.2).
* ``going_rummy`` -- the doubling of a going-rummy hand (R7, A-R6), one entry
  per loser, next to the entry it doubles.
* ``collect`` -- "Winner takes all": the winner's entry per loser (``other`` is
  the loser, ``cards`` the loser's cards) (R7).
* ``cash`` -- "Cash": each hand settled on its own, each loser paying the
  winner their penalty (a pair of entries, ``other`` the counterpart) (A-R13).

Modules: :mod:`.melds` (house rules, card values, sets and runs),
:mod:`.actions` (the recorded actions), :mod:`.game` (:class:`RummyGame`, the
live referee), :mod:`.summary` (typed results), :mod:`.suggest` (exact
melding advice), :mod:`.simulate` (random legal games), :mod:`.ruleset`
(:data:`RULESET`).

>>> from rulesets.cards import parse_cards
>>> RULESET.check(parse_cards("QH KH AH")).legal
False
>>> RULESET.score(parse_cards("KS 7D AC")).points
18
"""

from __future__ import annotations

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
from rulesets.rummy.melds import (
    DEAL_SIZES,
    JOKERS_IN_PACK,
    MeldShape,
    RummyRules,
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
