"""Basic Rummy: the referee for melds, lay-offs, turns and penalty scoring.

Rule IDs (``R1.1`` ... ``R7``, ``A-R1`` ... ``A-R11``) refer to RULES.md section 2.

Glossary:

* **meld** -- 3+ cards put on the table together: a **set** (3 or 4 of one rank,
  R2.1) or a **run** (3+ consecutive cards of one suit, ace low, R2.2).
* **lay-off** -- cards added to any player's meld on the table, which must stay
  valid (R3.3); melds on the table are never rearranged (R2.3).
* **deadwood** -- cards left in a hand that belong to no meld; they are the
  **penalty** a loser adds to their total (R6).
* **going out** -- emptying one's hand, which ends the hand at once (R4.1);
  **going rummy** -- doing it in one turn with nothing placed before (R4.2, A-R5).
* **joker** -- a wild card (variant ``jokers``) that *stands for* one natural
  card, fixed once melded (A-R8).

>>> RULESET.check(parse_cards("QH KH AH")).legal
False
>>> RULESET.check(parse_cards("QH KH AH"), rules=RummyRules(ace_high_or_low=True)).kind
'run'
>>> RULESET.score(parse_cards("KS 7D AC")).points
18
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from rulesets.cards import JOKER, Card, Rank, Suit, format_cards, parse_card, parse_cards
from rulesets.errors import (
    CardParseError,
    HouseRuleError,
    IllegalActionError,
    RecordError,
    RulesetError,
)
from rulesets.protocol import GameRecord, HouseRulesBase, ScoreReport, Verdict

__all__ = [
    "DEAL_SIZES",
    "JOKERS_IN_PACK",
    "RULESET",
    "Action",
    "Discard",
    "Draw",
    "HandEnd",
    "LayOff",
    "Meld",
    "MeldShape",
    "RummyGame",
    "RummyRules",
    "RummyRuleset",
    "StartHand",
    "Suggestion",
    "SwapJoker",
    "TableMeld",
    "analyse_meld",
    "card_value",
    "deal_size",
    "extend_meld",
    "HandResult",
    "parse_action",
    "random_record",
    "hand_value",
    "suggest",
]

#: cards dealt to each player by number of players (R1.3).
DEAL_SIZES: Final = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
#: jokers added to the 52-card pack when the ``jokers`` variant is on (R7).
JOKERS_IN_PACK: Final = 2
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


# --------------------------------------------------------------------------- house rules


class RummyRules(HouseRulesBase):
    """House rules for basic Rummy; the defaults are the seed rules (R1-R6).

    >>> RummyRules().target, RummyRules(ace_high_or_low=True).ace_high_or_low
    (100, True)
    """

    fixed_rounds: int | None = None
    multi_meld: bool = False
    going_rummy_double: bool = False
    meld_before_layoff: bool = False
    ace_high_or_low: bool = False
    round_the_corner: bool = False
    jokers: bool = False
    joker_swap: bool = False
    must_discard_to_go_out: bool = False
    winner_takes_all: bool = False
    cash: bool = False
    target: int = 100
    no_shuffle: bool = False
    max_reshuffles: int | None = None
    block_rummy: bool = False
    winner_deals: bool = False

    EXPLAIN: ClassVar[dict[str, str]] = {
        "fixed_rounds": "Play this many hands instead of playing to the target; lowest total wins.",
        "multi_meld": "Any number of melds per turn (standard: at most one).",
        "going_rummy_double": "Going rummy doubles the hand's score (each loser's penalty ×2).",
        "meld_before_layoff": "You may lay off only after putting down a meld of your own.",
        "ace_high_or_low": "Q-K-A is a run as well as A-2-3; an ace counts 15 points.",
        "round_the_corner": "Runs may turn the corner (K-A-2); needs ace_high_or_low.",
        "jokers": "Two jokers join the pack: wild in sets and runs, 15 points in hand.",
        "joker_swap": "Swap the natural card a melded joker stands for and take the joker.",
        "must_discard_to_go_out": "Your last card must be a discard, not a meld or lay-off.",
        "winner_takes_all": "Only the winner scores, the losers' total; first to the target wins.",
        "cash": "Fixed rounds, then everyone settles the differences between totals.",
        "target": "The game ends when a total reaches this score (default 100).",
        "no_shuffle": "When the stock runs out, turn the discard pile over without shuffling.",
        "max_reshuffles": "The discard pile may be reused this many times in one hand.",
        "block_rummy": "The pile is never reused: an empty stock ends the hand, everyone scores.",
        "winner_deals": "The winner of a hand deals the next one (standard: pass clockwise).",
    }

    @model_validator(mode="after")
    def _consistent(self) -> RummyRules:
        if self.target < 1:
            raise ValueError("target must be at least 1")
        if self.fixed_rounds is not None and self.fixed_rounds < 1:
            raise ValueError("fixed_rounds must be at least 1")
        if self.max_reshuffles is not None and self.max_reshuffles < 0:
            raise ValueError("max_reshuffles must be 0 or more")
        if self.round_the_corner and not self.ace_high_or_low:
            raise ValueError("round_the_corner needs ace_high_or_low")
        if self.joker_swap and not self.jokers:
            raise ValueError("joker_swap needs jokers")
        if self.cash and self.fixed_rounds is None:
            raise ValueError("cash is played over fixed_rounds=n")
        return self


def _rules(rules: HouseRulesBase | dict[str, Any] | None) -> RummyRules:
    if rules is None:
        return _DEFAULT_RULES
    if isinstance(rules, RummyRules):
        return rules
    data = rules.model_dump() if isinstance(rules, HouseRulesBase) else rules
    try:
        return RummyRules.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "rules"
        raise HouseRuleError(f"{data!r}: bad Rummy house rules: {where}: {first['msg']}") from None


_DEFAULT_RULES: Final = RummyRules()


# --------------------------------------------------------------------------- card values


def card_value(card: Card, rules: RummyRules | None = None) -> int:
    """Penalty value of one card (R6.1): K Q J 10 = 10, 2-9 face, A = 1 (15 with
    ``ace_high_or_low``), joker = 15 (``jokers``).

    >>> card_value(parse_card("QS")), card_value(parse_card("AH"))
    (10, 1)
    >>> card_value(parse_card("AH"), RummyRules(ace_high_or_low=True))
    15
    """
    r = rules or _DEFAULT_RULES
    if card.rank is None:
        if not r.jokers:
            raise IllegalActionError('"JK": no jokers in the standard game', rule="R1.1")
        return 15
    if card.rank is Rank.ACE:
        return 15 if r.ace_high_or_low else 1
    return min(card.rank.low, 10)


def hand_value(cards: Iterable[Card], rules: RummyRules | None = None) -> int:
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


# --------------------------------------------------------------------------- melds


def _rank_at(value: int) -> Rank:
    """Rank at a run position: 1 = A, 13 = K, 14 = A again, 15 = 2 (round the corner)."""
    return _RANK_AT[value] if 0 < value < len(_RANK_AT) else Rank.from_low((value - 1) % 13 + 1)


_RANK_AT: Final = (Rank.KING, *(Rank.from_low((v - 1) % 13 + 1) for v in range(1, 28)))


def _text(cards: Iterable[Card]) -> str:
    return f'"{format_cards(cards)}"'


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
                out.append(f"JK={Card(_rank_at(self.start + i), self.suit)}")
            elif self.rank is not None:
                out.append(f"JK={self.rank.value} (a {self.rank.name_word} of a missing suit)")
        return tuple(out)

    def natural_for(self, index: int) -> Rank:
        """The rank the card at ``index`` has or stands for."""
        if self.kind == "set" and self.rank is not None:
            return self.rank
        return _rank_at(self.start + index)


def _run_bounds_ok(start: int, end: int, rules: RummyRules) -> bool:
    if end - start + 1 > 13 or start < 1:
        return False
    if rules.round_the_corner:
        return start <= 13
    return end <= (14 if rules.ace_high_or_low else 13)


def _run_error(cards: Sequence[Card], rules: RummyRules) -> IllegalActionError:
    naturals = [c for c in cards if not c.is_joker]
    if len({c.suit for c in naturals}) > 1:
        return IllegalActionError(f"{_text(cards)}: a run must be all one suit", rule="R2.2")
    ranks = {c.r for c in naturals}
    if Rank.ACE in ranks and Rank.KING in ranks and not rules.ace_high_or_low:
        return IllegalActionError(
            f"{_text(cards)}: the ace is low, so Q-K-A is not a run"
            " (house rule ace_high_or_low allows it)",
            rule="R2.2",
        )
    if Rank.ACE in ranks and Rank.KING in ranks and Rank.TWO in ranks:
        return IllegalActionError(
            f"{_text(cards)}: a run may not turn the corner (K-A-2)"
            " (house rule round_the_corner allows it)",
            rule="R7",
        )
    return IllegalActionError(
        f"{_text(cards)}: not consecutive cards of one suit, nor 3-4 of one rank", rule="R2.2"
    )


def _as_run(cards: Sequence[Card], rules: RummyRules) -> MeldShape | None:
    naturals = [c for c in cards if not c.is_joker]
    if not naturals or len({c.suit for c in naturals}) != 1:
        return None
    suit = naturals[0].s
    n = len(cards)
    if n > 13:
        return None
    ranks = {c.r for c in naturals}
    if len(ranks) != len(naturals):
        return None
    best: int | None = None
    ordered_start: int | None = None
    for start in range(1, 15):
        if not _run_bounds_ok(start, start + n - 1, rules):
            continue
        window = [_rank_at(v) for v in range(start, start + n)]
        if len(set(window)) != n or not ranks <= set(window):
            continue
        best = start  # the largest start puts spare jokers at the top
        if all(c.is_joker or c.r is window[i] for i, c in enumerate(cards)):
            ordered_start = start
    chosen = ordered_start if ordered_start is not None else best
    if chosen is None:
        return None
    window = [_rank_at(v) for v in range(chosen, chosen + n)]
    by_rank = {c.r: c for c in naturals}
    jokers = n - len(naturals)
    ordered = tuple(by_rank.get(r, JOKER) for r in window)
    if sum(c.is_joker for c in ordered) != jokers:  # pragma: no cover - guarded above
        return None
    return MeldShape("run", ordered, suit=suit, start=chosen)


def _as_set(cards: Sequence[Card]) -> MeldShape | None:
    naturals = [c for c in cards if not c.is_joker]
    if not naturals or not 3 <= len(cards) <= 4:
        return None
    if len({c.rank for c in naturals}) != 1 or len({c.suit for c in naturals}) != len(naturals):
        return None
    return MeldShape(
        "set", tuple(naturals) + (JOKER,) * (len(cards) - len(naturals)), rank=naturals[0].r
    )


def analyse_meld(
    cards: Sequence[Card],
    rules: RummyRules | None = None,
    *,
    kind: Literal["set", "run"] | None = None,
) -> MeldShape:
    """The meld these cards make, or :class:`IllegalActionError` with the rule.

    Jokers (variant ``jokers``) are placed where they are listed when the cards
    are given in run order, otherwise they fill gaps and then extend the top.
    A natural card plus jokers that could be either is a set unless
    ``kind="run"``.

    >>> analyse_meld(parse_cards("3H AH 2H")).cards
    (Card('AH'), Card('2H'), Card('3H'))
    >>> analyse_meld(parse_cards("5S 5H 5D 5C")).kind
    'set'
    >>> analyse_meld(parse_cards("5S 6S JK"), RummyRules(jokers=True)).stands_for()
    ('JK=7S',)
    >>> analyse_meld(parse_cards("KH AH 2H"))
    Traceback (most recent call last):
    ...
    rulesets.errors.IllegalActionError: "KH AH 2H": the ace is low, so Q-K-A is not a run \
(house rule ace_high_or_low allows it) (R2.2)
    """
    r = rules or _DEFAULT_RULES
    cards = tuple(cards)
    seen: set[Card] = set()
    for c in cards:
        if c in seen and not c.is_joker:
            raise CardParseError(f"{_text(cards)}: {c} is listed twice")
        seen.add(c)
    jokers = sum(c.is_joker for c in cards)
    if jokers and not r.jokers:
        raise IllegalActionError(
            f"{_text(cards)}: no jokers in the standard game (house rule jokers)", rule="R1.1"
        )
    if jokers == len(cards) and cards:
        raise IllegalActionError(
            f"{_text(cards)}: a meld needs at least one natural card", rule="R7"
        )
    if len(cards) < 3:
        raise IllegalActionError(f"{_text(cards)}: a meld needs at least 3 cards", rule="R2.1")
    as_set = None if kind == "run" else _as_set(cards)
    if as_set is not None:
        return as_set
    as_run = None if kind == "set" else _as_run(cards, r)
    if as_run is not None:
        return as_run
    naturals = [c for c in cards if not c.is_joker]
    if len({c.rank for c in naturals}) == 1 and kind != "run" and len(cards) > 4:
        raise IllegalActionError(f"{_text(cards)}: a set has 3 or 4 cards of one rank", rule="R2.1")
    if kind == "set":
        raise IllegalActionError(f"{_text(cards)}: a set is 3 or 4 cards of one rank", rule="R2.1")
    raise _run_error(cards, r)


def extend_meld(
    meld: MeldShape, cards: Sequence[Card], rules: RummyRules | None = None
) -> MeldShape:
    """``meld`` with ``cards`` laid off onto it (R3.3), or :class:`IllegalActionError`.

    Cards already in the meld keep their place and what they stand for (R2.3).

    >>> m = analyse_meld(parse_cards("10S 10D 10H"))
    >>> extend_meld(m, parse_cards("10C")).cards
    (Card('10S'), Card('10D'), Card('10H'), Card('10C'))
    >>> run = analyse_meld(parse_cards("4H 5H 6H"))
    >>> [str(c) for c in extend_meld(run, parse_cards("7H 3H")).cards]
    ['3H', '4H', '5H', '6H', '7H']
    """
    r = rules or _DEFAULT_RULES
    cards = tuple(cards)
    if not cards:
        raise IllegalActionError("nothing to lay off", rule="R3.3")
    shown = f'"{format_cards(cards)}" onto "{format_cards(meld.cards)}"'
    jokers = sum(c.is_joker for c in cards)
    if jokers and not r.jokers:
        raise IllegalActionError(f"{shown}: no jokers in the standard game", rule="R1.1")
    naturals = [c for c in cards if not c.is_joker]
    if len(set(naturals)) != len(naturals) or set(naturals) & set(meld.cards):
        raise CardParseError(f"{shown}: a card is listed twice")
    if meld.kind == "set":
        rank = meld.rank
        bad = [c for c in naturals if c.rank is not rank]
        if bad:
            raise IllegalActionError(
                f"{shown}: {bad[0]} is not a {rank.name_word if rank else '?'}; the set would"
                " break",
                rule="R3.3",
            )
        suits = [c.suit for c in meld.cards if not c.is_joker] + [c.suit for c in naturals]
        if len(meld.cards) + len(cards) > 4 or len(set(suits)) != len(suits):
            raise IllegalActionError(
                f"{shown}: a set has at most 4 cards, one of each suit", rule="R2.1"
            )
        return MeldShape("set", meld.cards + cards, rank=rank)
    suit = meld.suit
    bad = [c for c in naturals if c.suit is not suit]
    if bad:
        raise IllegalActionError(
            f"{shown}: {bad[0]} is not a {suit}; the run would break", rule="R3.3"
        )
    k = len(cards)
    for left in range(k + 1):
        start, end = meld.start - left, meld.end + (k - left)
        if not _run_bounds_ok(start, end, r):
            continue
        positions = {
            _rank_at(v): v for v in [*range(start, meld.start), *range(meld.end + 1, end + 1)]
        }
        if len(positions) != k:
            continue
        placed: dict[int, Card] = {}
        for c in naturals:
            v = positions.get(c.r)
            if v is None or v in placed:
                break
            placed[v] = c
        else:
            new = []
            for v in range(start, end + 1):
                if meld.start <= v <= meld.end:
                    new.append(meld.cards[v - meld.start])
                else:
                    new.append(placed.get(v, JOKER))
            return MeldShape("run", tuple(new), suit=suit, start=start)
    raise IllegalActionError(
        f"{shown}: the cards do not continue the run at either end", rule="R3.3"
    )


# --------------------------------------------------------------------------- suggest


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The best way to meld a hand: melds, leftover deadwood and its value."""

    melds: tuple[MeldShape, ...]
    deadwood: tuple[Card, ...]
    points: int


def _candidates(
    naturals: tuple[Card, ...], jokers: int, rules: RummyRules
) -> list[tuple[int, int, int]]:
    """Every (natural-mask, jokers-used, lowest-bit) meld that can be made from the hand."""
    out: list[tuple[int, int, int]] = []
    by_rank: dict[Rank, list[int]] = {}
    by_suit: dict[Suit, dict[Rank, int]] = {}
    for i, c in enumerate(naturals):
        by_rank.setdefault(c.r, []).append(i)
        by_suit.setdefault(c.s, {})[c.r] = i
    for idxs in by_rank.values():
        m = len(idxs)
        for sub in range(1, 1 << m):
            chosen = [idxs[b] for b in range(m) if sub >> b & 1]
            for size in (3, 4):
                need = size - len(chosen)
                if 0 <= need <= jokers:
                    mask = sum(1 << i for i in chosen)
                    out.append((mask, need, mask & -mask))
    for ranks in by_suit.values():
        for start in range(1, 14):
            present: list[int] = []
            for end in range(start, start + 13):
                if not _run_bounds_ok(start, end, rules):
                    break
                rank = _RANK_AT[end]
                if rank in ranks:
                    present.append(ranks[rank])
                length = end - start + 1
                missing = length - len(present)
                if missing > jokers:
                    break  # gaps only grow as the window does
                if length < 3 or not present:
                    continue
                # jokers may also stand in for cards we hold (to free them elsewhere)
                full = sum(1 << i for i in present)
                for drop in range(min(jokers - missing, len(present) - 1) + 1):
                    for dropped in combinations(present, drop):
                        mask = full & ~sum(1 << i for i in dropped)
                        out.append((mask, missing + drop, mask & -mask))
    return out


def suggest(hand: Sequence[Card] | str, rules: HouseRulesBase | None = None) -> Suggestion:
    """The melding of ``hand`` that leaves the least deadwood (exact search, not greedy).

    Sets and runs may share no card (R2.3); the search tries every partition.

    >>> s = suggest("7H 7S 7D 8H 9H")
    >>> [format_cards(m.cards) for m in s.melds], s.points
    (['7H 8H 9H'], 14)
    >>> s = suggest("7H 7S 7D 7C 8H 9H")
    >>> [format_cards(m.cards) for m in s.melds], s.points
    (['7S 7D 7C', '7H 8H 9H'], 0)
    """
    r = _rules(rules)
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    naturals = tuple(sorted(c for c in cards if not c.is_joker))
    if len(set(naturals)) != len(naturals):
        raise CardParseError(f"{_text(cards)}: a card is listed twice")
    jokers = len(cards) - len(naturals)
    if jokers and not r.jokers:
        raise IllegalActionError(f"{_text(cards)}: no jokers in the standard game", rule="R1.1")
    values = [card_value(c, r) for c in naturals]
    cands = _candidates(naturals, jokers, r)
    by_low: dict[int, list[tuple[int, int]]] = {}
    for mask, need, low in cands:
        by_low.setdefault(low, []).append((mask, need))

    @cache
    def best(mask: int, j: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        if mask == 0:
            return (15 * j, ())
        low = mask & -mask
        i = low.bit_length() - 1
        rest, plan = best(mask & ~low, j)
        result = (rest + values[i], plan)
        for cmask, need in by_low.get(low, ()):
            if need <= j and cmask & mask == cmask:
                sub, subplan = best(mask & ~cmask, j - need)
                if sub < result[0]:
                    result = (sub, ((cmask, need), *subplan))
        return result

    points, plan = best((1 << len(naturals)) - 1, jokers)
    melds: list[MeldShape] = []
    used = 0
    used_jokers = 0
    for cmask, need in plan:
        used |= cmask
        used_jokers += need
        group = [naturals[i] for i in range(len(naturals)) if cmask >> i & 1]
        shape = _shape_for(group, need, r)
        melds.append(shape)
    deadwood = tuple(naturals[i] for i in range(len(naturals)) if not used >> i & 1)
    deadwood += (JOKER,) * (jokers - used_jokers)
    return Suggestion(tuple(melds), deadwood, points)


def _shape_for(group: list[Card], jokers: int, rules: RummyRules) -> MeldShape:
    cards = [*group, *([JOKER] * jokers)]
    if len({c.rank for c in group}) == 1 and len(cards) <= 4:
        return analyse_meld(cards, rules, kind="set")
    # place jokers exactly: find the window that holds the naturals
    return analyse_meld(cards, rules, kind="run")


# --------------------------------------------------------------------------- actions


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartHand(_Action):
    """A new hand is dealt.  ``dealer`` is checked against the rotation (R1.2)
    when given; ``turns=True`` means every draw and discard will be logged, so the
    referee also enforces the turn rules (R3, R4, R5)."""

    type: Literal["start_hand"] = "start_hand"
    dealer: str | None = None
    turns: bool = False
    upcard: str | None = None


class Draw(_Action):
    """The player draws from the stock or the discard pile (R3.1)."""

    type: Literal["draw"] = "draw"
    player: str
    source: Literal["stock", "discard"] = "stock"
    card: str | None = None


class Meld(_Action):
    """The player puts a new meld on the table (R2, R3.2)."""

    type: Literal["meld"] = "meld"
    player: str
    cards: list[str]
    kind: Literal["set", "run"] | None = None


class LayOff(_Action):
    """The player adds cards to meld number ``meld`` (0-based, table order) (R3.3)."""

    type: Literal["lay_off"] = "lay_off"
    player: str
    cards: list[str]
    meld: int


class SwapJoker(_Action):
    """The player puts ``card`` in place of a joker in meld ``meld`` and takes the
    joker (variant ``joker_swap``)."""

    type: Literal["swap_joker"] = "swap_joker"
    player: str
    meld: int
    card: str


class Discard(_Action):
    """The player discards one card, ending the turn (R3.4)."""

    type: Literal["discard"] = "discard"
    player: str
    card: str | None = None


class HandEnd(_Action):
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
    remaining: dict[str, list[str]] = {}
    typed: dict[str, int] = {}


Action = Annotated[
    StartHand | Draw | Meld | LayOff | SwapJoker | Discard | HandEnd,
    Field(discriminator="type"),
]
_ACTION_ADAPTER: Final[TypeAdapter[Action]] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """An action from its JSON form, or :class:`RecordError`.

    >>> parse_action({"type": "meld", "player": "Ann", "cards": ["7H", "7S", "7D"]}).player
    'Ann'
    """
    if isinstance(data, _Action):
        return data  # type: ignore[return-value]
    try:
        return _ACTION_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise RecordError(f"{data!r}: not a Rummy action: {where}: {first['msg']}") from None


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its number, owner and shape (frozen record)."""

    index: int
    owner: str
    shape: MeldShape

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.shape.cards

    @property
    def kind(self) -> str:
        return self.shape.kind

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "owner": self.owner,
            "kind": self.shape.kind,
            "cards": [str(c) for c in self.shape.cards],
            "jokers": list(self.shape.stands_for()),
        }


@dataclass
class _Hand:
    number: int
    dealer: str
    turns: bool
    melds: list[TableMeld] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)  # cards placed this hand
    melded: set[str] = field(default_factory=set)  # players with a meld of their own
    seen: set[Card] = field(default_factory=set)  # natural cards on the table
    jokers_out: int = 0
    # turn tracking (turns=True only)
    counts: dict[str, int] = field(default_factory=dict)
    turn: str | None = None  # whose turn it is
    drawn: bool = False
    drawn_discard: Card | None = None
    melds_this_turn: int = 0
    placed_before_turn: bool = False
    stock: int = 0
    pile: int = 1
    top: Card | None = None
    reshuffles: int = 0
    out: str | None = None  # who emptied their hand
    rummy: bool = False

    def clone(self) -> _Hand:
        """An independent copy (melds are frozen, so copying the containers suffices)."""
        twin = copy.copy(self)
        twin.melds = list(self.melds)
        twin.placed = dict(self.placed)
        twin.melded = set(self.melded)
        twin.seen = set(self.seen)
        twin.counts = dict(self.counts)
        return twin


@dataclass
class _Result:
    number: int
    dealer: str
    went_out: str | None
    going_rummy: bool
    block: bool
    penalties: dict[str, int]
    scores: dict[str, int]
    typed: list[str]
    remaining: dict[str, list[str]]
    doubled: bool


class RummyGame:
    """A game of Rummy as a stack of actions; the referee of one table.

    Every action has a triad: ``verify_x`` raises :class:`IllegalActionError`,
    ``can_x`` returns a bool, ``x`` applies it and returns a frozen record.
    ``push(action)`` applies any action, ``pop()`` undoes the last one.

    >>> g = RummyGame(["Ann", "Bob", "Cy"])
    >>> g.start_hand("Ann").dealer
    'Ann'
    >>> g.meld("Bob", "7H 8H 9H").kind
    'run'
    >>> g.can_lay_off("Cy", "10H", 0), g.can_lay_off("Cy", "QH", 0)
    (True, False)
    >>> g.end_hand("Bob", remaining={"Ann": "KS 7D AC"}, typed={"Cy": 12}).scores
    {'Ann': 18, 'Bob': 0, 'Cy': 12}
    >>> g.totals, g.dealer
    ({'Ann': 18, 'Bob': 0, 'Cy': 12}, 'Bob')
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: HouseRulesBase | dict[str, Any] | None = None,
        actions: Iterable[Action | dict[str, Any]] = (),
    ) -> None:
        names = [str(p) for p in players]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise IllegalActionError(
                f"{', '.join(names) or 'no players'}: Rummy is for 2 to 6 players", rule="R1.1"
            )
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise RecordError(f"{', '.join(names)}: player names must be distinct and non-empty")
        self.players: tuple[str, ...] = tuple(names)
        self.rules: RummyRules = _rules(rules)
        self._reset()
        for a in actions:
            self.push(parse_action(a))

    # ---- state ------------------------------------------------------------------

    def _reset(self) -> None:
        self.actions: list[Action] = []
        self._hand: _Hand | None = None
        self._results: list[_Result] = []
        self._totals: dict[str, int] = dict.fromkeys(self.players, 0)
        self._next_dealer: str | None = None

    @classmethod
    def from_record(cls, record: GameRecord) -> RummyGame:
        """Rebuild a game by replaying a record (:class:`RecordError` if it won't)."""
        if record.game.strip().lower() not in ("rummy", "rum", "basic-rummy"):
            raise RecordError(f"{record.game!r}: not a Rummy record")
        return cls(record.players, record.rules, record.actions)

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="rummy",
            players=list(self.players),
            rules=self.rules.model_dump(exclude_defaults=True),
            actions=[a.model_dump(mode="json") for a in self.actions],
        )

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return tuple(self._hand.melds) if self._hand else ()

    @property
    def in_hand(self) -> bool:
        return self._hand is not None

    @property
    def hand_number(self) -> int:
        return len(self._results) + (1 if self._hand else 0)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self._totals)

    @property
    def turn(self) -> str | None:
        """Whose turn it is (only known when turns are logged)."""
        return self._hand.turn if self._hand and self._hand.turns else None

    @property
    def dealer(self) -> str | None:
        """Dealer of the current hand, or of the next one between hands."""
        if self._hand:
            return self._hand.dealer
        return self._next_dealer

    @property
    def finished(self) -> bool:
        if self._hand is not None or not self._results:
            return False
        r = self.rules
        if r.fixed_rounds is not None:
            return len(self._results) >= r.fixed_rounds
        return any(t >= r.target for t in self._totals.values())

    @property
    def winners(self) -> list[str]:
        """Lowest total (penalty) or highest (winner-takes-all); ties share (A-R11)."""
        if not self.finished:
            return []
        vals = self._totals.values()
        best = max(vals) if self.rules.winner_takes_all else min(vals)
        return [p for p in self.players if self._totals[p] == best]

    # ---- generic push / pop --------------------------------------------------------

    def push(self, action: Action | dict[str, Any]) -> Any:
        """Apply any action (verified first; state unchanged if it is refused)."""
        act = parse_action(action)
        saved = (
            self._hand.clone() if self._hand else None,
            list(self._results),
            dict(self._totals),
            self._next_dealer,
        )
        try:
            out = self._apply(act)
        except RulesetError:
            self._hand, self._results, self._totals, self._next_dealer = saved
            raise
        except (ValueError, KeyError, IndexError) as exc:  # pragma: no cover - safety net
            self._hand, self._results, self._totals, self._next_dealer = saved
            raise RecordError(f"{act.model_dump(mode='json')!r}: {exc}") from None
        self.actions.append(act)
        return out

    def can_push(self, action: Action | dict[str, Any]) -> bool:
        try:
            self.verify_push(action)
        except RulesetError:
            return False
        return True

    def verify_push(self, action: Action | dict[str, Any]) -> None:
        """Raise if ``action`` is illegal now; never changes the state."""
        act = parse_action(action)
        probe = copy.copy(self)
        probe._hand = self._hand.clone() if self._hand else None
        probe._results = list(self._results)
        probe._totals = dict(self._totals)
        probe._apply(act)

    def judge(self, action: Action | dict[str, Any]) -> Verdict:
        """A :class:`Verdict` on an action against the current table (never raises for
        an illegal play; bad notation still raises :class:`CardParseError`).

        >>> g = RummyGame(["Ann", "Bob"], {"jokers": True})
        >>> _ = g.start_hand("Ann")
        >>> v = g.judge({"type": "meld", "player": "Bob", "cards": ["5S", "6S", "JK"]})
        >>> v.legal, v.kind, v.notes
        (True, 'run', ('JK=7S',))
        >>> g.judge({"type": "lay_off", "player": "Ann", "cards": ["9S"], "meld": 0}).rule
        'R3.3'
        """
        act = parse_action(action)
        probe = copy.copy(self)
        probe._hand = self._hand.clone() if self._hand else None
        probe._results = list(self._results)
        probe._totals = dict(self._totals)
        texts = tuple(getattr(act, "cards", None) or ())
        try:
            out = probe._apply(act)
        except IllegalActionError as exc:
            return Verdict(legal=False, rule=exc.rule or "R3", reason=exc.reason, cards=texts)
        if isinstance(out, TableMeld):
            notes = out.shape.stands_for()
            rule = {"meld": "R2.1" if out.kind == "set" else "R2.2"}.get(act.type, "R3.3")
            verb = {"meld": "melds", "lay_off": "lays off onto", "swap_joker": "swaps into"}
            shown = " ".join(texts) or str(getattr(act, "card", ""))
            return Verdict(
                legal=True,
                kind=out.kind,
                points=hand_value(self._cards(list(texts)), self.rules) if texts else None,
                rule="R7" if act.type == "swap_joker" else rule,
                reason=f'"{shown}" {verb[act.type]} a {out.kind}: "{format_cards(out.cards)}"',
                cards=tuple(str(c) for c in out.cards),
                notes=notes,
            )
        return Verdict(legal=True, rule="R3", reason=f"{act.type}: allowed")

    def pop(self) -> Action:
        """Undo the last action (pop and replay)."""
        if not self.actions:
            raise RecordError("nothing to undo")
        last = self.actions[-1]
        self.undo_to(len(self.actions) - 1)
        return last

    def undo_to(self, count: int) -> None:
        """Keep only the first ``count`` actions (replayed once)."""
        if not 0 <= count <= len(self.actions):
            raise RecordError(f"undo_to({count}): the game has {len(self.actions)} actions")
        actions = self.actions[:count]
        self._reset()
        for a in actions:
            self.push(a)

    # ---- triads ------------------------------------------------------------------

    def verify_start_hand(self, dealer: str | None = None, *, turns: bool = False) -> None:
        self.verify_push(StartHand(dealer=dealer, turns=turns))

    def can_start_hand(self, dealer: str | None = None, *, turns: bool = False) -> bool:
        return self.can_push(StartHand(dealer=dealer, turns=turns))

    def start_hand(
        self, dealer: str | None = None, *, turns: bool = False, upcard: str | None = None
    ) -> StartHand:
        out: StartHand = self.push(StartHand(dealer=dealer, turns=turns, upcard=upcard))
        return out

    def verify_draw(self, player: str, source: str = "stock", card: str | None = None) -> None:
        self.verify_push({"type": "draw", "player": player, "source": source, "card": card})

    def can_draw(self, player: str, source: str = "stock", card: str | None = None) -> bool:
        return self.can_push({"type": "draw", "player": player, "source": source, "card": card})

    def draw(self, player: str, source: str = "stock", card: str | None = None) -> Draw:
        out: Draw = self.push({"type": "draw", "player": player, "source": source, "card": card})
        return out

    def verify_meld(
        self, player: str, cards: str | Sequence[str | Card], kind: str | None = None
    ) -> None:
        self.verify_push(_meld_action(player, cards, kind))

    def can_meld(
        self, player: str, cards: str | Sequence[str | Card], kind: str | None = None
    ) -> bool:
        return self.can_push(_meld_action(player, cards, kind))

    def meld(
        self, player: str, cards: str | Sequence[str | Card], kind: str | None = None
    ) -> TableMeld:
        out: TableMeld = self.push(_meld_action(player, cards, kind))
        return out

    def verify_lay_off(self, player: str, cards: str | Sequence[str | Card], meld: int) -> None:
        self.verify_push(_layoff_action(player, cards, meld))

    def can_lay_off(self, player: str, cards: str | Sequence[str | Card], meld: int) -> bool:
        return self.can_push(_layoff_action(player, cards, meld))

    def lay_off(self, player: str, cards: str | Sequence[str | Card], meld: int) -> TableMeld:
        out: TableMeld = self.push(_layoff_action(player, cards, meld))
        return out

    def verify_swap_joker(self, player: str, meld: int, card: str) -> None:
        self.verify_push(SwapJoker(player=player, meld=meld, card=card))

    def can_swap_joker(self, player: str, meld: int, card: str) -> bool:
        return self.can_push(SwapJoker(player=player, meld=meld, card=card))

    def swap_joker(self, player: str, meld: int, card: str) -> TableMeld:
        out: TableMeld = self.push(SwapJoker(player=player, meld=meld, card=card))
        return out

    def verify_discard(self, player: str, card: str | None = None) -> None:
        self.verify_push(Discard(player=player, card=card))

    def can_discard(self, player: str, card: str | None = None) -> bool:
        return self.can_push(Discard(player=player, card=card))

    def discard(self, player: str, card: str | None = None) -> Discard:
        out: Discard = self.push(Discard(player=player, card=card))
        return out

    def verify_end_hand(self, went_out: str | None, **kw: Any) -> None:
        self.verify_push(_end_action(went_out, **kw))

    def can_end_hand(self, went_out: str | None, **kw: Any) -> bool:
        return self.can_push(_end_action(went_out, **kw))

    def end_hand(
        self,
        went_out: str | None,
        *,
        going_rummy: bool | None = None,
        remaining: dict[str, str | Sequence[str]] | None = None,
        typed: dict[str, int] | None = None,
    ) -> HandResult:
        """Record the end of the hand; returns the scored hand."""
        self.push(_end_action(went_out, going_rummy=going_rummy, remaining=remaining, typed=typed))
        return _to_result(self._results[-1])

    @property
    def results(self) -> tuple[HandResult, ...]:
        return tuple(_to_result(r) for r in self._results)

    # ---- the rules ---------------------------------------------------------------

    def _player(self, name: str) -> str:
        if name not in self.players:
            raise RecordError(f"{name!r}: not a player in this game ({', '.join(self.players)})")
        return name

    def _need_hand(self, what: str) -> _Hand:
        if self._hand is None:
            if self.finished:
                raise IllegalActionError(f"{what}: the game is over", rule="R6.3")
            raise IllegalActionError(
                f"{what}: no hand is in progress (start_hand first)", rule="R1.3"
            )
        return self._hand

    def _apply(self, act: Action) -> Any:
        if isinstance(act, StartHand):
            return self._start(act)
        if isinstance(act, HandEnd):
            return self._end(act)
        hand = self._need_hand(act.type)
        player = self._player(act.player)
        if hand.out is not None:
            raise IllegalActionError(
                f"{act.type} by {player}: {hand.out} went out, the hand is over", rule="R4.1"
            )
        if isinstance(act, Draw):
            return self._draw(hand, player, act)
        self._check_turn(hand, player, act.type)
        if isinstance(act, Meld):
            return self._meld(hand, player, act)
        if isinstance(act, LayOff):
            return self._layoff(hand, player, act)
        if isinstance(act, SwapJoker):
            return self._swap(hand, player, act)
        return self._discard(hand, player, act)

    def _start(self, act: StartHand) -> StartHand:
        if self._hand is not None:
            raise IllegalActionError(
                f"start_hand: hand {self._hand.number} has not ended", rule="R4.1"
            )
        if self.finished:
            raise IllegalActionError("start_hand: the game is over", rule="R6.3")
        expected = self._next_dealer
        dealer = act.dealer if act.dealer is not None else expected
        if dealer is None:
            raise IllegalActionError(
                "start_hand: name the first dealer (chosen at random at the table)",
                rule="R1.2",
            )
        self._player(dealer)
        if expected is not None and dealer != expected:
            how = "the winner deals" if self.rules.winner_deals else "the deal passes clockwise"
            raise IllegalActionError(
                f"start_hand dealer {dealer}: {expected} deals hand {len(self._results) + 1}"
                f" ({how})",
                rule="R1.2",
            )
        n = len(self.players)
        size = deal_size(n)
        hand = _Hand(number=len(self._results) + 1, dealer=dealer, turns=act.turns)
        hand.placed = dict.fromkeys(self.players, 0)
        if act.turns:
            pack = 52 + (JOKERS_IN_PACK if self.rules.jokers else 0)
            hand.counts = dict.fromkeys(self.players, size)
            hand.stock = pack - n * size - 1
            hand.turn = self._left_of(dealer)
            if act.upcard is not None:
                hand.top = self._card(act.upcard)
        self._hand = hand
        return act.model_copy(update={"dealer": dealer})

    def _left_of(self, name: str) -> str:
        i = self.players.index(name)
        return self.players[(i + 1) % len(self.players)]

    def _card(self, text: str) -> Card:
        card = parse_card(text)
        if card.is_joker and not self.rules.jokers:
            raise IllegalActionError(f'"{text}": no jokers in the standard game', rule="R1.1")
        return card

    def _cards(self, texts: Sequence[str]) -> tuple[Card, ...]:
        cards = parse_cards(list(texts))
        for c in cards:
            if c.is_joker and not self.rules.jokers:
                raise IllegalActionError(
                    f'"{" ".join(texts)}": no jokers in the standard game', rule="R1.1"
                )
        return cards

    def _check_turn(self, hand: _Hand, player: str, what: str) -> None:
        if not hand.turns:
            return
        if player != hand.turn:
            raise IllegalActionError(f"{what} by {player}: it is {hand.turn}'s turn", rule="R1.4")
        if not hand.drawn:
            raise IllegalActionError(f"{what} by {player}: draw a card first", rule="R3.1")

    def _draw(self, hand: _Hand, player: str, act: Draw) -> Draw:
        if not hand.turns:
            return act  # draws are only refereed when turns are logged
        if player != hand.turn:
            raise IllegalActionError(f"draw by {player}: it is {hand.turn}'s turn", rule="R1.4")
        if hand.drawn:
            raise IllegalActionError(f"draw by {player}: one draw per turn", rule="R3.1")
        card = self._card(act.card) if act.card is not None else None
        r = self.rules
        if act.source == "discard":
            if hand.pile < 1:
                raise IllegalActionError(
                    f"draw by {player}: the discard pile is empty", rule="R3.1"
                )
            if card is not None and hand.top is not None and card != hand.top:
                raise IllegalActionError(
                    f'draw "{card}" by {player}: the top of the discard pile is {hand.top}',
                    rule="R3.1",
                )
            hand.drawn_discard = card if card is not None else hand.top
            hand.pile -= 1
            hand.top = None
        else:
            if hand.stock == 0:
                if r.block_rummy:
                    raise IllegalActionError(
                        f"draw by {player}: the stock is empty; with block rummy the hand"
                        " ends and everyone scores",
                        rule="R5.2",
                    )
                if r.max_reshuffles is not None and hand.reshuffles >= r.max_reshuffles:
                    raise IllegalActionError(
                        f"draw by {player}: the stock is empty and the pile was reused"
                        f" {hand.reshuffles} time(s) (max_reshuffles={r.max_reshuffles});"
                        " the hand ends",
                        rule="R5.2",
                    )
                if hand.pile < 2:
                    raise IllegalActionError(
                        f"draw by {player}: stock and pile are both empty; the hand ends",
                        rule="R5.1",
                    )
                # R5.1: the pile becomes the stock; its top card starts a new pile
                hand.stock = hand.pile - 1
                hand.pile = 1
                hand.top = None
                hand.reshuffles += 1
            hand.stock -= 1
            hand.drawn_discard = None
        hand.drawn = True
        hand.counts[player] += 1
        hand.melds_this_turn = 0
        hand.placed_before_turn = hand.placed[player] > 0
        return act

    def _stock_dead(self, hand: _Hand) -> bool:
        r = self.rules
        if hand.stock > 0:
            return False
        if r.block_rummy:
            return True
        if r.max_reshuffles is not None and hand.reshuffles >= r.max_reshuffles:
            return True
        return hand.pile < 2

    def _going_out_check(self, hand: _Hand, player: str, n: int, what: str) -> None:
        if not hand.turns:
            return
        left = hand.counts[player] - n
        if left < 0:
            raise IllegalActionError(
                f"{what}: {player} holds only {hand.counts[player]} card(s)", rule="R3.3"
            )
        if left == 0 and self.rules.must_discard_to_go_out:
            raise IllegalActionError(
                f"{what}: the last card must be discarded (must_discard_to_go_out)", rule="R7"
            )

    def _place(self, hand: _Hand, player: str, cards: Sequence[Card]) -> None:
        for c in cards:
            if c.is_joker:
                hand.jokers_out += 1
            else:
                hand.seen.add(c)
        if hand.jokers_out > JOKERS_IN_PACK:
            raise IllegalActionError(
                f"{format_cards(cards)}: the pack has only {JOKERS_IN_PACK} jokers", rule="R7"
            )
        hand.placed[player] += len(cards)
        if hand.turns:
            hand.counts[player] -= len(cards)
            if hand.counts[player] == 0:
                self._went_out(hand, player)

    def _went_out(self, hand: _Hand, player: str) -> None:
        hand.out = player
        hand.rummy = not hand.placed_before_turn

    def _check_fresh(self, hand: _Hand, cards: Sequence[Card], what: str) -> None:
        again = [c for c in cards if not c.is_joker and c in hand.seen]
        if again:
            raise IllegalActionError(f"{what}: {again[0]} is already on the table", rule="R2.3")

    def _meld(self, hand: _Hand, player: str, act: Meld) -> TableMeld:
        cards = self._cards(act.cards)
        what = f'meld "{format_cards(cards)}" by {player}'
        shape = analyse_meld(cards, self.rules, kind=act.kind)
        self._check_fresh(hand, cards, what)
        if hand.turns and hand.melds_this_turn >= 1 and not self.rules.multi_meld:
            raise IllegalActionError(
                f"{what}: one meld per turn (house rule multi_meld allows more)", rule="R3.2"
            )
        self._going_out_check(hand, player, len(cards), what)
        meld = TableMeld(len(hand.melds), player, shape)
        hand.melds.append(meld)
        hand.melds_this_turn += 1
        hand.melded.add(player)
        self._place(hand, player, cards)
        return meld

    def _target(self, hand: _Hand, index: int, what: str) -> TableMeld:
        if not 0 <= index < len(hand.melds):
            raise IllegalActionError(
                f"{what}: there is no meld {index} on the table ({len(hand.melds)} melds)",
                rule="R3.3",
            )
        return hand.melds[index]

    def _layoff(self, hand: _Hand, player: str, act: LayOff) -> TableMeld:
        cards = self._cards(act.cards)
        what = f'lay off "{format_cards(cards)}" by {player}'
        target = self._target(hand, act.meld, what)
        if self.rules.meld_before_layoff and player not in hand.melded:
            raise IllegalActionError(
                f"{what}: put down a meld of your own first (meld_before_layoff)", rule="R7"
            )
        self._check_fresh(hand, cards, what)
        shape = extend_meld(target.shape, cards, self.rules)
        self._going_out_check(hand, player, len(cards), what)
        new = TableMeld(target.index, target.owner, shape)
        hand.melds[target.index] = new
        self._place(hand, player, cards)
        return new

    def _swap(self, hand: _Hand, player: str, act: SwapJoker) -> TableMeld:
        card = self._card(act.card)
        what = f'swap "{card}" for a joker by {player}'
        if not self.rules.joker_swap:
            raise IllegalActionError(f"{what}: jokers stay put (house rule joker_swap)", rule="R7")
        target = self._target(hand, act.meld, what)
        self._check_fresh(hand, [card], what)
        shape = target.shape
        for i, c in enumerate(shape.cards):
            if not c.is_joker:
                continue
            if shape.kind == "run" and card == Card(shape.natural_for(i), shape.suit):
                break
            if (
                shape.kind == "set"
                and card.rank is shape.rank
                and card.suit not in {x.suit for x in shape.cards}
            ):
                break
        else:
            raise IllegalActionError(
                f'{what}: no joker in "{format_cards(shape.cards)}" stands for {card}',
                rule="R7",
            )
        new_cards = shape.cards[:i] + (card,) + shape.cards[i + 1 :]
        new = TableMeld(
            target.index,
            target.owner,
            MeldShape(shape.kind, new_cards, shape.rank, shape.suit, shape.start),
        )
        hand.melds[target.index] = new
        hand.seen.add(card)
        hand.jokers_out -= 1
        hand.placed[player] += 1
        return new

    def _discard(self, hand: _Hand, player: str, act: Discard) -> Discard:
        if not hand.turns:
            return act
        card = self._card(act.card) if act.card is not None else None
        what = f'discard "{card or "?"}" by {player}'
        if card is not None and hand.drawn_discard is not None and card == hand.drawn_discard:
            raise IllegalActionError(
                f"{what}: you may not discard the card taken from the discard pile this turn",
                rule="R3.4",
            )
        if card is not None and not card.is_joker and card in hand.seen:
            raise IllegalActionError(f"{what}: {card} is on the table", rule="R2.3")
        hand.counts[player] -= 1
        hand.pile += 1
        hand.top = card
        if hand.counts[player] == 0:
            self._went_out(hand, player)
        else:
            hand.turn = self._left_of(player)
            hand.drawn = False
            hand.drawn_discard = None
            hand.melds_this_turn = 0
        return act

    def _end(self, act: HandEnd) -> _Result:
        hand = self._need_hand("hand_end")
        r = self.rules
        what = "hand_end"
        for name in [*act.remaining, *act.typed]:
            self._player(name)
        both = set(act.remaining) & set(act.typed)
        if both:
            raise RecordError(f"{what}: {sorted(both)[0]} has both cards and a typed total")
        if act.went_out is None:
            block = True
            if not (r.block_rummy or r.max_reshuffles is not None):
                raise IllegalActionError(
                    f"{what}: nobody went out, but the stock is reshuffled (R5.1); only"
                    " block_rummy or max_reshuffles end a hand without a winner",
                    rule="R5.2",
                )
            if act.going_rummy:
                raise IllegalActionError(
                    f"{what}: nobody went out, so nobody went rummy", rule="R4.2"
                )
            if hand.turns and not self._stock_dead(hand):
                raise IllegalActionError(
                    f"{what}: nobody went out, but the stock can still be drawn from"
                    f" ({hand.stock} left, pile {hand.pile})",
                    rule="R5.2",
                )
            losers = list(self.players)
        else:
            block = False
            winner = self._player(act.went_out)
            if hand.out is not None and hand.out != winner:
                raise IllegalActionError(
                    f"{what}: {hand.out} emptied their hand, not {winner}", rule="R4.1"
                )
            if winner in act.remaining or winner in act.typed:
                raise IllegalActionError(
                    f"{what}: {winner} went out and holds no cards", rule="R6.2"
                )
            if hand.turns and hand.out is None:
                raise IllegalActionError(
                    f"{what}: {winner} still holds {hand.counts[winner]} card(s)", rule="R4.1"
                )
            losers = [p for p in self.players if p != winner]
        missing = [p for p in losers if p not in act.remaining and p not in act.typed]
        if missing:
            raise RecordError(
                f"{what}: give the remaining cards or a typed total for {', '.join(missing)}"
            )
        going_rummy = bool(act.going_rummy)
        if hand.turns and not block:
            if act.going_rummy and not hand.rummy:
                raise IllegalActionError(
                    f"{what}: {act.went_out} placed cards before the last turn, so this is"
                    " not going rummy",
                    rule="R4.2",
                )
            going_rummy = hand.rummy if act.going_rummy is None else act.going_rummy
        elif going_rummy and act.went_out is not None and hand.placed[act.went_out] > 0:
            # table-only logs cannot split turns; the cards placed may all be the last turn
            pass
        penalties: dict[str, int] = {}
        seen = set(hand.seen)
        jokers = hand.jokers_out
        remaining_text: dict[str, list[str]] = {}
        for p in losers:
            if p in act.typed:
                value = act.typed[p]
                if value < 0:
                    raise RecordError(f"{what}: typed total {value} for {p} is negative")
                penalties[p] = value
                continue
            texts = act.remaining[p]
            cards = self._cards(texts) if texts else ()
            for c in cards:
                if c.is_joker:
                    jokers += 1
                    if jokers > JOKERS_IN_PACK:
                        raise IllegalActionError(
                            f"{what}: more than {JOKERS_IN_PACK} jokers in play", rule="R7"
                        )
                elif c in seen:
                    raise IllegalActionError(
                        f'{what}: {c} in {p}\'s cards "{" ".join(texts)}" is already'
                        " on the table or in another hand",
                        rule="R2.3",
                    )
                seen.add(c)
            if hand.turns and len(cards) != hand.counts[p]:
                raise IllegalActionError(
                    f"{what}: {p} holds {hand.counts[p]} cards, not {len(cards)}"
                    f' ("{" ".join(texts)}")',
                    rule="R6.2",
                )
            penalties[p] = hand_value(cards, r)
            remaining_text[p] = [str(c) for c in cards]
        doubled = going_rummy and r.going_rummy_double and not block
        factor = 2 if doubled else 1
        scores = dict.fromkeys(self.players, 0)
        if r.winner_takes_all:
            if not block and act.went_out is not None:
                scores[act.went_out] = factor * sum(penalties.values())
        else:
            for p, v in penalties.items():
                scores[p] = factor * v
        result = _Result(
            number=hand.number,
            dealer=hand.dealer,
            went_out=act.went_out,
            going_rummy=going_rummy,
            block=block,
            penalties=penalties,
            scores=scores,
            typed=[p for p in self.players if p in act.typed],
            remaining=remaining_text,
            doubled=doubled,
        )
        self._results.append(result)
        for p, v in scores.items():
            self._totals[p] += v
        self._hand = None
        if r.winner_deals and act.went_out is not None:
            self._next_dealer = act.went_out
        else:
            self._next_dealer = self._left_of(hand.dealer)
        return result

    # ---- summary -----------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The common replay summary (JSON-able): totals, hands, dealer, winners..."""
        hands = []
        typed: list[dict[str, Any]] = []
        running = dict.fromkeys(self.players, 0)
        for res in self._results:
            for p, v in res.scores.items():
                running[p] += v
            hands.append(
                {
                    "number": res.number,
                    "dealer": res.dealer,
                    "went_out": res.went_out,
                    "going_rummy": res.going_rummy,
                    "block": res.block,
                    "doubled": res.doubled,
                    "penalties": dict(res.penalties),
                    "scores": dict(res.scores),
                    "totals": dict(running),
                    "typed": list(res.typed),
                    "remaining": {p: list(c) for p, c in res.remaining.items()},
                }
            )
            typed.extend({"hand": res.number, "player": p} for p in res.typed)
        out: dict[str, Any] = {
            "game": "rummy",
            "players": list(self.players),
            "rules": self.rules.model_dump(exclude_defaults=True),
            "scoring": "winner_takes_all" if self.rules.winner_takes_all else "penalty",
            "finished": self.finished,
            "winners": self.winners,
            "totals": self.totals,
            "hands": hands,
            "dealer": self.dealer,
            "hand_in_progress": self._hand is not None,
            "table": [m.to_json() for m in self.table],
            "turn": self.turn,
            "typed": typed,
        }
        if self.rules.cash:
            out["settlement"] = self.settlement()
        return out

    def settlement(self) -> dict[str, int]:
        """Cash: each pair of players settles the difference of their totals.

        With penalty scoring a player receives ``sum(others' totals - own)``;
        with winner-takes-all, ``sum(own - others')``.  Sums to zero.
        """
        t = self._totals
        n = len(self.players)
        total = sum(t.values())
        sign = 1 if self.rules.winner_takes_all else -1
        return {p: sign * (n * t[p] - total) for p in self.players}


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand (frozen record returned by :meth:`RummyGame.end_hand`)."""

    number: int
    dealer: str
    went_out: str | None
    going_rummy: bool
    block: bool
    doubled: bool
    penalties: dict[str, int]
    scores: dict[str, int]
    typed: tuple[str, ...]


def _to_result(r: _Result) -> HandResult:
    return HandResult(
        r.number,
        r.dealer,
        r.went_out,
        r.going_rummy,
        r.block,
        r.doubled,
        dict(r.penalties),
        dict(r.scores),
        tuple(r.typed),
    )


def _card_texts(cards: str | Card | Sequence[str | Card]) -> list[str]:
    return [str(c) for c in parse_cards(cards, allow_duplicates=True)]


def _meld_action(player: str, cards: str | Sequence[str | Card], kind: str | None) -> Meld:
    if kind not in (None, "set", "run"):
        raise RecordError(f"{kind!r}: a meld kind is set or run")
    return Meld(player=player, cards=_card_texts(cards), kind=kind)


def _layoff_action(player: str, cards: str | Sequence[str | Card], meld: int) -> LayOff:
    return LayOff(player=player, cards=_card_texts(cards), meld=meld)


def _end_action(
    went_out: str | None,
    *,
    going_rummy: bool | None = None,
    remaining: dict[str, str | Sequence[str]] | None = None,
    typed: dict[str, int] | None = None,
) -> HandEnd:
    rem = {p: _card_texts(c) if c else [] for p, c in (remaining or {}).items()}
    return HandEnd(
        went_out=went_out, going_rummy=going_rummy, remaining=rem, typed=dict(typed or {})
    )


# --------------------------------------------------------------------------- the ruleset


class RummyRuleset:
    """The :class:`rulesets.protocol.Ruleset` for basic Rummy."""

    name = "rummy"
    title = "Rummy"
    summary = (
        "Basic Rummy for 2-6 players: meld sets and runs, lay off, go out; losers add "
        "their cards to a penalty total and the lowest total at 100 wins."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    house_rules: type[HouseRulesBase] = RummyRules

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """Verdict on a meld, or on a lay-off ``onto`` a meld on the table.

        ``hand`` is the rest of the player's hand (an empty one means the play goes
        out); ``going_out`` says so directly.  Jokers' meanings are in ``notes``.

        >>> RULESET.check(parse_cards("10C"), onto=parse_cards("10S 10D 10H")).kind
        'set'
        >>> v = RULESET.check(parse_cards("QH KH AH"))
        >>> v.legal, v.rule
        (False, 'R2.2')
        """
        r = _rules(rules)
        cards = tuple(cards)
        try:
            if hand is not None:
                # ``hand`` is the player's *other* cards; none left means going out
                clash = set(cards) & {c for c in hand if not c.is_joker}
                if clash:
                    raise CardParseError(
                        f"{_text(cards)}: {sorted(clash)[0]} is also listed in the rest of"
                        f' the hand "{format_cards(hand)}"'
                    )
                if not hand:
                    going_out = True
            if going_out and r.must_discard_to_go_out:
                raise IllegalActionError(
                    f"{_text(cards)}: the last card must be discarded (must_discard_to_go_out)",
                    rule="R7",
                )
            if onto is not None:
                base = analyse_meld(tuple(onto), r)
                shape = extend_meld(base, cards, r)
                kind_word = "set" if shape.kind == "set" else "run"
                reason = (
                    f'"{format_cards(cards)}" lays off onto "{format_cards(base.cards)}",'
                    f" making a {len(shape.cards)}-card {kind_word}"
                )
                rule = "R3.3"
            else:
                shape = analyse_meld(cards, r)
                reason = f"{_text(shape.cards)} is a {shape.kind} of {len(shape.cards)} cards"
                rule = "R2.1" if shape.kind == "set" else "R2.2"
        except IllegalActionError as exc:
            return Verdict(
                legal=False,
                rule=exc.rule or "R2",
                reason=exc.reason,
                cards=tuple(str(c) for c in cards),
            )
        notes = shape.stands_for()
        if going_out:
            notes += ("going out: the hand ends at once (R4.1)",)
        return Verdict(
            legal=True,
            kind=shape.kind,
            points=hand_value(cards, r),
            rule=rule,
            reason=reason + ("; " + ", ".join(shape.stands_for()) if shape.stands_for() else ""),
            cards=tuple(str(c) for c in shape.cards),
            notes=notes,
        )

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """Penalty points of a hand (R6.1).

        >>> RULESET.score(parse_cards("KS 7D AC"), rules=RummyRules(ace_high_or_low=True)).points
        32
        """
        r = _rules(rules)
        breakdown = tuple((str(c), card_value(c, r)) for c in cards)
        notes = ("ace counts 15 (ace_high_or_low)",) if r.ace_high_or_low else ()
        return ScoreReport(
            points=sum(v for _, v in breakdown), rule="R6.1", breakdown=breakdown, notes=notes
        )

    def replay(self, record: GameRecord) -> dict[str, Any]:
        """The common summary of a recorded game (see :meth:`RummyGame.summary`)."""
        return RummyGame.from_record(record).summary()

    def random_record(self, seed: int) -> GameRecord:
        """A random legal, complete game."""
        return random_record(seed)

    def suggest(self, hand: Sequence[Card], *, rules: HouseRulesBase | None = None) -> Suggestion:
        return suggest(hand, rules)


RULESET: Final = RummyRuleset()


# --------------------------------------------------------------------------- random games


_RANDOM_RULES: Final[tuple[dict[str, Any], ...]] = (
    {},
    {"going_rummy_double": True},
    {"multi_meld": True, "ace_high_or_low": True},
    {"jokers": True, "joker_swap": True},
    {"winner_takes_all": True, "target": 150},
    {"fixed_rounds": 3, "cash": True},
    {"block_rummy": True, "winner_deals": True},
    {"ace_high_or_low": True, "round_the_corner": True, "meld_before_layoff": True},
    {"target": 60, "must_discard_to_go_out": True},
)


def random_record(seed: int) -> GameRecord:
    """A random legal complete game: random deals, real melds and lay-offs, hand ends.

    >>> rec = random_record(3)
    >>> RummyGame.from_record(rec).finished
    True
    """
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    players = [f"P{i + 1}" for i in range(n)]
    rules = RummyRules.model_validate(rng.choice(_RANDOM_RULES))
    game = RummyGame(players, rules)
    dealer: str | None = rng.choice(players)
    hands = 0
    while not game.finished and hands < 60:
        hands += 1
        if rng.random() < 0.5 and _play_logged_hand(game, rng, dealer):
            dealer = None
            continue
        game.start_hand(dealer)
        dealer = None
        pack = list(DECK_WITH_JOKERS if rules.jokers else DECK_PLAIN)
        rng.shuffle(pack)
        size = deal_size(n)
        held = {p: pack[i * size : (i + 1) * size] for i, p in enumerate(players)}
        winner = rng.choice(players)
        order = [*players]
        rng.shuffle(order)
        for p in order:
            best = suggest(held[p], rules)
            for m in best.melds[: 2 if rules.multi_meld else 1]:
                try:
                    game.meld(p, [str(c) for c in m.cards])
                except RulesetError:
                    continue
                for c in m.cards:
                    held[p].remove(c)
            for c in list(held[p]):
                for tm in game.table:
                    if game.can_lay_off(p, [str(c)], tm.index):
                        game.lay_off(p, [str(c)], tm.index)
                        held[p].remove(c)
                        break
        block = rules.block_rummy and rng.random() < 0.2
        remaining: dict[str, str | Sequence[str]] = {}
        typed: dict[str, int] = {}
        for p in players:
            if p == winner and not block:
                continue
            if rng.random() < 0.15:
                typed[p] = hand_value(held[p], rules)
            else:
                remaining[p] = [str(c) for c in held[p]]
        going_rummy = (
            (not block)
            and game._hand is not None
            and (game._hand.placed[winner] == 0 and rng.random() < 0.3)
        )
        game.end_hand(
            None if block else winner, going_rummy=going_rummy, remaining=remaining, typed=typed
        )
    return game.to_record()


def _play_logged_hand(game: RummyGame, rng: random.Random, dealer: str | None) -> bool:
    """Play one hand turn by turn (``turns=True``): draw, meld, lay off, discard.

    Returns False (and leaves the game as it was) if nobody could finish the hand.
    """
    rules = game.rules
    mark = len(game.actions)
    pack = list(DECK_WITH_JOKERS if rules.jokers else DECK_PLAIN)
    rng.shuffle(pack)
    size = deal_size(len(game.players))
    held = {p: pack[i * size : (i + 1) * size] for i, p in enumerate(game.players)}
    rest = pack[len(game.players) * size :]
    pile = [rest.pop()]
    stock = rest
    game.start_hand(dealer, turns=True, upcard=str(pile[-1]))
    winner: str | None = None
    for _ in range(150):
        p = game.turn
        if p is None:  # pragma: no cover - turns are logged
            break
        mine = held[p]
        taken: Card | None = None
        if pile and len(mine) >= 2 and rng.random() < 0.3:
            taken = pile.pop()
            game.draw(p, "discard", str(taken))
            mine.append(taken)
        else:
            if not stock:
                if not game.can_draw(p):
                    break  # block rummy / reshuffles used up / nothing left
                stock = pile[:]
                if not rules.no_shuffle:
                    rng.shuffle(stock)
                pile = [stock.pop()]
            game.draw(p, "stock")
            mine.append(stock.pop())

        def keeps(cards: Sequence[Card], left: list[Card] = mine, t: Card | None = taken) -> bool:
            after = [c for c in left if c not in cards] if cards else left
            if not after:
                return not rules.must_discard_to_go_out
            return any(c != t for c in after)

        for m in suggest(mine, rules).melds[: None if rules.multi_meld else 1]:
            if keeps(m.cards) and game.can_meld(p, [str(c) for c in m.cards]):
                game.meld(p, [str(c) for c in m.cards])
                for c in m.cards:
                    mine.remove(c)
        for c in list(mine):
            for tm in game.table:
                if (rules.meld_before_layoff and p not in {m.owner for m in game.table}) or not (
                    keeps([c]) and game.can_lay_off(p, [str(c)], tm.index)
                ):
                    continue
                game.lay_off(p, [str(c)], tm.index)
                mine.remove(c)
                break
        if not mine:
            winner = p
            break
        dead = [c for c in suggest(mine, rules).deadwood if c != taken] or [
            c for c in mine if c != taken
        ]
        out = max(dead, key=lambda c: card_value(c, rules))
        game.discard(p, str(out))
        mine.remove(out)
        pile.append(out)
        if not mine:
            winner = p
            break
    if winner is None and not game.can_end_hand(None, typed=dict.fromkeys(game.players, 0)):
        game.undo_to(mark)
        return False
    others = [p for p in game.players if p != winner]
    remaining: dict[str, str | Sequence[str]] = {
        p: [str(c) for c in held[p]] for p in others if rng.random() < 0.85
    }
    typed = {p: hand_value(held[p], rules) for p in others if p not in remaining}
    game.end_hand(winner, remaining=remaining, typed=typed)
    return True


DECK_PLAIN: Final = tuple(Card(r, s) for s in Suit for r in Rank)
DECK_WITH_JOKERS: Final = DECK_PLAIN + (JOKER,) * JOKERS_IN_PACK
