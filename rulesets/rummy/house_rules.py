"""Rummy's house rules: each switch with its name and explanation, said once.

The defaults are the seed rules (R1-R6); each switch is one variant of them.
The four switches the meld rules name in their refusals are declared in
:mod:`.melds` (which imports no pydantic) and annotate their fields here.

>>> RummyRules().target, RummyRules(ace_high_or_low=True).ace_high_or_low
(100, True)
>>> RummyRules.title_of("must_discard_to_go_out")
'Discard to go out'
>>> sorted(RummyRules.EXPLAIN) == sorted(RummyRules.TITLES) == sorted(RummyRules.model_fields)
True
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import ValidationError, model_validator

from rulesets.errors import HouseRuleError
from rulesets.protocol import HouseRulesBase
from rulesets.rummy.melds import ACE_HIGH_OR_LOW, JOKERS, MUST_DISCARD_TO_GO_OUT, ROUND_THE_CORNER
from rulesets.switches import Switch

__all__ = ["DEFAULT_RULES", "RummyRules", "coerce_rules", "house_rule"]


class RummyRules(HouseRulesBase):
    """House rules for basic Rummy; the defaults are the seed rules (R1-R6)."""

    fixed_rounds: Annotated[
        int | None,
        Switch(
            "Fixed number of hands",
            "Play this many hands instead of to a target; the best total wins.",
        ),
    ] = None
    multi_meld: Annotated[
        bool,
        Switch("Several melds a turn", "Any number of melds per turn (standard: at most one)."),
    ] = False
    going_rummy_double: Annotated[
        bool,
        Switch(
            "Going rummy doubles", "Going rummy doubles the hand's score (each loser's penalty ×2)."
        ),
    ] = False
    meld_before_layoff: Annotated[
        bool,
        Switch(
            "Meld before laying off", "You may lay off only after putting down a meld of your own."
        ),
    ] = False
    ace_high_or_low: Annotated[bool, ACE_HIGH_OR_LOW] = False
    round_the_corner: Annotated[bool, ROUND_THE_CORNER] = False
    jokers: Annotated[bool, JOKERS] = False
    joker_swap: Annotated[
        bool,
        Switch("Joker swap", "Swap the natural card a melded joker stands for and take the joker."),
    ] = False
    must_discard_to_go_out: Annotated[bool, MUST_DISCARD_TO_GO_OUT] = False
    winner_takes_all: Annotated[
        bool,
        Switch(
            "Winner takes all",
            "Only the winner scores, the losers' total; first to the target wins.",
        ),
    ] = False
    cash: Annotated[
        bool,
        Switch(
            "Cash", "Fixed hands; each hand's winner collects every loser's penalty (for money)."
        ),
    ] = False
    target: Annotated[
        int,
        Switch("Target", "The game ends when a total reaches this score (default 100)."),
    ] = 100
    no_shuffle: Annotated[
        bool,
        Switch("No shuffle", "When the stock runs out, turn the discard pile over as it lies."),
    ] = False
    max_reshuffles: Annotated[
        int | None,
        Switch("Limited reshuffles", "The discard pile may be reused this many times in one hand."),
    ] = None
    block_rummy: Annotated[
        bool,
        Switch(
            "Block rummy",
            "The pile is never reused: an empty stock ends the hand, everyone scores.",
        ),
    ] = False
    winner_deals: Annotated[
        bool,
        Switch(
            "Winner deals", "The winner of a hand deals the next one (standard: pass clockwise)."
        ),
    ] = False

    @model_validator(mode="after")
    def _consistent(self) -> RummyRules:
        if self.target < 1:
            raise ValueError("target must be at least 1")
        if self.fixed_rounds is not None and self.fixed_rounds < 1:
            raise ValueError("fixed_rounds must be at least 1")
        if self.max_reshuffles is not None and self.max_reshuffles < 0:
            raise ValueError("max_reshuffles must be 0 or more")
        if self.round_the_corner and not self.ace_high_or_low:
            raise ValueError(
                "round_the_corner needs ace_high_or_low: “Round the corner” (K-A-2) joins"
                " a run only where the ace is high or low, so turn on “Ace high or low”"
                " too (A-R17)"
            )
        if self.joker_swap and not self.jokers:
            raise ValueError("joker_swap needs jokers: “Joker swap” swaps melded jokers")
        if self.cash and self.fixed_rounds is None:
            raise ValueError(
                "cash is played over fixed_rounds=n: “Cash” settles a fixed number of hands"
            )
        return self


#: the seed rules, shared (house rules are frozen).
DEFAULT_RULES: Final = RummyRules()


def coerce_rules(rules: HouseRulesBase | dict[str, Any] | None) -> RummyRules:
    """Rummy house rules from a model or its JSON (:class:`HouseRuleError` if they are not)."""
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, RummyRules):
        return rules
    data = rules.model_dump() if isinstance(rules, HouseRulesBase) else rules
    try:
        return RummyRules.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = str(first["msg"]).removeprefix("Value error, ")
        where = f"{where}: " if where else ""
        raise HouseRuleError(f"{data!r}: bad Rummy house rules: {where}{msg}") from None


def house_rule(name: str) -> str:
    """A switch as a player reads it: ``the house rule “Ace high or low”``."""
    return f"the house rule “{RummyRules.title_of(name)}”"
