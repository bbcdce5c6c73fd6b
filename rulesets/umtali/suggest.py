"""Exact move suggestions for one Umtali hand: every legal play, the best melding, going out.

The search is exact, not greedy.  It enumerates every collection of disjoint
basic melds (sets, sequences, marriages) the hand holds; for each, it plays
jacks and extensions to a fixed point.  Extensions only ever add anchors and
playing a card only relaxes the no-breaking rule (U7.2), so that fixed point is
the largest set of singles reachable after those melds, in a legal order with
chains (U6.3).  A pair is tried only where it lets the player go out (U5.5).

>>> from rulesets.umtali.game import UmtaliGame
>>> from rulesets.umtali.actions import Meld, StartHand
>>> g = UmtaliGame(("Ann", "Bob"), actions=[StartHand(dealer="Ann")])
>>> _ = g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
>>> s = g.suggest("Ann", "8H 9H 10H KS QS 2C")
>>> s.best_points, s.can_go_out
(27, True)
>>> [(a.type, a.to_json().get("cards")) for a in s.best]
[('meld', ['QS', 'KS']), ('meld', ['8H', '9H', '10H']), ('go_out', None)]
>>> s.best[-1].discard
Card('2C')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from rulesets.cards import Card, Rank, Suit, format_cards, parse_cards
from rulesets.errors import CardParseError, IllegalActionError
from rulesets.umtali.actions import Extend, GoOut, Meld
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.melds import (
    SEQUENCE_TOP,
    MeldKind,
    accepted_cards,
    card_points,
    meld_points,
)
from rulesets.umtali.state import Phase, State, must_meld_now, taken_this_turn

__all__ = ["Play", "Suggestion", "suggest", "suggest_table"]

PlanAction = Meld | Extend | GoOut


@dataclass(frozen=True, slots=True)
class Play:
    """One legal play available now, as the action to record and the points it adds."""

    action: Meld | Extend
    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Suggestion:
    """What a hand can do this turn.

    ``best`` is an ordered list of actions (legal in that order) putting the most
    points on the player's side this turn; it ends with a :class:`GoOut` when the
    best line goes out.  ``go_out`` is the best line that goes out, if any.
    """

    player: str
    plays: tuple[Play, ...]
    best: tuple[PlanAction, ...]
    best_points: int
    kept: tuple[Card, ...]
    can_go_out: bool
    go_out: tuple[PlanAction, ...] | None = None
    go_out_points: int | None = None
    notes: tuple[str, ...] = field(default=())


@dataclass(slots=True)
class _Run:
    hm: int
    acc: dict[Card, tuple[int, int]]
    plan: list[tuple[str, tuple[Card, ...], tuple[int, int] | None]]
    pts: int
    nxt: int


def _read(cards: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    try:
        return parse_cards(cards)
    except TypeError:
        raise CardParseError(f'{cards!r}: not cards (write e.g. "5H 6H 7H")') from None


def _bits(mask: int) -> Iterable[int]:
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


def suggest(
    s: State,
    player: str,
    hand: str | Card | Iterable[str | Card],
    *,
    must_meld: str | Card | Iterable[str | Card] = (),
) -> Suggestion:
    """Suggestion for ``player`` holding ``hand`` at the table of state ``s``."""
    if s.phase not in (Phase.PLAY, Phase.FINAL):
        raise IllegalActionError(f'"{format_cards(_read(hand))}": no hand in progress', rule="U2.1")
    p = s.players.index(player)
    if s.phase is Phase.FINAL and s.went_out == p:
        return Suggestion(
            player,
            (),
            (),
            0,
            tuple(sorted(_read(hand))),
            False,
            notes=(f"{player} went out; the final turn is the opponent's",),
        )
    held = set(_read(hand))
    return suggest_table(
        [[(m.kind, m.cards) for m in s.sides[0]], [(m.kind, m.cards) for m in s.sides[1]]],
        p,
        hand,
        rules=s.rules,
        players=s.players,
        pair_side=s.went_out if s.phase is Phase.FINAL else None,
        # taken discards still to meld (U4.2), if the hand entered holds them
        must_meld=(*_read(must_meld), *(c for c in must_meld_now(s, p) if c in held)),
        no_discard=taken_this_turn(s, p) if s.rules.no_rediscard else (),
    )


def suggest_table(
    table: list[list[tuple[MeldKind, tuple[Card, ...]]]],
    p: int,
    hand: str | Card | Iterable[str | Card],
    *,
    rules: UmtaliRules | None = None,
    players: tuple[str, str] = ("Player 1", "Player 2"),
    pair_side: int | None = None,
    must_meld: str | Card | Iterable[str | Card] = (),
    no_discard: Iterable[Card] = (),
    exhaustive: bool = False,
) -> Suggestion:
    """The search itself, over a bare table: ``table[side]`` lists (kind, cards) melds.

    ``exhaustive`` turns off the early stop (the tests compare both).

    >>> from rulesets.cards import parse_cards
    >>> t = [[], [(MeldKind.SEQUENCE, parse_cards("5H 6H 7H"))]]
    >>> s = suggest_table(t, 0, "8H 9H 4C 4D 4S 2D")
    >>> s.best_points, s.can_go_out
    (5, True)
    """
    search = _Search(
        table,
        p,
        _read(hand),
        rules=rules or UmtaliRules(),
        players=players,
        pair_side=pair_side,
        musts=_read(must_meld),
        no_discard=no_discard,
        exhaustive=exhaustive,
    )
    search.run()
    return search.result()


Candidate = tuple[int, MeldKind, tuple[Card, ...]]
#: the best line so far: (points, goes out, run, pair, discard)
Best = tuple[int, bool, _Run, tuple[Card, ...], Card | None]
#: the best line that goes out: (points, run, pair, discard)
BestOut = tuple[int, _Run, tuple[Card, ...], Card | None]


def _candidates(hand: list[Card], idx: dict[Card, int]) -> list[Candidate]:
    """Every basic meld in the hand (U5.1-U5.3), as (bit mask, kind, cards)."""
    cands: list[Candidate] = []
    by_rank: dict[Rank, list[int]] = {}
    for i, c in enumerate(hand):
        if c.r is not Rank.JACK:
            by_rank.setdefault(c.r, []).append(i)
    for ids in by_rank.values():
        for k in (3, 4):
            for combo in combinations(ids, k):
                m = sum(1 << i for i in combo)
                cands.append((m, MeldKind.SET, tuple(hand[i] for i in combo)))
    for suit in Suit:
        cands += _sequences(hand, idx, suit)
        king, queen = Card(Rank.KING, suit), Card(Rank.QUEEN, suit)
        if king in idx and queen in idx:
            cands.append(((1 << idx[queen]) | (1 << idx[king]), MeldKind.MARRIAGE, (queen, king)))
    return cands


def _sequences(hand: list[Card], idx: dict[Card, int], suit: Suit) -> list[Candidate]:
    """Every sequence of ``suit`` in the hand (U5.2)."""
    out: list[Candidate] = []
    lows = {c.r.low: idx[c] for c in hand if c.s is suit and c.r.low <= SEQUENCE_TOP}
    for start in range(1, SEQUENCE_TOP - 1):
        if start not in lows:
            continue
        end = start
        while end + 1 in lows:
            end += 1
            if end - start >= 2:
                ids = [lows[x] for x in range(start, end + 1)]
                out.append(
                    (sum(1 << i for i in ids), MeldKind.SEQUENCE, tuple(hand[i] for i in ids))
                )
    return out


class _Search:
    """One exact search (see the module doc); ``run`` it, then read its ``result``."""

    def __init__(
        self,
        table: list[list[tuple[MeldKind, tuple[Card, ...]]]],
        p: int,
        cards: tuple[Card, ...],
        *,
        rules: UmtaliRules,
        players: tuple[str, str],
        pair_side: int | None,
        musts: tuple[Card, ...],
        no_discard: Iterable[Card],
        exhaustive: bool,
    ) -> None:
        self.rules = rules
        self.players = players
        self.p = p
        self.name = players[p]
        self.exhaustive = exhaustive
        self.musts = musts
        _check_hand(table, cards)
        self.H = H = sorted(cards)
        self.n = len(H)
        self.idx = idx = {c: i for i, c in enumerate(H)}
        self.full = (1 << self.n) - 1
        self.must = _mask_of(musts, idx, cards)
        self.keep = sum(1 << idx[c] for c in set(no_discard) if c in idx)
        self.cands = _candidates(H, idx)
        self.blockers = self._blockers()
        self.base_acc, self.all_acc = self._table_anchors(table, p, pair_side)
        self.base_len = len(table[p])
        self.held_acc: dict[tuple[MeldKind, tuple[Card, ...]], list[Card]] = {}
        self.best: Best | None = None
        self.best_out: BestOut | None = None
        self.ceiling, self.out_hopeless = self._bound()

    # -------------------------------------------------------------- set-up
    def _blockers(self) -> list[list[int]]:
        """U7.2: for each card, the masks of other cards it forms a basic meld with."""
        blockers: list[list[int]] = [[] for _ in range(self.n)]
        if self.rules.no_breaking:
            for m, kind, cs in self.cands:
                if len(cs) == 3 or kind is MeldKind.MARRIAGE:
                    for i in _bits(m):
                        blockers[i].append(m & ~(1 << i))
        return blockers

    def _table_anchors(
        self, table: list[list[tuple[MeldKind, tuple[Card, ...]]]], p: int, pair_side: int | None
    ) -> tuple[dict[Card, tuple[int, int]], dict[Card, list[tuple[int, int]]]]:
        """The anchors already on the table for the cards of this hand (U6.2, U8.3)."""
        base_acc: dict[Card, tuple[int, int]] = {}
        all_acc: dict[Card, list[tuple[int, int]]] = {}
        for side in (0, 1):
            for k, (kind, cs) in enumerate(table[side]):
                pair_open = pair_side is not None and side == pair_side and p != pair_side
                for c in accepted_cards(kind, cs, self.rules, pair_open=pair_open):
                    if c in self.idx:
                        base_acc.setdefault(c, (side, k))
                        all_acc.setdefault(c, []).append((side, k))
        return base_acc, all_acc

    def _bound(self) -> tuple[int, bool]:
        """A bound for early stopping: no line scores more than the cards that could ever
        go down (a jack, part of a basic meld, accepted by a table anchor, or the same
        rank / a suit neighbour of another card held) plus 10 per K+Q of a suit held."""
        in_meld = 0
        for m, _, _ in self.cands:
            in_meld |= m
        loose = self.rules.loose_pair or self.rules.marriage_extendable
        loose = loose or self.rules.jack_extends_any_suit
        hopeless = [
            c
            for i, c in enumerate(self.H)
            if not (
                c.r is Rank.JACK
                or in_meld >> i & 1
                or c in self.base_acc
                or loose
                or any(
                    x != c and (x.r is c.r or (x.s is c.s and abs(x.r.low - c.r.low) == 1))
                    for x in self.H
                )
            )
        ]
        marriages = sum(1 for _, kind, _ in self.cands if kind is MeldKind.MARRIAGE)
        ceiling = sum(card_points(c) for c in self.H if c not in hopeless) + 10 * marriages
        return ceiling, len(hopeless) > 1

    # -------------------------------------------------------------- the search
    def blocked(self, i: int, hm: int) -> bool:
        return any(b & hm == b for b in self.blockers[i])

    def add_anchor(self, run: _Run, kind: MeldKind, cs: tuple[Card, ...]) -> None:
        ref = (self.p, run.nxt)
        run.nxt += 1
        key = (kind, cs)
        accepted = self.held_acc.get(key)
        if accepted is None:  # only the cards of this hand matter
            accepted = [c for c in accepted_cards(kind, cs, self.rules) if c in self.idx]
            self.held_acc[key] = accepted
        for c in accepted:
            if c not in run.acc:
                run.acc[c] = ref

    def close(self, run: _Run) -> None:
        """Play jacks and extensions to a fixed point (U5.4, U6.3 chains)."""
        progress = True
        while progress:
            progress = False
            for i in _bits(run.hm):
                c = self.H[i]
                bit = 1 << i
                if c.r is Rank.JACK:
                    run.plan.append(("jack", (c,), None))
                    kind = MeldKind.JACK
                elif c in run.acc and not self.blocked(i, run.hm & ~bit):
                    run.plan.append(("single", (c,), run.acc[c]))
                    kind = MeldKind.SINGLE
                else:
                    continue
                run.hm &= ~bit
                run.pts += card_points(c)
                self.add_anchor(run, kind, (c,))
                progress = True

    def consider(self, run: _Run, pair: tuple[Card, ...], discard: Card | None, out: bool) -> None:
        if run.hm & self.must:
            return
        best = self.best
        if best is None or (run.pts, out) > (best[0], best[1]):
            self.best = (run.pts, out, run, pair, discard)
        if out and (self.best_out is None or run.pts > self.best_out[0]):
            self.best_out = (run.pts, run, pair, discard)

    def finish(self, run: _Run) -> None:
        """The line as it stands, and going out with a pair from what is left (U5.5)."""
        rest = list(_bits(run.hm))
        if len(rest) <= 1 and not run.hm & self.keep:
            consider_discard = self.H[rest[0]] if rest else None
            self.consider(run, (), consider_discard, True)
            return
        self.consider(run, (), None, False)
        for i, j in combinations(rest, 2):
            if self._pair_ok(run, i, j):
                self._pair_line(run, i, j)

    def _pair_ok(self, run: _Run, i: int, j: int) -> bool:
        a, b = self.H[i], self.H[j]
        if not self.rules.loose_pair and (a.r is not b.r or a.r is Rank.JACK):
            return False
        if self.rules.loose_pair and a.s is b.s and {a.r, b.r} == {Rank.KING, Rank.QUEEN}:
            return False
        return not (self.blocked(i, run.hm & ~(1 << i)) or self.blocked(j, run.hm & ~(1 << j)))

    def _pair_line(self, run: _Run, i: int, j: int) -> None:
        a, b = self.H[i], self.H[j]
        r2 = _Run(
            run.hm & ~((1 << i) | (1 << j)),
            dict(run.acc),
            list(run.plan),
            run.pts + card_points(a) + card_points(b),
            run.nxt,
        )
        self.close(r2)
        left = list(_bits(r2.hm))
        if len(left) <= 1 and not r2.hm & self.keep:
            self.consider(r2, (a, b), self.H[left[0]] if left else None, True)

    def done(self) -> bool:
        if self.exhaustive:
            return False
        if self.best_out is not None:
            return self.best_out[0] >= self.ceiling
        return self.out_hopeless and self.best is not None and self.best[0] >= self.ceiling

    def run(self) -> None:
        self.by_low: list[list[Candidate]] = [[] for _ in range(self.n)]
        for cand in sorted(self.cands, key=lambda cand: -len(cand[2])):
            self.by_low[(cand[0] & -cand[0]).bit_length() - 1].append(cand)
        self.rec(0, 0, [])

    def rec(self, i: int, usedm: int, chosen: list[Candidate]) -> None:
        """Every collection of disjoint basic melds, longest first (full lines early)."""
        if self.done():
            return
        while i < self.n and usedm >> i & 1:
            i += 1
        if i >= self.n:
            self.line(usedm, chosen)
            return
        for cand in self.by_low[i]:
            if cand[0] & usedm == 0:
                chosen.append(cand)
                self.rec(i + 1, usedm | cand[0], chosen)
                chosen.pop()
        self.rec(i + 1, usedm, chosen)

    def line(self, usedm: int, chosen: list[Candidate]) -> None:
        run = _Run(self.full & ~usedm, dict(self.base_acc), [], 0, self.base_len)
        # melds holding cards that must go down first lead (U4.2: D1, then D2)
        ordered = sorted(chosen, key=lambda cand: [c not in cand[2] for c in self.musts])
        for _, kind, cs in ordered:
            run.plan.append((kind.value, cs, None))
            run.pts += meld_points(kind, cs)
            self.add_anchor(run, kind, cs)
        self.close(run)
        self.finish(run)

    # -------------------------------------------------------------- the answer
    def actions(
        self, run: _Run, pair: tuple[Card, ...], discard: Card | None, out: bool
    ) -> tuple[PlanAction, ...]:
        name, players = self.name, self.players
        acts: list[PlanAction] = []
        for _kind, cs, anchor in run.plan:
            if anchor is None:
                acts.append(Meld(player=name, cards=tuple(cs)))
            else:
                acts.append(Extend(player=name, card=cs[0], anchor=(players[anchor[0]], anchor[1])))
        if out:
            acts.append(GoOut(player=name, pair=pair, discard=discard))
        return tuple(acts)

    def plays(self) -> list[Play]:
        """Every legal play now: the basic melds, jacks, and extensions U7.2 allows."""
        name = self.name
        plays = [
            Play(
                Meld(player=name, cards=tuple(cs)),
                kind.value,
                cs,
                meld_points(kind, cs),
            )
            for _, kind, cs in self.cands
        ]
        for i, c in enumerate(self.H):
            if c.r is Rank.JACK:
                plays.append(Play(Meld(player=name, cards=(c,)), "jack", (c,), card_points(c)))
            elif c in self.all_acc and not self.blocked(i, self.full & ~(1 << i)):
                for side, k in self.all_acc[c]:
                    plays.append(
                        Play(
                            Extend(player=name, card=c, anchor=(self.players[side], k)),
                            "extension",
                            (c,),
                            card_points(c),
                        )
                    )
        return plays

    def result(self) -> Suggestion:
        plays = tuple(self.plays())
        if self.best is None:  # only when must_meld cannot be satisfied
            notes = ("no line melds every card that must be melded",)
            return Suggestion(self.name, plays, (), 0, tuple(self.H), False, notes=notes)
        pts, out, run, pair, discard = self.best
        kept = tuple(self.H[i] for i in _bits(run.hm))
        go: tuple[PlanAction, ...] | None = None
        go_pts: int | None = None
        if self.best_out is not None:
            go_pts, orun, opair, odisc = self.best_out
            go = self.actions(orun, opair, odisc, True)
        return Suggestion(
            player=self.name,
            plays=plays,
            best=self.actions(run, pair, discard, out),
            best_points=pts,
            kept=() if out else kept,
            can_go_out=self.best_out is not None,
            go_out=go,
            go_out_points=go_pts,
        )


def _check_hand(
    table: list[list[tuple[MeldKind, tuple[Card, ...]]]], cards: tuple[Card, ...]
) -> None:
    text = f'"{format_cards(cards)}"'
    used = {c for side in table for _, cs in side for c in cs}
    for c in cards:
        if c.is_joker:
            raise IllegalActionError(f"{text}: Umtali uses no jokers", rule="U1.1")
        if c in used:
            raise IllegalActionError(f"{text}: {c} is already on the table", rule="U1.1")


def _mask_of(musts: tuple[Card, ...], idx: dict[Card, int], cards: tuple[Card, ...]) -> int:
    """U4.2: the cards that must be melded this turn, as a bit mask of the hand."""
    must = 0
    for c in musts:
        if c not in idx:
            raise IllegalActionError(
                f'"{c}": must be melded but is not in "{format_cards(cards)}"', rule="U4.2"
            )
        must |= 1 << idx[c]
    return must
