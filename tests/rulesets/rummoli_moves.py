"""Short-hand for Rummoli tests: a card laid is ``g.push(Lay(player=..., card=...))``
through the protocol; these only spare a test the model boiler-plate."""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import Card
from rulesets.rummoli import Lay, RummoliGame
from rulesets.rummoli.actions import RummoliAction


def lay(
    g: RummoliGame, player: int | str, card: str | Card, *, hand: Sequence[Card] | None = None
) -> RummoliAction:
    return g.push(Lay(player=player, card=str(card)), hand=hand)


def can_lay(
    g: RummoliGame, player: int | str, card: str | Card, *, hand: Sequence[Card] | None = None
) -> bool:
    return g.can(Lay(player=player, card=str(card)), hand=hand)


def verify_lay(
    g: RummoliGame, player: int | str, card: str | Card, *, hand: Sequence[Card] | None = None
) -> None:
    g.verify(Lay(player=player, card=str(card)), hand=hand)
