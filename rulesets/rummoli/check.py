"""Rummoli's check of a hand without a table (``companion check rummoli``): may it
swap for or bid on the widow (M2.2-M2.4)?

Plain Python over :mod:`rulesets.rummoli.board` returning a
:class:`~rulesets.judgement.Judgement`; nothing here imports pydantic, so a
script's check pays only for the board (``benchmarks/cli_start.py``).

>>> from rulesets.cards import parse_cards
>>> check(parse_cards("2C 5H JD")).reason
'holds the pay card(s) JD, so may not take the widow'
>>> check(parse_cards("2C 5H JD"), rules=PlainBoardRules(widow_needs_no_pay_card=False)).legal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rulesets.cards import Card, parse_cards
from rulesets.judgement import Judgement
from rulesets.rummoli.board import (
    RULES_MD,
    WIDOW_NEEDS_NO_PAY_CARD,
    BoardRules,
    PlainBoardRules,
    pay_cards_in,
)

if TYPE_CHECKING:
    from rulesets.rummoli.house_rules import RummoliRules

__all__ = ["PACK_RULE", "house_rules", "PlainBoardRules", "check"]

#: one pack, no jokers: a card listed twice breaks it.
PACK_RULE: Final = "M1.1"


def check(
    cards: Sequence[Card],
    *,
    onto: Sequence[Card] | None = None,
    going_out: bool = False,
    hand: Sequence[Card] | None = None,
    rules: BoardRules | None = None,
) -> Judgement:
    """May a player holding ``cards`` swap for or bid on the widow? (M2.2-M2.4)

    ``cards`` is the whole hand; the answer is legal when it holds no pay card
    (or when the table lets any hand take the widow).  ``onto``, ``going_out``
    and ``hand`` do not apply to Rummoli.  ``rules`` are the house rules (default:
    RULES.md's, :data:`~.board.RULES_MD`).
    """
    r = rules or RULES_MD
    found = pay_cards_in(parse_cards(list(cards)), r)
    notes = ("onto/going_out/hand are not used by Rummoli",) if (onto or going_out or hand) else ()
    if not found:
        reason = "no pay card: may swap for or bid on the widow"
        return Judgement(legal=True, kind="widow", rule="M2.4", reason=reason, notes=notes)
    if not r.widow_needs_no_pay_card:
        reason = (
            f"holds pay card(s) {', '.join(found)}, allowed by house rule "
            f"({WIDOW_NEEDS_NO_PAY_CARD.title}: off)"
        )
        legal = True
    else:
        reason = f"holds the pay card(s) {', '.join(found)}, so may not take the widow"
        legal = False
    return Judgement(
        legal=legal, kind="widow", rule="M2.4", cards=tuple(found), reason=reason, notes=notes
    )


def house_rules() -> type[RummoliRules]:
    """The game's house-rules model (pydantic), imported only when it is asked for:
    ``companion check --rules`` reads and checks the switches with it."""
    from rulesets.rummoli.house_rules import RummoliRules

    return RummoliRules
