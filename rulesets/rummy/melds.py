"""Rummy's cards and meld shapes: what a set or a run is, what a card is worth.

The house rules are read through :class:`MeldRules` (the switches these rules
need), so a script's ``companion check rummy`` judges by :data:`RULES_MD` and
imports no house-rules model (pydantic); the switches they name in a refusal
are declared here, once, and :mod:`.house_rules` annotates its fields with them.

>>> analyse_meld(parse_cards("3H AH 2H")).kind
'run'
>>> card_value(parse_card("AH"), PlainMeldRules(ace_high_or_low=True))
15
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from rulesets.cards import (  # noqa: F401 (the examples read cards)
    JOKER,
    Card,
    Rank,
    Suit,
    distinct,
    format_cards,
    parse_card,
    parse_cards,
)
from rulesets.errors import CardParseError, IllegalActionError
from rulesets.switches import Switch
from rulesets.words import card_words as quote

__all__ = [
    "ACE_HIGH_OR_LOW",
    "DEAL_SIZES",
    "DECK_PLAIN",
    "DECK_WITH_JOKERS",
    "JOKERS",
    "JOKERS_IN_PACK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MUST_DISCARD_TO_GO_OUT",
    "RULES_MD",
    "ROUND_THE_CORNER",
    "MeldRules",
    "MeldShape",
    "PlainMeldRules",
    "analyse_meld",
    "card_value",
    "deal_size",
    "extend_meld",
    "hand_value",
    "named",
]

#: cards dealt to each player by number of players (R1.3).
DEAL_SIZES: Final = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
#: jokers added to the 52-card pack when the ``jokers`` variant is on (R7).
JOKERS_IN_PACK: Final = 2
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


# --------------------------------------------------------------------------- house rules

ACE_HIGH_OR_LOW: Final = Switch(
    "Ace high or low", "Q-K-A is a run as well as A-2-3; an ace counts 15 points."
)
ROUND_THE_CORNER: Final = Switch(
    "Round the corner", "Runs may turn the corner (K-A-2); needs Ace high or low."
)
JOKERS: Final = Switch(
    "Jokers", "Two jokers join the pack: wild in sets and runs, 15 points in hand."
)
MUST_DISCARD_TO_GO_OUT: Final = Switch(
    "Discard to go out", "Your last card must be a discard, not a meld or lay-off."
)


def named(switch: Switch) -> str:
    """A switch as a player reads it: ``the house rule “Jokers”``.

    >>> named(JOKERS)
    'the house rule “Jokers”'
    """
    return f"the house rule “{switch.title}”"


class MeldRules(Protocol):
    """The house-rule switches the meld rules read.  Rummy's house rules
    (:class:`~rulesets.rummy.house_rules.RummyRules`) have them, and so has
    :class:`PlainMeldRules`, which needs no pydantic."""

    @property
    def jokers(self) -> bool: ...

    @property
    def ace_high_or_low(self) -> bool: ...

    @property
    def round_the_corner(self) -> bool: ...

    @property
    def must_discard_to_go_out(self) -> bool: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class PlainMeldRules:
    """The switches of :class:`MeldRules` as plain data; the defaults are the seed
    rules', the same as ``PlainMeldRules()``'s (a test holds them equal)."""

    jokers: bool = False
    ace_high_or_low: bool = False
    round_the_corner: bool = False
    must_discard_to_go_out: bool = False


#: the meld rules of RULES.md, no switch changed (what a check without ``--rules`` uses).
RULES_MD: Final = PlainMeldRules()


# --------------------------------------------------------------------------- card values


def card_value(card: Card, rules: MeldRules | None = None) -> int:
    """Penalty value of one card (R6.1): K Q J 10 = 10, 2-9 face, A = 1 (15 with
    ``ace_high_or_low``), joker = 15 (``jokers``).

    >>> card_value(parse_card("QS")), card_value(parse_card("AH"))
    (10, 1)
    """
    r = rules or RULES_MD
    if card.rank is None:
        if not r.jokers:
            raise IllegalActionError('"JK": no jokers in the standard game', rule="R1.1")
        return 15
    if card.rank is Rank.ACE:
        return 15 if r.ace_high_or_low else 1
    return min(card.rank.low, 10)


def hand_value(cards: Iterable[Card], rules: MeldRules | None = None) -> int:
    """Sum of the card values (R6.1).

    >>> hand_value(parse_cards("KS 7D AC"))
    18
    """
    return sum(card_value(c, rules) for c in cards)


def deal_size(players: int) -> int:
    """Cards dealt to each player (R1.3).

    >>> deal_size(2), deal_size(4), deal_size(6)
    (10, 7, 6)
    """
    if players not in DEAL_SIZES:
        raise IllegalActionError(f"{players} players: Rummy is for 2 to 6 players", rule="R1.1")
    return DEAL_SIZES[players]


DECK_PLAIN: Final = tuple(Card(r, s) for s in Suit for r in Rank)
DECK_WITH_JOKERS: Final = DECK_PLAIN + (JOKER,) * JOKERS_IN_PACK


# --------------------------------------------------------------------------- melds


def rank_at(value: int) -> Rank:
    """Rank at a run position: 1 = A, 13 = K, 14 = A again, 15 = 2 (round the corner)."""
    return _RANK_AT[value] if 0 < value < len(_RANK_AT) else Rank.from_low((value - 1) % 13 + 1)


_RANK_AT: Final = (Rank.KING, *(Rank.from_low((v - 1) % 13 + 1) for v in range(1, 28)))


@dataclass(frozen=True, slots=True)
class MeldShape:
    """A valid meld: its kind, cards in meld order, and what each joker stands for.

    For a run, position ``i`` holds the card of value ``start + i`` (1 = A low,
    14 = A high, 15+ only round the corner).  For a set, ``rank`` is the rank.
    """

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    rank: Rank | None = None
    suit: Suit | None = None
    start: int = 0

    @property
    def end(self) -> int:
        return self.start + len(self.cards) - 1

    def stands_for(self) -> tuple[str, ...]:
        """For each joker, what it stands for: ``"JK=7H"`` or ``"JK=7 (any suit)"``."""
        out: list[str] = []
        for i, card in enumerate(self.cards):
            if not card.is_joker:
                continue
            if self.kind == "run" and self.suit is not None:
                out.append(f"JK={Card(rank_at(self.start + i), self.suit)}")
            elif self.rank is not None:
                out.append(f"JK={self.rank.value} (a {self.rank.name_word} of a missing suit)")
        return tuple(out)

    def natural_for(self, index: int) -> Rank:
        """The rank the card at ``index`` has or stands for."""
        if self.kind == "set" and self.rank is not None:
            return self.rank
        return rank_at(self.start + index)

    def with_card(self, index: int, card: Card) -> MeldShape:
        """The same meld with ``card`` in place ``index`` (a joker swapped out, R7)."""
        cards = self.cards[:index] + (card,) + self.cards[index + 1 :]
        return MeldShape(self.kind, cards, self.rank, self.suit, self.start)


def run_bounds_ok(start: int, end: int, rules: MeldRules) -> bool:
    """Whether a run may span positions ``start..end`` under the ace rules."""
    if end - start + 1 > 13 or start < 1:
        return False
    if rules.round_the_corner:
        return start <= 13
    return end <= (14 if rules.ace_high_or_low else 13)


def _run_error(cards: Sequence[Card], naturals: list[Card], rules: MeldRules) -> IllegalActionError:
    if len({c.suit for c in naturals}) > 1:
        return IllegalActionError(f"{quote(cards)}: a run must be all one suit", rule="R2.2")
    ranks = {c.r for c in naturals}
    if Rank.ACE in ranks and Rank.KING in ranks and not rules.ace_high_or_low:
        return IllegalActionError(
            f"{quote(cards)}: the ace is low, so Q-K-A is not a run"
            f" ({named(ACE_HIGH_OR_LOW)} allows it)",
            rule="R2.2",
        )
    if Rank.ACE in ranks and Rank.KING in ranks and Rank.TWO in ranks:
        return IllegalActionError(
            f"{quote(cards)}: a run may not turn the corner (K-A-2)"
            f" ({named(ROUND_THE_CORNER)} allows it)",
            rule="R7",
        )
    return IllegalActionError(
        f"{quote(cards)}: not consecutive cards of one suit, nor 3-4 of one rank", rule="R2.2"
    )


def _run_start(cards: Sequence[Card], ranks: set[Rank], rules: MeldRules) -> int | None:
    """Where a run of these cards starts (A-R12).

    Cards listed in run order keep their written places, so a joker before the
    lowest natural card stands just below it and one after the highest just
    above it.  Where no window matches the written order (the card a joker
    would stand for cannot exist, e.g. above the king with aces low) the
    highest window holding every natural card is taken: the joker goes to the
    other end (``QD KD JK`` is J♦ Q♦ K♦).
    """
    n = len(cards)
    best: int | None = None
    ordered: int | None = None
    for start in range(1, 15):
        if not run_bounds_ok(start, start + n - 1, rules):
            continue
        window = [rank_at(v) for v in range(start, start + n)]
        if len(set(window)) != n or not ranks <= set(window):
            continue
        best = start  # the largest start puts spare jokers at the top
        if all(c.is_joker or c.r is window[i] for i, c in enumerate(cards)):
            ordered = start
    return ordered if ordered is not None else best


def _as_run(cards: Sequence[Card], naturals: list[Card], rules: MeldRules) -> MeldShape | None:
    if not naturals or len({c.suit for c in naturals}) != 1 or len(cards) > 13:
        return None
    ranks = {c.r for c in naturals}
    if len(ranks) != len(naturals):
        return None
    start = _run_start(cards, ranks, rules)
    if start is None:
        return None
    by_rank = {c.r: c for c in naturals}
    ordered = tuple(by_rank.get(rank_at(v), JOKER) for v in range(start, start + len(cards)))
    return MeldShape("run", ordered, suit=naturals[0].s, start=start)


def _as_set(cards: Sequence[Card], naturals: list[Card]) -> MeldShape | None:
    if not naturals or not 3 <= len(cards) <= 4:
        return None
    if len({c.rank for c in naturals}) != 1 or len({c.suit for c in naturals}) != len(naturals):
        return None
    return MeldShape(
        "set", tuple(naturals) + (JOKER,) * (len(cards) - len(naturals)), rank=naturals[0].r
    )


def _meld_basics(cards: tuple[Card, ...], rules: MeldRules) -> None:
    """Refuse what is no meld whatever its shape: repeats, forbidden or lone jokers, < 3."""
    if len(set(cards)) < len(cards):  # a card twice, or two jokers (which may be)
        seen: set[Card] = set()
        for c in cards:
            if c in seen and not c.is_joker:
                raise CardParseError(f"{quote(cards)}: {c.symbol} is listed twice")
            seen.add(c)
    jokers = sum(c.rank is None for c in cards)
    if jokers and not rules.jokers:
        raise IllegalActionError(
            f"{quote(cards)}: no jokers in the standard game ({named(JOKERS)})",
            rule="R1.1",
        )
    if jokers == len(cards) and cards:
        raise IllegalActionError(
            f"{quote(cards)}: a meld needs at least one natural card", rule="R7"
        )
    if len(cards) < 3:
        raise IllegalActionError(f"{quote(cards)}: a meld needs at least 3 cards", rule="R2.1")


def analyse_meld(
    cards: Sequence[Card],
    rules: MeldRules | None = None,
    *,
    kind: Literal["set", "run"] | None = None,
) -> MeldShape:
    """The meld these cards make, or :class:`IllegalActionError` with the rule.

    Jokers (variant ``jokers``) take their written places when the cards are
    given in run order (A-R12), otherwise they fill gaps and then extend the
    top.  A natural card plus jokers that could be either is a set unless
    ``kind="run"``.

    >>> analyse_meld(parse_cards("3H AH 2H")).cards
    (Card('AH'), Card('2H'), Card('3H'))
    >>> analyse_meld(parse_cards("5S 5H 5D 5C")).kind
    'set'
    >>> analyse_meld(parse_cards("5S 6S JK"), PlainMeldRules(jokers=True)).stands_for()
    ('JK=7S',)
    >>> analyse_meld(parse_cards("QD KD JK"), PlainMeldRules(jokers=True)).stands_for()
    ('JK=JD',)
    >>> analyse_meld(parse_cards("KH AH 2H"))
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: K♥ A♥ 2♥: the ace is low, so Q-K-A is not a run \
(the house rule “Ace high or low” allows it) (R2.2)
    """
    r = rules or RULES_MD
    cards = tuple(cards)
    _meld_basics(cards, r)
    naturals = [c for c in cards if not c.is_joker]  # read once: every shape asks
    as_set = None if kind == "run" else _as_set(cards, naturals)
    if as_set is not None:
        return as_set
    as_run = None if kind == "set" else _as_run(cards, naturals, r)
    if as_run is not None:
        return as_run
    if len({c.rank for c in naturals}) == 1 and kind != "run" and len(cards) > 4:
        raise IllegalActionError(f"{quote(cards)}: a set has 3 or 4 cards of one rank", rule="R2.1")
    if kind == "set":
        raise IllegalActionError(f"{quote(cards)}: a set is 3 or 4 cards of one rank", rule="R2.1")
    raise _run_error(cards, naturals, r)


def _extend_set(meld: MeldShape, cards: tuple[Card, ...], shown: str) -> MeldShape:
    rank = meld.rank
    naturals = [c for c in cards if not c.is_joker]
    bad = [c for c in naturals if c.rank is not rank]
    if bad:
        raise IllegalActionError(
            f"{shown}: {bad[0].symbol} is not a {rank.name_word if rank else '?'};"
            " the set would break",
            rule="R3.3",
        )
    suits = [c.suit for c in meld.cards if not c.is_joker] + [c.suit for c in naturals]
    if len(meld.cards) + len(cards) > 4 or len(set(suits)) != len(suits):
        raise IllegalActionError(
            f"{shown}: a set has at most 4 cards, one of each suit", rule="R2.1"
        )
    return MeldShape("set", meld.cards + cards, rank=rank)


def _extend_run_by(
    meld: MeldShape, naturals: list[Card], k: int, left: int, rules: MeldRules
) -> MeldShape | None:
    """``meld`` with ``left`` new places below and ``k - left`` above, if the naturals fit."""
    start, end = meld.start - left, meld.end + (k - left)
    if not run_bounds_ok(start, end, rules):
        return None
    positions = {rank_at(v): v for v in [*range(start, meld.start), *range(meld.end + 1, end + 1)]}
    if len(positions) != k:
        return None
    placed: dict[int, Card] = {}
    for c in naturals:
        v = positions.get(c.r)
        if v is None or v in placed:
            return None
        placed[v] = c
    new = [
        meld.cards[v - meld.start] if meld.start <= v <= meld.end else placed.get(v, JOKER)
        for v in range(start, end + 1)
    ]
    return MeldShape("run", tuple(new), suit=meld.suit, start=start)


def extend_meld(
    meld: MeldShape, cards: Sequence[Card], rules: MeldRules | None = None
) -> MeldShape:
    """``meld`` with ``cards`` laid off onto it (R3.3), or :class:`IllegalActionError`.

    Cards already in the meld keep their place and what they stand for (R2.3);
    a joker laid off onto a run goes to the top, or to the bottom where the
    top cannot go on.

    >>> m = analyse_meld(parse_cards("10S 10D 10H"))
    >>> extend_meld(m, parse_cards("10C")).cards
    (Card('10S'), Card('10D'), Card('10H'), Card('10C'))
    >>> run = analyse_meld(parse_cards("4H 5H 6H"))
    >>> [str(c) for c in extend_meld(run, parse_cards("7H 3H")).cards]
    ['3H', '4H', '5H', '6H', '7H']
    """
    r = rules or RULES_MD
    cards = tuple(cards)
    if not cards:
        raise IllegalActionError("nothing to lay off", rule="R3.3")
    shown = f"{quote(cards)} onto {quote(meld.cards)}"
    if any(c.is_joker for c in cards) and not r.jokers:
        raise IllegalActionError(f"{shown}: no jokers in the standard game", rule="R1.1")
    naturals = [c for c in cards if not c.is_joker]
    if len(set(naturals)) != len(naturals) or set(naturals) & set(meld.cards):
        raise CardParseError(f"{shown}: a card is listed twice")
    if meld.kind == "set":
        return _extend_set(meld, cards, shown)
    bad = [c for c in naturals if c.suit is not meld.suit]
    if bad:
        suit = meld.suit.name_word.removesuffix("s") if meld.suit else "?"
        raise IllegalActionError(
            f"{shown}: {bad[0].symbol} is not a {suit}; the run would break", rule="R3.3"
        )
    bases = [meld]
    if r.round_the_corner and meld.start + 13 + len(meld.cards) - 1 <= 27:
        # round the corner, A-2-3 may also sit above the king: K-A-2-3 (R7)
        bases.append(MeldShape("run", meld.cards, suit=meld.suit, start=meld.start + 13))
    for base in bases:
        for left in range(len(cards) + 1):
            shape = _extend_run_by(base, naturals, len(cards), left, r)
            if shape is not None:
                return shape
    raise IllegalActionError(
        f"{shown}: the cards do not continue the run at either end", rule="R3.3"
    )


def meld_reason(shape: MeldShape) -> str:
    """The referee's words for a valid meld: ``"7H 8H 9H" is a run of 3 cards``."""
    jokers = shape.stands_for()
    tail = "; " + ", ".join(jokers) if jokers else ""
    return f"{quote(shape.cards)} is a {shape.kind} of {len(shape.cards)} cards{tail}"


def layoff_reason(cards: Sequence[Card], onto: MeldShape, shape: MeldShape) -> str:
    """The referee's words for a valid lay-off: ``"10H" lays off onto "7H 8H 9H", ...``."""
    jokers = shape.stands_for()
    tail = "; " + ", ".join(jokers) if jokers else ""
    return (
        f"{quote(cards)} lays off onto {quote(onto.cards)},"
        f" making a {len(shape.cards)}-card {shape.kind}{tail}"
    )


def card_of(card: Card, rules: MeldRules) -> Card:
    """An action's card, a joker only with the ``jokers`` switch (R1.1)."""
    if card.is_joker and not rules.jokers:
        raise IllegalActionError(
            f'"{card}": no jokers in the standard game ({named(JOKERS)})', rule="R1.1"
        )
    return card


def cards_of(cards: tuple[Card, ...], rules: MeldRules) -> tuple[Card, ...]:
    """An action's cards: no repeats but jokers; jokers only with ``jokers`` (R1.1)."""
    distinct(cards, rule="R1.1")
    if any(c.is_joker for c in cards) and not rules.jokers:
        raise IllegalActionError(
            f'"{format_cards(cards)}": no jokers in the standard game ({named(JOKERS)})',
            rule="R1.1",
        )
    return cards
