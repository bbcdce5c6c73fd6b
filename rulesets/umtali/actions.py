"""Recorded Umtali actions: what a real table sees, as JSON-serialisable pydantic models.

A hand is a list of these; replaying them rebuilds the table and the scores.
Only public information is required: what went down, on which side, against
which anchor, who went out and the leftover cards.  Draws, taken discards and
discards are optional (record them when the table reports them, and the
referee checks U4.2, U4.3 and U8.2 as well).

>>> a = parse_action({"type": "extend", "player": "Ann", "card": "8H", "anchor": ["Bob", 0]})
>>> a.anchor
('Bob', 0)
>>> a.model_dump(mode="json")["anchor"]
['Bob', 0]

Each action words itself for a "who did what" line (``words()``), cards as
people write them:

>>> a.words()
"Ann play 8♥ on Bob's meld 1"
>>> GoOut(player="Bob", pair=("4C", "4D"), discard="2C", face_down=True).words()
'Bob go out with the pair 4♣ 4♦, discard 2♣ face down'
>>> StartHand(dealer="Ann").words(), Leftovers(player="Ann").words()
('new hand, Ann deals', "Ann's leftovers: none")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from rulesets.protocol import Action, Cards, OneCard, read_action
from rulesets.words import ordinal_meld

__all__ = [
    "ACTION_TYPES",
    "Action",
    "Discard",
    "Draw",
    "EndHandEmptyStock",
    "Extend",
    "GoOut",
    "Leftovers",
    "Meld",
    "StartHand",
    "TakeDiscards",
    "UmtaliAction",
    "parse_action",
]


class StartHand(Action):
    """A new hand is dealt; ``dealer`` None means the expected dealer (U2.2-U2.3).

    With ``deal_eleven_ten`` the 11-card player's opening turn has no draw; record
    its discard so the app knows where that turn ends.
    """

    type: Literal["start_hand"] = "start_hand"
    dealer: str | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"new hand, {self.dealer} deals" if self.dealer else "new hand"


class Draw(Action):
    """Optional: ``player`` drew the top card of the stock (U4.1)."""

    type: Literal["draw"] = "draw"
    player: str

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{self.player} {'drew' if past else 'draw'} from the stock"


class TakeDiscards(Action):
    """Optional: ``player`` took ``cards`` from the discard pile, top card first (U4.1-U4.2).

    The app tells turns apart by recorded discards and draws and by the other
    player acting; a table that records a take should also record that turn's
    discard, so that U4.2/U4.3 are judged on the right turn.
    """

    type: Literal["take_discards"] = "take_discards"
    player: str
    cards: Cards

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{self.player} {'took' if past else 'take'} {self._said('cards')} from the discards"


class Meld(Action):
    """``player`` put down a set, sequence, marriage or a jack on their own side (U5)."""

    type: Literal["meld"] = "meld"
    player: str
    cards: Cards

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{self.player} {'melded' if past else 'meld'} {self._said('cards')}"


class Extend(Action):
    """``player`` played ``card`` against meld ``anchor`` = (side's player, meld index) (U6)."""

    type: Literal["extend"] = "extend"
    player: str
    card: OneCard
    anchor: tuple[str, int]

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        side, index = self.anchor
        verb = "played" if past else "play"
        return f"{self.player} {verb} {self._said('card')} on {side}'s {ordinal_meld(index)}"


class Discard(Action):
    """Optional: ``player`` discarded ``card`` face up, ending the turn (U4.5, U8.4)."""

    type: Literal["discard"] = "discard"
    player: str
    card: OneCard

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{self.player} {'discarded' if past else 'discard'} {self._said('card')}"


class GoOut(Action):
    """``player`` went out, with at most one ``pair`` and an optional (face-down) discard (U8.1)."""

    type: Literal["go_out"] = "go_out"
    player: str
    pair: Cards = ()
    discard: OneCard | None = None
    face_down: bool = False

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        said = f"{self.player} {'went' if past else 'go'} out"
        if self.pair:
            said += f" with the pair {self._said('pair')}"
        if self.discard is not None:
            said += f", {'discarded' if past else 'discard'} {self._said('discard')}"
            said += " face down" if self.face_down else ""
        return said


class Leftovers(Action):
    """The opponent's cards left after the final turn, moved to the going-out side (U8.4)."""

    type: Literal["leftovers"] = "leftovers"
    player: str
    cards: Cards = ()

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return (
            f"{self.player}'s leftovers {self._said('cards')}"
            if self.cards
            else (f"{self.player}'s leftovers: none")
        )


class EndHandEmptyStock(Action):
    """The stock ran out and the hand ended with nobody out (U4.6)."""

    type: Literal["end_hand_empty_stock"] = "end_hand_empty_stock"

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return "the stock ran out: the hand ends"


#: any recorded Umtali action: a discriminated union on ``type``.
UmtaliAction = Annotated[
    StartHand
    | Draw
    | TakeDiscards
    | Meld
    | Extend
    | Discard
    | GoOut
    | Leftovers
    | EndHandEmptyStock,
    Field(discriminator="type"),
]

#: the concrete action classes (``isinstance`` checks).
ACTION_TYPES: Final = (
    StartHand,
    Draw,
    TakeDiscards,
    Meld,
    Extend,
    Discard,
    GoOut,
    Leftovers,
    EndHandEmptyStock,
)

_ADAPTER: TypeAdapter[UmtaliAction] = TypeAdapter(UmtaliAction, config=ConfigDict(defer_build=True))


def parse_action(data: Any) -> UmtaliAction:
    """Read one recorded action (a dict from JSON), raising :class:`RecordError` if malformed.

    >>> parse_action({"type": "meld", "player": "Ann", "cards": ["5H", "6H", "7H"]}).cards
    (Card('5H'), Card('6H'), Card('7H'))
    >>> parse_action({"type": "fly"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesets.errors.RecordError: {'type': 'fly'}: not an Umtali action: ...
    """
    return read_action(data, _ADAPTER, ACTION_TYPES, "an Umtali action")
