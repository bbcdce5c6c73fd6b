"""One conformance test over every registered game (STYLE.md #10).

Random legal games from each referee must: satisfy the protocol, survive a
JSON round trip, replay to the same summary every time, and undo by
pop-and-replay (every prefix of a legal record is itself replayable, with
scores only ever derived, never stored).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets import GAMES, RulesetError, load_ruleset
from rulesets.protocol import GameRecord, HouseRulesBase, Ruleset, Verdict

SUMMARY_KEYS = {"game", "players", "finished", "winners", "totals", "hands", "dealer"}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_satisfies_the_protocol(game: str) -> None:
    ruleset = load_ruleset(game)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.name == game
    assert 2 <= ruleset.min_players <= ruleset.max_players <= 8
    assert issubclass(ruleset.house_rules, HouseRulesBase)
    defaults = ruleset.house_rules()
    assert defaults.model_config.get("frozen") is True
    for field in ruleset.house_rules.model_fields:
        assert ruleset.house_rules.EXPLAIN.get(field), f"{game}.{field} has no explanation"


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_replay_round_trip_and_undo(game: str, seed: int) -> None:
    ruleset = load_ruleset(game)
    record = ruleset.random_record(seed)
    assert record.game == game
    summary = ruleset.replay(record)
    assert summary.keys() >= SUMMARY_KEYS
    assert summary["finished"] is True and summary["winners"]
    assert set(summary["totals"]) <= set(record.players) | {str(i) for i in range(8)}
    # JSON round trip: what storage keeps is enough to rebuild everything.
    again = GameRecord.from_json(json.loads(record.model_dump_json()))
    assert ruleset.replay(again) == summary
    json.dumps(summary)  # the summary itself is JSON-able
    # Undo is pop-and-replay: every prefix of a legal record replays.
    step = max(1, len(record.actions) // 12)
    for cut in range(0, len(record.actions), step):
        prefix = record.model_copy(update={"actions": record.actions[:cut]})
        partial = ruleset.replay(prefix)
        assert partial["finished"] is False or cut == len(record.actions)


@pytest.mark.parametrize("game", GAMES)
def test_garbage_actions_raise_only_the_error_family(game: str) -> None:
    ruleset = load_ruleset(game)
    record = ruleset.random_record(7)
    for junk in ({}, {"type": "nonsense"}, {"type": "meld", "cards": "QQ"}, {"type": 5}):
        bad = record.model_copy(update={"actions": [*record.actions[:3], junk]})
        with pytest.raises(RulesetError):
            ruleset.replay(bad)


@pytest.mark.parametrize("game", GAMES)
def test_check_returns_a_verdict(game: str) -> None:
    from rulesets.cards import parse_cards

    verdict = load_ruleset(game).check(parse_cards("5H 6H 7H"))
    assert isinstance(verdict, Verdict)
    assert verdict.rule and verdict.reason
