"""Small words every game's messages use: plurals, quoted cards, lists of names.

>>> plural(1, "point"), plural(-3, "chip"), plural(2, "penalty point")
('1 point', '-3 chips', '2 penalty points')
>>> from rulesets.cards import parse_cards
>>> quote_cards(parse_cards("7H 8H 9H"))
'"7H 8H 9H"'
>>> names_and(["Ann", "Bob", "Cy"])
'Ann, Bob and Cy'
>>> quote_input("5H " * 5000, limit=12)
'"5H 5H 5H 5H … (14,999 characters)"'
>>> card_words(["5H", "6h", "10♥"]), card_words("JK"), card_words(["zz"])
('5♥ 6♥ 10♥', '🃏', 'zz')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # cards.py words its own errors with quote_input
    from rulesets.cards import Card

__all__ = [
    "INPUT_LIMIT",
    "card_words",
    "names_and",
    "ordinal_meld",
    "plural",
    "quote_cards",
    "quote_input",
    "said",
]

#: how much of someone's input a message repeats before it cuts it short.
INPUT_LIMIT: Final = 80


def plural(n: int, word: str) -> str:
    """``n`` with ``word``, singular for one (and minus one): "1 card", "3 cards"."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def names_and(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``.

    >>> names_and([]), names_and(("Ann",)), names_and(["Ann", "Bob"])
    ('', 'Ann', 'Ann and Bob')
    """
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def quote_input(text: str, *, limit: int = INPUT_LIMIT) -> str:
    """What a person typed, in double quotes, cut after ``limit`` characters (at a
    word) so a message repeats the input without repeating kilobytes of it.

    >>> quote_input("QH qh")
    '"QH qh"'
    """
    text = text.strip()
    if len(text) <= limit:
        return f'"{text}"'
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return f'"{cut.rstrip()} … ({len(text):,} characters)"'


def quote_cards(cards: Iterable[Card], *, limit: int = INPUT_LIMIT) -> str:
    """Cards in canonical text, in double quotes (cut short like :func:`quote_input`)."""
    return quote_input(" ".join(map(str, cards)), limit=limit)


def card_words(cards: str | Card | Iterable[str | Card], *, limit: int = INPUT_LIMIT) -> str:
    """Cards as people write them, with suit symbols: "5♥ 6♥ 7♥", what a message says
    on screen; cut short like :func:`quote_input` (no quotes: the symbols mark them).

    Words never fail: a text that is no card (a damaged entry) is kept as written.
    """
    # Cards are told from texts by type, without importing cards.py (it words its
    # errors with this module); this runs for every refusal, so it stays cheap.
    one = isinstance(cards, str) or not hasattr(cards, "__iter__")  # no ABC check: cheap
    items: Iterable[str | Card] = (cards,) if one else cards  # type: ignore[assignment]
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            out.append(item.symbol)
            continue
        from rulesets.cards import parse_card

        try:
            out.append(parse_card(item).symbol)
        except ValueError:
            out.append(item)
    text = " ".join(out)
    return text if len(text) <= limit else quote_input(text, limit=limit)[1:-1]


#: a card in the referee's canonical notation, alone (not "10-point", not a rule ID)
_CARD = r"(?<![\w.-])(?:10|[2-9AKQJ])[HSDC](?![\w-])"
#: cards quoted as the referee quotes input: '"5H 6H 7H"', '"5H 6H … (1,234 characters)"'
_QUOTED = re.compile(rf'"((?:{_CARD})(?: (?:{_CARD}|…))*(?: \([\d,]+ characters\))?)"')
_CARD_RE = re.compile(_CARD)


def said(text: str) -> str:
    """One of the referee's sentences as a screen says it: its cards as people write
    them (5♥ 6♥ 7♥), not in the canonical notation it writes its messages in.

    The referee's messages (an error's text, a verdict's ``reason``, what
    ``companion check`` prints) keep the canonical "5H" -- a public contract; a
    verdict's and an error's ``words`` are this.  Only whole card codes change: a
    rule ID, "10-point" or a word is left as it is.

    >>> said('"5H 6H 7H" is a sequence: 3 points on your side')
    '5♥ 6♥ 7♥ is a sequence: 3 points on your side'
    >>> said("lay 10D: Ann's lowest diamond is 2D, lower than 10D")
    "lay 10♦: Ann's lowest diamond is 2♦, lower than 10♦"
    >>> said('the AD+KD pot; "hello"; a 10-point card; U5.4')
    'the A♦+K♦ pot; "hello"; a 10-point card; U5.4'
    """
    text = _QUOTED.sub(lambda m: m.group(1), text)
    return _CARD_RE.sub(lambda m: card_words(m.group(0)), text)


def ordinal_meld(index: int) -> str:
    """A meld on the table by its place, counted from one as people count: "meld 1".

    >>> ordinal_meld(0)
    'meld 1'
    """
    return f"meld {index + 1}"
