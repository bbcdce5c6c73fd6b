"""Umtali properties (hypothesis): replay fidelity, score bound, illegal actions, fuzzing."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from enum import Enum
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rulesets.cards import DECK, Card
from rulesets.errors import RulesetError
from rulesets.protocol import GameRecord
from rulesets.umtali import (
    RULESET,
    MeldKind,
    UmtaliGame,
    UmtaliRules,
    parse_action,
    random_game,
)
from rulesets.umtali.actions import StartHand

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=10**6)
cards = st.sampled_from(DECK)
card_text = st.one_of(
    st.sampled_from([str(c) for c in DECK]),
    st.text(alphabet="AJQKTX0123456789SHDC♠♥ ,", max_size=6),
)
players = st.sampled_from(["North", "South", "Zed", 0, 1, 2])


@SETTINGS
@given(seeds)
def test_property_replayed_game_reproduces_the_table(seed: int) -> None:
    game = random_game(seed)
    record = game.to_record()
    reloaded = GameRecord.from_json(json.loads(json.dumps(record.model_dump(mode="json"))))
    assert RULESET.replay(reloaded) == game.summary().to_json()
    # every prefix replays too, and pop equals replaying the shorter prefix
    cut = seed % max(1, len(record.actions))
    prefix = UmtaliGame(record.players, actions=record.actions[:cut])
    longer = UmtaliGame(record.players, actions=record.actions[: cut + 1])
    longer.pop()
    assert longer.summary() == prefix.summary()


@SETTINGS
@given(seeds)
def test_u9_4_both_sides_never_exceed_116_plus_10_per_marriage(seed: int) -> None:
    game = random_game(seed)
    for hand in game.hands:
        marriages = sum(1 for side in hand.sides for m in side if m.kind is MeldKind.MARRIAGE)
        assert sum(hand.scores) <= 116 + 10 * marriages
        on_table = [c for side in hand.sides for m in side for c in m.cards]
        assert len(on_table) == len(set(on_table))  # one pack


@SETTINGS
@given(
    seeds,
    st.sampled_from(
        [
            UmtaliRules(),
            UmtaliRules(winner_deals=True, deal_eleven_ten=True, loose_pair=True),
            UmtaliRules(compulsory_melding=True, discard_dig=True, no_rediscard=False),
            UmtaliRules(**dict.fromkeys(UmtaliRules.model_fields, True)),
        ]
    ),
)
def test_random_games_are_legal_under_house_rules(seed: int, rules: UmtaliRules) -> None:
    game = random_game(seed, rules=rules)
    assert game.finished
    assert RULESET.replay(game.to_record()) == game.summary().to_json()


@st.composite
def random_actions(draw: Any) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            [
                "start_hand",
                "draw",
                "take_discards",
                "meld",
                "extend",
                "discard",
                "go_out",
                "leftovers",
                "end_hand_empty_stock",
                "bogus",
            ]
        )
    )
    who = draw(st.sampled_from(["North", "South", "Zed"]))
    cs = draw(st.lists(card_text, max_size=5))
    data: dict[str, Any] = {"type": kind}
    if kind == "start_hand":
        data["dealer"] = draw(st.sampled_from(["North", "South", None]))
    elif kind in ("draw",):
        data["player"] = who
    elif kind in ("take_discards", "meld", "leftovers"):
        data |= {"player": who, "cards": cs}
    elif kind in ("extend", "discard"):
        data |= {"player": who, "card": cs[0] if cs else "??"}
        if kind == "extend":
            data["anchor"] = [
                draw(st.sampled_from(["North", "South", "X"])),
                draw(st.integers(-1, 12)),
            ]
    elif kind == "go_out":
        data |= {
            "player": who,
            "pair": cs[:2],
            "discard": cs[2] if len(cs) > 2 else None,
            "face_down": draw(st.booleans()),
        }
    return data


@SETTINGS
@given(seeds, st.data())
def test_property_any_sequence_of_actions_only_raises_the_family_and_illegal_changes_nothing(
    seed: int, data: st.DataObject
) -> None:
    record = random_game(seed).to_record()
    cut = data.draw(st.integers(0, len(record.actions)))
    game = UmtaliGame(record.players, actions=record.actions[:cut])
    for _ in range(data.draw(st.integers(1, 12))):
        action = data.draw(random_actions())
        before = (game.summary(), game.actions)
        try:
            game.push(action)
        except RulesetError:
            assert (game.summary(), game.actions) == before
        assert json.loads(json.dumps(game.summary().to_json())) == game.summary().to_json()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(cards, max_size=6, unique=True),
    st.lists(cards, max_size=4, unique=True),
    st.booleans(),
)
def test_fuzz_check_never_raises_and_answers_with_a_rule(
    played: list[Card], onto: list[Card], going_out: bool
) -> None:
    v = RULESET.check(played, onto=onto or None, going_out=going_out)
    assert v.rule.startswith(("U", "A-U"))
    assert isinstance(v.legal, bool)
    if v.legal:
        assert v.points is not None and v.points >= 0


@settings(max_examples=60, deadline=None)
@given(st.lists(card_text, max_size=6), players)
def test_fuzz_card_text_raises_only_the_error_family(texts: list[str], who: object) -> None:
    game = UmtaliGame(("North", "South"))
    game.push(StartHand(dealer="North"))
    first = texts[0] if texts else ""
    for attempt in (
        lambda: game.push({"type": "meld", "player": who, "cards": texts}),
        lambda: game.push({"type": "extend", "player": who, "card": first, "anchor": [who, 0]}),
        lambda: game.judge({"type": "meld", "player": who, "cards": texts}),
        lambda: game.suggest(who, texts),  # type: ignore[arg-type]
        lambda: parse_action({"type": "meld", "player": who, "cards": texts}),
    ):
        with contextlib.suppress(RulesetError):
            attempt()


junk = st.one_of(
    st.none(), st.integers(), st.floats(), st.booleans(), card_text, st.lists(card_text, max_size=4)
)


@settings(max_examples=80, deadline=None)
@given(junk, junk, junk)
def test_fuzz_junk_arguments_raise_only_the_error_family(a: Any, b: Any, c: Any) -> None:
    game = UmtaliGame(("North", "South"))
    game.push(StartHand(dealer="North"))
    for attempt in (
        lambda: game.push({"type": "meld", "player": "South", "cards": a}, hand=b),
        lambda: game.push({"type": "extend", "player": "South", "card": a, "anchor": [b, c]}),
        lambda: game.push({"type": "go_out", "player": "South", "pair": a, "discard": b}, hand=c),
        lambda: game.push({"type": "leftovers", "player": "North", "cards": a}, hand=b),
        lambda: game.push({"type": "take_discards", "player": "South", "cards": a}, hand=b),
        lambda: game.push({"type": "discard", "player": "South", "card": a}, hand=b),
        lambda: game.suggest("South", a, must_meld=b),
        lambda: game.push(a),
    ):
        with contextlib.suppress(RulesetError):
            attempt()


def _immutable(value: object) -> bool:
    """A value no handler can change in place: what makes a shallow copy a snapshot."""
    if value is None or isinstance(value, int | str | float | Enum | Card):
        return True
    if isinstance(value, tuple | frozenset):
        return all(_immutable(v) for v in value)
    if isinstance(value, BaseModel):
        return bool(value.model_config.get("frozen"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
        fields = dataclasses.fields(value)
        return bool(frozen) and all(_immutable(getattr(value, f.name)) for f in fields)
    return False


@SETTINGS
@given(seeds)
def test_umtali_state_fields_are_immutable(seed: int) -> None:
    """One snapshot rule: every field of the state holds an immutable value after every
    action of a random game, so ``State.snapshot`` (a shallow copy) captures all of it
    and ``pop`` cannot miss a field (a hand-written clone could)."""
    game = random_game(seed)
    replay = UmtaliGame(game.players, game.rules)
    for action in game.actions:
        replay.push(action)
        state = replay._state
        for f in dataclasses.fields(state):
            assert _immutable(getattr(state, f.name)), (f.name, getattr(state, f.name))
    assert replay.summary() == game.summary()
