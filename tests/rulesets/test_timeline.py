"""The game's past for every game alike (rulesets.timeline): replay strict or lenient,
and a live game looked at, judged and corrected at a past entry, left as it was."""

from __future__ import annotations

import pytest

from rulesets import GAMES, RecordError, RulesetError, load_ruleset, timeline
from rulesets.protocol import GameRecord


def _record(game: str, seed: int) -> GameRecord:
    return load_ruleset(game).random_record(seed)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 7])
def test_every_game_is_judged_and_corrected_at_a_past_entry(game: str, seed: int) -> None:
    record = _record(game, seed)
    ruleset = load_ruleset(game)
    live = timeline.replay(record).game
    now, stored = live.summary(), live.to_record()
    count = len(record.actions)
    for index in sorted({1, count // 3, count // 2, count - 1}):
        prefix = record.model_copy(update={"actions": record.actions[:index]})
        entry = live.actions[index]
        assert timeline.summary_at(live, index) == ruleset.from_record(prefix).summary()
        assert timeline.judge_at(live, index, entry).legal
        after = record.model_copy(update={"actions": record.actions[: index + 1]})
        assert timeline.preview(live, entry, at=index) == ruleset.from_record(after).summary()
        assert timeline.corrected(live, index, entry) == list(live.actions)
        # looking back leaves the live game exactly as it was
        assert live.summary() == now and live.to_record() == stored
    assert timeline.preview(live, live.actions[-1], at=count - 1) == now


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_correction_leaves_the_game_as_it_was(game: str) -> None:
    record = _record(game, 3)
    live = timeline.replay(record).game
    now = live.summary()
    first = live.actions[0]
    with pytest.raises(RecordError):
        timeline.summary_at(live, len(live.actions) + 1)
    refused = [a for a in live.actions[1:] if not live.can(a)]
    assert refused, "some recorded action must be out of place at the end of the game"
    verdict = timeline.judge_at(live, 0, refused[0])
    assert not verdict.legal and verdict.rule
    with pytest.raises(ValueError):
        timeline.corrected(live, 0, refused[0])
    assert live.summary() == now and live.actions[0] == first


@pytest.mark.parametrize("game", GAMES)
def test_replay_strict_raises_and_lenient_keeps_what_the_referee_refused(game: str) -> None:
    record = _record(game, 5)
    good = list(record.actions)
    bad = record.model_copy(update={"actions": [*good[:2], good[0], *good[2:4]]})
    with pytest.raises(RulesetError):
        timeline.replay(bad)
    lenient = timeline.replay(bad, lenient=True)
    assert [a.to_json() for a in lenient.game.actions] == good[:2]
    assert lenient.refused == (good[0], *good[2:4]) and lenient.problem is not None
    whole = timeline.replay(record, lenient=True)
    assert whole.refused == () and whole.problem is None
    assert whole.game.summary() == timeline.replay(record).game.summary()
