"""Rummy's recorded actions: frozen pydantic models, a discriminated union on ``type``.

Their JSON is what a record stores (and what every stored game holds), so the
field names and shapes are a public contract.

>>> a = parse_action({"type": "meld", "player": "Ann", "cards": ["7H", "7S", "7D"]})
>>> a.cards, parse_action(a.to_json()) == a
((Card('7H'), Card('7S'), Card('7D')), True)
>>> a.words(), LayOff(player="Bob", cards=("10H",), meld=0).words()
('Ann meld 7♥ 7♠ 7♦', 'Bob lay off 10♥ on meld 1')
>>> HandEnd(went_out="Ann", going_rummy=True, remaining={"Bob": ("KS", "2C")}).words()
'Ann go rummy; left: Bob K♠ 2♣'
>>> parse_action([1, 2])
Traceback (most recent call last):
...
rulesets.errors.RecordError: [1, 2]: not a Rummy action: action: \
Input should be a valid dictionary or object to extract fields from
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from rulesets.cards import Card
from rulesets.protocol import Action as BaseAction
from rulesets.protocol import Cards, OneCard, Summary, read_action
from rulesets.words import card_words, names_and, ordinal_meld

__all__ = [
    "Action",
    "Discard",
    "Draw",
    "HandEnd",
    "LayOff",
    "Meld",
    "RummyAction",
    "StartHand",
    "SwapJoker",
    "parse_action",
]

CardsIn = str | Card | Sequence[str | Card]


class StartHand(BaseAction):
    """A new hand is dealt.  ``dealer`` is checked against the rotation (R1.2)
    when given; ``turns=True`` means every draw and discard will be logged, so the
    referee also enforces the turn rules (R3, R4, R5).  ``upcard`` is the card
    turned face up to start the discard pile (R1.3), when named."""

    type: Literal["start_hand"] = "start_hand"
    dealer: str | None = None
    turns: bool = False
    upcard: OneCard | None = None

    def after_correction(self, before: Summary) -> StartHand:
        """A deal that names its dealer names whoever the rules now name (with
        "Winner deals", a corrected winner moves the deal, R1.2)."""
        if self.dealer is None or not before.dealer:
            return self
        return self.model_copy(update={"dealer": before.dealer})

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        said = f"new hand, {self.dealer} deals" if self.dealer else "new hand"
        return f"{said}, {self._said('upcard')} turned up" if self.upcard else said


class Draw(BaseAction):
    """The player draws from the stock or the discard pile (R3.1); ``card`` when named."""

    type: Literal["draw"] = "draw"
    player: str
    source: Literal["stock", "discard"] = "stock"
    card: OneCard | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        card = f" {self._said('card')}" if self.card else ""
        where = "the discard pile" if self.source == "discard" else "the stock"
        return f"{self.player} {'drew' if past else 'draw'}{card} from {where}"


class Meld(BaseAction):
    """The player puts a new meld on the table (R2, R3.2)."""

    type: Literal["meld"] = "meld"
    player: str
    cards: Cards
    kind: Literal["set", "run"] | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return f"{self.player} {'melded' if past else 'meld'} {self._said('cards')}"


class LayOff(BaseAction):
    """The player adds cards to meld number ``meld`` (0-based, table order) (R3.3)."""

    type: Literal["lay_off"] = "lay_off"
    player: str
    cards: Cards
    meld: int

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        verb = "laid off" if past else "lay off"
        return f"{self.player} {verb} {self._said('cards')} on {ordinal_meld(self.meld)}"


class SwapJoker(BaseAction):
    """The player puts ``card`` in place of a joker in meld ``meld`` and takes the
    joker (variant ``joker_swap``, R7)."""

    type: Literal["swap_joker"] = "swap_joker"
    player: str
    meld: int
    card: OneCard

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        where = ordinal_meld(self.meld)
        verb = "swapped" if past else "swap"
        return f"{self.player} {verb} {self._said('card')} for the joker in {where}"


class Discard(BaseAction):
    """The player discards one card, ending the turn (R3.4); ``card`` when named."""

    type: Literal["discard"] = "discard"
    player: str
    card: OneCard | None = None

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        return (
            f"{self.player} {'discarded' if past else 'discard'} {self._said('card')}"
            if self.card
            else (f"{self.player} {'discarded' if past else 'discard'}")
        )


class HandEnd(BaseAction):
    """How the hand ended.

    ``went_out`` is the player who emptied their hand, or ``None`` when the stock
    ran out with no winner (``block_rummy``: everyone scores).  For every other
    player give either ``remaining`` cards (the referee counts them) or a
    ``typed`` total (when they won't show their cards; marked as typed).
    ``going_rummy`` may be left ``None`` when turns were logged: the referee
    works it out (R4.2).
    """

    type: Literal["hand_end"] = "hand_end"
    went_out: str | None
    going_rummy: bool | None = None
    remaining: dict[str, Cards] = {}
    typed: dict[str, int] = {}

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        if self.went_out is None:
            said = "the stock ran out: the hand ends with no winner"
        else:
            how = "rummy" if self.going_rummy else "out"
            said = f"{self.went_out} {'went' if past else 'go'} {how}"
        held = [f"{p} {card_words(c) or 'no cards'}" for p, c in self.remaining.items()]
        held += [f"{p} counted {n}" for p, n in self.typed.items()]
        return f"{said}; left: {names_and(held)}" if held else said


RummyAction = StartHand | Draw | Meld | LayOff | SwapJoker | Discard | HandEnd
#: any Rummy action, told apart by ``type``.
Action = Annotated[RummyAction, Field(discriminator="type")]
_ADAPTER: Final[TypeAdapter[RummyAction]] = TypeAdapter(Action, config=ConfigDict(defer_build=True))


def parse_action(data: Any) -> RummyAction:
    """An action from its JSON form (or the model itself), or :class:`RecordError`.

    >>> parse_action({"type": "draw", "player": "Bob"}).source
    'stock'
    """
    return read_action(
        data,
        _ADAPTER,
        (StartHand, Draw, Meld, LayOff, SwapJoker, Discard, HandEnd),
        "a Rummy action",
    )
