"""Recorded Rummoli actions: what the table reports, as frozen JSON-able models.

A player is named in an action by **name** (``"player": "Ann"``) -- what the
app writes now -- or by **seat number** (``"player": 0``, 0-based clockwise in
the record's player list) -- what games recorded before names were used hold.
Both replay; an action keeps what it was given, so stored JSON round-trips
exactly.  Lists that have one entry per player (``chips``, ``held``,
``hands``) stay lists in seating order.

>>> parse_action({"type": "lay", "player": 1, "card": "5H"})
Lay(type='lay', player=1, card='5H')
>>> parse_action({"type": "lay", "player": "Bob", "card": "5H"}).to_json()
{'type': 'lay', 'player': 'Bob', 'card': '5H'}
>>> parse_action({"type": "shuffle"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rulesets.errors.RecordError: {'type': 'shuffle'}: not a Rummoli action: ...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from rulesets.errors import RecordError
from rulesets.protocol import Action

__all__ = [
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
    "Who",
    "Widow",
    "parse_action",
]

#: a player: their name, or their seat number in records made before names were used.
Who = StrictInt | StrictStr
Chips = Annotated[int, Field(ge=0)]


class Start(Action):
    """Starting stacks (one per seat, in seating order) and the first dealer (M1.1)."""

    type: Literal["start"] = "start"
    chips: list[Chips]
    dealer: Who = 0


class Adjust(Action):
    """Chips the table adds to (a buy-in) or removes from a stack between rounds."""

    type: Literal["adjust"] = "adjust"
    player: Who
    chips: int
    note: str = ""


class Deal(Action):
    """A new round: everyone still in antes 9 (M1.3); the cards are dealt (M2.1)."""

    type: Literal["deal"] = "deal"


class Widow(Action):
    """Who took the widow: the dealer (free swap, M2.2), a bidder (M2.3), or nobody.

    ``hand`` (optional) is the hand given up; when known the referee checks M2.4.
    """

    type: Literal["widow"] = "widow"
    player: Who | None = None
    bid: Chips = 0
    hand: list[str] | None = None


class Bet(Action):
    """Chips a player puts in the pot being played for (M4.2)."""

    type: Literal["bet"] = "bet"
    player: Who
    chips: Annotated[int, Field(ge=1)]


class Fold(Action):
    """A player drops out of the poker being played (M4.2); they still lay cards (M4.3)."""

    type: Literal["fold"] = "fold"
    player: Who


class Poker(Action):
    """The showdown of a round (M4.3): ``winners`` and/or ``hands``.

    ``hands`` is one entry per seat (``None`` for folded or out players); each
    is five cards or the whole hand (best five, M4.1).  With only ``hands`` the
    referee judges; with both they must agree; with neither only one player
    may be left in.
    """

    type: Literal["poker"] = "poker"
    winners: list[Who] | None = None
    hands: list[list[str] | None] | None = None


class FinalPoker(Action):
    """One final poker (M7.2): all board chips, or the next pot (``per_pot``)."""

    type: Literal["final_poker"] = "final_poker"
    winners: list[Who] | None = None
    hands: list[list[str] | None] | None = None


class Lay(Action):
    """One card laid in the Rummoli phase, and by whom (M5)."""

    type: Literal["lay"] = "lay"
    player: Who
    card: str


class Claim(Action):
    """A pay-card pot won by a player (quick settlement, or claim=strict, M5.6)."""

    type: Literal["claim"] = "claim"
    player: Who
    pot: str


class Out(Action):
    """Quick settlement: ``player`` went out first; ``held`` = cards per seat (M6.1)."""

    type: Literal["out"] = "out"
    player: Who
    held: list[Chips]


class Impasse(Action):
    """Nobody can lay the required colour (M5.7); ``held`` needed in quick mode."""

    type: Literal["impasse"] = "impasse"
    held: list[Chips] | None = None


class End(Action):
    """The table ends the game (M7.1); the final poker follows (M7.2)."""

    type: Literal["end"] = "end"


RummoliAction = Annotated[
    Start
    | Adjust
    | Deal
    | Widow
    | Bet
    | Fold
    | Poker
    | FinalPoker
    | Lay
    | Claim
    | Out
    | Impasse
    | End,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[RummoliAction] = TypeAdapter(
    RummoliAction, config=ConfigDict(defer_build=True)
)
_TYPES = (Start, Adjust, Deal, Widow, Bet, Fold, Poker, FinalPoker, Lay, Claim, Out, Impasse, End)


def parse_action(data: Any) -> RummoliAction:
    """An action model from a model or its JSON dict (raises :class:`RecordError`)."""
    if isinstance(data, _TYPES):
        return data
    if isinstance(data, Action):
        data = data.to_json()
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise RecordError(
            f"{data!r}: not a Rummoli action: {where}: {first['msg']}"[:300]
        ) from None
