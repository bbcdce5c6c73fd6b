"""Basic Rummy rules, one test (at least) per rule ID of RULES.md section 2 and A-R rows."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets import load_ruleset
from rulesets.cards import JOKER, parse_cards
from rulesets.errors import (
    CardParseError,
    HouseRuleError,
    IllegalActionError,
    RecordError,
    RulesetError,
)
from rulesets.protocol import GameRecord, Ruleset, parse_house_rules
from rulesets.rummy import (
    RULESET,
    RummyGame,
    RummyRules,
    analyse_meld,
    card_value,
    deal_size,
    extend_meld,
    hand_value,
    suggest,
)
from tests.rulesets.rummy_moves import (
    can_lay_off,
    can_meld,
    discard,
    draw,
    end_hand,
    lay_off,
    meld,
    start_hand,
    swap_joker,
    verify_lay_off,
    verify_meld,
)

ACE = RummyRules(ace_high_or_low=True)
CORNER = RummyRules(ace_high_or_low=True, round_the_corner=True)
WILD = RummyRules(jokers=True)


def check(cards: str, onto: str | None = None, **rules: Any) -> Any:
    return RULESET.check(
        parse_cards(cards),
        onto=parse_cards(onto) if onto else None,
        rules=RummyRules(**rules),
    )


def late(g: RummyGame, **counts: int) -> None:
    """Jump to late in a logged hand: set how many cards each player holds."""
    assert g._hand is not None
    g._hand.counts.update(counts)


def game(n: int = 3, dealer: str = "A", turns: bool = False, **rules: Any) -> RummyGame:
    names = ["A", "B", "C", "D", "E", "F"][:n]
    g = RummyGame(names, RummyRules(**rules))
    start_hand(g, dealer, turns=turns)
    return g


# --------------------------------------------------------------------------- protocol


def test_ruleset_satisfies_protocol_and_registry() -> None:
    assert isinstance(RULESET, Ruleset)
    assert load_ruleset("rummy") is RULESET
    assert load_ruleset("rum") is RULESET
    assert RULESET.min_players == 2 and RULESET.max_players == 6
    assert RULESET.house_rules is RummyRules


def test_house_rule_names_are_the_public_contract() -> None:
    names = {
        "fixed_rounds",
        "multi_meld",
        "going_rummy_double",
        "meld_before_layoff",
        "ace_high_or_low",
        "round_the_corner",
        "jokers",
        "joker_swap",
        "must_discard_to_go_out",
        "winner_takes_all",
        "cash",
        "target",
        "no_shuffle",
        "max_reshuffles",
        "block_rummy",
        "winner_deals",
    }
    assert set(RummyRules.model_fields) == names
    assert set(RummyRules.EXPLAIN) == names
    assert all(len(v) < 100 and "\n" not in v for v in RummyRules.EXPLAIN.values())


def test_house_rules_parse_from_cli_switches() -> None:
    r = parse_house_rules(RummyRules, "ace_high_or_low,target=150,fixed_rounds=5")
    assert (r.ace_high_or_low, r.target, r.fixed_rounds) == (True, 150, 5)
    with pytest.raises(HouseRuleError):
        parse_house_rules(RummyRules, "round_the_corner")  # needs ace_high_or_low
    with pytest.raises(HouseRuleError):
        parse_house_rules(RummyRules, "joker_swap")  # needs jokers
    with pytest.raises(HouseRuleError):
        parse_house_rules(RummyRules, "cash")  # needs fixed_rounds
    with pytest.raises(HouseRuleError):
        parse_house_rules(RummyRules, "target=0")
    with pytest.raises(HouseRuleError):
        RummyGame(["A", "B"], {"wild": True})


def test_house_rules_are_frozen() -> None:
    with pytest.raises(ValueError):
        RummyRules().target = 5  # type: ignore[misc]


# --------------------------------------------------------------------------- R1 setup


def test_r1_1_two_to_six_players() -> None:
    for n in range(2, 7):
        RummyGame([f"P{i}" for i in range(n)])
    for n in (0, 1, 7):
        with pytest.raises(IllegalActionError) as exc:
            RummyGame([f"P{i}" for i in range(n)])
        assert exc.value.rule == "R1.1"


def test_r1_1_no_jokers_in_the_standard_game() -> None:
    v = check("7H 8H JK")
    assert not v.legal and v.rule == "R1.1"
    with pytest.raises(IllegalActionError):
        card_value(JOKER)


def test_r1_2_first_dealer_must_be_named() -> None:
    g = RummyGame(["A", "B", "C"])
    with pytest.raises(IllegalActionError) as exc:
        start_hand(g)
    assert exc.value.rule == "R1.2"
    assert g.actions == ()


def test_r1_2_deal_passes_clockwise() -> None:
    g = game(3, dealer="B")
    end_hand(g, "A", remaining={"B": "5S", "C": "6S"})
    assert g.dealer == "C"
    with pytest.raises(IllegalActionError) as exc:
        start_hand(g, "A")
    assert exc.value.rule == "R1.2" and "C deals hand 2" in exc.value.reason
    start_hand(g)
    assert g.dealer == "C"  # the deal passes clockwise
    end_hand(g, "A", remaining={"B": "", "C": ""})
    assert g.dealer == "A"


def test_r1_2_two_players_take_turns_dealing() -> None:
    g = game(2, dealer="A")
    end_hand(g, "A", remaining={"B": "KS"})
    assert g.dealer == "B"
    start_hand(g)
    end_hand(g, "A", remaining={"B": "KS"})
    assert g.dealer == "A"


def test_r1_3_deal_sizes() -> None:
    assert [deal_size(n) for n in range(2, 7)] == [10, 7, 7, 6, 6]
    with pytest.raises(IllegalActionError):
        deal_size(7)


def test_r1_3_stock_sizes_when_turns_are_logged() -> None:
    for n, stock in {2: 31, 3: 30, 4: 23, 5: 21, 6: 15}.items():
        g = game(n, turns=True)
        assert g._hand is not None and g._hand.stock == stock


def test_r1_4_turn_order_clockwise_from_dealers_left() -> None:
    g = game(3, dealer="B", turns=True)
    assert g.turn == "C"
    with pytest.raises(IllegalActionError) as exc:
        draw(g, "A")
    assert exc.value.rule == "R1.4"
    draw(g, "C")
    discard(g, "C", "5S")
    assert g.turn == "A"


# --------------------------------------------------------------------------- R2 melds


def test_r2_1_set_of_three_or_four() -> None:
    assert check("7H 7S 7D").kind == "set"
    assert check("7H 7S 7D 7C").kind == "set"
    v = check("7H 7S")
    assert not v.legal and v.rule == "R2.1"


def test_r2_1_mixed_ranks_are_no_set() -> None:
    v = check("7H 7S 8D")
    assert not v.legal


def test_r2_2_run_of_three_or_more_one_suit() -> None:
    assert check("5H 6H 7H 8H 9H").kind == "run"
    assert not check("5H 6H 7S").legal
    assert not check("5H 6H 8H").legal


def test_r2_2_ace_low_a23_legal() -> None:
    v = check("AH 2H 3H")
    assert v.legal and v.kind == "run" and v.rule == "R2.2"


def test_r2_2_qka_illegal_in_standard_game() -> None:
    v = check("QH KH AH")
    assert not v.legal and v.rule == "R2.2"
    assert "Q♥ K♥ A♥" in v.reason  # cards as players write them (issue 18)


def test_r2_3_melds_on_table_cannot_be_rearranged() -> None:
    g = game()
    meld(g, "B", "7H 8H 9H")
    # a card already on the table cannot be melded again or moved into another meld
    with pytest.raises(IllegalActionError) as exc:
        meld(g, "C", "9H 9S 9D")
    assert exc.value.rule == "R2.3"
    assert [str(c) for c in g.table[0].cards] == ["7H", "8H", "9H"]


def test_r2_3_a_card_belongs_to_one_meld_in_suggest() -> None:
    s = suggest("7H 7S 7D 8H 9H")
    used = [c for m in s.melds for c in m.cards]
    assert len(used) == len(set(used))


# --------------------------------------------------------------------------- R3 turn


def test_r3_1_draw_before_melding_when_turns_logged() -> None:
    g = game(2, turns=True)
    with pytest.raises(IllegalActionError) as exc:
        meld(g, "B", "7H 8H 9H")
    assert exc.value.rule == "R3.1"
    draw(g, "B")
    with pytest.raises(IllegalActionError) as exc:
        draw(g, "B")
    assert exc.value.rule == "R3.1"


def test_r3_1_draw_from_discard_must_match_top() -> None:
    g = RummyGame(["A", "B"])
    start_hand(g, "A", turns=True, upcard="5S")
    with pytest.raises(IllegalActionError):
        draw(g, "B", "discard", "6S")
    draw(g, "B", "discard", "5S")


def test_r3_2_one_meld_per_turn() -> None:
    g = game(2, turns=True)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    with pytest.raises(IllegalActionError) as exc:
        meld(g, "B", "KS KD KC")
    assert exc.value.rule == "R3.2"
    assert len(g.table) == 1


def test_r3_3_lay_off_onto_any_players_meld() -> None:
    g = game()
    meld(g, "B", "7H 8H 9H")
    lay_off(g, "C", "10H JH", 0)
    assert [str(c) for c in g.table[0].cards] == ["7H", "8H", "9H", "10H", "JH"]
    assert g.table[0].owner == "B"


def test_r3_3_lay_off_must_keep_meld_valid() -> None:
    g = game()
    meld(g, "B", "7H 8H 9H")
    with pytest.raises(IllegalActionError) as exc:
        lay_off(g, "C", "QH", 0)
    assert exc.value.rule == "R3.3"
    with pytest.raises(IllegalActionError):
        lay_off(g, "C", "10S", 0)
    with pytest.raises(IllegalActionError):
        lay_off(g, "C", "10H", 5)
    assert len(g.table[0].cards) == 3


def test_r3_3_lay_off_onto_set_makes_four() -> None:
    v = check("10C", onto="10S 10D 10H")
    assert v.legal and v.kind == "set" and v.rule == "R3.3"
    assert not check("JC", onto="10S 10D 10H").legal
    v = check("JK", onto="10S 10D 10H 10C", jokers=True)
    assert not v.legal and v.rule == "R2.1"
    with pytest.raises(IllegalActionError):
        extend_meld(analyse_meld(parse_cards("10S 10D 10H")), ())


def test_r3_4_cannot_discard_card_taken_from_discard_pile() -> None:
    g = RummyGame(["A", "B"])
    start_hand(g, "A", turns=True, upcard="QS")
    draw(g, "B", "discard")
    with pytest.raises(IllegalActionError) as exc:
        discard(g, "B", "QS")
    assert exc.value.rule == "R3.4"
    discard(g, "B", "4D")
    assert g.turn == "A"


# --------------------------------------------------------------------------- R4 going out


def test_r4_1_going_out_ends_hand_at_once_without_discard() -> None:
    g = RummyGame(["A", "B"])
    start_hand(g, "A", turns=True)
    late(g, A=2, B=2)  # late in the hand: B holds 2 cards, draws a third
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    with pytest.raises(IllegalActionError) as exc:
        discard(g, "B", "2C")
    assert exc.value.rule == "R4.1"
    end_hand(g, "B", remaining={"A": "KS QS"})
    assert g.totals == {"A": 20, "B": 0}


def test_r4_1_winner_holds_no_cards() -> None:
    g = game(2)
    with pytest.raises(IllegalActionError) as exc:
        end_hand(g, "A", remaining={"A": "5S", "B": "6S"})
    assert exc.value.rule == "R6.2"


def test_r4_2_going_rummy_detected_when_turns_logged() -> None:
    g = RummyGame(["A", "B"], RummyRules(going_rummy_double=True, multi_meld=True))
    start_hand(g, "A", turns=True)
    late(g, A=1, B=5)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    meld(g, "B", "KS KD KC")
    res = end_hand(g, "B", remaining={"A": "5S"})
    assert res.going_rummy and res.doubled and res.scores["A"] == 10


def test_r4_2_a_r5_going_rummy_needs_nothing_placed_before() -> None:
    g = RummyGame(["A", "B"], RummyRules(going_rummy_double=True))
    start_hand(g, "A", turns=True)
    late(g, A=1, B=5)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    discard(g, "B", "2C")
    draw(g, "A")
    discard(g, "A", "3C")
    draw(g, "B")
    meld(g, "B", "KS KD KC")
    with pytest.raises(IllegalActionError) as exc:
        end_hand(g, "B", going_rummy=True, remaining={"A": "5S"})
    assert exc.value.rule == "R4.2"
    res = end_hand(g, "B", remaining={"A": "5S"})
    assert not res.going_rummy and res.scores["A"] == 5


# --------------------------------------------------------------------------- R5 stock


def _exhaust(g: RummyGame) -> None:
    hand = g._hand
    assert hand is not None
    hand.stock = 0


def test_r5_1_empty_stock_reuses_the_pile() -> None:
    g = game(2, turns=True)
    _exhaust(g)
    g._hand.pile = [None] * 10  # type: ignore[union-attr]
    draw(g, "B")
    assert g._hand.stock == 8 and len(g._hand.pile) == 1 and g._hand.reshuffles == 1  # type: ignore[union-attr]


def test_r5_1_a_r4_nobody_out_is_no_ending_by_default() -> None:
    g = game(2)
    with pytest.raises(IllegalActionError) as exc:
        end_hand(g, None, remaining={"A": "5S", "B": "6S"})
    assert exc.value.rule == "R5.2"


def test_r5_2_no_shuffle_still_reuses_the_pile() -> None:
    g = game(2, turns=True, no_shuffle=True)
    _exhaust(g)
    g._hand.pile = [None] * 4  # type: ignore[union-attr]
    draw(g, "B")
    assert g._hand.reshuffles == 1  # type: ignore[union-attr]


def test_r5_2_max_reshuffles() -> None:
    g = game(2, turns=True, max_reshuffles=0)
    _exhaust(g)
    g._hand.pile = [None] * 4  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError) as exc:
        draw(g, "B")
    assert exc.value.rule == "R5.2"
    late(g, A=1, B=2)
    res = end_hand(g, None, remaining={"A": "5S", "B": "6S 7S"})
    assert res.block and res.scores == {"A": 5, "B": 13}


def test_r5_2_block_rummy_everyone_scores() -> None:
    g = game(3, turns=True, block_rummy=True)
    _exhaust(g)
    with pytest.raises(IllegalActionError) as exc:
        draw(g, "B")
    assert exc.value.rule == "R5.2"
    late(g, A=1, B=2)
    res = end_hand(g, None, remaining={"A": "KS", "B": "AS 2S"}, typed={"C": 7})
    # A: K = 10; B: A + 2 = 3; C typed 7
    assert res.scores == {"A": 10, "B": 3, "C": 7}
    assert res.typed == ("C",)


# --------------------------------------------------------------------------- R6 scoring


def test_r6_1_card_values() -> None:
    assert [card_value(c) for c in parse_cards("KS QS JS 10S 9S 2S AS")] == [
        10,
        10,
        10,
        10,
        9,
        2,
        1,
    ]
    assert RULESET.score(parse_cards("KS 7D AC")).points == 18  # 10 + 7 + 1


def test_r6_2_losers_add_hand_winner_adds_zero() -> None:
    g = game(3)
    res = end_hand(g, "B", remaining={"A": "KS 7D AC"}, typed={"C": 12})
    assert res.scores == {"A": 18, "B": 0, "C": 12}


def test_r6_2_a_r10_every_non_winner_must_be_scored() -> None:
    g = game(3)
    with pytest.raises(RecordError):
        end_hand(g, "B", remaining={"A": "KS"})
    assert g.in_hand


def test_r6_3_target_ends_game_lowest_wins() -> None:
    g = game(2, target=20)
    end_hand(g, "A", remaining={"B": "KS QS"})
    assert g.finished and g.winners == ["A"]
    with pytest.raises(IllegalActionError) as exc:
        start_hand(g)
    assert exc.value.rule == "R6.3"


def test_r6_3_a_r11_tie_for_lowest_is_shared_win() -> None:
    g = game(3, target=12)
    end_hand(g, "A", remaining={"B": "KS", "C": "5S"})
    start_hand(g)
    end_hand(g, "C", remaining={"A": "5D", "B": "2C"})
    # A 0 + 5 = 5, B 10 + 2 = 12, C 5 + 0 = 5 -> B reached 12; A and C share the win
    assert g.totals == {"A": 5, "B": 12, "C": 5}
    assert g.winners == ["A", "C"]


# --------------------------------------------------------------------------- R7 variants


def test_r7_fixed_rounds() -> None:
    g = game(2, fixed_rounds=2, target=5)
    end_hand(g, "A", remaining={"B": "KS"})
    assert not g.finished  # the target does not apply with fixed rounds
    start_hand(g)
    end_hand(g, "B", remaining={"A": "2S"})
    assert g.finished and g.winners == ["A"]


def test_r7_multi_meld() -> None:
    g = game(2, turns=True, multi_meld=True)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    meld(g, "B", "KS KD KC")
    assert len(g.table) == 2


def test_r7_going_rummy_double_doubles_each_loser() -> None:
    g = game(3, going_rummy_double=True)
    res = end_hand(g, "B", going_rummy=True, remaining={"A": "KS 7D AC"}, typed={"C": 4})
    assert res.scores == {"A": 36, "B": 0, "C": 8}  # (10+7+1)*2, 4*2


def test_r7_a_doubled_hand_end_verdict_gives_the_doubled_figure() -> None:
    """Issue 18: the hand over's headline said "Hand end: 29 points" for a hand that
    scores 34 + 24 when going rummy doubles it."""
    g = game(3, going_rummy_double=True)
    action = {"type": "hand_end", "went_out": "B", "going_rummy": True}
    action["remaining"] = {"A": ["KS", "7D"], "C": ["QH", "2C"]}
    v = g.judge(action)
    assert v.legal and v.points == 58 == (17 + 12) * 2


def test_r7_going_rummy_without_double_scores_once() -> None:
    g = game(2)
    res = end_hand(g, "B", going_rummy=True, remaining={"A": "KS"})
    assert res.going_rummy and not res.doubled and res.scores["A"] == 10


def test_r7_meld_before_layoff() -> None:
    g = game(3, meld_before_layoff=True)
    meld(g, "B", "7H 8H 9H")
    with pytest.raises(IllegalActionError) as exc:
        lay_off(g, "C", "10H", 0)
    assert exc.value.rule == "R7"
    meld(g, "C", "KS KD KC")
    lay_off(g, "C", "10H", 0)  # a meld earlier the same turn counts


def test_r7_ace_high_or_low_runs() -> None:
    assert check("QH KH AH", ace_high_or_low=True).legal
    assert check("AH 2H 3H", ace_high_or_low=True).legal
    v = check("KH AH 2H", ace_high_or_low=True)
    assert not v.legal and v.rule == "R7"


def test_r7_ace_high_or_low_ace_is_15() -> None:
    assert RULESET.score(parse_cards("KS 7D AC"), rules=ACE).points == 32  # 10 + 7 + 15


def test_r7_round_the_corner() -> None:
    assert check("KH AH 2H", ace_high_or_low=True, round_the_corner=True).legal
    assert check("JH QH KH AH 2H 3H", ace_high_or_low=True, round_the_corner=True).legal
    m = analyse_meld(parse_cards("QH KH AH"), CORNER)
    assert [str(c) for c in extend_meld(m, parse_cards("2H"), CORNER).cards][-1] == "2H"


def test_r7_jokers_wild_and_say_what_they_stand_for() -> None:
    v = check("7H JK 9H", jokers=True)
    assert v.legal and v.kind == "run" and "JK=8H" in v.notes
    v = check("7H 7S JK", jokers=True)
    assert v.legal and v.kind == "set" and "JK=7" in v.notes[0]
    assert card_value(JOKER, WILD) == 15


def test_r7_jokers_need_a_natural_card() -> None:
    v = check("JK JK JK", jokers=True)
    assert not v.legal and v.rule == "R7"


def test_r7_jokers_a_r8_anyone_lays_off_onto_joker_meld_joker_fixed() -> None:
    g = game(3, jokers=True)
    meld(g, "B", "7H JK 9H")
    lay_off(g, "C", "10H", 0)
    assert g.table[0].shape.stands_for() == ("JK=8H",)
    with pytest.raises(IllegalActionError) as exc:
        swap_joker(g, "C", 0, "8H")
    assert exc.value.rule == "R7"


def test_r7_joker_swap() -> None:
    g = game(3, jokers=True, joker_swap=True)
    meld(g, "B", "7H JK 9H")
    with pytest.raises(IllegalActionError):
        swap_joker(g, "C", 0, "8S")
    m = swap_joker(g, "C", 0, "8H")
    assert [str(c) for c in m.cards] == ["7H", "8H", "9H"]


def test_r7_must_discard_to_go_out() -> None:
    v = RULESET.check(
        parse_cards("7H 8H 9H"),
        hand=(),
        rules=RummyRules(must_discard_to_go_out=True),
    )
    assert not v.legal and v.rule == "R7"
    v = RULESET.check(
        parse_cards("7H 8H 9H"),
        hand=parse_cards("2C"),
        rules=RummyRules(must_discard_to_go_out=True),
    )
    assert v.legal
    v = RULESET.check(parse_cards("7H 8H 9H"), going_out=True)
    assert v.legal and any("R4.1" in n for n in v.notes)
    g = game(2, turns=True, must_discard_to_go_out=True)
    g._hand.counts["B"] = 2  # type: ignore[union-attr]
    draw(g, "B")
    with pytest.raises(IllegalActionError):
        meld(g, "B", "7H 8H 9H")
    discard(g, "B", "2C")
    assert g._hand.counts["B"] == 2  # type: ignore[union-attr]


def test_r7_winner_takes_all() -> None:
    g = game(3, winner_takes_all=True, target=30)
    res = end_hand(g, "B", remaining={"A": "KS 7D AC"}, typed={"C": 12})
    assert res.scores == {"A": 0, "B": 30, "C": 0}  # 18 + 12
    assert g.finished and g.winners == ["B"]  # first to the target wins


def test_r7_winner_takes_all_going_rummy_double_doubles_winner() -> None:
    g = game(2, winner_takes_all=True, going_rummy_double=True)
    res = end_hand(g, "A", going_rummy=True, remaining={"B": "KS"})
    assert res.scores == {"A": 20, "B": 0}


def test_r7_a_r13_cash_the_winner_collects_each_losers_penalty() -> None:
    g = game(3, cash=True, fixed_rounds=1)
    end_hand(g, "A", remaining={"B": "KS", "C": "5S"})
    s = g.summary()
    # A-R13: A went out and collects B's 10 and C's 5; B and C do not pay each other
    assert s.detail.settlement == {"A": 15, "B": -10, "C": -5}
    assert s.to_json()["settlement"] == {"A": 15, "B": -10, "C": -5}
    assert sum(s.detail.settlement.values()) == 0


def test_r7_winner_deals() -> None:
    g = game(3, dealer="A", winner_deals=True)
    end_hand(g, "C", remaining={"A": "2S", "B": "3S"})
    assert g.dealer == "C"


# --------------------------------------------------------------------------- A-R rows


def test_a_r1_content_under_stray_heading_is_rummy() -> None:
    assert RULESET.name == "rummy" and "Rummy" in RULESET.title
    with pytest.raises(RecordError):
        RummyGame.from_record(GameRecord(game="rummoli", players=["A", "B"]))


def test_a_r2_default_penalty_scoring_winner_takes_all_flag() -> None:
    g = game(2)
    end_hand(g, "A", remaining={"B": "KS"})
    assert g.summary().to_json()["scoring"] == "penalty" and g.totals["B"] == 10


def test_a_r3_one_meld_default_multi_meld_flag() -> None:
    test_r3_2_one_meld_per_turn()
    test_r7_multi_meld()


def test_a_r6_double_is_losers_penalty_or_winners_points() -> None:
    test_r7_going_rummy_double_doubles_each_loser()
    test_r7_winner_takes_all_going_rummy_double_doubles_winner()


def test_a_r7_one_meld_plus_layoffs_can_go_rummy() -> None:
    g = RummyGame(["A", "B"], RummyRules(going_rummy_double=True))
    start_hand(g, "A", turns=True)
    late(g, A=1, B=4)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    lay_off(g, "B", "10H JH", 0)
    res = end_hand(g, "B", remaining={"A": "AS"})
    assert res.going_rummy and res.scores["A"] == 2


def test_a_r9_two_player_dealing_alternates_winner_deals_option() -> None:
    test_r1_2_two_players_take_turns_dealing()
    g = game(2, dealer="A", winner_deals=True)
    end_hand(g, "A", remaining={"B": "KS"})
    assert g.dealer == "A"


# --------------------------------------------------------------------------- suggest


def test_suggest_beats_greedy_on_overlapping_set_and_run() -> None:
    # greedy takes the biggest meld first (four 7s) and strands 8H 9H (17 points);
    # the exact search melds 7S 7D 7C + 7H 8H 9H and leaves nothing.
    s = suggest("7H 7S 7D 7C 8H 9H")
    assert s.points == 0 and len(s.melds) == 2


def test_suggest_beats_greedy_lowest_deadwood_first() -> None:
    # greedy by "run first": 5H-6H-7H-8H leaves 8S 8D (16); exact: 5H 6H 7H + 8H 8S 8D -> 0
    s = suggest("5H 6H 7H 8H 8S 8D")
    assert s.points == 0


def test_suggest_respects_ace_high_or_low_and_jokers() -> None:
    assert suggest("QH KH AH").points == 21  # 10 + 10 + 1, no run
    assert suggest("QH KH AH", ACE).points == 0
    s = suggest("5H 6H JK 9S", WILD)
    assert s.points == 9 and s.melds[0].stands_for()


def test_suggest_refuses_bad_input() -> None:
    with pytest.raises(CardParseError):
        suggest(parse_cards("5H 5H", allow_duplicates=True))
    with pytest.raises(IllegalActionError):
        suggest("5H JK")


# --------------------------------------------------------------------------- errors


def test_errors_repeat_input_and_name_rule() -> None:
    with pytest.raises(IllegalActionError) as exc:
        analyse_meld(parse_cards("QH KH AH"))
    assert "Q♥ K♥ A♥" in str(exc.value) and "(R2.2)" in str(exc.value)


def test_unknown_player_and_bad_actions_are_record_errors() -> None:
    g = game(2)
    with pytest.raises(RecordError):
        meld(g, "Zed", "7H 8H 9H")
    with pytest.raises(RecordError):
        g.push({"type": "fly", "player": "A"})
    with pytest.raises(RulesetError):
        meld(g, "A", "7H 8X 9H")
    assert g.table == ()


def test_undo_pops_to_the_state_before() -> None:
    g = game(3)
    meld(g, "B", "7H 8H 9H")
    lay_off(g, "C", "10H", 0)
    g.pop()
    assert [str(c) for c in g.table[0].cards] == ["7H", "8H", "9H"]
    g.pop()
    g.pop()
    assert g.actions == () and not g.in_hand
    with pytest.raises(RecordError):
        g.pop()


def test_hand_value_sums_card_values() -> None:
    assert hand_value(parse_cards("AS AH"), ACE) == 30


def test_r5_2_logged_hand_cannot_end_without_winner_while_stock_lasts() -> None:
    g = game(2, turns=True, block_rummy=True)
    with pytest.raises(IllegalActionError) as exc:
        end_hand(g, None, typed={"A": 5, "B": 6})
    assert exc.value.rule == "R5.2" and g.in_hand


def test_r4_1_logged_hand_cannot_end_before_anyone_is_out() -> None:
    g = game(2, turns=True)
    with pytest.raises(IllegalActionError) as exc:
        end_hand(g, "B", typed={"A": 5})
    assert exc.value.rule == "R4.1"


def test_r7_jokers_lay_off_a_joker_extends_the_top() -> None:
    m = analyse_meld(parse_cards("5H 6H 7H"), WILD)
    assert extend_meld(m, (JOKER,), WILD).stands_for() == ("JK=8H",)
    top = analyse_meld(parse_cards("JH QH KH"), WILD)
    assert extend_meld(top, (JOKER,), WILD).stands_for() == ("JK=10H",)


def test_r7_jokers_listed_order_places_the_joker() -> None:
    assert analyse_meld(parse_cards("JK 5H 6H"), WILD).stands_for() == ("JK=4H",)
    assert analyse_meld(parse_cards("5H 6H JK"), WILD).stands_for() == ("JK=7H",)
    assert analyse_meld(parse_cards("7H JK JK"), WILD).kind == "set"
    assert analyse_meld(parse_cards("7H JK JK"), WILD, kind="run").kind == "run"


def test_r7_round_the_corner_in_suggest() -> None:
    assert suggest("KH AH 2H", CORNER).points == 0
    assert suggest("KH AH 2H", ACE).points == 10 + 15 + 2


def test_judge_gives_a_verdict_against_the_table() -> None:
    g = game(3, jokers=True)
    v = g.judge({"type": "meld", "player": "B", "cards": ["7H", "JK", "9H"]})
    assert v.legal and v.kind == "run" and v.notes == ("JK=8H",) and v.rule == "R2.2"
    assert g.table == ()  # judging changes nothing
    meld(g, "B", "7H JK 9H")
    v = g.judge({"type": "lay_off", "player": "C", "cards": ["QH"], "meld": 0})
    assert not v.legal and v.rule == "R3.3" and "Q♥" in v.reason
    v = g.judge({"type": "lay_off", "player": "C", "cards": ["10H"], "meld": 0})
    assert v.legal and v.cards == ("7H", "JK", "9H", "10H")


def test_pop_restores_the_state_before_each_push() -> None:
    g = game(3)
    meld(g, "B", "7H 8H 9H")
    end_hand(g, "B", remaining={"A": "KS", "C": "2C"})
    g.pop()
    g.pop()
    assert g.in_hand and g.table == () and g.totals == {"A": 0, "B": 0, "C": 0}
    assert not hasattr(g, "undo_to") and not hasattr(g, "verify_push")


def test_verify_and_can_agree_and_leave_state_unchanged() -> None:
    g = game(3)
    meld(g, "B", "7H 8H 9H")
    assert can_lay_off(g, "C", "10H", 0)
    verify_lay_off(g, "C", "10H", 0)
    assert not can_meld(g, "C", "7S 8S 10S")
    with pytest.raises(IllegalActionError):
        verify_meld(g, "C", "7S 8S 10S")
    assert len(g.table) == 1 and len(g.table[0].cards) == 3 and len(g.actions) == 2
