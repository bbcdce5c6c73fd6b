"""A recorded three-player Rummoli game (tests/data/rummoli_sample_game.json) against a chip
sheet computed by hand.  Every number below is worked out in the comments, not by the code."""

from __future__ import annotations

import json
from pathlib import Path

from rulesets.protocol import GameRecord
from rulesets.rummoli import RULESET

DATA = Path(__file__).resolve().parent.parent / "data" / "rummoli_sample_game.json"


def _summary() -> dict:
    return RULESET.replay(GameRecord.from_json(json.loads(DATA.read_text(encoding="utf-8"))))


def test_sample_game_round_1_quick_settlement() -> None:
    # Start 30 each = 90 chips.  Dealer Ann.
    # Ante (M1.3): 9 each -> stacks 21/21/21, every pot 3 (27 on the board).
    # Widow (M2.3): Cy bids 2 to Ann -> Ann 23, Cy 19.
    # Bets (M4.2): Bob 2, Cy 2 -> Bob 19, Cy 17, Poker pot 3+4 = 7.  Ann folds.
    # Poker (M4.3): Bob takes 7 -> Bob 26.
    # Pay pots (M5.6, A-M9): Bob 10S +3 -> 29; Cy QC +3 and 7-8-9 +3 -> 23; Ann KH +3 -> 26.
    # Cy goes out (M6.1): centre 3 -> Cy 26; Ann pays 4 -> 22, Bob pays 2 -> 27,
    #   Cy +6 -> 32 (A-M11).
    # Nets: Ann 22-30 = -8, Bob 27-30 = -3, Cy 32-30 = +2.  Board left: JD 3, AS 3, AD+KD 3 = 9.
    hand = _summary()["hands"][0]
    assert hand["scores"] == {"Ann": -8, "Bob": -3, "Cy": 2}
    assert hand["out"] == "Cy"
    assert hand["pots_won"] == {"10S": "Bob", "QC": "Cy", "KH": "Ann", "7-8-9": "Cy"}
    assert hand["statement"]["Cy"] == (
        "Cy +2: ante -9 [M1.3], widow bid to Ann -2 [M2.3], poker bet -2 [M4.2], "
        "Q♣ pot +3 [M5.6], 7-8-9 pot +3 [A-M9], Rummoli pot +3 [M6.1], "
        "cards owed +6 (Ann 4, Bob 2) [A-M11]"
    )


def test_sample_game_round_2_tie_and_impasse() -> None:
    # Dealer passes to Bob (M6.3).  Stacks before: Ann 22, Bob 27, Cy 32.
    # Ante: Ann 13, Bob 18, Cy 23.  Pots: poker 3, 10S 3, JD 6, QC 3, KH 3, AS 6, AD+KD 6,
    #   7-8-9 3, rummoli 3 = 36.
    # Bob swaps with the widow for nothing (M2.2).
    # Poker: Ann and Cy both hold a pair of 2s with 9-6-5 -> split 3: 1 each, 1 stays (M4.4).
    #   Ann 14, Cy 24.  Cy is first clockwise from Bob's left, so Cy starts (A-M5).
    # Bob JD +6 -> 24; Ann AS +6 -> 20.
    # Impasse (M5.7): Ann 3, Bob 5, Cy 2 cards -> Ann 17, Bob 19, Cy 22; centre 3+10 = 13.
    # Nets: Ann 17-22 = -5, Bob 19-27 = -8, Cy 22-32 = -10.
    hand = _summary()["hands"][1]
    assert hand["dealer"] == "Bob"
    assert hand["scores"] == {"Ann": -5, "Bob": -8, "Cy": -10}
    assert hand["poker"]["winners"] == ["Cy", "Ann"]
    assert hand["poker"]["starter"] == "Cy"
    assert hand["poker"]["carried"] == 1
    assert hand["impasse"] and hand["out"] is None


def test_sample_game_final_poker_and_winner() -> None:
    # Board after round 2: poker 1, 10S 3, QC 3, KH 3, AD+KD 6, 7-8-9 3, rummoli 13 = 32.
    # End: one final pot of 32 (M7.2).  Bob bets 3 -> Bob 16, pot 35.
    # Ann and Bob tie with a pair of aces, 6-4-3: 35 / 2 = 17 each, 1 odd chip.
    # Next dealer would be Cy; nearest to Cy's left among the tied is Ann -> Ann +18, Bob +17.
    # Final stacks: Ann 17+18 = 35, Bob 16+17 = 33, Cy 22.  35+33+22 = 90 = the chips at start.
    s = _summary()
    assert s["finished"]
    assert s["totals"] == {"Ann": 35, "Bob": 33, "Cy": 22}
    assert s["chips_total"] == 90
    assert s["winners"] == ["Ann"]
    assert s["final"][0]["chips"] == 35 and s["final"][0]["odd"] == 1
    assert s["final_statement"]["Ann"] == (
        "Ann +18: final poker +18 (split 2 ways, +1 odd chips) [M7.2]"
    )
    assert set(s["pots"].values()) == {0}
