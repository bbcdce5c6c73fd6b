"""The best melding of a Rummy hand: an exact search, not a greedy one.

:func:`suggest` splits a hand into melds with the least deadwood left (the
hand's shape over several turns).  :func:`advise` answers for *this turn* at
a table: at most one new meld (unless "Several melds a turn"), lay-offs onto
the melds on the table, "Meld before laying off" and "Discard to go out"
respected; the line it returns leaves the least penalty in hand.

>>> from rulesets.cards import format_cards
>>> s = suggest("7H 7S 7D 7C 8H 9H")
>>> [format_cards(m.cards) for m in s.melds], s.points
(['7S 7D 7C', '7H 8H 9H'], 0)
>>> from rulesets.rummy.melds import analyse_meld
>>> table = (analyse_meld(parse_cards("4S 5S 6S")),)
>>> a = advise(parse_cards("7S 8S KD KH KC 2C"), table=table)
>>> [(v.kind, v.cards) for v in a.plays], a.left, a.can_go_out
([('set', ('KH', 'KD', 'KC')), ('run', ('4S', '5S', '6S', '7S', '8S'))], ('2C',), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from rulesets.cards import JOKER, Card, Rank, Suit, parse_cards
from rulesets.errors import CardParseError, IllegalActionError
from rulesets.protocol import Advice, HouseRulesBase, Verdict
from rulesets.rummy.house_rules import RummyRules, coerce_rules, house_rule
from rulesets.rummy.melds import (
    MeldShape,
    analyse_meld,
    card_value,
    extend_meld,
    hand_value,
    rank_at,
    run_bounds_ok,
)
from rulesets.words import card_words as quote

__all__ = ["Suggestion", "advise", "suggest"]

_INF: Final = 10**9
_MANY: Final = 99  # "any number of melds"


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The best way to meld a hand: melds, leftover deadwood and its value."""

    melds: tuple[MeldShape, ...]
    deadwood: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class _Cand:
    """A group of hand cards that goes down together: a new meld (``target`` -1) or a
    lay-off onto table meld ``target``; ``need`` jokers join the naturals in ``mask``."""

    mask: int
    need: int
    target: int


def _set_candidates(by_rank: dict[Rank, list[int]], jokers: int) -> list[_Cand]:
    out: list[_Cand] = []
    for idxs in by_rank.values():
        m = len(idxs)
        for sub in range(1, 1 << m):
            chosen = [idxs[b] for b in range(m) if sub >> b & 1]
            for size in (3, 4):
                need = size - len(chosen)
                if 0 <= need <= jokers:
                    out.append(_Cand(sum(1 << i for i in chosen), need, -1))
    return out


def _run_candidates(ranks: dict[Rank, int], jokers: int, rules: RummyRules) -> list[_Cand]:
    out: list[_Cand] = []
    for start in range(1, 14):
        present: list[int] = []
        for end in range(start, start + 13):
            if not run_bounds_ok(start, end, rules):
                break
            rank = rank_at(end)
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
                    out.append(_Cand(full & ~sum(1 << i for i in dropped), missing + drop, -1))
    return out


def _meld_candidates(naturals: tuple[Card, ...], jokers: int, rules: RummyRules) -> list[_Cand]:
    """Every new meld that can be made from the hand."""
    by_rank: dict[Rank, list[int]] = {}
    by_suit: dict[Suit, dict[Rank, int]] = {}
    for i, c in enumerate(naturals):
        by_rank.setdefault(c.r, []).append(i)
        by_suit.setdefault(c.s, {})[c.r] = i
    out = _set_candidates(by_rank, jokers)
    for ranks in by_suit.values():
        out += _run_candidates(ranks, jokers, rules)
    return out


def _layoff_groups(
    shape: MeldShape, naturals: tuple[Card, ...], jokers: int
) -> Iterable[tuple[int, int]]:
    """(mask, jokers) groups that might extend ``shape``; :func:`extend_meld` decides."""
    if shape.kind == "set":
        taken = {c.suit for c in shape.cards if not c.is_joker}
        fits = [i for i, c in enumerate(naturals) if c.rank is shape.rank and c.suit not in taken]
        room = 4 - len(shape.cards)
        for k in range(0, min(room, len(fits)) + 1):
            for chosen in combinations(fits, k):
                for need in range(0, min(jokers, room - k) + 1):
                    if k + need:
                        yield sum(1 << i for i in chosen), need
        return
    index = {c.r: i for i, c in enumerate(naturals) if c.suit is shape.suit}
    low = _spots(shape.start - 1, -1, index, jokers)
    high = _spots(shape.end + 1, 1, index, jokers)
    for a in range(len(low) + 1):
        for b in range(len(high) + 1):
            spots = [*low[:a], *high[:b]]
            held = [index[rank_at(v)] for v in spots if rank_at(v) in index]
            missing = len(spots) - len(held)
            if not spots or missing > jokers:
                continue
            base = sum(1 << i for i in held)
            # a joker may also stand in for a card we hold (to free it elsewhere)
            for drop in range(min(jokers - missing, len(held)) + 1):
                for dropped in combinations(held, drop):
                    yield base & ~sum(1 << i for i in dropped), missing + drop


def _spots(first: int, step: int, index: dict[Rank, int], jokers: int) -> list[int]:
    """Run positions from ``first`` outwards that held cards or jokers could fill."""
    out: list[int] = []
    v, missing = first, 0
    while 1 <= v <= 27 and len(out) < 12:
        missing += rank_at(v) not in index
        if missing > jokers:
            break
        out.append(v)
        v += step
    return out


def _layoff_candidates(
    table: Sequence[MeldShape], naturals: tuple[Card, ...], jokers: int, rules: RummyRules
) -> list[_Cand]:
    out: list[_Cand] = []
    for t, shape in enumerate(table):
        for mask, need in set(_layoff_groups(shape, naturals, jokers)):
            cards = [naturals[i] for i in range(len(naturals)) if mask >> i & 1] + [JOKER] * need
            try:
                extend_meld(shape, cards, rules)
            except (IllegalActionError, CardParseError):
                continue
            out.append(_Cand(mask, need, t))
    return out


@dataclass(frozen=True, slots=True)
class _Problem:
    """One search: the hand's naturals and jokers, the groups that may go down, the limits."""

    naturals: tuple[Card, ...]
    jokers: int
    values: tuple[int, ...]
    cands: tuple[_Cand, ...]
    melds: int  # new melds allowed
    need_meld: bool = False  # lay-offs only with a meld of one's own (meld_before_layoff)
    keep_one: bool = False  # one card must stay for the discard (must_discard_to_go_out)


_LAID, _MELDED, _KEPT = 1, 2, 4  # search flags: a lay-off made, a meld made, a card kept


def _solve(pb: _Problem) -> tuple[int, tuple[int, ...]]:
    """Least penalty left and the candidate ids that get there (exact, memoised)."""
    by_low: dict[int, list[int]] = {}
    loose: list[int] = []  # joker-only lay-offs
    for cid, c in enumerate(pb.cands):
        if c.mask:
            by_low.setdefault(c.mask & -c.mask, []).append(cid)
        else:
            loose.append(cid)

    def finish(j: int, used: int, flags: int) -> tuple[int, tuple[int, ...]]:
        ok = not (flags & _LAID and not flags & _MELDED and pb.need_meld)
        ok = ok and (j > 0 or bool(flags & _KEPT) or not pb.keep_one)
        result: tuple[int, tuple[int, ...]] = (15 * j if ok else _INF, ())
        for cid in loose:
            c = pb.cands[cid]
            if c.need <= j and not used >> c.target & 1:
                sub = finish(j - c.need, used | 1 << c.target, flags | _LAID)
                if sub[0] < result[0]:
                    result = (sub[0], (cid, *sub[1]))
        return result

    @cache
    def best(mask: int, j: int, melds: int, used: int, flags: int) -> tuple[int, tuple[int, ...]]:
        if mask == 0:
            return finish(j, used, flags)
        low = mask & -mask
        rest, plan = best(mask & ~low, j, melds, used, flags | _KEPT)
        result = (rest + pb.values[low.bit_length() - 1], plan)
        for cid in by_low.get(low, ()):
            c = pb.cands[cid]
            if c.need > j or c.mask & mask != c.mask:
                continue
            if c.target < 0:
                if not melds:
                    continue
                sub = best(mask & ~c.mask, j - c.need, melds - 1, used, flags | _MELDED)
            elif used >> c.target & 1:
                continue
            else:
                sub = best(mask & ~c.mask, j - c.need, melds, used | 1 << c.target, flags | _LAID)
            if sub[0] < result[0]:
                result = (sub[0], (cid, *sub[1]))
        return result

    return best((1 << len(pb.naturals)) - 1, pb.jokers, pb.melds, 0, 0)


def _split(cards: Sequence[Card], rules: RummyRules) -> tuple[tuple[Card, ...], int]:
    naturals = tuple(sorted(c for c in cards if not c.is_joker))
    if len(set(naturals)) != len(naturals):
        raise CardParseError(f"{quote(cards)}: a card is listed twice")
    jokers = len(cards) - len(naturals)
    if jokers and not rules.jokers:
        raise IllegalActionError(
            f"{quote(cards)}: no jokers in the standard game ({house_rule('jokers')})",
            rule="R1.1",
        )
    return naturals, jokers


def _group(pb: _Problem, c: _Cand) -> list[Card]:
    return [pb.naturals[i] for i in range(len(pb.naturals)) if c.mask >> i & 1] + [JOKER] * c.need


def _shape_for(group: list[Card], rules: RummyRules) -> MeldShape:
    naturals = [c for c in group if not c.is_joker]
    if len({c.rank for c in naturals}) == 1 and len(group) <= 4:
        return analyse_meld(group, rules, kind="set")
    return analyse_meld(group, rules, kind="run")  # place jokers exactly: the window found


def _left(pb: _Problem, plan: Sequence[int]) -> tuple[Card, ...]:
    used = 0
    jokers = 0
    for cid in plan:
        used |= pb.cands[cid].mask
        jokers += pb.cands[cid].need
    left = tuple(c for i, c in enumerate(pb.naturals) if not used >> i & 1)
    return left + (JOKER,) * (pb.jokers - jokers)


def suggest(hand: Sequence[Card] | str, rules: HouseRulesBase | None = None) -> Suggestion:
    """The melding of ``hand`` that leaves the least deadwood (exact search, not greedy).

    Sets and runs may share no card (R2.3); the search tries every partition.

    >>> from rulesets.cards import format_cards
    >>> s = suggest("7H 7S 7D 8H 9H")
    >>> [format_cards(m.cards) for m in s.melds], s.points
    (['7H 8H 9H'], 14)
    """
    r = coerce_rules(rules)
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    naturals, jokers = _split(cards, r)
    pb = _Problem(
        naturals=naturals,
        jokers=jokers,
        values=tuple(card_value(c, r) for c in naturals),
        cands=tuple(_meld_candidates(naturals, jokers, r)),
        melds=_MANY,
    )
    points, plan = _solve(pb)
    melds = tuple(_shape_for(_group(pb, pb.cands[cid]), r) for cid in plan)
    return Suggestion(melds, _left(pb, plan), points)


# --------------------------------------------------------------------------- advice at a table


def _play_verdicts(
    pb: _Problem,
    plan: Sequence[int],
    table: Sequence[MeldShape],
    owners: Sequence[str],
    r: RummyRules,
) -> list[Verdict]:
    """The plays of a line as verdicts: new melds first, then the lay-offs (R3.2, R3.3)."""
    melds: list[Verdict] = []
    layoffs: list[Verdict] = []
    for cid in plan:
        c = pb.cands[cid]
        group = _group(pb, c)
        if c.target < 0:
            shape = _shape_for(group, r)
            melds.append(
                Verdict(
                    legal=True,
                    kind=shape.kind,
                    points=hand_value(group, r),
                    rule="R2.1" if shape.kind == "set" else "R2.2",
                    reason=f"meld {quote(shape.cards)}, a {shape.kind}",
                    cards=tuple(str(x) for x in shape.cards),
                    notes=shape.stands_for(),
                )
            )
            continue
        shape = extend_meld(table[c.target], group, r)
        whose = f"{owners[c.target]}'s " if c.target < len(owners) and owners[c.target] else ""
        layoffs.append(
            Verdict(
                legal=True,
                kind=shape.kind,
                points=hand_value(group, r),
                rule="R3.3",
                reason=f"lay off {quote(group)} onto meld {c.target + 1} ({whose}{shape.kind})",
                cards=tuple(str(x) for x in shape.cards),
                notes=shape.stands_for(),
            )
        )
    return melds + layoffs


def advise(
    hand: Sequence[Card],
    rules: HouseRulesBase | None = None,
    *,
    table: Sequence[MeldShape] = (),
    owners: Sequence[str] = (),
    melds_allowed: int | None = None,
    melded: bool = False,
) -> Advice:
    """The best plays for ``hand`` this turn: melds and lay-offs onto ``table``.

    ``melds_allowed`` is how many new melds the turn still allows (default: one,
    any number with "Several melds a turn"); ``melded`` says the player already
    has a meld of their own on the table ("Meld before laying off").
    """
    r = coerce_rules(rules)
    cards = tuple(hand)
    naturals, jokers = _split(cards, r)
    if melds_allowed is None:
        melds_allowed = _MANY if r.multi_meld else 1
    cands = _meld_candidates(naturals, jokers, r) + _layoff_candidates(table, naturals, jokers, r)
    pb = _Problem(
        naturals=naturals,
        jokers=jokers,
        values=tuple(card_value(c, r) for c in naturals),
        cands=tuple(cands),
        melds=melds_allowed,
        need_meld=r.meld_before_layoff and not melded,
        keep_one=r.must_discard_to_go_out and bool(cards),
    )
    points, plan = _solve(pb)
    plays = _play_verdicts(pb, plan, table, owners, r)
    return _advice(plays, _left(pb, plan), points, r)


def _advice(plays: list[Verdict], left: tuple[Card, ...], points: int, r: RummyRules) -> Advice:
    out = len(left) <= 1
    notes: list[str] = []
    if r.must_discard_to_go_out and len(left) == 1:
        notes.append(f"discard {left[0]} to go out ({house_rule('must_discard_to_go_out')})")
    elif len(left) == 1:
        notes.append(f"discard {left[0]} to go out")
    elif not left:
        notes.append("the last card goes down: the hand ends at once")
    reason = "; ".join(v.reason for v in plays) if plays else "nothing to put down this turn"
    kept = f"; keep {quote(left)} ({points} penalty points)" if left else ""
    return Advice(
        plays=tuple(plays),
        left=tuple(str(c) for c in left),
        points=points,
        can_go_out=out,
        reason=reason + kept,
        notes=tuple(notes),
    )
