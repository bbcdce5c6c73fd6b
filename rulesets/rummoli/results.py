"""Typed results of a round's parts: the widow, the poker showdown, a final poker.

Each keeps the rule that decided it, and ``to_json`` gives the shape that
``companion replay --json`` has always printed (a public contract).

>>> PokerResult(winners=("Bob",), pot=3, share=3, carried=0, starter="Bob").to_json()
{'winners': ['Bob'], 'pot': 3, 'share': 3, 'carried': 0, 'starter': 'Bob'}
>>> WidowResult(taken_by="Cy", bid=2, dealer="Ann").to_json()
{'taken_by': 'Cy', 'bid': 2}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from rulesets.words import names_and, plural

__all__ = ["FinalResult", "PokerResult", "ShownHand", "WidowResult"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class ShownHand(_Frozen):
    """A hand shown at a showdown: its poker name and best five (M4.1)."""

    name: str
    best: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "best": list(self.best)}


def _hands_json(hands: dict[str, ShownHand] | None) -> dict[str, Any]:
    if hands is None:
        return {}
    return {"hands": {p: h.to_json() for p, h in hands.items()}}


class WidowResult(_Frozen):
    """Who took the widow (M2.2 dealer's swap, M2.3 auction), or nobody."""

    taken_by: str | None = None
    bid: int = 0
    dealer: str | None = None

    @property
    def rule(self) -> str:
        return "M2.2" if self.taken_by is not None and self.taken_by == self.dealer else "M2.3"

    @property
    def words(self) -> str:
        """What happened, in a sentence.

        >>> WidowResult(taken_by="Cy", bid=2, dealer="Ann").words
        'Cy took the widow for 2 chips, paid to Ann.'
        """
        if self.taken_by is None:
            return "Nobody took the widow: it stays dead."
        paid = f" for {plural(self.bid, 'chip')}, paid to {self.dealer}" if self.bid else ""
        return f"{self.taken_by} took the widow{paid}."

    def to_json(self) -> dict[str, Any]:
        if self.taken_by is None:
            return {"taken_by": None}
        return {"taken_by": self.taken_by, "bid": self.bid}


class PokerResult(_Frozen):
    """A round's poker showdown: who won, the pot and how it split (M4.3, M4.4)."""

    hands: dict[str, ShownHand] | None = None
    winners: tuple[str, ...]
    pot: int
    share: int
    carried: int
    starter: str

    @property
    def rule(self) -> str:
        return "M4.3" if len(self.winners) == 1 else "M4.4"

    @property
    def words(self) -> str:
        """Who won what, and who starts the Rummoli phase.

        >>> r = PokerResult(winners=("Bob", "Cy"), pot=7, share=3, carried=1, starter="Bob")
        >>> first, then = r.words.split(". ")
        >>> first
        'Bob and Cy tie and split 7: 3 each, 1 chip left in the Poker pot'
        >>> then
        'Bob starts the Rummoli phase.'
        """
        if len(self.winners) == 1:
            text = f"{self.winners[0]} wins the Poker pot: {plural(self.pot, 'chip')}."
        else:
            text = (
                f"{names_and(self.winners)} tie and split {self.pot}: {self.share} each, "
                f"{plural(self.carried, 'chip')} left in the Poker pot."
            )
        return f"{text} {self.starter} starts the Rummoli phase."

    def to_json(self) -> dict[str, Any]:
        return {
            **_hands_json(self.hands),
            "winners": list(self.winners),
            "pot": self.pot,
            "share": self.share,
            "carried": self.carried,
            "starter": self.starter,
        }


class FinalResult(_Frozen):
    """One final poker (M7.2): the pot played for, the winners, shares and odd chips.

    ``pot`` is ``"final"`` for the whole board, else the pot's name (per pot);
    ``dealer`` dealt it (A-M18): the odd chips went to the tied winner nearest
    their left, the first of ``winners``.
    """

    hands: dict[str, ShownHand] | None = None
    winners: tuple[str, ...]
    pot: str
    label: str
    chips: int
    share: int
    odd: int
    dealer: str
    rule: str = "M7.2"

    @property
    def words(self) -> str:
        """Who won the pot played for, and how it split.

        >>> FinalResult(winners=("Ann", "Bob"), pot="final", label="the board", chips=35,
        ...             share=17, odd=1, dealer="Cy").words
        'Ann and Bob split the board (35): 17 each, Ann takes the odd 1.'
        """
        if len(self.winners) == 1:
            return f"{self.winners[0]} wins {self.label}: {plural(self.chips, 'chip')}."
        odd = f", {self.winners[0]} takes the odd {self.odd}" if self.odd else ""
        return (
            f"{names_and(self.winners)} split {self.label} ({self.chips}): {self.share} each{odd}."
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **_hands_json(self.hands),
            "winners": list(self.winners),
            "pot": self.pot,
            "chips": self.chips,
            "share": self.share,
            "odd": self.odd,
        }
