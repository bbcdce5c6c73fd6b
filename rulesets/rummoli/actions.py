"""Recorded Rummoli actions: what the table reports, as frozen JSON-able models.

A player is named in an action by **name** (``"player": "Ann"``) -- what the
app writes now -- or by **seat number** (``"player": 0``, 0-based clockwise in
the record's player list) -- what games recorded before names were used hold.
Both replay; an action keeps what it was given, so stored JSON round-trips
exactly.  Lists that have one entry per player (``chips``, ``held``,
``hands``) stay lists in seating order.

>>> parse_action({"type": "lay", "player": 1, "card": "5H"})
Lay(type='lay', player=1, card=Card('5H'))
>>> parse_action({"type": "lay", "player": "Bob", "card": "5H"}).to_json()
{'type': 'lay', 'player': 'Bob', 'card': '5H'}
>>> Lay(player=1, card="10S").words(["Ann", "Bob"]), Claim(player="Cy", pot="AD+KD").words()
('Bob lay 10♠', 'Cy collect the A♦+K♦ pot')
>>> Poker(winners=["Ann", "Bob"]).words(), Widow(player="Ann", bid=3).words()
('the poker: Ann and Bob split', 'Ann take the widow for 3 chips')
>>> parse_action({"type": "shuffle"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rulesets.errors.RecordError: {'type': 'shuffle'}: not a Rummoli action: ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from rulesets.protocol import Action, Cards, OneCard, read_action
from rulesets.rummoli.board import POT_LABELS
from rulesets.words import names_and, plural

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


def who_words(who: Who, players: Sequence[str] = ()) -> str:
    """A player by name; a seat number (an old record's) by the seating's name for it,
    or "seat 3" (counted from one) when the seating is not known.

    >>> who_words("Ann"), who_words(1, ["Ann", "Bob"]), who_words(2)
    ('Ann', 'Bob', 'seat 3')
    """
    if isinstance(who, str):
        return who
    return players[who] if 0 <= who < len(players) else f"seat {who + 1}"


def _showdown_words(
    what: str,
    winners: list[Who] | None,
    hands: list[Cards | None] | None,
    players: Sequence[str],
) -> str:
    if winners:
        named = names_and([who_words(w, players) for w in winners])
        return f"{what}: {named} {'wins' if len(winners) == 1 else 'split'}"
    shown = sum(1 for h in hands or () if h is not None)
    return f"{what}: {plural(shown, 'hand')} shown" if shown else what


class Start(Action):
    """Starting stacks (one per seat, in seating order) and the first dealer (M1.1)."""

    type: Literal["start"] = "start"
    chips: list[Chips]
    dealer: Who = 0

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"the game starts, {who_words(self.dealer, players)} deals first"


class Adjust(Action):
    """Chips the table adds to (a buy-in) or removes from a stack between rounds."""

    type: Literal["adjust"] = "adjust"
    player: Who
    chips: int
    note: str = ""

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        verb = (
            ("added" if past else "add")
            if self.chips >= 0
            else ("took" if past else "take") + " out"
        )
        return f"{who_words(self.player, players)} {verb} {plural(abs(self.chips), 'chip')}"


class Deal(Action):
    """A new round: everyone still in antes 9 (M1.3); the cards are dealt (M2.1)."""

    type: Literal["deal"] = "deal"

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return "new round: the cards are dealt, everyone antes"


class Widow(Action):
    """Who took the widow: the dealer (free swap, M2.2), a bidder (M2.3), or nobody.

    ``hand`` (optional) is the hand given up; when known the referee checks M2.4.
    """

    type: Literal["widow"] = "widow"
    player: Who | None = None
    bid: Chips = 0
    hand: Cards | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        if self.player is None:
            return "nobody took the widow" if past else "nobody takes the widow"
        said = f"{who_words(self.player, players)} {'took' if past else 'take'} the widow"
        return f"{said} for {plural(self.bid, 'chip')}" if self.bid else said


class Bet(Action):
    """Chips a player puts in the pot being played for (M4.2)."""

    type: Literal["bet"] = "bet"
    player: Who
    chips: Annotated[int, Field(ge=1)]

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{who_words(self.player, players)} bet {plural(self.chips, 'chip')}"


class Fold(Action):
    """A player drops out of the poker being played (M4.2); they still lay cards (M4.3)."""

    type: Literal["fold"] = "fold"
    player: Who

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{who_words(self.player, players)} {'folded' if past else 'fold'}"


class Poker(Action):
    """The showdown of a round (M4.3): ``winners`` and/or ``hands``.

    ``hands`` is one entry per seat (``None`` for folded or out players); each
    is five cards or the whole hand (best five, M4.1).  With only ``hands`` the
    referee judges; with both they must agree; with neither only one player
    may be left in.
    """

    type: Literal["poker"] = "poker"
    winners: list[Who] | None = None
    hands: list[Cards | None] | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return _showdown_words("the poker", self.winners, self.hands, players)


class FinalPoker(Action):
    """One final poker (M7.2): all board chips, or the next pot (``per_pot``)."""

    type: Literal["final_poker"] = "final_poker"
    winners: list[Who] | None = None
    hands: list[Cards | None] | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return _showdown_words("the final poker", self.winners, self.hands, players)


class Lay(Action):
    """One card laid in the Rummoli phase, and by whom (M5)."""

    type: Literal["lay"] = "lay"
    player: Who
    card: OneCard

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{who_words(self.player, players)} {'laid' if past else 'lay'} {self._said('card')}"


class Claim(Action):
    """A pay-card pot won by a player (quick settlement, or claim=strict, M5.6)."""

    type: Literal["claim"] = "claim"
    player: Who
    pot: str

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        pot = POT_LABELS.get(self.pot, self.pot)
        return (
            f"{who_words(self.player, players)} {'collected' if past else 'collect'} the {pot} pot"
        )


class Out(Action):
    """Quick settlement: ``player`` went out first; ``held`` = cards per seat (M6.1)."""

    type: Literal["out"] = "out"
    player: Who
    held: list[Chips]

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{who_words(self.player, players)} {'went' if past else 'go'} out first"


class Impasse(Action):
    """Nobody can lay the required colour (M5.7); ``held`` needed in quick mode."""

    type: Literal["impasse"] = "impasse"
    held: list[Chips] | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return "impasse: nobody can lay the next card"


class End(Action):
    """The table ends the game (M7.1); the final poker follows (M7.2)."""

    type: Literal["end"] = "end"

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return "the table ends the game"


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
    return read_action(data, _ADAPTER, _TYPES, "a Rummoli action")
