"""The tests' shorthand for action fields: card text, seats for players.

The tests build every action from its model (``Meld(player=..., cards=...)``) and
hand it to the :class:`~rulesets.protocol.Game` protocol; these helpers turn
``"5H 6H"``, Cards or a seat number into the fields' values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rulesets.cards import Card, parse_card, parse_cards
from rulesets.umtali import UmtaliGame

__all__ = ["anchor_of", "card_of", "cards_of", "player_of"]


def cards_of(cards: str | Card | Iterable[str | Card]) -> tuple[str, ...]:
    """Cards as an action's field holds them: ``"5H 6H"`` or Cards -> ``("5H", "6H")``."""
    return tuple(str(c) for c in parse_cards(cards))


def card_of(card: str | Card | None) -> Any:
    """One card as an action's field holds it (None stays None)."""
    return None if card is None else str(parse_card(card))


def player_of(g: UmtaliGame, player: str | int | None) -> Any:
    """A player's name from their name or seat number (None stays None)."""
    return g.players[player] if isinstance(player, int) else player


def anchor_of(g: UmtaliGame, ref: Sequence[Any]) -> tuple[str, int]:
    side, index = ref
    return (player_of(g, side), index)
