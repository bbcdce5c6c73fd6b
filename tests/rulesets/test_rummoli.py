"""Rummoli referee: one test (at least) per rule of RULES.md M1-M7 and A-M1..A-M16."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulesets import load_ruleset
from rulesets.cards import parse_cards
from rulesets.errors import HouseRuleError, IllegalActionError, RecordError, RulesetError
from rulesets.protocol import GameRecord, Ruleset, parse_house_rules
from rulesets.rummoli import (
    RULESET,
    Adjust,
    Bet,
    Claim,
    Deal,
    End,
    FinalPoker,
    Fold,
    Impasse,
    Lay,
    Out,
    Poker,
    RummoliGame,
    RummoliRules,
    Start,
    Widow,
    deal_sizes,
    pay_cards_in,
    pot_names,
    simulate_play,
)
from tests.rulesets.rummoli_moves import lay

ROOT = Path(__file__).resolve().parents[2]
NAMES4 = ["Ann", "Bob", "Cy", "Di"]
NAMES3 = ["Ann", "Bob", "Cy"]


def started(
    names: list[str] = NAMES4, chips: int = 50, dealer: int = 0, **rules: Any
) -> RummoliGame:
    g = RummoliGame(names, RummoliRules(**rules))
    g.push(Start(chips=[chips] * len(names), dealer=dealer))
    return g


def in_play(names: list[str] = NAMES3, winner: int = 1, **rules: Any) -> RummoliGame:
    """Dealt, widow dead, poker won by ``winner``: ready for the first card."""
    g = started(names, **rules)
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[winner]))
    return g


def js(g: RummoliGame) -> dict[str, Any]:
    """The public JSON summary (what ``companion replay --json`` prints)."""
    return g.summary().to_json()


def same_state(g: RummoliGame) -> tuple[Any, ...]:
    return (g.summary(), g.held, g.pending_claims, len(g.actions))


def refused(g: RummoliGame, action: Any, rule: str) -> IllegalActionError:
    before = same_state(g)
    assert not g.can(action)
    with pytest.raises(IllegalActionError) as info:
        g.push(action)
    assert info.value.rule == rule, str(info.value)
    assert same_state(g) == before
    return info.value


# ---------------------------------------------------------------- M1 board and players


def test_m1_1_two_to_eight_players() -> None:
    RummoliGame(["A", "B"])
    RummoliGame([f"P{i}" for i in range(8)])
    for names in (["Solo"], [f"P{i}" for i in range(9)]):
        with pytest.raises(IllegalActionError) as info:
            RummoliGame(names)
        assert info.value.rule == "M1.1"


def test_a_m15_eight_players_allowed_not_six_max() -> None:
    g = started([f"P{i}" for i in range(8)], chips=9)
    g.push(Deal())
    assert sum(g.held) == 52 - deal_sizes(8)[-1]


def test_m1_1_no_jokers_in_rummoli() -> None:
    g = in_play()
    refused(g, Lay(player=1, card="JK"), "M1.1")


def test_m1_2_nine_pots_and_a_m1_ace_of_spades() -> None:
    pots = pot_names()
    assert len(pots) == 9
    assert "AS" in pots and "rummoli" in pots and "poker" in pots


def test_m1_3_ante_nine_chips_each() -> None:
    g = started(chips=50)
    g.push(Deal())
    assert g.stacks == [41, 41, 41, 41]
    assert set(g.pots.values()) == {4}
    assert g.chips_total == 200


def test_m1_3_judging_a_deal_moves_every_ante_the_ledger_records() -> None:
    # "moves are what the ledger will record": the deal's antes too
    g = started(NAMES3, chips=50)
    judged = g.judge(Deal())
    before = len(g.summary().ledger)
    g.push(Deal())
    made = g.summary().ledger[before:]
    assert judged.moves == made
    assert [(m.player, m.amount, m.kind) for m in made] == [
        (p, -9, "ante") for p in ("Bob", "Cy", "Ann")
    ]


def test_a_m2_ante_is_added_to_chips_already_there() -> None:
    g = started(NAMES3)
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[0]))
    g.push(Impasse(held=[1, 1, 1]))  # quick impasse: 3 chips go to the centre
    g.push(Deal())
    pots = g.pots
    assert pots["10S"] == 6  # 3 + 3, nobody laid 10S
    assert pots["rummoli"] == 3 + 3 + 3
    assert pots["poker"] == 3  # won last round, so only the new ante


# ---------------------------------------------------------------- M2 deal and widow


@pytest.mark.parametrize("n", range(2, 9))
def test_m2_1_all_52_cards_dealt_extra_to_dealers_left(n: int) -> None:
    sizes = deal_sizes(n)
    assert sum(sizes) == 52 and len(sizes) == n + 1
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) - min(sizes) <= 1


def test_m2_1_four_players_eleven_eleven_ten_ten_widow_ten() -> None:
    assert deal_sizes(4) == [11, 11, 10, 10, 10]
    g = started(dealer=3)  # Di deals: Ann, Bob, Cy, Di
    g.push(Deal())
    assert g.held == [11, 11, 10, 10]
    g2 = started(dealer=0)  # Ann deals: Bob, Cy, Di, Ann
    g2.push(Deal())
    assert g2.held == [10, 11, 11, 10]


def test_m2_2_dealer_swaps_blind_for_nothing() -> None:
    g = started(dealer=0)
    g.push(Deal())
    g.push(Widow(player=0))
    assert g.stacks == [41, 41, 41, 41]
    assert g.held[0] == 10  # the widow had 10 cards too


def test_m2_2_dealer_does_not_pay_a_bid() -> None:
    g = started()
    g.push(Deal())
    refused(g, Widow(player=0, bid=2), "M2.2")


def test_m2_2_dealer_with_pay_card_may_not_swap() -> None:
    g = started()
    g.push(Deal())
    hand = "2C 3C 4C 5C 6C 2D 3D 4D 5D 10S"  # 10S is a pay card
    err = refused(g, Widow(player=0, hand=hand.split()), "M2.4")
    assert "10S" in str(err)


def test_m2_3_auction_winner_pays_dealer_and_takes_widow() -> None:
    g = started(dealer=0)  # Bob 11, Cy 11, Di 10, Ann 10, widow 10
    g.push(Deal())
    g.push(Widow(player=1, bid=3))
    assert g.stacks == [44, 38, 41, 41]
    assert g.held[1] == 10  # Bob now holds the widow's 10; his 11 are dead
    assert g.chips_total == 200
    s = js(g)["hands"][0]
    assert s["widow"] == {"taken_by": "Bob", "bid": 3}
    assert "widow bid to Ann -3 [M2.3]" in s["statement"]["Bob"]


def test_m2_3_bid_cannot_exceed_stack() -> None:
    g = started(chips=10)
    g.push(Deal())  # stacks 1
    refused(g, Widow(player=1, bid=2), "M2.3")


def test_m2_3_nobody_bids_widow_stays_dead() -> None:
    g = started()
    g.push(Deal())
    g.push(Widow())
    assert g.held == [10, 11, 11, 10]
    assert g.phase == "poker"
    refused(g, Widow(player=1), "M2.3")  # only once, before poker


def test_m2_3_widow_hand_must_match_deal_size() -> None:
    g = started()
    g.push(Deal())
    refused(g, Widow(player=1, hand=["2C", "3C"]), "M2.1")


def test_m2_4_pay_cards_named() -> None:
    assert pay_cards_in("10S JD QC KH AS KD AD") == ["10S", "JD", "QC", "KH", "AS", "KD", "AD"]
    assert pay_cards_in("7H 8H 9H") == ["7H 8H 9H"]
    assert pay_cards_in("7H 8H 9D 10C") == []


def test_m2_4_check_verdict_for_the_widow() -> None:
    v = RULESET.check(parse_cards("2C 5H JD 7S 8S 9S"))
    assert not v.legal and v.rule == "M2.4" and v.kind == "widow"
    assert v.cards == ("JD", "7S 8S 9S")
    assert "JD" in v.reason
    ok = RULESET.check(parse_cards("2C 5H 3D"))
    assert ok.legal and ok.rule == "M2.4"


def test_a_m6_widow_restriction_is_a_switch() -> None:
    rules = parse_house_rules(RummoliRules, "no_widow_needs_no_pay_card")
    assert RULESET.check(parse_cards("10S 2C"), rules=rules).legal
    g = started(widow_needs_no_pay_card=False)
    g.push(Deal())
    g.push(Widow(player=0, hand=["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "10S"]))
    assert g.phase == "poker"


def test_a_m7_run_in_hand_is_a_pay_card_board_dependent() -> None:
    regional = RummoliRules(board="eight_nine_ten")
    assert pay_cards_in("7H 8H 9H", regional) == []
    assert pay_cards_in("8H 9H 10H", regional) == ["8H 9H 10H"]


# ---------------------------------------------------------------- M3 lowest card


def test_m3_1_equal_lowest_cards_player_chooses() -> None:
    g = in_play()
    lay(g, 1, "5H")
    lay(g, 1, "6H")  # continuation
    g.push(Lay(player=1, card="5S"))  # break: 7H dead, lowest black 5S (equal rank is fine)
    assert g.laid[-1] == ("Bob", "5S")


def test_m3_1_a_card_lower_than_the_claimed_lowest_is_refused() -> None:
    g = in_play()
    lay(g, 1, "5H")  # Bob's lowest card
    lay(g, 2, "6H")
    lay(g, 2, "3S")  # break: Cy's lowest black card
    refused(g, Lay(player=2, card="2C"), "M5.3")  # 4S was the next card; 2C lower than 3S
    g2 = in_play()
    lay(g2, 1, "5H")
    lay(g2, 1, "6H")
    refused(g2, Lay(player=1, card="4S"), "M5.3")  # lower than his lowest 5H


# ---------------------------------------------------------------- M4 poker


def test_m4_1_best_five_from_the_whole_hand() -> None:
    g = started(NAMES3)
    g.push(Deal())
    g.push(Widow())
    ann = ["2C", "2D", "2H", "9S", "9D", "4C", "5C", "6C", "7H", "10D", "3S", "3D", "KD"]
    bob = ["AS", "KS", "QS", "JS", "10S", "4D", "5D", "6D", "7D", "8D", "9H", "3H", "4H"]
    cy = ["AC", "AD", "AH", "KC", "QC", "JC", "9C", "8C", "7C", "6H", "5H", "2S", "4S"]
    g.push(Poker(hands=[ann, bob, cy]))
    poker = js(g)["hands"][0]["poker"]
    assert poker["winners"] == ["Bob"]
    assert poker["hands"]["Bob"]["name"] == "Royal flush"
    assert poker["hands"]["Ann"]["name"] == "Full house, 2s over 9s"
    assert poker["hands"]["Cy"]["name"] == "Flush, ace high"
    assert poker["hands"]["Bob"]["best"] == ["AS", "KS", "QS", "JS", "10S"]


def test_m4_1_poker_hand_larger_than_held_is_refused() -> None:
    g = started(NAMES4)  # 10-11 cards each
    g.push(Deal())
    g.push(Widow())
    big = [str(c) for c in parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC")]
    hands = [big, ["2D", "3D", "4D", "5D", "6D"], ["2H", "3H", "4H", "5H", "7H"], None]
    g.push(Fold(player=3))
    refused(g, Poker(hands=hands), "M4.1")


def test_m4_2_bets_go_to_the_poker_pot_within_the_limit() -> None:
    g = started(NAMES3, bet_limit=2)
    g.push(Deal())
    g.push(Bet(player=1, chips=2))  # betting closes the widow
    assert g.phase == "poker"
    refused(g, Bet(player=2, chips=5), "M4.2")  # raises by 3 > 2
    g.push(Bet(player=2, chips=4))  # call 2 + raise 2
    assert g.pots["poker"] == 3 + 2 + 4
    assert g.chips_total == 150


def test_m4_2_showdown_only_has_no_bets() -> None:
    g = started(NAMES3, poker_betting="showdown")
    g.push(Deal())
    refused(g, Bet(player=1, chips=1), "M4.2")
    refused(g, Fold(player=1), "M4.2")


def test_m4_3_winner_takes_pot_and_starts_phase() -> None:
    g = in_play(winner=2)
    assert g.stacks == [41, 41, 44]
    assert g.pots["poker"] == 0
    assert g.expected_layers() == ["Cy"]
    refused(g, Lay(player=0, card="2C"), "M5.1")


def test_m4_3_last_player_in_wins_without_showdown() -> None:
    g = started(NAMES3)
    g.push(Deal())
    g.push(Fold(player=0))
    g.push(Fold(player=2))
    refused(g, Fold(player=1), "M4.3")
    refused(g, Poker(winners=[0]), "M4.3")  # Ann folded
    g.push(Poker())
    assert g.stacks[1] == 41 + 3


def test_m4_3_folded_players_still_play_the_rummoli_phase() -> None:
    g = started(NAMES3)
    g.push(Deal())
    g.push(Fold(player=0))
    g.push(Poker(winners=[1]))
    lay(g, 1, "5H")
    lay(g, 0, "6H")  # Ann folded but holds 6H
    assert g.laid == [("Bob", "5H"), ("Ann", "6H")]


def test_m4_3_shown_hands_must_agree_with_named_winners() -> None:
    g = started(NAMES3, poker_betting="showdown")
    g.push(Deal())
    g.push(Widow())
    hands = [["2C", "3D", "5H", "7S", "9C"], ["AS", "AD", "2D", "3S", "4H"], None]
    refused(g, Poker(hands=hands, winners=[1]), "M4.3")  # Cy has not folded
    hands[2] = ["KS", "KD", "2S", "3C", "4C"]
    refused(g, Poker(hands=hands, winners=[2]), "M4.3")
    g.push(Poker(hands=hands, winners=[1]))


def test_m4_4_tie_splits_remainder_stays_first_clockwise_starts() -> None:
    g = started(NAMES4, dealer=0, poker_betting="showdown")  # pot 4 after ante
    g.push(Deal())
    g.push(Widow())
    hands = [
        ["2H", "2D", "5S", "6S", "9C"],  # Ann  pair of 2s
        ["3C", "4D", "7S", "8C", "JH"],  # Bob  jack high
        ["4C", "5D", "7D", "8D", "QH"],  # Cy   queen high
        ["2S", "2C", "5H", "6H", "9D"],  # Di   pair of 2s, same kickers as Ann
    ]
    g.push(Poker(hands=hands))
    poker = js(g)["hands"][0]["poker"]
    # dealer Ann: clockwise from her left is Bob, Cy, Di, Ann -> Di is the first tied winner
    assert poker["winners"] == ["Di", "Ann"]
    assert poker["share"] == 2 and poker["carried"] == 0
    assert g.expected_layers() == ["Di"]


def test_a_m5_tie_odd_chip_stays_in_poker_pot() -> None:
    g = started(NAMES3, dealer=0)  # pot 3
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[0, 2]))
    assert g.pots["poker"] == 1
    assert g.stacks == [42, 41, 42]
    assert g.expected_layers() == ["Cy"]  # Cy is first clockwise from Ann's left (Bob lost)


# ---------------------------------------------------------------- M5 the Rummoli phase


def test_m5_1_poker_winner_lays_first() -> None:
    g = in_play(winner=1)
    lay(g, 1, "3C")
    assert g.laid == [("Bob", "3C")]


def test_m5_2_next_card_of_the_suit_by_whoever_holds_it() -> None:
    g = in_play()
    lay(g, 1, "3C")
    lay(g, 0, "4C")
    lay(g, 2, "5C")
    lay(g, 2, "6C")
    assert [c for _, c in g.laid] == ["3C", "4C", "5C", "6C"]
    assert g.expected_layers() == ["Cy", "Ann", "Bob"]


def test_m5_2_card_already_laid_is_refused() -> None:
    g = in_play()
    lay(g, 1, "3C")
    lay(g, 1, "4C")
    lay(g, 1, "5H")
    refused(g, Lay(player=0, card="3C"), "M5.2")


def test_m5_3_break_needs_opposite_colour() -> None:
    g = in_play()
    lay(g, 1, "3C")
    refused(g, Lay(player=1, card="5S"), "M5.3")  # 4C missing: black after black
    lay(g, 1, "5D")  # red: 4C is in the widow or dead hand
    refused(g, Lay(player=0, card="4C"), "M5.3")  # so nobody can hold 4C


def test_m5_3_a_m13_lowest_of_the_colour_across_suits() -> None:
    g = in_play()
    lay(g, 1, "3C")
    lay(g, 1, "5D")  # break: Bob's lowest red card is 5D (over every red suit)
    lay(g, 1, "6D")
    lay(g, 1, "4S")  # 7D gone: break to black
    refused(g, Lay(player=1, card="4H"), "M5.3")  # 5S gone; red 4H is lower than his lowest red 5D


def test_m5_4_after_an_ace_opposite_colour() -> None:
    g = in_play()
    lay(g, 1, "QH")
    lay(g, 2, "KH")  # K♥ pot to Cy
    lay(g, 0, "AH")
    assert g.expected_layers() == ["Ann", "Bob", "Cy"]
    refused(g, Lay(player=0, card="2D"), "M5.4")  # red after the ace
    lay(g, 0, "2S")


def test_m5_5_turn_passes_clockwise_and_players_skipped_hold_no_such_colour() -> None:
    g = in_play(NAMES4, winner=1)
    lay(g, 1, "3C")
    lay(g, 3, "5H")  # break: Bob and Cy hold no red card
    assert g.laid[-1] == ("Di", "5H")
    refused(g, Lay(player=2, card="6H"), "M5.5")  # Cy showed she has no red
    lay(g, 0, "6H")


def test_m5_5_pass_fine_option_and_a_m14_off_by_default() -> None:
    for fine in (False, True):
        g = in_play(NAMES4, winner=1, pass_fine=fine)
        before = g.pots["rummoli"]
        lay(g, 1, "3C")
        lay(g, 3, "5H")  # Bob and Cy could not start the red run
        assert g.pots["rummoli"] == before + (2 if fine else 0)
        assert g.chips_total == 200
    assert RummoliRules().pass_fine is False


def test_m5_6_pay_card_pays_at_once_claim_auto() -> None:
    g = in_play()
    lay(g, 1, "9S")
    lay(g, 0, "10S")
    assert g.stacks[0] == 41 + 3
    assert g.pots["10S"] == 0
    refused(g, Claim(player=0, pot="10S"), "M5.6")


def test_a_m10_claim_strict_before_the_next_card() -> None:
    g = in_play(claim="strict")
    lay(g, 1, "9S")
    lay(g, 0, "10S")
    assert g.pending_claims == [("Ann", "10S")]
    g.push(Claim(player=0, pot="10♠"))
    assert g.stacks[0] == 44
    lay(g, 0, "JS")
    lay(g, 2, "QS")
    lay(g, 2, "2H")  # KS gone: Cy's lowest red
    lay(g, 0, "3H")
    lay(g, 0, "4H")
    lay(g, 0, "5H")
    lay(g, 2, "6H")
    lay(g, 2, "2C")  # 7H missing: Cy's lowest black
    lay(g, 0, "3C")
    lay(g, 0, "4C")
    lay(g, 0, "5C")
    for card in ("6C", "7C", "8C", "9C", "10C", "JC"):
        lay(g, 2, card)
    lay(g, 1, "QC")  # Q♣ pot for Bob, if he claims in time
    assert g.pending_claims == [("Bob", "QC")]
    lay(g, 1, "KC")  # too late
    refused(g, Claim(player=1, pot="QC"), "M5.6")
    assert g.pots["QC"] == 3


def test_a_m8_ak_diamonds_two_players_no_payout() -> None:
    g = in_play()
    lay(g, 1, "KD")
    lay(g, 2, "AD")
    assert g.pots["AD+KD"] == 3
    assert js(g)["hands"][0]["pots_won"] == {}


def test_a_m8_ak_diamonds_same_player_collects() -> None:
    g = in_play()
    lay(g, 1, "KD")
    lay(g, 1, "AD")
    assert g.pots["AD+KD"] == 0
    assert js(g)["hands"][0]["pots_won"] == {"AD+KD": "Bob"}
    assert g.stacks[1] == 41 + 3 + 3


def test_a_m9_seven_eight_nine_same_player_same_suit() -> None:
    g = in_play()
    lay(g, 1, "7H")
    lay(g, 1, "8H")
    lay(g, 1, "9H")
    assert g.pots["7-8-9"] == 0
    assert js(g)["hands"][0]["pots_won"] == {"7-8-9": "Bob"}


def test_a_m9_seven_eight_nine_split_between_players_no_payout() -> None:
    g = in_play()
    lay(g, 1, "7H")
    lay(g, 1, "8H")
    lay(g, 2, "9H")
    assert g.pots["7-8-9"] == 3


def test_a_m9_eight_nine_ten_without_seven_does_not_count() -> None:
    g = in_play()
    lay(g, 1, "8H")
    lay(g, 1, "9H")
    lay(g, 1, "10H")
    assert g.pots["7-8-9"] == 3


def test_a_m9_regional_board_eight_nine_ten() -> None:
    g = in_play(board="eight_nine_ten")
    assert "8-9-10" in g.pots and "7-8-9" not in g.pots
    lay(g, 1, "8H")
    lay(g, 1, "9H")
    lay(g, 1, "10H")
    assert g.pots["8-9-10"] == 0


def test_m5_7_impasse_pays_per_card_to_the_centre() -> None:
    g = in_play()
    lay(g, 1, "3C")
    g.push(Impasse())  # live: counts come from the log
    held = [13, 12, 13]
    assert g.stacks == [41 - 13, 44 - 12, 41 - 13]
    assert g.pots["rummoli"] == 3 + sum(held)
    s = js(g)["hands"][0]
    assert s["impasse"] and s["out"] is None
    assert "impasse, 13 cards held -13 [M5.7]" in s["statement"]["Ann"]


def test_a_m12_impasse_quick_needs_the_cards_held() -> None:
    g = in_play()
    refused(g, Impasse(), "M5.7")
    refused(g, Impasse(held=[0, 0, 0]), "M5.7")
    refused(g, Impasse(held=[14, 1, 1]), "M2.1")  # Ann was dealt 13
    g.push(Impasse(held=[2, 3, 1]))
    assert g.pots["rummoli"] == 3 + 6


def test_a_m12_impasse_centre_carries_over_to_next_first_out() -> None:
    g = in_play()
    g.push(Impasse(held=[2, 3, 1]))  # centre 3 + 6 = 9
    g.push(Deal())  # centre 12
    g.push(Widow())
    g.push(Poker(winners=[0]))
    g.push(Out(player=2, held=[1, 1, 0]))
    assert g.pots["rummoli"] == 0
    assert js(g)["hands"][1]["statement"]["Cy"].count("Rummoli pot +12 [M6.1]") == 1


# ---------------------------------------------------------------- M6 end of round


def test_m6_1_a_m11_first_out_takes_centre_and_cards_owed() -> None:
    g = in_play(NAMES4)  # Bob won poker: Bob 45, others 41, centre 4
    g.push(Claim(player=3, pot="JD"))
    g.push(Out(player=0, held=[0, 3, 5, 1]))
    assert g.stacks == [41 + 4 + 9, 45 - 3, 41 - 5, 41 + 4 - 1]
    line = js(g)["hands"][0]["statement"]["Ann"]
    assert (
        line == "Ann +4: ante -9 [M1.3], Rummoli pot +4 [M6.1], "
        "cards owed +9 (Bob 3, Cy 5, Di 1) [A-M11]"
    )
    assert js(g)["hands"][0]["statement"]["Cy"] == (
        "Cy -14: ante -9 [M1.3], 5 cards held, paid to Ann -5 [M6.1]"
    )


def test_m6_1_live_going_out_ends_the_round_by_itself() -> None:
    rng = random.Random(7)
    for _ in range(20):
        g = in_play(NAMES3, winner=1, pass_fine=True)
        deck = [
            str(c)
            for c in parse_cards(
                " ".join(
                    f"{r}{s}"
                    for s in "SHDC"
                    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
                )
            )
        ]
        rng.shuffle(deck)
        cards = parse_cards(deck)
        hands = {1: list(cards[0:13]), 2: list(cards[13:26]), 0: list(cards[26:39])}
        result = simulate_play(hands, 1, 3, rng)
        stacks = g.stacks
        for q, c in result.lays:
            lay(g, q, c)
        if result.out is None:
            assert g.phase == "play"
            g.push(Impasse())
        assert g.phase == "idle"
        assert g.held == [0, 0, 0]
        assert g.chips_total == 150
        if result.out is not None:
            owed = sum(result.held)
            hand = js(g)["hands"][0]
            assert hand["out"] == NAMES3[result.out]
            assert f"cards owed +{owed}" in hand["statement"][NAMES3[result.out]]
            del stacks


def test_m6_1_out_in_live_mode_is_refused_while_cards_are_held() -> None:
    g = in_play()
    lay(g, 1, "3C")
    refused(g, Out(player=1, held=[13, 0, 13]), "M6.1")


def test_m6_1_quick_out_validates_held_counts() -> None:
    g = in_play()
    refused(g, Out(player=1, held=[1, 2, 1]), "M6.1")  # the one out holds none
    refused(g, Out(player=1, held=[1, 0]), "M6.1")
    refused(g, Out(player=1, held=[20, 0, 1]), "M2.1")


def test_m6_1_a_player_pays_at_most_their_stack() -> None:
    g = started(NAMES3, chips=10)
    g.push(Deal())  # stacks 1 each
    g.push(Widow())
    g.push(Poker(winners=[0]))  # Ann 4
    g.push(Out(player=0, held=[0, 5, 5]))
    assert g.stacks == [4 + 3 + 1 + 1, 0, 0]
    assert g.chips_total == 30
    assert "had only 1" in js(g)["hands"][0]["statement"]["Bob"]


def test_m6_2_unwon_pots_carry_over_and_hands_do_not_pay() -> None:
    g = in_play()
    g.push(Claim(player=1, pot="10S"))
    g.push(Out(player=1, held=[4, 0, 2]))  # KH still in a hand pays nothing
    pots = g.pots
    assert pots["10S"] == 0 and pots["KH"] == 3 and pots["AS"] == 3
    g.push(Deal())
    assert g.pots["KH"] == 6 and g.pots["10S"] == 3


def test_m6_2_quick_claim_once_per_round_and_not_for_poker_or_centre() -> None:
    g = in_play()
    g.push(Claim(player=0, pot="KH"))
    refused(g, Claim(player=1, pot="KH"), "M5.6")
    refused(g, Claim(player=1, pot="rummoli"), "M5.6")
    refused(g, Claim(player=1, pot="nine of cups"), "M1.2")
    refused(g, Lay(player=1, card="3C"), "M5.6")  # quick round: no card log


def test_m6_3_deal_passes_one_seat_clockwise() -> None:
    g = started(NAMES3, dealer=2)
    dealers = []
    for _ in range(4):
        g.push(Deal())
        dealers.append(js(g)["hands"][-1]["dealer"])
        g.push(Widow())
        g.push(Poker(winners=[0]))
        g.push(Impasse(held=[0, 0, 1]))
    assert dealers == ["Cy", "Ann", "Bob", "Cy"]
    assert js(g)["dealer"] == "Ann"


# ---------------------------------------------------------------- M7 end of game


def test_m7_1_player_who_cannot_ante_is_out() -> None:
    g = RummoliGame(NAMES3)
    g.push(Start(chips=[20, 9, 30], dealer=0))
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[0]))
    g.push(Out(player=0, held=[0, 0, 0]))  # Bob has 0 chips left
    assert g.stacks[1] == 0
    g.push(Deal())
    assert g.in_game == ("Ann", "Cy")
    assert g.held[1] == 0
    refused(g, Widow(player=1), "M7.1")
    assert "out of the game" in js(g)["hands"][1]["statement"]["Bob"]


def test_m7_1_no_deal_with_fewer_than_two_who_can_ante() -> None:
    g = RummoliGame(NAMES3)
    g.push(Start(chips=[20, 3, 4]))
    refused(g, Deal(), "M7.1")
    g.push(End())


def test_m7_1_game_ends_only_between_rounds() -> None:
    g = in_play()
    refused(g, End(), "M7.1")


def test_m7_2_final_poker_single_pot_odd_chips_nearest_dealers_left() -> None:
    g = in_play(NAMES3, poker_betting="showdown")  # dealer Ann; Bob won poker
    g.push(Out(player=1, held=[1, 0, 1]))
    assert sum(g.pots.values()) == 21  # 27 - poker 3 - centre 3
    board = sum(g.pots.values()) - g.pots["rummoli"]
    g.push(End())
    assert js(g)["pots"]["final"] == board
    # next dealer is Bob; his left is Cy, then Ann
    g.push(FinalPoker(winners=[0, 2]))
    assert g.phase == "over"
    share, odd = divmod(board, 2)
    assert g.stacks[2] == 41 - 1 + share + odd
    assert g.stacks[0] == 41 - 1 + share
    assert g.chips_total == 150


def test_m7_2_per_pot_fewest_chips_first() -> None:
    g = in_play(final_poker="per_pot")
    g.push(Claim(player=0, pot="10S"))
    g.push(Impasse(held=[1, 2, 3]))  # centre 3 + 6 = 9
    g.push(Deal())  # 10S 3, poker 3, most 6, centre 12
    g.push(Widow())
    g.push(Poker(winners=[2]))
    g.push(Out(player=2, held=[1, 1, 0]))
    before = g.pots
    g.push(End())
    order = []
    while g.phase == "final":
        s = js(g)
        pot = next(p for p in s["pots"] if s["pots"][p] and p not in order)
        order.append(pot)
        g.push(FinalPoker(winners=[0]))
    chips = [before[p] for p in order]
    assert chips == sorted(chips)
    assert order[0] == "10S"
    assert [f["pot"] for f in js(g)["final"]] == order


def test_a_m16_final_poker_five_fresh_cards() -> None:
    g = in_play()
    g.push(Out(player=1, held=[1, 0, 1]))
    g.push(End())
    refused(
        g,
        FinalPoker(
            hands=[
                ["2C", "3C", "4C", "5C", "7D", "9H"],
                ["AS", "KS", "QS", "JS", "9S"],
                ["2D", "3D", "4D", "5D", "7S"],
            ]
        ),
        "A-M16",
    )
    g.push(
        FinalPoker(
            hands=[
                ["2C", "3C", "4C", "5C", "7D"],
                ["AS", "KS", "QS", "JS", "9S"],
                ["2D", "3D", "4D", "5D", "7S"],
            ]
        )
    )
    assert js(g)["final"][0]["winners"] == ["Bob"]


def test_m7_3_most_chips_wins() -> None:
    g = in_play()
    g.push(Out(player=1, held=[1, 0, 1]))
    g.push(End())
    g.push(FinalPoker(winners=[1]))
    s = js(g)
    assert s["finished"] and s["winners"] == ["Bob"]
    assert s["totals"]["Bob"] == max(s["totals"].values())
    refused(g, FinalPoker(winners=[1]), "M7.2")
    refused(g, Deal(), "M6.2")


def test_m7_2_empty_board_ends_at_once() -> None:
    g = started(NAMES3)
    g.push(End())
    assert g.phase == "over"


# ---------------------------------------------------------------- records, undo, API


def test_undo_is_pop_and_replay() -> None:
    g = in_play()
    lay(g, 1, "9S")
    before = g.summary()
    lay(g, 0, "10S")
    assert g.pop() == Lay(player=0, card="10S")
    assert g.summary() == before
    while g.actions:
        g.pop()
    assert g.phase == "setup"
    with pytest.raises(RecordError):
        g.pop()


def test_record_roundtrip_and_replay_summary_shape() -> None:
    g = in_play()
    lay(g, 1, "9S")
    lay(g, 0, "10S")
    record = GameRecord.from_json(g.to_record().model_dump(mode="json"))
    summary = load_ruleset("rummoli").replay(record)
    assert summary == js(g)
    for key in (
        "game",
        "players",
        "finished",
        "winners",
        "totals",
        "hands",
        "dealer",
        "pots",
        "chips_total",
    ):
        assert key in summary
    assert summary["totals"] == {"Ann": 44, "Bob": 44, "Cy": 41}
    assert record.actions[0] == {"type": "start", "chips": [50, 50, 50], "dealer": 0}


def test_replay_errors_are_record_errors() -> None:
    rec = GameRecord(game="rummoli", players=NAMES3, actions=[{"type": "deal"}])
    with pytest.raises(RecordError, match="action 1"):
        RULESET.replay(rec)
    rec = GameRecord(game="rummoli", players=NAMES3, actions=[{"type": "shuffle"}])
    with pytest.raises(RecordError):
        RULESET.replay(rec)
    rec = GameRecord(game="rummoli", players=NAMES3, rules={"claim": "sometimes"})
    with pytest.raises(RecordError):
        RULESET.replay(rec)
    with pytest.raises(RecordError):
        RULESET.replay(GameRecord(game="umtali", players=NAMES3))


def test_bad_seat_and_bad_card_raise_only_the_error_family() -> None:
    g = in_play()
    for action in (
        Lay(player=7, card="3C"),
        {"type": "lay", "player": 1, "card": "3X"},  # a card typo: read when pushed
        Claim(player=-1, pot="KH"),
        Adjust(player=0, chips=5),
        {"type": "lay", "player": "x", "card": 3},
    ):
        with pytest.raises(RulesetError):
            g.push(action)


def test_adjust_between_rounds_is_an_explicit_chip_change() -> None:
    g = started(NAMES3)
    g.push(Adjust(player=1, chips=10, note="buy-in"))
    assert g.chips_total == 160 and js(g)["chips_added"] == 160
    refused(g, Adjust(player=1, chips=-100), "M1.1")


def test_ruleset_protocol_score_and_house_rules() -> None:
    assert isinstance(RULESET, Ruleset)
    assert RULESET.min_players == 2 and RULESET.max_players == 8
    rep = RULESET.score(parse_cards("2C 5H JD"))
    assert rep.points == 3 and rep.rule == "M6.1"
    rules = parse_house_rules(
        RummoliRules,
        "claim=strict,pass_fine,poker_betting=showdown,"
        "bet_limit=2,final_poker=per_pot,board=eight_nine_ten",
    )
    assert rules.claim == "strict" and rules.board == "eight_nine_ten" and rules.bet_limit == 2
    assert set(RummoliRules.EXPLAIN) == set(RummoliRules.model_fields)
    with pytest.raises(HouseRuleError):
        parse_house_rules(RummoliRules, "claim=sometimes")

    class Other(RummoliRules.__base__):  # type: ignore[name-defined,misc]
        pass

    with pytest.raises(HouseRuleError):
        RULESET.score(parse_cards("2C"), rules=Other())


def test_m5_2_m5_3_next_card_and_break_colour_for_the_ui() -> None:
    g = in_play()
    assert g.next_card() is None and g.break_colour() is None
    assert g.expected_layers() == ["Bob"]
    lay(g, 1, "2H")
    assert g.next_card() == "3H" and g.break_colour() == "black"
    lay(g, 1, "2S")  # 3H missing: break
    assert g.next_card() == "3S"
    lay(g, 2, "3S")
    lay(g, 0, "4S")
    assert g.expected_layers() == ["Ann", "Bob", "Cy"]
    g2 = in_play()
    lay(g2, 1, "KH")
    lay(g2, 1, "AH")
    assert g2.next_card() is None and g2.break_colour() == "black"


def test_adjustments_are_listed_apart_from_round_scores() -> None:
    g = in_play()
    g.push(Out(player=1, held=[1, 0, 1]))
    scores = js(g)["hands"][0]["scores"]
    g.push(Adjust(player=0, chips=-5, note="went home with 5"))
    s = js(g)
    assert s["hands"][0]["scores"] == scores
    assert s["adjustments"] == [
        {"after_round": 1, "player": "Ann", "chips": -5, "note": "went home with 5"}
    ]
    assert s["chips_total"] == s["chips_added"] == 145


def test_record_with_bad_player_count_is_a_record_error() -> None:
    with pytest.raises(RecordError):
        RULESET.replay(GameRecord(game="rummoli", players=["Solo"]))


def _shown_round(**rules: Any) -> RummoliGame:
    """Three players, dealer Ann; Bob swaps away a shown hand; everyone shows 5 at poker."""
    g = started(NAMES3, poker_betting="showdown", **rules)
    g.push(Deal())
    dead = ["2C", "3C", "4C", "5C", "6C", "7C", "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    g.push(Widow(player=1, hand=dead))
    g.push(
        Poker(
            hands=[
                ["9H", "10H", "JH", "QH", "2S"],  # Ann
                ["AS", "AH", "AD", "AC", "3S"],  # Bob: four aces
                ["4S", "5S", "6S", "7S", "KH"],  # Cy
            ]
        )
    )
    return g


def test_m2_3_dead_hand_cards_cannot_be_laid_or_shown() -> None:
    g = _shown_round()
    refused(g, Lay(player=1, card="2C"), "M2.3")
    g2 = started(NAMES3, poker_betting="showdown")
    g2.push(Deal())
    g2.push(
        Widow(
            player=2,
            hand=["2C", "3C", "4C", "5C", "6C", "7C", "2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        )
    )
    refused(
        g2,
        Poker(
            hands=[
                ["2C", "9H", "10H", "JH", "QH"],
                ["AS", "AH", "AD", "AC", "3S"],
                ["4S", "5S", "6S", "7S", "KH"],
            ]
        ),
        "M2.3",
    )


def test_m4_1_shown_poker_cards_stay_in_that_hand() -> None:
    g = _shown_round()
    refused(g, Lay(player=0, card="3S"), "M4.1")  # Bob showed 3S
    refused(g, Lay(player=1, card="AH"), "M5.1")  # Bob showed 3S: lower than AH


def test_m5_2_shown_next_card_must_be_laid_not_skipped() -> None:
    g = _shown_round()
    lay(g, 1, "3S")
    refused(g, Lay(player=1, card="8H"), "M5.2")  # Cy showed 4S, so no break here
    lay(g, 2, "4S")


def test_m5_5_player_who_showed_the_colour_cannot_be_skipped() -> None:
    g = _shown_round()
    lay(g, 1, "3S")
    lay(g, 2, "4S")
    lay(g, 2, "5S")
    lay(g, 2, "6S")
    lay(g, 2, "7S")  # 8S unknown: break to red; Cy first, then Ann, then Bob
    refused(g, Lay(player=0, card="8H"), "M5.5")  # Cy showed KH, so she starts the red
    lay(g, 2, "KH")  # her lowest red as far as anyone can tell


def test_m6_2_round_summary_lists_the_pots_carried_over() -> None:
    g = in_play()
    assert g.open_pots() == ["10S", "JD", "QC", "KH", "AS", "AD+KD", "7-8-9"]
    g.push(Claim(player=2, pot="AS"))
    assert "AS" not in g.open_pots()
    g.push(Out(player=1, held=[2, 0, 2]))
    assert g.open_pots() == []
    carried = js(g)["hands"][0]["carried"]
    assert carried == {p: 3 for p in ("10S", "JD", "QC", "KH", "AD+KD", "7-8-9")}


def test_m6_2_a_pot_claimed_after_the_last_card_is_not_carried_over() -> None:
    """claim=strict: the card that ends the round may win a pot, claimed once the round
    is over.  The round's "carried" list (and its note) is what stays on the board for
    the next round, so that pot is not in it.  Demo game rummoli-3, round 1: Sam lays
    his last card, the A♠, then claims the A♠ pot."""
    demo = json.loads((ROOT / "seeds" / "demo" / "rummoli-3.json").read_text(encoding="utf-8"))
    first_round = demo["actions"][:38]  # up to Sam's A♠, his last card
    assert first_round[-1] == {"type": "lay", "player": 2, "card": "AS"}
    g = RULESET.from_record(GameRecord.model_validate({**demo, "actions": first_round}))
    assert g.summary().phase == "idle"
    assert g.pending_claims == [("Sam", "AS")]
    assert "AS" in g.summary().hands[-1].carried  # not claimed yet: still on the board
    g.push(Claim(player="Sam", pot="AS"))
    hand = g.summary().hands[-1]
    assert g.pots["AS"] == 0
    assert hand.carried == {p: c for p, c in g.pots.items() if c}
    note = hand.note("carried")
    assert note is not None and "A♠" not in note.text
    g.pop()  # and undoing the claim puts it back
    assert "AS" in g.summary().hands[-1].carried


def test_m7_2_summary_names_the_next_final_pot() -> None:
    from rulesets.protocol import GameRecord
    from rulesets.rummoli import RULESET as RUMMOLI

    seen = set()
    for seed in range(200):
        record = RUMMOLI.random_record(seed)
        cut = next((i for i, a in enumerate(record.actions) if a["type"] == "final_poker"), None)
        if cut is None:
            continue
        mode = record.rules.get("final_poker", "single")
        before = RUMMOLI.replay(
            GameRecord.model_validate({**record.model_dump(), "actions": record.actions[:cut]})
        )
        nxt = before["final_next"]
        if mode == "single":
            assert nxt["pot"] == "final"
        else:  # per pot, fewest chips first (M7.2)
            live = {p: c for p, c in before["pots"].items() if c > 0}
            assert nxt["chips"] == min(live.values()) == before["pots"][nxt["pot"]]
        seen.add(mode)
        if seen == {"single", "per_pot"}:
            break
    assert seen == {"single", "per_pot"}
    assert RUMMOLI.replay(record)["final_next"] is None


# ---------------------------------------------------------------- rulings of issue 12


def test_m4_3_a_second_poker_in_the_play_phase_is_refused() -> None:
    g = in_play(winner=1)
    err = refused(g, Poker(winners=[0]), "M4.3")
    assert "already" in err.reason and "Bob" in err.reason
    refused(g, Poker(hands=[["2C", "3C", "4C", "5C", "7D"], None, None]), "M4.3")
    refused(g, FinalPoker(winners=[0]), "M7.2")
    g.push(Out(player=1, held=[1, 0, 1]))
    refused(g, Poker(winners=[0]), "M4.3")  # between rounds: deal first


def test_a_m17_owing_more_than_the_stack_pays_all_and_is_out_at_the_next_ante() -> None:
    g = RummoliGame(NAMES3)
    g.push(Start(chips=[20, 14, 30], dealer=0))
    g.push(Deal())  # Ann 11, Bob 5, Cy 21
    g.push(Widow())
    g.push(Poker(winners=[0]))  # Ann 14
    g.push(Out(player=0, held=[0, 7, 3]))  # Bob owes 7 but has 5
    assert g.stacks == [14 + 3 + 5 + 3, 0, 18]
    hand = g.summary().hands[0]
    bob = next(e for e in hand.ledger if e.player == "Bob" and e.kind == "held")
    assert (bob.amount, bob.detail, bob.other) == (-5, "had only 5", "Ann")
    owed = next(e for e in hand.ledger if e.kind == "owed")
    assert (owed.player, owed.amount, owed.detail) == ("Ann", 8, "Bob 5, Cy 3")
    assert (
        hand.statement["Bob"]
        == "Bob -14: ante -9 [M1.3], 7 cards held, paid to Ann -5 (had only 5) [M6.1]"
    )
    assert g.summary().detail.short == ("Bob",)  # out at the next ante (M7.1)
    assert g.in_game == ("Ann", "Bob", "Cy")  # ... not before it
    g.push(Deal())
    assert g.in_game == ("Ann", "Cy")
    assert g.summary().hands[1].gone == ("Bob",)
    refused(g, Bet(player="Bob", chips=1), "M4.2")
    assert sum(g.stacks) + g.summary().detail.chips_on_board == 64


def test_a_m17_a_short_stack_out_moves_its_zero_chip_entry() -> None:
    g = RummoliGame(NAMES3)
    g.push(Start(chips=[9, 50, 50], dealer=0))
    g.push(Deal())  # Ann antes her last 9 chips
    g.push(Widow())
    g.push(Poker(winners=[1]))
    out = Out(player=1, held=[4, 0, 2])
    judged = g.judge(out)
    before = len(g.summary().ledger)
    g.push(out)
    made = g.summary().ledger[before:]
    assert judged.moves == made
    ann = [m for m in judged.moves if m.player == "Ann"]
    assert [(m.amount, m.kind, m.detail) for m in ann] == [(0, "held", "had only 0")]


def test_a_m17_an_impasse_and_a_pass_fine_never_take_more_than_the_stack() -> None:
    g = RummoliGame(NAMES3, RummoliRules(pass_fine=True))
    g.push(Start(chips=[9, 50, 50], dealer=0))
    g.push(Deal())  # Ann 0 chips
    g.push(Widow())
    g.push(Poker(winners=[1]))
    lay(g, 1, "3C")
    lay(g, 2, "5H")  # 4C missing: Bob, who laid last, has no red card; Cy starts (M5.5)
    assert [e.player for e in g.summary().ledger if e.kind == "pass_fine"] == ["Bob"]
    assert g.stacks[0] == 0
    judged = g.judge(Impasse())
    before = len(g.summary().ledger)
    g.push(Impasse())
    assert g.stacks[0] == 0
    # the verdict's moves are the ledger entries the action then makes (what a view words),
    # Ann's 0-chip entry included
    made = g.summary().ledger[before:]
    assert judged.moves == made and sum(m.amount for m in made) < 0
    assert [m.amount for m in made if m.player == "Ann"] == [0]
    ann = [e for e in g.summary().hands[0].ledger if e.player == "Ann" and e.kind == "impasse"]
    assert ann[0].amount == 0 and ann[0].detail == "had only 0"
    s = g.summary()
    assert sum(s.totals.values()) + s.detail.chips_on_board == s.detail.chips_added == 109


def test_a_m18_final_poker_odd_chips_go_left_of_the_final_poker_dealer() -> None:
    # Ann dealt the last round; Bob is next in rotation.  He has 1 chip, too few to ante,
    # but nobody antes for the final poker: he is still in the game and deals it.
    g = RummoliGame(NAMES3, RummoliRules(poker_betting="showdown"))
    g.push(Start(chips=[50, 10, 50], dealer="Ann"))
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=["Ann"]))
    g.push(Out(player="Ann", held=[0, 0, 0]))
    g.push(End())
    s = g.summary()
    assert s.dealer == "Bob"
    assert s.detail.final_next is not None and s.detail.final_next.dealer == "Bob"
    board = s.detail.pool
    assert board == 21
    g.push(FinalPoker(winners=["Ann", "Cy"]))
    final = g.summary().detail.final[0]
    assert final.dealer == "Bob" and final.winners == ("Cy", "Ann")  # Cy is Bob's left
    assert (final.share, final.odd) == (10, 1)
    totals = g.summary().totals
    assert totals["Cy"] == 41 + 11 and totals["Ann"] == 41 + 3 + 3 + 10


def test_a_m18_equal_pots_are_played_in_board_order_centre_last() -> None:
    g = started(NAMES3, final_poker="per_pot", poker_betting="showdown")
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[0]))
    g.push(Impasse(held=[0, 0, 1]))  # centre 3 + 1 = 4; the other seven pay pots 3 each
    g.push(End())
    queue = g.summary().detail.final_next
    assert queue is not None
    assert queue.queue == ("10S", "JD", "QC", "KH", "AS", "AD+KD", "7-8-9", "rummoli")
    played = []
    while g.phase == "final":
        nxt = g.summary().detail.final_next
        assert nxt is not None
        played.append((nxt.pot, nxt.chips))
        g.push(FinalPoker(winners=[1]))
    assert played == [(p, 3) for p in queue.queue[:-1]] + [("rummoli", 4)]
    assert [f.pot for f in g.summary().detail.final] == [p for p, _ in played]


def test_a_m19_eight_nine_ten_board_same_conditions_as_a_m9() -> None:
    rules = {"board": "eight_nine_ten"}
    g = in_play(**rules)
    assert g.summary().detail.run_pot == "8-9-10"
    assert g.summary().detail.pot("8-9-10").rule == "A-M19"
    lay(g, 1, "8H")
    lay(g, 1, "9H")
    lay(g, 1, "10H")
    assert g.pots["8-9-10"] == 0
    won = g.summary().hands[0].ledger[-1]
    assert (won.kind, won.rule, won.cards, won.label) == (
        "pot",
        "A-M19",
        ("8H", "9H", "10H"),
        "8-9-10 pot",
    )
    split = in_play(**rules)
    lay(split, 1, "8S")
    lay(split, 1, "9S")
    lay(split, 2, "10S")  # 10♠ pays its own pot, not the run
    assert split.pots["8-9-10"] == 3 and split.pots["10S"] == 0
    seven = in_play(**rules)
    lay(seven, 1, "7C")
    lay(seven, 1, "8C")
    lay(seven, 1, "9C")  # no 10: nothing for the run pot
    assert seven.pots["8-9-10"] == 3
    quick = in_play(**rules)
    refused(quick, Claim(player=0, pot="7-8-9"), "M1.2")
    quick.push(Claim(player=0, pot="8-9-10"))
    assert quick.summary().hands[0].pots_won == {"8-9-10": "Ann"}


def test_a_m19_eight_nine_ten_is_the_pay_card_run_for_the_widow() -> None:
    g = started(NAMES3, board="eight_nine_ten")
    g.push(Deal())
    dealt = [str(c) for c in parse_cards("8D 9D 10D 2C 3C 4C 5C 6C 2H 3H 4H 5H 6H")]  # a run
    refused(g, Widow(player=0, hand=dealt), "M2.4")
    seven = [str(c) for c in parse_cards("7D 8D 9D 2C 3C 4C 5C 6C 2H 3H 4H 5H 6H")]  # not here
    g.push(Widow(player=0, hand=seven))


# ---------------------------------------------------------------- every house-rule switch


def test_switch_claim_strict_meets_the_eight_nine_ten_board() -> None:
    g = in_play(claim="strict", board="eight_nine_ten")
    lay(g, 1, "8H")
    lay(g, 1, "9H")
    lay(g, 1, "10H")
    assert g.pending_claims == [("Bob", "8-9-10")]
    pending = g.summary().detail.pending[0]
    assert (pending.label, pending.chips, pending.rule) == ("8-9-10", 3, "A-M19")
    lay(g, 1, "JH")  # too late: the pot stays
    assert g.pots["8-9-10"] == 3
    refused(g, Claim(player=1, pot="8-9-10"), "M5.6")


def test_switch_claim_auto_refuses_a_claim_in_words() -> None:
    g = in_play()
    lay(g, 1, "9S")
    err = refused(g, Claim(player=1, pot="KH"), "M5.6")
    assert "Claiming pots: Automatic" in err.reason and "claim=" not in err.reason


def test_switch_pass_fine_meets_claim_strict() -> None:
    # a break with a pay card: the players skipped pay the fine, the layer may claim
    g = in_play(NAMES4, winner=1, pass_fine=True, claim="strict")
    centre = g.pots["rummoli"]
    lay(g, 1, "3H")
    lay(g, 3, "10S")  # 4H missing: Bob and Cy could not start the black cards
    assert g.pots["rummoli"] == centre + 2
    assert g.pending_claims == [("Di", "10S")]
    g.push(Claim(player="Di", pot="10S"))
    fines = [e.player for e in g.summary().ledger if e.kind == "pass_fine"]
    assert fines == ["Bob", "Cy"]


def test_switch_poker_betting_showdown_meets_final_poker_per_pot() -> None:
    g = in_play(poker_betting="showdown", final_poker="per_pot")
    g.push(Out(player=1, held=[1, 0, 1]))
    g.push(End())
    err = refused(g, Bet(player=0, chips=1), "M4.2")
    assert "Poker betting: Showdown only" in err.reason
    betting = g.summary().detail.betting
    assert betting is not None and betting.betting is False and betting.limit is None
    assert betting.pot == "10S" and betting.max_bet == {}


def test_switch_bet_limit_meets_final_poker_single() -> None:
    g = in_play(bet_limit=2)
    g.push(Out(player=1, held=[1, 0, 1]))
    g.push(End())
    refused(g, Bet(player=0, chips=3), "M4.2")  # the limit holds in the final poker too
    g.push(Bet(player=0, chips=2))
    s = g.summary()
    assert s.detail.pool == 21 + 2
    assert s.detail.betting is not None and s.detail.betting.max_bet["Bob"] == 4
    bet = s.ledger[-1]
    assert (bet.kind, bet.hand, bet.amount) == ("final_poker", None, -2)


def test_switch_final_poker_per_pot_meets_the_eight_nine_ten_board() -> None:
    g = in_play(final_poker="per_pot", board="eight_nine_ten")
    g.push(Claim(player=0, pot="10S"))
    g.push(Out(player=2, held=[2, 2, 0]))
    g.push(End())
    nxt = g.summary().detail.final_next
    assert nxt is not None
    # every pot left holds 3 chips: board order, with the regional run pot in 8th place
    assert nxt.queue == ("JD", "QC", "KH", "AS", "AD+KD", "8-9-10")


def test_switch_widow_needs_no_pay_card_meets_the_board() -> None:
    hand = [str(c) for c in parse_cards("7D 8D 9D 2C 3C 4C 5C 6C 2H 3H 4H 5H 6H")]
    standard = started(NAMES3)
    standard.push(Deal())
    refused(standard, Widow(player=0, hand=hand), "M2.4")  # 7-8-9 pays on this board
    off = started(NAMES3, widow_needs_no_pay_card=False)
    off.push(Deal())
    off.push(Widow(player=0, hand=hand))
    regional = started(NAMES3, board="eight_nine_ten")
    regional.push(Deal())
    regional.push(Widow(player=0, hand=hand))
    assert not RULESET.check(parse_cards(" ".join(hand))).legal
    assert RULESET.check(
        parse_cards(" ".join(hand)), rules=RummoliRules(board="eight_nine_ten")
    ).legal


def test_every_switch_meets_another_switch_in_a_test() -> None:
    """Each house-rule switch has a ``test_switch_…`` where it meets another one (the
    tests where each changes a verdict alone are named after their rulings above)."""
    from rulesets.rummoli import RULESET

    meets = [n for n in globals() if n.startswith("test_switch_") and "_meets_" in n]
    for switch in RULESET.house_rules.model_fields:
        assert any(switch in n for n in meets), f"{switch}: no test where it meets another"


def test_switch_titles_and_settings_in_words() -> None:
    for name in RummoliRules.model_fields:
        title = RummoliRules.title_of(name)
        assert title == RummoliRules.TITLES[name] and "_" not in title
        words = RummoliRules().setting(name)
        assert "_" not in words and words.startswith(title)
    assert RummoliRules(final_poker="per_pot").setting("final_poker") == "Final poker: One per pot"
    for value in ("auto", "strict", "one_round", "showdown", "single", "per_pot"):
        assert "_" not in RummoliRules.value_title(value)
