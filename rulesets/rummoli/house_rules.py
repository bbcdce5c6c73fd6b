"""Rummoli's house rules: each switch with its name and explanation, said once.

The defaults are RULES.md's; each switch is one variant of them.

>>> RummoliRules().claim, RummoliRules.title_of("pass_fine")
('auto', 'Fine for passing')
>>> sorted(RummoliRules.EXPLAIN) == sorted(RummoliRules.TITLES) == sorted(RummoliRules.model_fields)
True
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationError

from rulesets.errors import HouseRuleError
from rulesets.protocol import HouseRulesBase
from rulesets.rummoli.board import WIDOW_NEEDS_NO_PAY_CARD
from rulesets.switches import Switch

__all__ = ["RummoliRules", "as_rules"]


class RummoliRules(HouseRulesBase):
    """House rules for Rummoli (defaults are RULES.md's)."""

    claim: Annotated[
        Literal["auto", "strict"],
        Switch(
            "Claiming pots",
            "Auto: pay-card pots pay at once; strict: claim before the next card",
        ),
    ] = "auto"
    pass_fine: Annotated[
        bool,
        Switch(
            "Fine for passing",
            "a player who cannot start after a break pays 1 chip to the centre",
        ),
    ] = False
    poker_betting: Annotated[
        Literal["one_round", "showdown"],
        Switch(
            "Poker betting",
            "One round: one betting round with a limit; showdown: no betting",
        ),
    ] = "one_round"
    bet_limit: Annotated[
        int,
        Switch("Bet limit", "largest bet or raise in the poker betting round"),
    ] = Field(default=5, ge=1)
    final_poker: Annotated[
        Literal["single", "per_pot"],
        Switch("Final poker", "Single: one final poker for the whole board; per pot: one each"),
    ] = "single"
    widow_needs_no_pay_card: Annotated[bool, WIDOW_NEEDS_NO_PAY_CARD] = True
    board: Annotated[
        Literal["seven_eight_nine", "eight_nine_ten"],
        Switch(
            "Run pot on the board",
            "which run pot the board has: 7-8-9 (standard) or 8-9-10 (regional)",
        ),
    ] = "seven_eight_nine"

    VALUE_TITLES: ClassVar[dict[str, str]] = {
        "auto": "Automatic",
        "strict": "Claim before the next card",
        "one_round": "One betting round",
        "showdown": "Showdown only",
        "single": "One for the whole board",
        "per_pot": "One per pot",
        "seven_eight_nine": "7-8-9",
        "eight_nine_ten": "8-9-10",
    }

    def setting(self, name: str) -> str:
        """A switch and its value in words: ``Claiming pots: Automatic``.

        >>> RummoliRules(poker_betting="showdown").setting("poker_betting")
        'Poker betting: Showdown only'
        >>> RummoliRules().setting("pass_fine")
        'Fine for passing: off'
        """
        return f"{self.title_of(name)}: {self.value_title(getattr(self, name))}"


def as_rules(rules: HouseRulesBase | dict[str, object] | None) -> RummoliRules:
    """Rummoli house rules from a model, a dict of switches or nothing (the defaults).

    >>> try:
    ...     as_rules({"claim": "sometimes"})
    ... except HouseRuleError as exc:
    ...     print(exc)
    Claiming pots: 'sometimes' is not allowed (Input should be 'auto' or 'strict')
    """
    if rules is None:
        return RummoliRules()
    if isinstance(rules, RummoliRules):
        return rules
    if isinstance(rules, dict):
        try:
            return RummoliRules.model_validate(rules)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = ".".join(str(p) for p in first["loc"])
            what = RummoliRules.title_of(name) if name in RummoliRules.model_fields else name
            raise HouseRuleError(
                f"{what or 'house rules'}: {first.get('input')!r} is not allowed ({first['msg']})"
            ) from None
    raise HouseRuleError(f"{type(rules).__name__}: not Rummoli house rules")
