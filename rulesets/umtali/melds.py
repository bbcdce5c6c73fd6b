"""Umtali card values, meld shapes, anchors and the no-breaking test (RULES.md U1, U5-U7, U9).

These are pure functions over cards.  :mod:`rulesets.umtali.game` uses them to
referee a table, :mod:`rulesets.umtali.check` to judge cards without a table --
through the same functions, so the two never disagree (A-U5) -- and
:mod:`rulesets.umtali.suggest` to search a hand.  They read the house rules
through :class:`MeldRules` (the switches they need), so a script's check judges
by :data:`RULES_MD` and imports no house-rules model (pydantic).

>>> from rulesets.cards import parse_cards
>>> classify_meld(parse_cards("5H 6H 7H"))
<MeldKind.SEQUENCE: 'sequence'>
>>> meld_points(MeldKind.MARRIAGE, parse_cards("KS QS"))
20
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Protocol

from rulesets.cards import Card, Rank, Suit
from rulesets.errors import IllegalActionError, IncompleteActionError
from rulesets.words import quote_cards

__all__ = [
    "BASIC_KINDS",
    "SINGLE_KINDS",
    "U4_4_OPENING",
    "U7_OPENING",
    "RULES_MD",
    "U7_ENTER_HAND",
    "U7_RULE",
    "U7_UNCHECKED",
    "MeldKind",
    "MeldRules",
    "PlainMeldRules",
    "accepted_cards",
    "anchor_kind",
    "breaking_meld",
    "card_points",
    "check_anchor",
    "classify_meld",
    "classify_pair",
    "classify_play",
    "compulsory_discard",
    "extension_rule",
    "meld_points",
    "meld_rule",
    "no_breaking",
    "notes_said",
    "play_words",
    "playable",
    "unchecked",
]

#: ranks that may appear in a sequence (U5.2): A..10, ace low.
SEQUENCE_TOP: Final = 10
HANDS_PER_GAME: Final = 4
STOCK_AFTER_DEAL: Final = 31

#: said once where a game starts under ``compulsory_melding``: a discard is checked
#: against the rest of the hand (U4.4) only when the hand is entered; without it, only
#: the discarded card itself is checked, and a verdict says nothing of the rest.
U4_4_OPENING: Final = (
    "Melding is compulsory: the app checks a discard against the rest of the player's "
    "hand only when the player enters their hand."
)

#: said once where a game starts: verdicts check U7.2 only against a hand entered.
U7_OPENING: Final = (
    "A card that makes a meld with cards still held may not go down alone (the "
    "no-breaking rule): the app checks it only when the player enters their hand."
)

#: the note a check without a hand carries (A-U7), for ``companion check``'s printout.
U7_UNCHECKED: Final = (
    "U7 (no-breaking rule) could not be checked: no hand was entered, so the app "
    "cannot see whether these cards form a set, sequence or marriage with cards still held"
)
#: the rule a check without a hand cannot apply (:attr:`Verdict.unchecked`)
U7_RULE: Final = "U7.2"
#: what the meld checker says once, beside its hand field, instead of that note on
#: every verdict (:attr:`CheckerFacts.unchecked_words`)
U7_ENTER_HAND: Final = "Enter the rest of your hand to check the no-breaking rule."


def notes_said(notes: Sequence[str]) -> tuple[str, ...]:
    """A verdict's ``notes`` as a screen shows them (:attr:`Verdict.note_words`): all but
    the no-breaking rule's, which a screen says once beside its hand field
    (:func:`unchecked`), not on every verdict.

    >>> notes_said([U7_UNCHECKED, "a pair is extendable only in the opponent's final turn"])
    ("a pair is extendable only in the opponent's final turn",)
    """
    return tuple(n for n in notes if n != U7_UNCHECKED)


def unchecked(notes: Sequence[str]) -> tuple[str, ...]:
    """The rules a verdict with ``notes`` could not check for want of the hand.

    >>> unchecked([U7_UNCHECKED]), unchecked([])
    (('U7.2',), ())
    """
    return (U7_RULE,) if U7_UNCHECKED in notes else ()


class MeldRules(Protocol):
    """The house-rule switches the meld rules read.  The house rules of a game
    (:class:`~rulesets.umtali.house_rules.UmtaliRules`) have them, and so has
    :class:`PlainMeldRules`, which needs no pydantic."""

    @property
    def jack_extends_any_suit(self) -> bool: ...

    @property
    def marriage_extendable(self) -> bool: ...

    @property
    def compulsory_melding(self) -> bool: ...

    @property
    def no_breaking(self) -> bool: ...

    @property
    def loose_pair(self) -> bool: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class PlainMeldRules:
    """The switches of :class:`MeldRules` as plain data; the defaults are RULES.md's, the
    same as ``UmtaliRules()``'s (a test holds them equal)."""

    jack_extends_any_suit: bool = False
    marriage_extendable: bool = False
    compulsory_melding: bool = False
    no_breaking: bool = True
    loose_pair: bool = False


#: the meld rules of RULES.md, no switch changed (what a check without ``--rules`` uses).
RULES_MD: Final = PlainMeldRules()


class MeldKind(StrEnum):
    """What lies on a side of the table; every kind is one meld with its own index."""

    SET = "set"
    SEQUENCE = "sequence"
    MARRIAGE = "marriage"
    JACK = "jack"
    SINGLE = "single"
    PAIR = "pair"
    LEFTOVER = "leftover"


BASIC_KINDS: Final = frozenset({MeldKind.SET, MeldKind.SEQUENCE, MeldKind.MARRIAGE})
SINGLE_KINDS: Final = frozenset({MeldKind.JACK, MeldKind.SINGLE, MeldKind.LEFTOVER})

_FIVE: Final = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})
_MELD_RULE: Final = {
    MeldKind.SET: "U5.1",
    MeldKind.SEQUENCE: "U5.2",
    MeldKind.MARRIAGE: "U5.3",
    MeldKind.JACK: "U5.4",
    MeldKind.PAIR: "U5.5",
    MeldKind.SINGLE: "U6.1",
    MeldKind.LEFTOVER: "U8.4",
}


def meld_rule(kind: MeldKind) -> str:
    """The rule ID that defines a meld kind."""
    return _MELD_RULE[kind]


def card_points(card: Card) -> int:
    """U9.1: 10, J, Q, K score 5; A-9 score 1.

    >>> card_points(Card(Rank.QUEEN, Suit.HEARTS)), card_points(Card(Rank.ACE, Suit.CLUBS))
    (5, 1)
    """
    return 5 if card.r in _FIVE else 1


def meld_points(kind: MeldKind, cards: Iterable[Card]) -> int:
    """Points a meld puts on its side: a marriage is 20 as a unit (U9.2), else card by card."""
    if kind is MeldKind.MARRIAGE:
        return 20
    return sum(card_points(c) for c in cards)


def _is_marriage(cards: Sequence[Card]) -> bool:
    return (
        len(cards) == 2
        and cards[0].suit == cards[1].suit
        and {cards[0].rank, cards[1].rank} == {Rank.KING, Rank.QUEEN}
    )


def _natural(cards: Sequence[Card]) -> None:
    for c in cards:
        if c.is_joker:
            raise IllegalActionError(f"{quote_cards(cards)}: Umtali uses no jokers", rule="U1.1")
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"{quote_cards(cards)}: a card is listed twice", rule="U1.1")


def classify_meld(cards: Sequence[Card]) -> MeldKind:
    """Kind of a basic meld or jack put down from hand (U5.1-U5.4); raises if it is none.

    >>> from rulesets.cards import parse_cards
    >>> [classify_meld(parse_cards(t)).value for t in ("9S 9D 9C", "KH QH", "JD")]
    ['set', 'marriage', 'jack']
    >>> classify_meld(parse_cards("JH JD JS"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: "JH JD JS": jacks never form a set; ... (U5.1)
    """
    _natural(cards)
    n = len(cards)
    text = quote_cards(cards)
    if n == 0:
        raise IllegalActionError('"": no cards to meld', rule="U5")
    if n == 1:
        if cards[0].r is Rank.JACK:
            return MeldKind.JACK
        mate = " or its marriage partner" if cards[0].r in (Rank.KING, Rank.QUEEN) else ""
        raise IncompleteActionError(
            f"{text}: pick more cards for a set or sequence{mate}; one card alone goes "
            "down only as an extension against an anchor (or if it is a jack)",
            rule="U6.1",
        )
    ranks = {c.r for c in cards}
    suits = {c.s for c in cards}
    if n == 2:
        if _is_marriage(cards):
            return MeldKind.MARRIAGE
        if ranks == {Rank.JACK}:
            raise IllegalActionError(f"{text}: two jacks are two jack singles", rule="U5.4")
        if len(ranks) == 1:
            raise IncompleteActionError(
                f"{text}: pick one more {cards[0].r.value} for a set; a pair goes down only on "
                "the turn you go out, with the going-out entry",
                rule="U5.5",
            )
        short = _sequence_gaps(cards)
        if short:
            raise IncompleteActionError(
                f"{text}: pick one more card for a sequence: {' or '.join(map(str, short))}",
                rule="U5.2",
            )
        raise IllegalActionError(
            f"{text}: two cards make a meld only as K+Q of one suit (a marriage)", rule="U5.3"
        )
    if len(ranks) == 1:
        if Rank.JACK in ranks:
            raise IllegalActionError(
                f"{text}: jacks never form a set; meld each jack alone", rule="U5.1"
            )
        return MeldKind.SET
    if len(suits) == 1:
        lows = sorted(c.r.low for c in cards)
        if lows[-1] > SEQUENCE_TOP:
            only = f"{text}: sequences use only A..10 (no J, Q or K; the ace is low)"
            raise IllegalActionError(only, rule="U5.2", words=only.replace("A..10", "ace to 10"))
        if lows != list(range(lows[0], lows[0] + n)):
            raise IllegalActionError(f"{text}: the ranks are not consecutive", rule="U5.2")
        return MeldKind.SEQUENCE
    raise IllegalActionError(
        f"{text}: not a set (one rank), a sequence (one suit, consecutive) or a marriage",
        rule="U5",
    )


def _sequence_gaps(cards: Sequence[Card]) -> list[Card]:
    """The cards that would make two cards of one suit a sequence of three (U5.2)."""
    if cards[0].s is not cards[1].s:
        return []
    a, b = sorted(c.r.low for c in cards)
    if b > SEQUENCE_TOP or b - a > 2:
        return []
    lows = [a + 1] if b - a == 2 else [x for x in (a - 1, b + 1) if 1 <= x <= SEQUENCE_TOP]
    return [Card(Rank.from_low(x), cards[0].s) for x in lows]


def classify_pair(cards: Sequence[Card], rules: MeldRules) -> MeldKind:
    """U5.5: the going-out pair -- two cards of one rank, never two jacks.

    >>> from rulesets.cards import parse_cards
    >>> classify_pair(parse_cards("9S 9D"), RULES_MD).value
    'pair'
    """
    _natural(cards)
    text = quote_cards(cards)
    if len(cards) != 2:
        raise IllegalActionError(f"{text}: a pair is exactly two cards", rule="U5.5")
    if _is_marriage(cards):
        raise IllegalActionError(
            f"{text}: K+Q of one suit is a marriage; meld it as one", rule="U5.5"
        )
    if rules.loose_pair:
        return MeldKind.PAIR
    if cards[0].r is not cards[1].r:
        raise IllegalActionError(f"{text}: a pair is two cards of the same rank", rule="U5.5")
    if cards[0].r is Rank.JACK:
        raise IllegalActionError(f"{text}: two jacks are two jack singles", rule="U5.4")
    return MeldKind.PAIR


def _neighbours(card: Card) -> list[Card]:
    low = card.r.low
    return [Card(Rank.from_low(x), card.s) for x in (low - 1, low + 1) if 1 <= x <= 13]


def _same_rank(card: Card) -> list[Card]:
    return [Card(card.r, s) for s in Suit if s is not card.s]


def accepted_cards(
    kind: MeldKind, cards: Sequence[Card], rules: MeldRules, *, pair_open: bool = False
) -> list[Card]:
    """Every card that may be played against this anchor (U6.2), ignoring what is used.

    >>> from rulesets.cards import parse_cards
    >>> [str(c) for c in accepted_cards(MeldKind.SEQUENCE, parse_cards("5H 6H 7H"), RULES_MD)]
    ['4H', '8H']
    >>> [str(c) for c in accepted_cards(MeldKind.JACK, parse_cards("JC"), RULES_MD)]
    ['JS', 'JH', 'JD', '10C', 'QC']
    """
    if kind is MeldKind.SET:
        if len(cards) != 3:
            return []
        rank = cards[0].r
        return [Card(rank, s) for s in Suit if Card(rank, s) not in cards]
    if kind is MeldKind.SEQUENCE:
        lows = sorted(c.r.low for c in cards)
        suit = cards[0].s
        return [Card(Rank.from_low(x), suit) for x in (lows[0] - 1, lows[-1] + 1) if 1 <= x <= 10]
    if kind in SINGLE_KINDS:
        card = cards[0]
        out = _same_rank(card) + _neighbours(card)
        if card.r is Rank.JACK and rules.jack_extends_any_suit:
            out += [Card(r, s) for r in (Rank.TEN, Rank.QUEEN) for s in Suit if s is not card.s]
        return out
    if kind is MeldKind.PAIR:
        if not pair_open or cards[0].r is not cards[1].r:
            return []
        return [Card(cards[0].r, s) for s in Suit if Card(cards[0].r, s) not in cards]
    if kind is MeldKind.MARRIAGE and rules.marriage_extendable:
        # A-U17: each of its two cards anchors like a single (J♥ off Q♥; K♠ off K♥)
        out = []
        for card in cards:
            out += [c for c in _same_rank(card) + _neighbours(card) if c not in cards]
        return out
    return []


def check_anchor(
    card: Card,
    kind: MeldKind,
    cards: Sequence[Card],
    rules: MeldRules,
    *,
    pair_open: bool = False,
) -> None:
    """Raise with a player-readable reason unless ``card`` may extend this anchor (U6.2).

    >>> from rulesets.cards import parse_cards, parse_card
    >>> seq = parse_cards("5H 6H 7H")
    >>> check_anchor(parse_card("9H"), MeldKind.SEQUENCE, seq, RULES_MD)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: "9H" onto "5H 6H 7H": ... then 9H off it (U6.3)
    """
    if card in accepted_cards(kind, cards, rules, pair_open=pair_open):
        return
    head = f'"{card}" onto {quote_cards(cards)}'
    if kind is MeldKind.SET:
        if len(cards) == 4:
            raise IllegalActionError(f"{head}: a set of four takes nothing more", rule="U6.2")
        raise IllegalActionError(f"{head}: a set of three takes only its fourth card", rule="U6.2")
    if kind is MeldKind.SEQUENCE:
        ends = " or ".join(str(c) for c in accepted_cards(kind, cards, rules)) or "nothing"
        lows = sorted(c.r.low for c in cards)
        skipped = card.suit == cards[0].suit and (
            card.r.low in (lows[0] - 2, lows[-1] + 2) and 1 <= card.r.low <= 10
        )
        if skipped:
            step_low = lows[0] - 1 if card.r.low < lows[0] else lows[-1] + 1
            step = Card(Rank.from_low(step_low), card.s)
            raise IllegalActionError(
                f"{head}: a sequence takes only {ends}; play {step} first, then {card} off it",
                rule="U6.3",
            )
        beyond = f"{head}: a sequence takes only {ends} (its suit, one rank beyond an end, within"
        raise IllegalActionError(f"{beyond} A..10)", rule="U6.2", words=f"{beyond} ace to 10)")
    if kind is MeldKind.MARRIAGE:
        if rules.marriage_extendable:
            raise IllegalActionError(
                f"{head}: a marriage takes only a card its K or Q would take as a single: "
                "another K or Q, or the J of its suit",
                rule="A-U17",
            )
        raise IllegalActionError(f"{head}: a marriage takes no extensions", rule="A-U4")
    if kind is MeldKind.PAIR:
        if not pair_open:
            raise IllegalActionError(
                f"{head}: a pair can be extended only by the opponent in the final turn",
                rule="U8.3",
            )
        raise IllegalActionError(f"{head}: a pair takes only a card of its rank", rule="U8.3")
    anchor = cards[0]
    if anchor.r is Rank.JACK:
        raise IllegalActionError(
            f"{head}: a jack single takes only the 10 or Q of {anchor.s.name_word} "
            "(or another jack)",
            rule="A-U2",
        )
    raise IllegalActionError(
        f"{head}: a single takes only a card of rank {anchor.r.value} or the "
        f"{anchor.s.name_word} card one rank above or below (no wrap)",
        rule="U6.2",
    )


def breaking_meld(card: Card, others: Iterable[Card]) -> tuple[Card, ...] | None:
    """U7.2: a basic meld ``card`` forms with ``others`` (cards still in hand), if any.

    >>> from rulesets.cards import parse_cards, parse_card
    >>> breaking_meld(parse_card("5H"), parse_cards("6H 7H 9C"))
    (Card('5H'), Card('6H'), Card('7H'))
    >>> breaking_meld(parse_card("JH"), parse_cards("JC JD")) is None
    True
    """
    if card.is_joker or card.r is Rank.JACK:
        return None
    pool = {c for c in others if not c.is_joker and c != card}
    same = sorted(c for c in pool if c.rank is card.rank)
    if len(same) >= 2:
        return (card, same[0], same[1])
    low = card.r.low
    if low <= SEQUENCE_TOP:
        for start in (low - 2, low - 1, low):
            run = [
                Card(Rank.from_low(x), card.s)
                for x in range(start, start + 3)
                if 1 <= x <= SEQUENCE_TOP
            ]
            if len(run) == 3 and all(c == card or c in pool for c in run):
                return tuple(run)
    mate = {Rank.KING: Rank.QUEEN, Rank.QUEEN: Rank.KING}.get(card.r)
    if mate is not None and Card(mate, card.s) in pool:
        return (card, Card(mate, card.s))
    return None


def no_breaking(
    cards: Sequence[Card], hand: frozenset[Card] | None, rules: MeldRules, head: str
) -> tuple[str, ...]:
    """U7.2: refuse ``cards`` going down as singles (or a pair) if one of them forms a
    basic meld with the rest of ``hand``; without a hand, the note that says so (A-U7).

    >>> from rulesets.cards import parse_cards
    >>> no_breaking(parse_cards("AH"), frozenset(parse_cards("AH 2H 3H")), RULES_MD, "AH")
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: AH: AH forms "AH 2H 3H" with cards still in your hand; \
meld that first (U7.2)
    """
    if hand is None:
        return (U7_UNCHECKED,)
    if not rules.no_breaking:
        return ()
    for c in cards:
        meld = breaking_meld(c, hand - {c})
        if meld is not None:
            raise IllegalActionError(
                f"{head}: {c} forms {quote_cards(meld)} with cards still in your hand; "
                "meld that first",
                rule=U7_RULE,
            )
    return ()


def classify_play(cards: Sequence[Card], rules: MeldRules, *, going_out: bool) -> MeldKind:
    """What ``cards`` put down from hand are: a basic meld or jack (U5.1-U5.4), or -- on
    the going-out turn -- the pair (U5.5, ``loose_pair``: any two cards, A-U5).

    >>> from rulesets.cards import parse_cards
    >>> classify_play(parse_cards("KS 4D"), PlainMeldRules(loose_pair=True), going_out=True).value
    'pair'
    """
    if going_out and len(cards) == 2 and not _is_marriage(cards):
        return classify_pair(cards, rules)
    return classify_meld(cards)


def anchor_kind(onto: Sequence[Card], rules: MeldRules) -> MeldKind:
    """The kind of meld ``onto`` is, read off its cards (no table at hand): one card is a
    single (or a jack), two a marriage or the going-out pair, more a set or sequence."""
    _natural(onto)
    if len(onto) == 1:
        return MeldKind.JACK if onto[0].r is Rank.JACK else MeldKind.SINGLE
    if len(onto) == 2 and not _is_marriage(onto):
        return classify_pair(onto, rules)
    return classify_meld(onto)


def extension_rule(kind: MeldKind) -> str:
    """The rule an extension of a ``kind`` anchor follows (U6.2; a pair U8.3; A-U17)."""
    if kind is MeldKind.PAIR:
        return "U8.3"
    if kind is MeldKind.MARRIAGE:
        return "A-U17"
    return "U6.2"


def playable(
    cards: Iterable[Card], accepted: Iterable[Card]
) -> tuple[MeldKind, tuple[Card, ...]] | None:
    """A play among ``cards`` (a player's hand or part of it), or None: a jack alone
    (U5.4), a set, sequence or marriage (U5), or a card some anchor on the table
    takes (``accepted``; U6.2).  What ``compulsory_melding`` refuses to let a player
    keep or throw away (A-U8).  A card blocked by the no-breaking rule (U7.2) forms a
    basic meld, which is itself a play.

    >>> from rulesets.cards import parse_cards
    >>> playable(parse_cards("2C 7D 9S"), parse_cards("8D")) is None
    True
    >>> playable(parse_cards("2C 7C 3C 4C"), ())
    (<MeldKind.SEQUENCE: 'sequence'>, (Card('2C'), Card('3C'), Card('4C')))
    """
    held = frozenset(c for c in cards if not c.is_joker)
    takes = frozenset(accepted)
    for c in sorted(held):
        if c.r is Rank.JACK:
            return (MeldKind.JACK, (c,))
        meld = breaking_meld(c, held - {c})
        if meld is not None:
            return (classify_meld(meld), tuple(sorted(meld)))
    for c in sorted(held):
        if c in takes:
            return (MeldKind.SINGLE, (c,))
    return None


def meld_with(card: Card, known: Iterable[Card]) -> tuple[MeldKind, tuple[Card, ...]] | None:
    """A set, sequence or marriage ``card`` forms with other ``known`` cards (U5)."""
    meld = breaking_meld(card, frozenset(known) - {card})
    return None if meld is None else (classify_meld(meld), tuple(sorted(meld)))


def play_words(kind: MeldKind, cards: tuple[Card, ...], *, cite: bool = True) -> str:
    """What could still go down, in words (for ``compulsory_melding``); ``cite=False``
    leaves the rule it follows from out of the sentence (a screen links the rule)."""
    if kind is MeldKind.JACK:
        return f"{cards[0]} can go down alone, as every jack can" + (" (U5.4)" if cite else "")
    if kind is MeldKind.SINGLE:
        return f"{cards[0]} can extend a meld on the table, and an extension is melding"
    return f"{quote_cards(cards)} can go down as a {kind.value}"


def compulsory_discard(
    card: Card, known: Iterable[Card], accepted: Iterable[Card], rules: MeldRules, head: str
) -> None:
    """``compulsory_melding`` (U4.4, A-U8): refuse discarding ``card`` if it could go down
    instead -- a jack (U5.4), a card an anchor on the table takes (``accepted``), or part
    of a set, sequence or marriage with the other ``known`` cards of the hand.

    >>> from rulesets.cards import parse_card
    >>> compulsory_discard(parse_card("JH"), (), (), PlainMeldRules(compulsory_melding=True), "JH")
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: JH: JH can go down alone, as every jack can (U5.4); \
melding is compulsory (U4.4)
    """
    if not rules.compulsory_melding:
        return
    play = playable([card], accepted) or meld_with(card, known)
    if play is not None:
        raise IllegalActionError(
            f"{head}: {play_words(*play)}; melding is compulsory",
            rule="U4.4",
            words=f"{head}: {play_words(*play, cite=False)}; melding is compulsory",
        )
