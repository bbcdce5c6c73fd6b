"""Rummoli properties: chips are conserved, random legal games replay, fuzzed actions are safe."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.cards import DECK
from rulesets.errors import RulesetError
from rulesets.protocol import GameRecord
from rulesets.rummoli import RULESET, RummoliGame, RummoliRules, pot_names, random_game

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _replay_checking(record: GameRecord) -> RummoliGame:
    """Replay action by action, checking conservation after every step (M1.3-M7.2)."""
    game = RummoliGame(record.players, RummoliRules.model_validate(record.rules))
    for raw in record.actions:
        game.push(raw)
        s = game.summary().to_json()
        assert s["chips_total"] == s["chips_added"], raw
        assert all(v >= 0 for v in game.stacks)
        assert all(v >= 0 for v in s["pots"].values())
    return game


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_chips_conserved_over_random_legal_games(seed: int) -> None:
    record = RULESET.random_record(seed)
    game = _replay_checking(record)
    summary = game.summary().to_json()
    assert summary["finished"]
    assert sum(summary["pots"].values()) == 0  # the final poker empties the board (M7.2)
    assert sum(summary["totals"].values()) == summary["chips_added"]
    top = max(summary["totals"].values())
    assert summary["winners"] == [n for n, v in summary["totals"].items() if v == top]


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_random_record_replays_identically_from_json(seed: int) -> None:
    game = random_game(seed)
    data = game.to_record().model_dump(mode="json")
    again = RULESET.replay(GameRecord.from_json(data))
    assert again == game.summary().to_json()
    for hand in again["hands"]:
        for name, net in hand["scores"].items():
            if net:
                assert hand["statement"][name].startswith(f"{name} {net:+d}: ")


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.data())
def test_undo_equals_replay_of_the_prefix(seed: int, data: st.DataObject) -> None:
    record = RULESET.random_record(seed)
    cut = data.draw(st.integers(min_value=1, max_value=len(record.actions)))
    game = RummoliGame(record.players, RummoliRules.model_validate(record.rules))
    for raw in record.actions[:cut]:
        game.push(raw)
    game.pop()
    prefix = RummoliGame(record.players, RummoliRules.model_validate(record.rules))
    for raw in record.actions[: cut - 1]:
        prefix.push(raw)
    assert game.summary() == prefix.summary()


# ---------------------------------------------------------------- fuzz

SEAT = st.integers(min_value=-1, max_value=8)
CARD = st.one_of(st.sampled_from([str(c) for c in DECK]), st.sampled_from(["JK", "1X", "", "AS"]))
POT = st.one_of(st.sampled_from(pot_names()), st.sampled_from(["8-9-10", "K♥", "nope", ""]))
HELD = st.lists(st.integers(min_value=0, max_value=20), min_size=0, max_size=9)
HAND = st.one_of(st.none(), st.lists(CARD, min_size=0, max_size=7))

ACTIONS: st.SearchStrategy[Any] = st.one_of(
    st.just({"type": "deal"}),
    st.just({"type": "end"}),
    st.builds(
        lambda p, b, h: {"type": "widow", "player": p, "bid": b, "hand": h},
        st.one_of(st.none(), SEAT),
        st.integers(0, 6),
        st.one_of(st.none(), st.lists(CARD, max_size=14)),
    ),
    st.builds(lambda p, c: {"type": "bet", "player": p, "chips": c}, SEAT, st.integers(-1, 8)),
    st.builds(lambda p: {"type": "fold", "player": p}, SEAT),
    st.builds(
        lambda w, h: {"type": "poker", "winners": w, "hands": h},
        st.one_of(st.none(), st.lists(SEAT, max_size=3)),
        st.one_of(st.none(), st.lists(HAND, max_size=9)),
    ),
    st.builds(
        lambda w: {"type": "final_poker", "winners": w},
        st.one_of(st.none(), st.lists(SEAT, max_size=3)),
    ),
    st.builds(lambda p, c: {"type": "lay", "player": p, "card": c}, SEAT, CARD),
    st.builds(lambda p, t: {"type": "claim", "player": p, "pot": t}, SEAT, POT),
    st.builds(lambda p, h: {"type": "out", "player": p, "held": h}, SEAT, HELD),
    st.builds(lambda h: {"type": "impasse", "held": h}, st.one_of(st.none(), HELD)),
    st.builds(lambda p, c: {"type": "adjust", "player": p, "chips": c}, SEAT, st.integers(-60, 60)),
    st.builds(
        lambda c, d: {"type": "start", "chips": c, "dealer": d},
        st.lists(st.integers(-1, 40), max_size=9),
        SEAT,
    ),
    st.just({"type": "shuffle"}),
    st.just({"type": "lay", "player": "Ann"}),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.data(), st.lists(ACTIONS, min_size=1, max_size=25))
def test_fuzz_actions_raise_only_the_error_family_and_leave_state_unchanged(
    seed: int, data: st.DataObject, actions: list[Any]
) -> None:
    record = RULESET.random_record(seed)
    cut = data.draw(st.integers(min_value=0, max_value=len(record.actions)))
    game = RummoliGame(record.players, RummoliRules.model_validate(record.rules))
    for raw in record.actions[:cut]:
        game.push(raw)
    for action in actions:
        before = (game.summary(), game.held, game.pending_claims, game.actions)
        try:
            game.push(action)
        except RulesetError:
            assert (game.summary(), game.held, game.pending_claims, game.actions) == before
        else:
            s = game.summary().to_json()
            assert s["chips_total"] == s["chips_added"]
            assert all(v >= 0 for v in game.stacks)
