"""One conformance test over every registered game (STYLE.md #10, OpenSpiel style).

Every referee implements the same :class:`~rulesets.protocol.Game` protocol.
Random legal games from each ruleset, interleaved with random out-of-place
actions, must keep the protocol's promises:

* ``pop()`` after every ``push()`` restores the exact previous summary;
* a refused action changes nothing;
* ``judge`` agrees with ``verify`` (and ``can``);
* the live game equals a replay of its record;
* the JSON of every action round-trips;
* totals are the sums of the ledger, per player; Rummoli conserves chips.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets import GAMES, RulesetError, load_ruleset
from rulesets.cards import parse_cards
from rulesets.protocol import (
    Action,
    Game,
    GameRecord,
    HouseRulesBase,
    Ruleset,
    Summary,
    Units,
    Verdict,
)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_satisfies_the_protocol(game: str) -> None:
    ruleset = load_ruleset(game)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.name == game
    assert 2 <= ruleset.min_players <= ruleset.max_players <= 8
    assert issubclass(ruleset.house_rules, HouseRulesBase)
    assert isinstance(ruleset.units(), Units)
    assert isinstance(ruleset.higher_is_better(), bool)
    defaults = ruleset.house_rules()
    assert defaults.model_config.get("frozen") is True
    for field in ruleset.house_rules.model_fields:
        assert ruleset.house_rules.EXPLAIN.get(field), f"{game}.{field} has no explanation"
        title = ruleset.house_rules.title_of(field)
        assert "_" not in title, f"{game}.{field} has no title in plain words"
    players = ["Ann", "Bob", "Cy"][: max(2, min(3, ruleset.max_players))]
    live = ruleset.new_game(players)
    assert isinstance(live, Game)
    opening = ruleset.opening(players, players[0])
    assert opening.dealer == players[0] and opening.rule and opening.text
    # every game takes the house rules (a model or the form's dict); defaults change nothing
    assert ruleset.opening(players, players[0], rules=defaults) == opening
    assert ruleset.opening(players, players[0], rules={}) == opening
    for action in ruleset.opening_actions(players, players[0]):
        live.push(action)
    assert live.summary().players == tuple(players)


def _ledger_sums(summary: Summary) -> dict[str, int]:
    sums = dict.fromkeys(summary.players, 0)
    for entry in summary.ledger:
        sums[entry.player] += entry.amount
    return sums


def _check_invariants(game: str, summary: Summary) -> None:
    assert _ledger_sums(summary) == summary.totals
    for row_sum, total in zip(
        [sum(r.amounts[p] for r in summary.rows()) for p in summary.players],
        [summary.totals[p] for p in summary.players],
        strict=True,
    ):
        assert row_sum == total
    for hand in summary.hands:
        per_hand = dict.fromkeys(summary.players, 0)
        for entry in hand.ledger:
            per_hand[entry.player] += entry.amount
        assert {p: hand.scores.get(p, 0) for p in summary.players} == per_hand
    if game == "rummoli":
        detail: Any = summary.detail
        assert sum(summary.totals.values()) + detail.chips_on_board == detail.chips_added


def _same_json(action: Action, ruleset: Ruleset) -> None:
    data = action.to_json()
    again = ruleset.parse_action(json.loads(json.dumps(data)))
    assert again == action
    assert again.to_json() == data


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_keep_the_protocol(game: str, seed: int) -> None:
    ruleset = load_ruleset(game)
    record = ruleset.random_record(seed)
    assert record.game == game
    rng = random.Random(seed)
    actions = [ruleset.parse_action(a) for a in record.actions]
    live = ruleset.new_game(record.players, record.rules)
    before = live.summary()
    for i, action in enumerate(actions):
        _same_json(action, ruleset)
        # an out-of-place action (from elsewhere in the game) is judged, and if
        # refused it changes nothing
        stray = actions[rng.randrange(len(actions))]
        verdict = live.judge(stray)
        assert isinstance(verdict, Verdict)
        assert verdict.legal is live.can(stray)
        if not verdict.legal:
            with pytest.raises(RulesetError):
                live.verify(stray)
            with pytest.raises(RulesetError):
                live.push(stray)
            assert live.summary() == before
            assert len(live.actions) == i
        # the legal next action: judge agrees with verify, push/pop are inverses
        assert live.judge(action).legal, live.judge(action).reason
        live.verify(action)
        assert live.summary() == before
        live.push(action)
        after = live.summary()
        _check_invariants(game, after)
        assert live.pop() == action
        assert live.summary() == before
        live.push(action)
        assert live.summary() == after
        before = after
    assert before.finished is True and before.winners
    # the live game equals a replay of its record, and the record survives JSON
    replayed = ruleset.from_record(
        GameRecord.from_json(json.loads(live.to_record().model_dump_json()))
    )
    assert replayed.summary() == before
    assert ruleset.replay(record) == before.to_json()
    json.dumps(before.to_json())
    # undo everything, one pop at a time, back to an empty game
    while live.actions:
        live.pop()
    assert live.summary() == ruleset.new_game(record.players, record.rules).summary()


@pytest.mark.parametrize("game", GAMES)
def test_garbage_actions_raise_only_the_error_family(game: str) -> None:
    ruleset = load_ruleset(game)
    record = ruleset.random_record(7)
    for junk in ({}, {"type": "nonsense"}, {"type": "meld", "cards": "QQ"}, {"type": 5}, [], None):
        bad = record.model_copy(update={"actions": [*record.actions[:3], junk]})
        with pytest.raises(RulesetError):
            ruleset.replay(bad)
        live = ruleset.from_record(record.model_copy(update={"actions": record.actions[:3]}))
        summary = live.summary()
        with pytest.raises(RulesetError):
            live.push(junk)  # type: ignore[arg-type]
        assert live.judge(junk).legal is False  # type: ignore[arg-type]
        assert live.summary() == summary


@pytest.mark.parametrize("game", GAMES)
def test_pop_on_an_empty_game_is_a_record_error(game: str) -> None:
    ruleset = load_ruleset(game)
    live = ruleset.new_game(["Ann", "Bob"])
    with pytest.raises(RulesetError):
        live.pop()


@pytest.mark.parametrize("game", GAMES)
def test_check_returns_a_verdict(game: str) -> None:
    verdict = load_ruleset(game).check(parse_cards("5H 6H 7H"))
    assert isinstance(verdict, Verdict)
    assert verdict.rule and verdict.reason


def test_unknown_game_is_a_ruleset_error() -> None:
    with pytest.raises(RulesetError, match="unknown game"):
        load_ruleset("canasta")


def test_a_record_with_a_newer_schema_is_refused() -> None:
    with pytest.raises(RulesetError, match="newer"):
        GameRecord.from_json({"schema_version": 99, "game": "rummy", "players": ["A", "B"]})
