"""Cards as frozen values that parse from text and print back.

Glossary: a *rank* is A, 2..10, J, Q, K; a *suit* is S, H, D, C (♠ ♥ ♦ ♣); a
*card* is a rank and a suit, or a *joker* (only Rummy's joker variant uses one).

>>> parse_card("10H")
Card('10H')
>>> parse_card("th") == parse_card("10♥") == parse_card("10H")
True
>>> str(parse_card("q♠")), parse_card("QS").symbol
('QS', 'Q♠')
>>> [str(c) for c in parse_cards("Q♠ K♠, as")]
['QS', 'KS', 'AS']
>>> parse_card("1X")
Traceback (most recent call last):
...
rulesets.errors.CardParseError: "1X": unknown suit 'X' (use S, H, D, C or ♠♥♦♣)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rulesets.errors import CardParseError, DuplicateCardError
from rulesets.words import quote_input

__all__ = [
    "DECK",
    "JOKER",
    "Card",
    "Color",
    "Rank",
    "Suit",
    "distinct",
    "format_cards",
    "parse_card",
    "parse_cards",
    "standard_deck",
]


class Rank(StrEnum):
    """Ranks in ace-low order; the value is the canonical notation."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def low(self) -> int:
        """1 for the ace up to 13 for the king (ace low)."""
        return _RANK_LOW[self]

    @property
    def high(self) -> int:
        """2 for the deuce up to 14 for the ace (ace high)."""
        return 14 if self is Rank.ACE else _RANK_LOW[self]

    @property
    def name_word(self) -> str:
        return _RANK_WORD[self]

    @classmethod
    def from_low(cls, n: int) -> Rank:
        """The rank whose ace-low number is ``n`` (1..13)."""
        if not 1 <= n <= 13:
            raise ValueError(f"no rank numbered {n}")
        return _RANKS[n - 1]


class Color(StrEnum):
    RED = "red"
    BLACK = "black"

    @property
    def opposite(self) -> Color:
        return Color.BLACK if self is Color.RED else Color.RED


class Suit(StrEnum):
    """Suits; the value is the canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def color(self) -> Color:
        return Color.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Color.BLACK

    @property
    def name_word(self) -> str:
        return self.name.lower()


_RANKS: Final = tuple(Rank)
_RANK_LOW: Final = {r: i + 1 for i, r in enumerate(_RANKS)}
_RANK_WORD: Final = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_SYMBOL: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_ORDER: Final = {s: i for i, s in enumerate(Suit)}

# Every way a suit may be written: letters, filled and hollow symbols.
_SUIT_TOKENS: Final[dict[str, Suit]] = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_TOKENS: Final[dict[str, Rank]] = {r.value: r for r in Rank} | {"T": Rank.TEN}
_JOKER_TOKENS: Final = frozenset({"JK", "JKR", "JOKER", "🃏", "★"})
_SPLIT: Final = re.compile(r"[\s,;]+")
_INVISIBLE: Final = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b"), None)

RANK_HELP: Final = "use A, 2-10 (or T), J, Q or K"
SUIT_HELP: Final = "use S, H, D, C or ♠♥♦♣"


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card, or a joker when ``rank`` and ``suit`` are both ``None``.

    Cards compare equal by value and sort by suit (S, H, D, C) then rank (ace low),
    jokers last.
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardParseError(f"{self.rank}/{self.suit}: a card needs both a rank and a suit")

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def r(self) -> Rank:
        """The rank of a natural card (raises on a joker)."""
        if self.rank is None:
            raise CardParseError("JK: a joker has no rank")
        return self.rank

    @property
    def s(self) -> Suit:
        """The suit of a natural card (raises on a joker)."""
        if self.suit is None:
            raise CardParseError("JK: a joker has no suit")
        return self.suit

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol, e.g. ``10♥``."""
        if self.rank is None or self.suit is None:
            return "🃏"
        # plain str concatenation (the enums are str): cards are written often -- every
        # check words its cards twice -- and an enum's ``value`` is a Python-level lookup
        return self.rank + _SUIT_SYMBOL[self.suit]

    @property
    def words(self) -> str:
        """Spoken form for screen readers, e.g. ``ten of hearts``."""
        if self.rank is None or self.suit is None:
            return "joker"
        return f"{self.rank.name_word} of {self.suit.name_word}"

    @property
    def sort_key(self) -> tuple[int, int]:
        if self.rank is None or self.suit is None:
            return (len(_SUIT_ORDER), 0)
        return (_SUIT_ORDER[self.suit], self.rank.low)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank + self.suit  # "10H" (see :attr:`symbol`)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return cls(rank, suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


JOKER: Final = Card(None, None)


def standard_deck(jokers: int = 0) -> tuple[Card, ...]:
    """The 52 cards in suit then rank order, plus ``jokers`` jokers at the end."""
    return tuple(Card(r, s) for s in Suit for r in Rank) + (JOKER,) * jokers


DECK: Final = standard_deck()

#: every card by its text as a record stores it ("10H", "JK"): one look-up reads it
_BY_TEXT: Final[dict[str, Card]] = {str(c): c for c in DECK} | {"JK": JOKER}


def parse_card(text: str | Card) -> Card:
    """Read one card: ``"10H"``, ``"TH"``, ``"th"``, ``"10♥"``, ``"JK"``/``"🃏"``."""
    if isinstance(text, Card):
        return text
    known = _BY_TEXT.get(text)
    if known is not None:
        return known
    raw = text
    token = text.translate(_INVISIBLE).strip()
    upper = token.upper()
    if upper in _JOKER_TOKENS:
        return JOKER
    if len(token) < 2:
        shown = raw.strip() or raw
        raise CardParseError(
            f"{shown!r}: not a card (write rank then suit, e.g. 10H, QS, 7♦)"
            if shown
            else "'': empty card (write rank then suit, e.g. 10H, QS, 7♦)"
        )
    suit_char = upper[-1]
    rank_text = upper[:-1]
    suit = _SUIT_TOKENS.get(suit_char)
    if suit is None:
        raise CardParseError(f"{quote_input(token)}: unknown suit {token[-1]!r} ({SUIT_HELP})")
    rank = _RANK_TOKENS.get(rank_text)
    if rank is None:
        rank_shown = quote_input(token[:-1]).strip('"')
        raise CardParseError(f"{quote_input(token)}: unknown rank {rank_shown!r} ({RANK_HELP})")
    return Card(rank, suit)


def _tokens(text: str | Card | Iterable[str | Card]) -> list[str | Card]:
    if isinstance(text, Card):
        return [text]
    if isinstance(text, str):
        return [t for t in _SPLIT.split(text.strip()) if t]
    out: list[str | Card] = []
    for item in text:
        out.extend(_tokens(item))
    return out


def parse_cards(
    text: str | Card | Iterable[str | Card],
    *,
    allow_duplicates: bool = False,
    rule: str | None = None,
) -> tuple[Card, ...]:
    """Read a list of cards separated by spaces or commas, keeping their order.

    Accepts one string (``"Q♠ K♠"``, ``"qs,ks"``), cards, or an iterable mixing
    both (command-line words).  A card listed twice is an error unless
    ``allow_duplicates``; jokers may repeat (a pack can hold several).  ``rule``
    is the game's one-pack rule the error names (U1.1, R1.1, M1.1); the error
    repeats at most the first words of a long input.

    >>> [c.symbol for c in parse_cards(["5h", "6H 7h"])]
    ['5♥', '6♥', '7♥']
    >>> parse_cards("QH qh")
    Traceback (most recent call last):
    ...
    rulesets.errors.DuplicateCardError: "QH qh": QH is listed twice
    """
    cards = tuple(parse_card(t) for t in _tokens(text))
    if not allow_duplicates and (twice := _twice(cards)) is not None:
        shown = text if isinstance(text, str) else " ".join(str(t) for t in _tokens(text))
        raise DuplicateCardError(f"{quote_input(shown)}: {twice} is listed twice", rule=rule)
    return cards


def distinct(cards: tuple[Card, ...], *, rule: str | None = None) -> tuple[Card, ...]:
    """``cards`` when none is in them twice (jokers may repeat: a pack can hold
    several), else :class:`DuplicateCardError` naming ``rule``, the game's one-pack
    rule, as :func:`parse_cards` does for text.

    >>> distinct(parse_cards("5H 5H", allow_duplicates=True), rule="U1.1")
    Traceback (most recent call last):
    ...
    rulesets.errors.DuplicateCardError: "5H 5H": 5H is listed twice (U1.1)
    """
    twice = _twice(cards)
    if twice is not None:
        shown = " ".join(map(str, cards))
        raise DuplicateCardError(f"{quote_input(shown)}: {twice} is listed twice", rule=rule)
    return cards


def _twice(cards: tuple[Card, ...]) -> Card | None:
    """The first card (not a joker) met a second time in ``cards``."""
    if len(set(cards)) == len(cards):
        return None  # the common case, in one pass
    seen: set[Card] = set()
    for card in cards:
        if card in seen and not card.is_joker:
            return card
        seen.add(card)
    return None


def format_cards(cards: Iterable[Card], *, symbols: bool = False, sep: str = " ") -> str:
    """Print cards back, canonical ASCII by default.

    >>> format_cards(parse_cards("th jh"), symbols=True)
    '10♥ J♥'
    """
    return sep.join(c.symbol if symbols else str(c) for c in cards)
