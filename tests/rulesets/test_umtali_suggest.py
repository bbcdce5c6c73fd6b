"""Umtali suggestions: exact (checked against a brute-force search through the referee)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.cards import Card, parse_cards
from rulesets.errors import IllegalActionError
from rulesets.umtali import (
    Extend,
    GoOut,
    Meld,
    MeldKind,
    UmtaliGame,
    card_points,
    meld_points,
)
from rulesets.umtali.actions import Discard, StartHand, TakeDiscards
from tests.rulesets.umtali_cards import anchor_of, card_of, cards_of, player_of

C = parse_cards


def table(*bob_melds: str) -> UmtaliGame:
    g = UmtaliGame(("Ann", "Bob"))
    g.push(StartHand(dealer="Ann"))
    for m in bob_melds:
        g.push(Meld(player="Bob", cards=cards_of(m)))
    return g


def apply_plan(
    g: UmtaliGame, player: str, plan: tuple[Meld | Extend | GoOut, ...], hand: set[Card]
) -> int:
    """Push every suggested action with the hand (so the referee checks U7); return points."""
    before = g.side_scores[player]
    for act in plan:
        g.push(act, hand=hand)
        if isinstance(act, Meld):
            hand -= set(C(act.cards))
        elif isinstance(act, Extend):
            hand -= set(C(act.card))
        else:
            hand -= set(C(act.pair)) | (set(C(act.discard)) if act.discard else set())
    return g.side_scores[player] - before if not g.hands else g.hands[-1].scores[0] - before


def brute(g: UmtaliGame, player: str, hand: frozenset[Card]) -> tuple[int, bool]:
    """Best points and whether going out is possible, by trying every legal action order."""
    seen: dict[
        tuple[frozenset[Card], frozenset[tuple[str, tuple[Card, ...]]]], tuple[int, bool]
    ] = {}

    def go(h: frozenset[Card]) -> tuple[int, bool]:
        mine = frozenset((m.kind.value, m.cards) for m in g.sides[player])
        key = (h, mine)
        if key in seen:
            return seen[key]
        best, out = 0, False
        cards = sorted(h)
        pairs: list[tuple[Card, ...]] = [()] + [p for p in combinations(cards, 2)]
        for pair in pairs:
            rest = h - set(pair)
            if len(rest) > 1:
                continue
            disc = next(iter(rest)) if rest else None
            if g.can(
                GoOut(player=player_of(g, player), pair=cards_of(pair), discard=card_of(disc)),
                hand=h,
            ):
                out = True
                best = max(best, meld_points(MeldKind.PAIR, pair))
        moves: list[Meld | Extend] = []
        for k in (1, 2, 3, 4, 5, 6):
            for combo in combinations(cards, k):
                act = Meld(player=player_of(g, player), cards=cards_of(combo))
                if g.can(act, hand=h):
                    moves.append(act)
        for c in cards:
            for ref, _ in g.anchors():
                act2 = Extend(
                    player=player_of(g, player), card=card_of(c), anchor=anchor_of(g, ref)
                )
                if g.can(act2, hand=h):
                    moves.append(act2)
        for act in moves:
            played = set(C(act.cards)) if isinstance(act, Meld) else set(C(act.card))
            gain = g.judge(act, hand=h).points or 0
            g.push(act, hand=h)
            sub, sub_out = go(h - played)
            g.pop()
            best = max(best, gain + sub)
            out = out or sub_out
        seen[key] = (best, out)
        return best, out

    return go(hand)


POOL = C("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S 4S 6S 7S 9S KS QS 6D 8C")
OPPONENT = ["3C 4C 5C", "9C 9D 9H", "JC", "KD QD", "AS AD AC"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_suggest_is_exact_against_brute_force(data: st.DataObject) -> None:
    melds = data.draw(st.lists(st.sampled_from(OPPONENT), unique=True, max_size=3))
    g = table(*melds)
    free = [c for c in POOL if c not in g.table_cards]
    hand = frozenset(
        data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=6, unique=True))
    )
    s = g.suggest("Ann", hand)
    best, out = brute(g, "Ann", hand)
    assert (s.best_points, s.can_go_out) == (best, out), sorted(hand)
    assert apply_plan(g, "Ann", s.best, set(hand)) == s.best_points


def test_suggest_finds_the_chain() -> None:
    g = table("5H 6H 7H")
    s = g.suggest("Ann", "8H 9H 2C 4D")
    assert [(str(a.card), a.anchor) for a in s.best if isinstance(a, Extend)] == [
        ("8H", ("Bob", 0)),
        ("9H", ("Ann", 0)),
    ]
    assert s.best_points == 2 and not s.can_go_out and set(s.kept) == set(C("2C 4D"))


def test_suggest_respects_u7_and_lists_every_legal_play() -> None:
    g = table("2H 3H 4H")
    s = g.suggest("Ann", "5H 6H 7H JS")
    kinds = sorted((p.kind, tuple(map(str, p.cards))) for p in s.plays)
    assert ("extension", ("5H",)) not in kinds  # 5H would break 5-6-7H (U7.2)
    assert ("sequence", ("5H", "6H", "7H")) in kinds and ("jack", ("JS",)) in kinds
    assert s.best_points == 3 + 5 and s.can_go_out


def test_suggest_prefers_the_marriage_over_singles() -> None:
    g = table("JH")
    s = g.suggest("Ann", "QH KH 3C 4D")
    assert s.best[0] == Meld(player="Ann", cards=("QH", "KH")) and s.best_points == 20


def test_suggest_goes_out_with_a_pair() -> None:
    g = table()
    s = g.suggest("Ann", "9S 9D 2C 3C 4C 8H")
    assert s.can_go_out and s.go_out is not None
    last = s.go_out[-1]
    assert isinstance(last, GoOut) and last.pair == C("9S 9D") and last.discard == C("8H")[0]
    assert s.go_out_points == 3 + 2


def test_suggest_final_turn_extends_the_going_out_pair() -> None:
    g = table()
    g.push(GoOut(player="Bob", pair=("9S", "9D")))
    s = g.suggest("Ann", "9C 10C 2H")
    assert Extend(player="Ann", card="9C", anchor=("Bob", 0)) in [p.action for p in s.plays]
    assert g.suggest("Bob", "2C").plays == ()


def test_suggest_must_meld_the_two_taken_discards() -> None:
    g = table("5H 6H 7H")
    s = g.suggest("Ann", "8H 4S 4D 4C 2C", must_meld="8H")
    assert any(isinstance(a, Extend) and str(a.card) == "8H" for a in s.best)
    impossible = g.suggest("Ann", "KC 2D 3S", must_meld="KC")
    assert impossible.best == () and impossible.notes


def test_suggest_never_discards_a_card_just_taken() -> None:
    g = table()
    g.push(TakeDiscards(player="Ann", cards=("8D",)))
    s = g.suggest("Ann", "2C 3C 4C 8D")
    assert not s.can_go_out  # the only card left would be 8D (U4.3)


def test_suggest_rejects_cards_on_the_table() -> None:
    g = table("5H 6H 7H")
    with pytest.raises(IllegalActionError):
        g.suggest("Ann", "5H 9C")


def test_suggest_points_add_up() -> None:
    g = table("JC")
    s = g.suggest("Ann", "10C QC KC 9C 8C")
    # 8C 9C 10C sequence 1+1+5 = 7 and QC KC marriage 20: 27.  All five as singles
    # off JC (10C, QC, then KC, 9C, 8C) would be 5+5+5+1+1 = 17 only.
    assert s.best_points == 27 and s.can_go_out
    assert sum(card_points(c) for c in C("10C QC KC 9C 8C")) == 17


def test_u4_2_suggest_melds_the_taken_discards_first_in_order() -> None:
    g = table()
    g.push(Discard(player="Bob", card="2S"))
    g.push(TakeDiscards(player="Ann", cards=("4D", "8S")))
    hand = set(C("8S 4D 8D 8C 4C 4H 2C"))
    assert g.must_meld_now("Ann") == tuple(C("4D 8S"))
    s = g.suggest("Ann", hand)
    assert isinstance(s.best[0], Meld) and C("4D")[0] in s.best[0].cards
    assert isinstance(s.best[1], Meld) and C("8S")[0] in s.best[1].cards
    apply_plan(g, "Ann", s.best, hand)  # the referee accepts the order (U4.2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_suggest_early_stop_agrees_with_the_exhaustive_search(data: st.DataObject) -> None:
    from rulesets.cards import DECK
    from rulesets.umtali import suggest_table

    melds = data.draw(st.lists(st.sampled_from(OPPONENT), unique=True, max_size=3))
    g = table(*melds)
    t = [[(m.kind, m.cards) for m in g.sides[p]] for p in g.players]
    # long runs in few suits stress the search
    pool = [
        c for c in DECK if c.suit is not None and c.suit.value in "SH" and c not in g.table_cards
    ]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=8, max_size=11, unique=True))
    fast = suggest_table(t, 0, hand)
    slow = suggest_table(t, 0, hand, exhaustive=True)
    assert (fast.best_points, fast.can_go_out, fast.go_out_points) == (
        slow.best_points,
        slow.can_go_out,
        slow.go_out_points,
    )
