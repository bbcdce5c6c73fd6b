"""The Rummoli board: the nine pots, pay cards and deal sizes (M1, M2).

Everything here is a pure function of the house rules (:mod:`.house_rules`); nothing knows about a
game in progress.  Each pot carries what wins it and the rule that says so,
so a screen can show the board without holding any rule text itself.

>>> pot_names(PlainBoardRules(board="eight_nine_ten"))
('poker', '10S', 'JD', 'QC', 'KH', 'AS', 'AD+KD', '8-9-10', 'rummoli')
>>> POTS["AD+KD"].wins
'one player lays both K♦ and A♦ in this round'
>>> pot_rule("8-9-10")
'A-M19'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from rulesets.cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from rulesets.switches import Switch

__all__ = [
    "AK_DIAMONDS",
    "RULES_MD",
    "WIDOW_NEEDS_NO_PAY_CARD",
    "ANTE",
    "ANTE_POTS",
    "POTS",
    "POT_LABELS",
    "SINGLE_POTS",
    "BoardRules",
    "PlainBoardRules",
    "PotRule",
    "deal_sizes",
    "next_rank",
    "pay_cards_in",
    "pay_cards_text",
    "pot_names",
    "pot_rule",
    "run_pot",
    "run_ranks",
]

#: pots on the board, each gets 1 chip of every ante (M1.3, A-M2).
ANTE_POTS = 9
#: chips each player antes before every deal (M1.3).
ANTE = ANTE_POTS


# --------------------------------------------------------------------------- pots


# --------------------------------------------------------------------------- house rules

WIDOW_NEEDS_NO_PAY_CARD: Final = Switch(
    "Widow only without pay cards", "only a hand without pay cards may take the widow"
)


class BoardRules(Protocol):
    """The house-rule switches the board and the widow check read.  Rummoli's house
    rules (:class:`~rulesets.rummoli.house_rules.RummoliRules`) have them, and so has
    :class:`PlainBoardRules`, which needs no pydantic."""

    @property
    def board(self) -> str: ...

    @property
    def widow_needs_no_pay_card(self) -> bool: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class PlainBoardRules:
    """The switches of :class:`BoardRules` as plain data; the defaults are RULES.md's,
    the same as ``RummoliRules()``'s (a test holds them equal)."""

    board: str = "seven_eight_nine"
    widow_needs_no_pay_card: bool = True


#: the board of RULES.md, no switch changed (what a check without ``--rules`` uses).
RULES_MD: Final = PlainBoardRules()


@dataclass(frozen=True, slots=True, kw_only=True)
class PotRule:
    """One pot of the board: its name, how it is shown, what wins it and the rule."""

    pot: str
    label: str
    wins: str
    rule: str
    cards: tuple[Card, ...] = ()
    #: won only when one player lays every card of it (A-M8, A-M9, A-M19)
    combo: bool = False


POTS: dict[str, PotRule] = {
    p.pot: p
    for p in (
        PotRule(pot="poker", label="Poker", wins="the poker winner", rule="M4.3"),
        PotRule(
            pot="10S", label="10♠", wins="whoever lays 10♠", rule="M5.6", cards=parse_cards("10S")
        ),
        PotRule(pot="JD", label="J♦", wins="whoever lays J♦", rule="M5.6", cards=parse_cards("JD")),
        PotRule(pot="QC", label="Q♣", wins="whoever lays Q♣", rule="M5.6", cards=parse_cards("QC")),
        PotRule(pot="KH", label="K♥", wins="whoever lays K♥", rule="M5.6", cards=parse_cards("KH")),
        PotRule(pot="AS", label="A♠", wins="whoever lays A♠", rule="M5.6", cards=parse_cards("AS")),
        PotRule(
            pot="AD+KD",
            label="A♦+K♦",
            wins="one player lays both K♦ and A♦ in this round",
            rule="A-M8",
            cards=parse_cards("KD AD"),
            combo=True,
        ),
        PotRule(
            pot="7-8-9",
            label="7-8-9",
            wins="one player lays the 7, 8 and 9 of one suit",
            rule="A-M9",
            combo=True,
        ),
        PotRule(
            pot="8-9-10",
            label="8-9-10",
            wins="one player lays the 8, 9 and 10 of one suit",
            rule="A-M19",
            combo=True,
        ),
        PotRule(pot="rummoli", label="Rummoli", wins="the first player out", rule="M6.1"),
    )
}
POT_LABELS: dict[str, str] = {name: p.label for name, p in POTS.items()}
SINGLE_POTS: dict[str, Card] = {k: parse_card(k) for k in ("10S", "JD", "QC", "KH", "AS")}
AK_DIAMONDS = (parse_card("AD"), parse_card("KD"))


def pot_rule(pot: str) -> str:
    """The rule under which a pay pot is won when its card(s) are laid.

    >>> pot_rule("10S"), pot_rule("AD+KD"), pot_rule("7-8-9")
    ('M5.6', 'A-M8', 'A-M9')
    """
    return POTS[pot].rule


def run_ranks(rules: BoardRules) -> tuple[Rank, Rank, Rank]:
    """The three ranks of the run pot (7-8-9, or 8-9-10 on the regional board, A-M19)."""
    if rules.board == "eight_nine_ten":
        return (Rank.EIGHT, Rank.NINE, Rank.TEN)
    return (Rank.SEVEN, Rank.EIGHT, Rank.NINE)


def run_pot(rules: BoardRules) -> str:
    """The name of the run pot on this board: ``7-8-9`` or ``8-9-10``."""
    return "8-9-10" if rules.board == "eight_nine_ten" else "7-8-9"


def pot_names(rules: BoardRules | None = None) -> tuple[str, ...]:
    """The nine pots in board order, the numbering of M1.2 (A-M1 adds A♠), centre last.

    >>> pot_names()
    ('poker', '10S', 'JD', 'QC', 'KH', 'AS', 'AD+KD', '7-8-9', 'rummoli')
    """
    r = rules or RULES_MD
    return ("poker", *SINGLE_POTS, "AD+KD", run_pot(r), "rummoli")


def pay_cards_in(cards: Sequence[Card] | str, rules: BoardRules | None = None) -> list[str]:
    """The pay cards (M2.4, A-M7) found in a hand, as text.

    >>> pay_cards_in("2C 10S 7H 8H 9H KD")
    ['10S', 'KD', '7H 8H 9H']
    >>> pay_cards_in("2C 3C 4D")
    []
    """
    r = rules or RULES_MD
    hand = set(parse_cards(cards))
    found = [str(c) for c in (*SINGLE_POTS.values(), AK_DIAMONDS[1], AK_DIAMONDS[0]) if c in hand]
    for suit in Suit:
        run = [Card(rank, suit) for rank in run_ranks(r)]
        if all(c in hand for c in run):
            found.append(format_cards(run))
    return found


def pay_cards_text(rules: BoardRules | None = None) -> str:
    """The pay cards of M2.4 in words, for the widow question.

    >>> pay_cards_text(PlainBoardRules(board="eight_nine_ten"))
    '10♠ J♦ Q♣ K♥ A♠ K♦ A♦, or the 8-9-10 of one suit'
    """
    return f"10♠ J♦ Q♣ K♥ A♠ K♦ A♦, or the {run_pot(rules or RULES_MD)} of one suit"


def deal_sizes(players: int) -> list[int]:
    """Cards per hand in deal order, the widow last (M2.1).

    >>> deal_sizes(4)
    [11, 11, 10, 10, 10]
    >>> deal_sizes(2)
    [18, 17, 17]
    """
    hands = players + 1
    base, extra = divmod(52, hands)
    return [base + (1 if i < extra else 0) for i in range(hands)]


def next_rank(rank: Rank) -> Rank | None:
    """The rank that continues a suit (M5.2); None after the ace (M5.4).

    >>> next_rank(Rank.KING), next_rank(Rank.ACE)
    (<Rank.ACE: 'A'>, None)
    """
    if rank is Rank.ACE:
        return None
    if rank is Rank.KING:
        return Rank.ACE
    return Rank.from_low(rank.low + 1)
