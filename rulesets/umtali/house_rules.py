"""Umtali's house rules: each switch with its name and explanation, said once.

The defaults are RULES.md; each switch is one [REC] variant of it (the rule it
changes is in RULES.md, not in the words players read).

>>> UmtaliRules().marriage_extendable
False
>>> UmtaliRules.title_of("loose_pair")
'Any two cards as the going-out pair'
>>> sorted(UmtaliRules.EXPLAIN) == sorted(UmtaliRules.TITLES) == sorted(UmtaliRules.model_fields)
True
"""

from __future__ import annotations

from typing import Annotated

from rulesets.protocol import HouseRulesBase
from rulesets.switches import Switch

__all__ = ["UmtaliRules"]


class UmtaliRules(HouseRulesBase):
    """House rules for Umtali; the defaults are RULES.md, each [REC] is a switch."""

    jack_extends_any_suit: Annotated[
        bool,
        Switch(
            "Jacks take a 10 or Q of any suit",
            "A jack on the table takes the 10 or queen of any suit, not only of its own.",
        ),
    ] = False
    marriage_extendable: Annotated[
        bool,
        Switch(
            "Marriages can be extended",
            "A marriage takes what its king and queen would take alone: another king or "
            "queen, or the jack of its suit.",
        ),
    ] = False
    compulsory_melding: Annotated[
        bool,
        Switch(
            "Melding is compulsory",
            "Before discarding, a player must put down what they can: a jack, an extension "
            "or a meld; the cards left after the final turn may hold none.",
        ),
    ] = False
    discard_dig: Annotated[
        bool,
        Switch(
            "Dig into the discard pile",
            "Take any card of the discard pile with everything above it; the card dug for "
            "must be melded.",
        ),
    ] = False
    deal_eleven_ten: Annotated[
        bool,
        Switch(
            "Deal 11 and 10, no upcard",
            "Deal 11 cards and 10 with no upcard; the player with 11 starts without drawing.",
        ),
    ] = False
    winner_deals: Annotated[
        bool,
        Switch(
            "Hand winner deals",
            "Whoever scored more in a hand deals the next one; on equal scores the deal "
            "alternates.",
        ),
    ] = False
    empty_stock_reshuffle: Annotated[
        bool,
        Switch(
            "Reshuffle an empty stock",
            "When the stock runs out, the discard pile is shuffled into a new stock instead "
            "of ending the hand.",
        ),
    ] = False
    no_rediscard: Annotated[
        bool,
        Switch(
            "No discarding a card just taken",
            "A card taken from the discard pile may not be discarded in the same turn.",
        ),
    ] = True
    no_breaking: Annotated[
        bool,
        Switch(
            "No breaking melds into singles",
            "A card that makes a set, sequence or marriage with cards still in the hand may "
            "not go down alone or in the going-out pair.",
        ),
    ] = True
    loose_pair: Annotated[
        bool,
        Switch(
            "Any two cards as the going-out pair",
            "The two cards put down when going out may be any two, not only a pair.",
        ),
    ] = False
    fifth_hand_on_tie: Annotated[
        bool,
        Switch(
            "Fifth hand on a tie",
            "Equal totals after 4 hands are settled by a 5th hand.",
        ),
    ] = False
