"""Poker judging for Rummoli's poker phase (M4) and final poker (M7.2).

Glossary: a *poker hand* is five cards; a player's *whole hand* may hold more
(up to 18 cards in a two-player Rummoli deal).  The *best five* is the strongest
five-card hand inside the whole hand; *strength* orders hands (higher wins) and
is pokerkit's ``StandardHighHand`` lookup index, so ties are exact.

The best five is found by an exact rank/suit analysis (one pass per category,
fast for 18 cards); pokerkit then names and ranks that five-card hand.
pokerkit is imported lazily so starting the app does not pay for its lookup
tables.

>>> j = judge(["AS KS QS JS 10S 2H", "9C 9D 9H 2S 2C 4H"], ["Ann", "Bob"])
>>> j.winner_names, j.hands[0].name, j.hands[1].name
(('Ann',), 'Royal flush', 'Full house, 9s over 2s')
>>> j.hands[1].best
('9C', '9D', '9H', '2S', '2C')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from rulesets.cards import Card, Rank, Suit, format_cards, parse_cards
from rulesets.errors import DuplicateCardError, IllegalActionError

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pokerkit import StandardHighHand

__all__ = [
    "CATEGORIES",
    "PokerHand",
    "PokerJudgement",
    "best_five",
    "evaluate",
    "judge",
    "split_pot",
]

#: hand categories, weakest first (pokerkit's label texts).
CATEGORIES = (
    "High card",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)

_PK_RANK = {
    Rank.TEN: "T",
}
_PLURAL = {14: "Aces", 13: "Kings", 12: "Queens", 11: "Jacks"}
_SINGLE = {14: "ace", 13: "king", 12: "queen", 11: "jack"}


def _plural(v: int) -> str:
    return _PLURAL.get(v, f"{v}s")


def _single(v: int) -> str:
    return _SINGLE.get(v, str(v))


def _pk_text(cards: Sequence[Card]) -> str:
    return "".join(f"{_PK_RANK.get(c.r, c.r.value)}{c.s.value.lower()}" for c in cards)


def _straight_top(values: set[int]) -> int | None:
    """Highest top card of a five-card straight in ``values`` (ace plays low too)."""
    vals = set(values)
    if 14 in vals:
        vals.add(1)
    for top in range(14, 4, -1):
        if all(v in vals for v in range(top - 4, top + 1)):
            return top
    return None


def _pick(cards: Sequence[Card], value: int, n: int, suit: Suit | None = None) -> list[Card]:
    out = [c for c in cards if c.r.high == value and (suit is None or c.s is suit)]
    return out[:n]


def best_five(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    """The strongest five cards among ``cards`` (5 or more), exactly.

    Ties between equal-strength choices are broken by the order of ``cards``.

    >>> format_cards(best_five("2H 3H 4H 5H AH KS KD KC"))
    '5H 4H 3H 2H AH'
    >>> format_cards(best_five("AS AD KS KD QS QD 2C"))
    'AS AD KS KD QS'
    """
    hand = _clean(cards)
    if len(hand) < 5:
        raise IllegalActionError(
            f'"{format_cards(hand)}": a poker hand needs at least 5 cards', rule="M4.1"
        )
    # Strongest first inside each group, ace high.
    hand = sorted(hand, key=lambda c: -c.r.high)
    by_value: dict[int, list[Card]] = {}
    by_suit: dict[Suit, list[Card]] = {}
    for c in hand:
        by_value.setdefault(c.r.high, []).append(c)
        by_suit.setdefault(c.s, []).append(c)
    values_desc = sorted(by_value, reverse=True)

    def kickers(exclude: set[int], n: int) -> list[Card]:
        return [c for c in hand if c.r.high not in exclude][:n]

    # Straight flush.
    best_sf: tuple[int, Suit] | None = None
    for suit, suited in by_suit.items():
        if len(suited) >= 5:
            top = _straight_top({c.r.high for c in suited})
            if top is not None and (best_sf is None or top > best_sf[0]):
                best_sf = (top, suit)
    if best_sf is not None:
        top, suit = best_sf
        return tuple(_pick(hand, 14 if v == 1 else v, 1, suit)[0] for v in range(top, top - 5, -1))
    quads = [v for v in values_desc if len(by_value[v]) == 4]
    if quads:
        return tuple(by_value[quads[0]] + kickers({quads[0]}, 1))
    trips = [v for v in values_desc if len(by_value[v]) >= 3]
    if trips:
        pairs = [v for v in values_desc if len(by_value[v]) >= 2 and v != trips[0]]
        if pairs:
            return tuple(by_value[trips[0]][:3] + by_value[pairs[0]][:2])
    flushes = [suited[:5] for suited in by_suit.values() if len(suited) >= 5]
    if flushes:
        return tuple(max(flushes, key=lambda f: [c.r.high for c in f]))
    top = _straight_top(set(values_desc))
    if top is not None:
        return tuple(by_value[14 if v == 1 else v][0] for v in range(top, top - 5, -1))
    if trips:
        return tuple(by_value[trips[0]][:3] + kickers({trips[0]}, 2))
    pairs = [v for v in values_desc if len(by_value[v]) == 2]
    if len(pairs) >= 2:
        return tuple(by_value[pairs[0]] + by_value[pairs[1]] + kickers(set(pairs[:2]), 1))
    if pairs:
        return tuple(by_value[pairs[0]] + kickers({pairs[0]}, 3))
    return tuple(hand[:5])


def _clean(cards: Sequence[Card] | str) -> list[Card]:
    hand = list(parse_cards(cards))
    for c in hand:
        if c.is_joker:
            raise IllegalActionError(f'"{format_cards(hand)}": Rummoli has no jokers', rule="M1.1")
    return hand


@lru_cache(maxsize=4096)
def _pk_hand(text: str) -> StandardHighHand:
    from pokerkit import StandardHighHand

    return StandardHighHand(text)


def _describe(label: str, five: Sequence[Card]) -> str:
    counts: dict[int, int] = {}
    for c in five:
        counts[c.r.high] = counts.get(c.r.high, 0) + 1
    by_count = sorted(counts, key=lambda v: (-counts[v], -v))
    values = sorted(counts, reverse=True)
    if label in ("Straight", "Straight flush"):
        top = 5 if set(values) == {14, 2, 3, 4, 5} else values[0]
        if label == "Straight flush" and top == 14:
            return "Royal flush"  # the ace-high straight flush has its own name (M4.3)
        return f"{label}, {_single(top)} high"
    if label in ("Flush", "High card"):
        return f"{label}, {_single(values[0])} high"
    if label == "Full house":
        return f"{label}, {_plural(by_count[0])} over {_plural(by_count[1])}"
    if label == "Two pair":
        return f"{label}, {_plural(by_count[0])} and {_plural(by_count[1])}"
    return f"{label}, {_plural(by_count[0])}"


class PokerHand(BaseModel):
    """One player's judged poker hand."""

    model_config = ConfigDict(frozen=True)

    cards: tuple[str, ...]
    best: tuple[str, ...]
    label: str
    name: str
    strength: int

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class JudgedHand(PokerHand):
    """A hand in a :class:`PokerJudgement`, with its seat and player name."""

    index: int
    player: str | None = None


class PokerJudgement(BaseModel):
    """Who wins a showdown: ``winners`` are indices (several = a tie, M4.4)."""

    model_config = ConfigDict(frozen=True)

    winners: tuple[int, ...]
    winner_names: tuple[str, ...]
    hands: tuple[JudgedHand, ...]
    rule: str = "M4.3"

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def describe(self) -> str:
        """Plain-text judgement, one line per hand then the winner(s).

        >>> print(judge(["AS AD 2C 3C 4H", "KS KD 2S 3S 5H"], ["Ann", "Bob"]).describe())
        Ann: One pair, Aces (AS AD 4H 3C 2C)
        Bob: One pair, Kings (KS KD 5H 3S 2S)
        Winner: Ann (M4.3)
        """
        lines = [
            f"{h.player or f'hand {h.index + 1}'}: {h.name} ({' '.join(h.best)})"
            for h in self.hands
        ]
        word = "Winner" if len(self.winners) == 1 else "Tie, pot split (M4.4) between"
        lines.append(f"{word}: {', '.join(self.winner_names)} ({self.rule})")
        return "\n".join(lines)


def evaluate(cards: Sequence[Card] | str) -> PokerHand:
    """Judge one hand of 5 or more cards: its best five, category and name.

    >>> h = evaluate("8S 8H 3D 3C 8C KD")
    >>> h.label, h.name, h.best
    ('Full house', 'Full house, 8s over 3s', ('8S', '8H', '8C', '3D', '3C'))
    >>> evaluate("5D 4C 3H 2S AD").name
    'Straight, 5 high'
    """
    hand = _clean(cards)
    five = best_five(hand)
    pk = _pk_hand(_pk_text(five))
    label = str(pk.entry.label.value)
    return PokerHand(
        cards=tuple(str(c) for c in hand),
        best=tuple(str(c) for c in five),
        label=label,
        name=_describe(label, five),
        strength=int(pk.entry.index),
    )


def judge(
    hands: Sequence[Sequence[Card] | str], names: Sequence[str] | None = None
) -> PokerJudgement:
    """Judge a showdown: every hand's best five and name, and the winner(s).

    Each hand is five cards or a whole Rummoli hand (the best five is used,
    M4.1).  A card may appear in only one hand.

    >>> judge(["2H 2D 5S 6S 9C", "2S 2C 5H 6H 9D"]).winners
    (0, 1)
    """
    if names is not None and len(names) != len(hands):
        raise IllegalActionError(
            f"{len(names)} names for {len(hands)} hands: give one name per hand", rule="M4.3"
        )
    if not hands:
        raise IllegalActionError("no hands to judge", rule="M4.3")
    seen: set[Card] = set()
    judged: list[JudgedHand] = []
    for i, raw in enumerate(hands):
        cards = _clean(raw)
        for c in cards:
            if c in seen:
                raise DuplicateCardError(f'"{format_cards(cards)}": {c} is in two hands')
            seen.add(c)
        h = evaluate(cards)
        judged.append(
            JudgedHand(**h.model_dump(), index=i, player=None if names is None else str(names[i]))
        )
    top = max(h.strength for h in judged)
    winners = tuple(h.index for h in judged if h.strength == top)
    winner_names = tuple(str(names[i]) if names is not None else f"hand {i + 1}" for i in winners)
    return PokerJudgement(winners=winners, winner_names=winner_names, hands=tuple(judged))


def split_pot(chips: int, winners: int) -> tuple[int, int]:
    """Equal shares of a pot and the odd chips left over (M4.4, M7.2).

    >>> split_pot(11, 3)
    (3, 2)
    """
    if winners < 1:
        raise IllegalActionError("a pot needs at least one winner", rule="M4.4")
    return chips // winners, chips % winners
