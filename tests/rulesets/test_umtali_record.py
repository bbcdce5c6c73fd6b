"""Umtali records: the sample game with hand-computed scores, replay, pop, JSON round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.errors import IllegalActionError, RecordError
from rulesets.protocol import GameRecord
from rulesets.umtali import RULESET, MeldKind, UmtaliGame, parse_action, random_record
from rulesets.umtali.actions import Extend, Meld, StartHand

DATA = Path(__file__).resolve().parents[1] / "data"


def load(name: str) -> GameRecord:
    return GameRecord.from_json(json.loads((DATA / name).read_text(encoding="utf-8")))


def test_u9_sample_game_scores_by_hand() -> None:
    summary = RULESET.replay(load("umtali_game_1.json"))
    scores = [(h["scores"]["Ann"], h["scores"]["Bob"]) for h in summary["hands"]]
    # Hand 1 (Ann deals, Ann goes out with pair 4D 4C, face-down discard):
    #   Ann: KS QS marriage 20 + 8H single 1 + 9S 9D 9C set 3 + pair 4D 4C 2
    #        + Bob's leftovers KD 5 + 3C 1                           = 32
    #   Bob: 5H 6H 7H 3 + 9H 1 + JC 5 + 10C (off JC) 5 + 4S (off the pair) 1 = 15
    # Hand 2 (Bob deals, Bob goes out with a face-up discard):
    #   Ann: AC 2C 3C 3 + 10C 5 + 4C 1 + 5C 1 + JH 5                = 15
    #   Bob: 10D 10S 10H 15 + KH QH marriage 20 + Ann's leftovers QC 5 + 6S 1 + 6D 1 = 42
    # Hand 3 (Ann deals, the stock runs out):
    #   Ann: 8S 8H 8C 8D 4 + 7D 1 = 5;   Bob: 2D 3D 4D 5D 4 + 6D 1 = 5
    # Hand 4 (Bob deals, Ann out with pair 7S 7C, Bob also out -- nothing moves):
    #   Ann: QD KD 20 + JS 5 + 7S 7C 2 = 27;  Bob: 4H 5H 6H 3 + 7H 1 + AS AD 2 = 6
    assert scores == [(32, 15), (15, 42), (5, 5), (27, 6)]
    # totals: Ann 32+15+5+27 = 79, Bob 15+42+5+6 = 68
    assert summary["totals"] == {"Ann": 79, "Bob": 68}
    assert summary["finished"] is True and summary["winners"] == ["Ann"]
    assert [h["dealer"] for h in summary["hands"]] == ["Ann", "Bob", "Ann", "Bob"]
    assert [h["went_out"] for h in summary["hands"]] == ["Ann", "Bob", None, "Ann"]
    assert summary["hands"][2]["ended"] == "empty_stock"
    assert summary["hands"][3]["both_out"] is True


def test_u8_4_sample_game_leftovers_are_singles_on_the_going_out_side() -> None:
    summary = RULESET.replay(load("umtali_game_1.json"))
    ann_h1 = summary["hands"][0]["sides"]["Ann"]
    leftovers = [m for m in ann_h1 if m["kind"] == MeldKind.LEFTOVER.value]
    assert [(m["cards"], m["by"]) for m in leftovers] == [(["KD"], "Bob"), (["3C"], "Bob")]


def test_replay_summary_has_the_common_shape() -> None:
    summary = RULESET.replay(load("umtali_game_1.json"))
    for key in ("game", "players", "finished", "winners", "totals", "hands", "dealer"):
        assert key in summary
    assert summary["game"] == "umtali" and summary["players"] == ["Ann", "Bob"]
    json.dumps(summary)


def test_replay_summary_shows_each_sides_melds_for_the_current_hand() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    g.push(StartHand(dealer="Ann"))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Extend(player="Ann", card="8H", anchor=("Bob", 0)))
    s = g.summary().to_json()
    assert s["current"]["number"] == 1 and s["current"]["turn"] == "Ann"
    assert s["current"]["sides"]["Ann"] == [
        {"kind": "single", "cards": ["8H"], "points": 1, "by": "Ann", "anchor": ["Bob", 0]}
    ]
    assert s["current"]["scores"] == {"Ann": 1, "Bob": 3}


def test_pop_restores_the_state_before_the_last_push() -> None:
    rec = load("umtali_game_1.json")
    g = UmtaliGame.from_record(rec)
    full = g.summary()
    last = g.pop()
    assert last.type == "go_out" and not g.finished
    g.push(last)
    assert g.summary() == full
    g2 = UmtaliGame(("Ann", "Bob"))
    with pytest.raises(RecordError):
        g2.pop()


def test_record_json_round_trip_and_public_information_only() -> None:
    rec = load("umtali_game_1.json")
    again = UmtaliGame.from_record(rec).to_record()
    assert again.model_dump(mode="json") == rec.model_dump(mode="json")
    kinds = {a["type"] for a in rec.actions}
    assert {"start_hand", "meld", "extend", "go_out", "leftovers", "end_hand_empty_stock"} <= kinds


def test_scores_need_no_draws_or_discards() -> None:
    rec = load("umtali_game_1.json")
    public = [a for a in rec.actions if a["type"] not in ("draw", "discard", "take_discards")]
    lean = GameRecord(game="umtali", players=rec.players, actions=public)
    assert RULESET.replay(lean)["totals"] == {"Ann": 79, "Bob": 68}


def test_bad_records_raise_record_or_illegal_action_errors() -> None:
    with pytest.raises(RecordError):
        RULESET.replay(GameRecord(game="rummy", players=["A", "B"]))
    with pytest.raises(RecordError):
        RULESET.replay(GameRecord(game="umtali", players=["A", "B"], actions=[{"type": "x"}]))
    with pytest.raises(RecordError):
        RULESET.replay(GameRecord(game="umtali", players=["A", "B"], rules={"jokers": True}))
    bad = GameRecord(
        game="umtali",
        players=["A", "B"],
        actions=[
            {"type": "start_hand", "dealer": "A"},
            {"type": "meld", "player": "B", "cards": ["JH", "JD", "JS"]},
        ],
    )
    with pytest.raises(IllegalActionError) as info:
        RULESET.replay(bad)
    assert info.value.rule == "U5.1" and "action 2" in str(info.value)


def test_parse_action_round_trips_every_action_kind() -> None:
    rec = random_record(3)
    for data in rec.actions:
        assert parse_action(data).to_json() == data


def test_u4_2_random_games_take_two_discards_and_meld_both() -> None:
    takes = 0
    for seed in range(10):
        actions = random_record(seed).actions
        for i, a in enumerate(actions):
            if a["type"] == "take_discards" and len(a["cards"]) == 2:
                takes += 1
                assert set(a["cards"]) <= set(actions[i + 1]["cards"])
    assert takes > 0


def test_random_record_is_a_complete_legal_game() -> None:
    for seed in range(5):
        rec = random_record(seed)
        summary = RULESET.replay(rec)
        assert summary["finished"] and len(summary["hands"]) == 4
        assert summary["winners"]
        assert RULESET.random_record(seed) == rec  # deterministic per seed


def test_a_u2_u2_3_house_rules_recorded_game_in_progress() -> None:
    record = load("umtali_game_2_in_progress.json")
    assert record.rules == {"jack_extends_any_suit": True, "winner_deals": True}
    summary = RULESET.replay(record)
    # Hand 1 (Bob deals): Ann JS 5 + KH (off Bob's QH) 5 + Bob's leftover 10S 5 = 15;
    #   Bob QH (off the JS, any suit by house rule) 5 + 3D 4D 5D 3 + 6D 1 = 9
    assert summary["hands"][0]["scores"] == {"Ann": 15, "Bob": 9}
    assert summary["finished"] is False and summary["winners"] == []
    # Ann went out, and the winner deals hand 2
    assert summary["dealer"] == "Ann"
    current = summary["current"]
    # Hand 2 so far: Bob 7C 7D 7H = 3, Ann 7S off that set = 1
    assert current["number"] == 2 and current["scores"] == {"Ann": 1, "Bob": 3}
    assert current["turn"] == "Ann"
    # the same record without the house rule is illegal at QH off JS (A-U2)
    plain = GameRecord(game="umtali", players=record.players, actions=record.actions)
    with pytest.raises(IllegalActionError) as info:
        RULESET.replay(plain)
    assert info.value.rule == "A-U2"
