"""Recorded Rummy games (tests/data/rummy_*.json) and hypothesis properties."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.cards import DECK, JOKER, Card, parse_cards
from rulesets.errors import RulesetError
from rulesets.protocol import GameRecord
from rulesets.rummy import (
    RULESET,
    RummyGame,
    RummyRules,
    analyse_meld,
    card_value,
    random_record,
    suggest,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def load(name: str) -> GameRecord:
    return GameRecord.from_json(json.loads((DATA / name).read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- sample games


def test_r6_sample_three_player_game_to_100_with_going_rummy_double() -> None:
    s = RULESET.replay(load("rummy_three_player_to_100.json"))
    # hand 1 (Ann deals), Bob out: Ann K+7+A+2 = 10+7+1+2 = 20; Cy J+9 = 19
    # hand 2 (Bob deals), Cy goes rummy, doubled: Ann (K+Q+5 = 25) x2 = 50; Bob typed 14 x2 = 28
    #   totals: Ann 20+50 = 70, Bob 0+28 = 28, Cy 19
    # hand 3 (Cy deals), Ann out: Bob K+K+9+8 = 37 -> 65; Cy A+2+3 = 6 -> 25
    # hand 4 (Ann deals), Cy out: Ann 10+J+4 = 24 -> 94; Bob Q+J+10+9+6 = 45 -> 110 >= 100
    assert [h["scores"] for h in s["hands"]] == [
        {"Ann": 20, "Bob": 0, "Cy": 19},
        {"Ann": 50, "Bob": 28, "Cy": 0},
        {"Ann": 0, "Bob": 37, "Cy": 6},
        {"Ann": 24, "Bob": 45, "Cy": 0},
    ]
    assert [h["dealer"] for h in s["hands"]] == ["Ann", "Bob", "Cy", "Ann"]
    assert s["totals"] == {"Ann": 94, "Bob": 110, "Cy": 25}
    assert s["finished"] and s["winners"] == ["Cy"]
    assert s["hands"][1]["going_rummy"] and s["hands"][1]["doubled"]
    assert s["typed"] == [{"hand": 2, "player": "Bob"}]
    assert s["hands"][1]["typed"] == ["Bob"]
    assert s["dealer"] == "Bob"  # would deal next
    json.dumps(s)


def test_a_r2_sample_two_player_winner_takes_all() -> None:
    s = RULESET.replay(load("rummy_two_player_winner_takes_all.json"))
    # hand 1 (Eli deals), Dee out: Eli A+9+4 = 15+9+4 = 28 (ace 15 with ace_high_or_low)
    # hand 2 (Dee deals), Eli goes rummy: Dee typed 12, doubled -> Eli 24
    # hand 3 (Eli deals), Eli out: Dee K+Q+A+2 = 10+10+15+2 = 37 -> Eli 24+37 = 61 >= 60
    assert s["totals"] == {"Dee": 28, "Eli": 61}
    assert s["finished"] and s["winners"] == ["Eli"]
    assert [h["dealer"] for h in s["hands"]] == ["Eli", "Dee", "Eli"]


def test_replay_round_trips_through_json() -> None:
    rec = load("rummy_three_player_to_100.json")
    g = RummyGame.from_record(rec)
    again = GameRecord.from_json(json.loads(json.dumps(g.to_record().model_dump())))
    assert RULESET.replay(again)["totals"] == RULESET.replay(rec)["totals"]


def test_undo_last_hand_end_restores_totals() -> None:
    g = RummyGame.from_record(load("rummy_three_player_to_100.json"))
    g.pop()
    assert g.totals == {"Ann": 70, "Bob": 65, "Cy": 25} and not g.finished
    assert g.in_hand


# --------------------------------------------------------------------------- properties

RULE_SETS = [
    RummyRules(),
    RummyRules(ace_high_or_low=True),
    RummyRules(jokers=True),
    RummyRules(jokers=True, ace_high_or_low=True, round_the_corner=True),
    RummyRules(winner_takes_all=True, going_rummy_double=True),
]

cards_st = st.lists(st.sampled_from(DECK), min_size=0, max_size=11, unique=True)


@settings(max_examples=60, deadline=None)
@given(cards=cards_st, jokers=st.integers(0, 2), rules=st.sampled_from(RULE_SETS))
def test_r6_1_penalty_is_sum_of_card_values_under_every_variant(
    cards: list[Card], jokers: int, rules: RummyRules
) -> None:
    hand = cards + ([JOKER] * jokers if rules.jokers else [])
    expected = 0
    for c in hand:
        if c.is_joker:
            expected += 15
        elif c.r.value == "A":
            expected += 15 if rules.ace_high_or_low else 1
        elif c.r.value in ("10", "J", "Q", "K"):
            expected += 10
        else:
            expected += int(c.r.value)
    assert RULESET.score(hand, rules=rules).points == expected
    assert sum(card_value(c, rules) for c in hand) == expected


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_random_records_replay_to_consistent_totals(seed: int) -> None:
    rec = random_record(seed)
    s = RULESET.replay(rec)
    # replay reproduces totals: the sum of per-hand scores
    for p in s["players"]:
        assert s["totals"][p] == sum(h["scores"][p] for h in s["hands"])
    assert s["finished"] and s["winners"]
    json.dumps(s)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_r6_3_game_ends_exactly_when_target_or_rounds_reached(seed: int) -> None:
    rec = random_record(seed)
    rules = RummyRules.model_validate(rec.rules)
    g = RummyGame(rec.players, rules)
    for action in rec.actions:
        assert not g.finished
        g.push(action)
        if action["type"] == "hand_end":
            if rules.fixed_rounds is not None:
                assert g.finished == (len(g.results) == rules.fixed_rounds)
            else:
                assert g.finished == any(t >= rules.target for t in g.totals.values())
    assert g.finished


def _random_meld(rng: random.Random) -> list[str]:
    if rng.random() < 0.5:
        rank = rng.choice(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
        cards = [rank + s for s in rng.sample("SHDC", rng.randint(3, 4))]
    else:
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
        start = rng.randint(0, 12)
        suit = rng.choice("SHDC")
        cards = [r + suit for r in ranks[start : start + rng.randint(3, 5)]]
    if rng.random() < 0.2:
        cards[rng.randrange(len(cards))] = "JK"
    return cards


def _random_action(rng: random.Random, players: list[str]) -> dict[str, Any]:
    kind = rng.choice(["start_hand", "draw", "meld", "lay_off", "discard", "hand_end", "swap"])
    p = rng.choice(players + ["Nobody"] if rng.random() < 0.1 else players)
    cards = [str(c) for c in rng.sample(DECK, rng.randint(0, 3))]
    if rng.random() < 0.1:
        cards.append(rng.choice(["JK", "1X", "", "QQ"]))
    if kind == "start_hand":
        return {"type": kind, "dealer": rng.choice([None, p]), "turns": rng.random() < 0.5}
    if kind == "draw":
        return {"type": kind, "player": p, "source": rng.choice(["stock", "discard"])}
    if kind == "meld":
        return {"type": kind, "player": p, "cards": _random_meld(rng)}
    if kind == "lay_off":
        return {"type": kind, "player": p, "cards": cards[:1], "meld": rng.randint(-1, 3)}
    if kind == "discard":
        return {"type": kind, "player": p, "card": cards[0] if cards else None}
    if kind == "swap":
        return {
            "type": "swap_joker",
            "player": p,
            "meld": rng.randint(0, 2),
            "card": cards[0] if cards else "7H",
        }
    pack = [str(c) for c in rng.sample(DECK, 4 * len(players))]
    rem = {q: pack[i * 4 : i * 4 + rng.randint(0, 4)] for i, q in enumerate(players)}
    out = rng.choice([None, p])
    if out is not None and rng.random() < 0.9:
        rem.pop(out, None)
    typed = {}
    if rng.random() < 0.3:
        q = rng.choice(players)
        rem.pop(q, None)
        typed[q] = rng.randint(-5, 40)
    return {
        "type": kind,
        "went_out": out,
        "going_rummy": rng.choice([None, True, False]),
        "remaining": rem,
        "typed": typed,
    }


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), rules=st.sampled_from(RULE_SETS))
def test_random_actions_raise_only_the_error_family_and_leave_state_unchanged(
    seed: int, rules: RummyRules
) -> None:
    rng = random.Random(seed)
    players = ["A", "B", "C"][: rng.randint(2, 3)]
    g = RummyGame(players, rules)
    for _ in range(40):
        action = _random_action(rng, players)
        before = (g.summary(), len(g.actions))
        try:
            g.push(action)
        except RulesetError:
            assert (g.summary(), len(g.actions)) == before
    # whatever was accepted replays to the same state
    again = RummyGame.from_record(g.to_record())
    assert again.summary() == g.summary()


# --------------------------------------------------------------------------- exact suggest


def _brute(cards: tuple[Card, ...], rules: RummyRules) -> int:
    """Least deadwood by trying every subset as a meld, recursively (slow, obviously right)."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = card_value(first, rules) + _brute(rest, rules)
    for size in range(2, len(rest) + 1):
        for others in itertools.combinations(rest, size):
            try:
                analyse_meld((first, *others), rules)
            except RulesetError:
                continue
            left = tuple(c for c in rest if c not in others)
            best = min(best, _brute(left, rules))
    return best


def _meldy_hand(rng: random.Random, n: int) -> list[Card]:
    # few ranks and suits, so melds overlap often
    pool = [c for c in DECK if c.r.low <= 5 or c.r.low >= 12]
    pool = [c for c in pool if c.suit is not None and c.suit.value in "SH" or c.r.low in (2, 3)]
    return rng.sample(pool, n)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), rules=st.sampled_from(RULE_SETS[:2] + RULE_SETS[3:4]))
def test_suggest_is_exact_against_brute_force(seed: int, rules: RummyRules) -> None:
    rng = random.Random(seed)
    hand = _meldy_hand(rng, rng.randint(3, 7))
    if rules.jokers and rng.random() < 0.5:
        hand.append(JOKER)
    s = suggest(hand, rules)
    assert s.points == _brute(tuple(hand), rules)
    # the suggestion is itself consistent: melds valid, every card used once
    used = [c for m in s.melds for c in m.cards] + list(s.deadwood)
    assert sorted(map(str, used)) == sorted(map(str, hand))
    assert s.points == sum(card_value(c, rules) for c in s.deadwood)


def test_suggest_exact_beats_greedy_on_known_hand() -> None:
    hand = parse_cards("7H 7S 7D 7C 8H 9H")
    assert _brute(hand, RummyRules()) == 0 == suggest(hand).points


@pytest.mark.parametrize("text", ["AH 2H 3H", "7S 7D 7C", "9C 10C JC QC KC"])
def test_every_meld_verdict_names_a_rule(text: str) -> None:
    v = RULESET.check(parse_cards(text))
    assert v.legal and v.rule in {"R2.1", "R2.2"} and parse_cards(text)[0].symbol in v.reason


def test_random_records_cover_logged_hands_and_every_action() -> None:
    """The conformance test is only as good as the random games: they must log whole
    turns (named and unnamed draws from both piles), table-only hands, both endings."""
    seen: set[str] = set()
    for seed in (0, 4, 14, 22):
        game = RummyGame.from_record(random_record(seed))
        seen.add(f"players={len(game.players)}")
        turns = False
        for a in game.actions:
            if a.type == "start_hand":
                turns = bool(a.turns)
                seen.add(f"start turns={turns}")
            elif a.type == "draw":
                seen.add(f"draw {a.source} named={a.card is not None}")
            elif a.type == "hand_end":
                seen.add(f"end turns={turns} winner={a.went_out is not None}")
            else:
                seen.add(a.type)
    assert {
        "start turns=True",
        "start turns=False",
        "draw stock named=True",
        "draw stock named=False",
        "draw discard named=True",
        "meld",
        "lay_off",
        "discard",
        "swap_joker",
        "end turns=True winner=True",
        "end turns=True winner=False",
        "end turns=False winner=True",
        "end turns=False winner=False",
        "players=2",
        "players=5",
    } <= seen
