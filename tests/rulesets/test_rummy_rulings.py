"""Rummy rulings A-R12..A-R17, the rule fixes of issue 12, and behaviour mutation testing
found unpinned.  Every house-rule switch has a test where it changes a verdict or a score
and one where it meets another switch (see ``SWITCH_TESTS`` at the end)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rulesets import timeline
from rulesets.cards import parse_cards
from rulesets.errors import HouseRuleError, RulesetError
from rulesets.protocol import Units, parse_house_rules
from rulesets.rummy import (
    RULESET,
    Phase,
    RummyGame,
    RummyRules,
    advise,
    analyse_meld,
    suggest,
)
from tests.rulesets.rummy_moves import (
    can_end_hand,
    can_lay_off,
    discard,
    draw,
    end_hand,
    lay_off,
    meld,
    start_hand,
    swap_joker,
)
from tests.rulesets.test_rummy_games import _random_action


def check(cards: str, onto: str | None = None, **rules: Any) -> Any:
    return RULESET.check(
        parse_cards(cards), onto=parse_cards(onto) if onto else None, rules=RummyRules(**rules)
    )


def game(n: int = 3, dealer: str = "A", turns: bool = False, **rules: Any) -> RummyGame:
    g = RummyGame(["A", "B", "C", "D", "E", "F"][:n], RummyRules(**rules))
    start_hand(g, dealer, turns=turns)
    return g


def logged(n: int = 2, upcard: str | None = None, **rules: Any) -> RummyGame:
    g = RummyGame(["A", "B", "C", "D", "E", "F"][:n], RummyRules(**rules))
    start_hand(g, "A", turns=True, upcard=upcard)
    return g


def holds(g: RummyGame, **counts: int) -> None:
    """Jump to late in a logged hand: set how many cards each player holds."""
    assert g._hand is not None
    g._hand.counts.update(counts)


def refused(g: RummyGame, action: dict[str, Any], rule: str, **kw: Any) -> str:
    """``action`` is refused citing ``rule``, by judge and by push, and nothing changes."""
    before = g.summary()
    verdict = g.judge(action, **kw)
    assert not verdict.legal and verdict.rule == rule, verdict
    with pytest.raises(RulesetError) as exc:
        g.push(action, **kw)
    assert exc.value.rule == rule
    assert g.summary() == before
    return verdict.reason


def end(went_out: str | None, going_rummy: bool | None = None, **remaining: str) -> dict[str, Any]:
    return {
        "type": "hand_end",
        "went_out": went_out,
        "going_rummy": going_rummy,
        "remaining": {p: parse_cards(c) and c.split() for p, c in remaining.items()},
    }


# --------------------------------------------------------------------------- R4.2 / A-R5


def test_r4_2_a_r5_table_log_refuses_going_rummy_after_an_earlier_turn() -> None:
    g = game(3)
    meld(g, "B", "7H 8H 9H")
    meld(g, "C", "KS KD KC")  # C put cards down after B: B's meld was on an earlier turn
    lay_off(g, "B", "10H", 0)
    reason = refused(g, end("B", True, A="2C", C="3C"), "R4.2")
    assert "earlier turn" in reason
    play = g.summary().detail.play
    assert play is not None and play.may_go_rummy == ("A",)
    res = end_hand(g, "B", remaining={"A": "2C", "C": "3C"})
    assert not res.going_rummy


def test_r4_2_a_r7_table_log_going_rummy_when_everything_went_down_last() -> None:
    g = game(3, going_rummy_double=True)
    meld(g, "C", "KS KD KC")
    meld(g, "B", "7H 8H 9H")  # nobody put cards down after B: this may all be one turn
    lay_off(g, "B", "10H JH", 1)
    play = g.summary().detail.play
    assert play is not None and play.may_go_rummy == ("A", "B")
    res = end_hand(g, "B", going_rummy=True, remaining={"A": "2C", "C": "3C"})
    assert res.going_rummy and res.doubled and res.scores == {"A": 4, "B": 0, "C": 6}


def test_r4_2_no_going_rummy_after_a_one_card_lay_off() -> None:
    g = logged(2, going_rummy_double=True)
    draw(g, "B")
    discard(g, "B", "2C")
    draw(g, "A")
    meld(g, "A", "7H 8H 9H")
    discard(g, "A", "3C")
    draw(g, "B")
    lay_off(g, "B", "10H", 0)  # one card, on an earlier turn
    discard(g, "B", "4C")
    draw(g, "A")
    discard(g, "A", "5C")
    holds(g, A=1, B=3)
    draw(g, "B")
    meld(g, "B", "KS KD KC")
    lay_off(g, "B", "JH", 0)
    assert g.summary().phase is Phase.SCORING
    refused(g, end("B", True, A="6C"), "R4.2")
    res = end_hand(g, "B", remaining={"A": "6C"})
    assert not res.going_rummy and res.scores["A"] == 6


def test_r4_2_no_going_rummy_after_a_joker_swap_on_an_earlier_turn() -> None:
    g = logged(2, jokers=True, joker_swap=True)
    draw(g, "B")
    discard(g, "B", "2C")
    draw(g, "A")
    meld(g, "A", "7H JK 9H")
    discard(g, "A", "3C")
    draw(g, "B")
    swap_joker(g, "B", 0, "8H")  # B puts 8H down and takes the joker back
    discard(g, "B", "4C")
    draw(g, "A")
    discard(g, "A", "5C")
    holds(g, A=1, B=3)
    draw(g, "B")
    meld(g, "B", "KS KD KC")
    lay_off(g, "B", "JK", 0)
    refused(g, end("B", True, A="6C"), "R4.2")
    assert not end_hand(g, "B", remaining={"A": "6C"}).going_rummy


def test_r4_2_a_joker_swap_in_the_going_out_turn_is_still_going_rummy() -> None:
    g = logged(2, jokers=True, joker_swap=True, going_rummy_double=True)
    draw(g, "B")
    discard(g, "B", "2C")
    draw(g, "A")
    meld(g, "A", "7H JK 9H")
    discard(g, "A", "3C")
    holds(g, A=1, B=2)
    draw(g, "B")
    swap_joker(g, "B", 0, "8H")  # the same turn: nothing was placed *before* it
    meld(g, "B", "KS KD JK")
    res = end_hand(g, "B", going_rummy=None, remaining={"A": "6C"})
    assert res.going_rummy and res.doubled and res.scores["A"] == 12


def test_r4_2_table_log_joker_swap_counts_as_putting_cards_down() -> None:
    g = game(3, jokers=True, joker_swap=True)
    meld(g, "A", "7H JK 9H")
    swap_joker(g, "B", 0, "8H")
    meld(g, "C", "KS KD KC")
    refused(g, end("B", True, A="2C", C="3C"), "R4.2")


# --------------------------------------------------------------------------- A-R12 jokers in runs


@pytest.mark.parametrize(
    ("cards", "rules", "stands_for"),
    [
        ("JK 5C 6C", {}, ("JK=4C",)),
        ("5C 6C JK", {}, ("JK=7C",)),
        ("QD KD JK", {}, ("JK=JD",)),  # no card above the king: the other end
        ("JK AC 2C", {}, ("JK=3C",)),  # no card below the ace: the other end
        ("QD KD JK", {"ace_high_or_low": True}, ("JK=AD",)),
        ("JK AC 2C", {"ace_high_or_low": True}, ("JK=3C",)),
        ("JK AC 2C", {"ace_high_or_low": True, "round_the_corner": True}, ("JK=KC",)),
        ("QD KD JK JK", {}, ("JK=10D", "JK=JD")),
    ],
)
def test_a_r12_a_joker_at_the_end_of_a_run_takes_its_written_place(
    cards: str, rules: dict[str, Any], stands_for: tuple[str, ...]
) -> None:
    shape = analyse_meld(parse_cards(cards), RummyRules(jokers=True, **rules), kind="run")
    assert shape.stands_for() == stands_for
    g = game(2, jokers=True, **rules)
    v = g.judge({"type": "meld", "player": "B", "cards": cards.split(), "kind": "run"})
    assert v.legal and v.notes == stands_for


def test_a_r12_round_the_corner_meets_jokers() -> None:
    v = check("KH JK 2H", jokers=True, ace_high_or_low=True, round_the_corner=True)
    assert v.legal and v.notes == ("JK=AH",)
    assert not check("KH JK 2H", jokers=True, ace_high_or_low=True).legal


# --------------------------------------------------------------------------- A-R13 cash


def test_a_r13_cash_is_settled_hand_by_hand() -> None:
    g = game(3, cash=True, fixed_rounds=2)
    end_hand(g, "A", remaining={"B": "KS", "C": "5S"})
    start_hand(g)
    end_hand(g, "B", remaining={"A": "2C"}, typed={"C": 20})
    s = g.summary()
    # hand 1: A collects 10 + 5; hand 2: B collects 2 + 20.  Losers never pay each other.
    assert [h.scores for h in s.hands] == [
        {"A": 15, "B": -10, "C": -5},
        {"A": -2, "B": 22, "C": -20},
    ]
    assert s.totals == s.detail.settlement == {"A": 13, "B": 12, "C": -25}
    assert sum(s.totals.values()) == 0
    assert all(e.other in ("A", "B") for e in s.ledger if e.player == "C")
    assert {e.kind for e in s.ledger} == {"cash"} and {e.rule for e in s.ledger} == {"A-R13"}
    assert s.finished and s.winners == ("A",)  # the highest balance wins
    assert s.units is Units.POINTS and s.higher_is_better
    assert s.detail.penalty_totals == {"A": 2, "B": 10, "C": 25}
    assert (
        "collects" in RummyRules.EXPLAIN["cash"] and "difference" not in RummyRules.EXPLAIN["cash"]
    )


def test_a_r13_cash_meets_going_rummy_double() -> None:
    g = game(2, cash=True, fixed_rounds=1, going_rummy_double=True)
    res = end_hand(g, "A", going_rummy=True, remaining={"B": "KS 2C"})
    assert res.scores == {"A": 24, "B": -24}
    assert [e.kind for e in res.ledger] == ["cash", "cash", "going_rummy", "going_rummy"]


def test_a_r13_cash_meets_winner_takes_all() -> None:
    # cash settles by the losers' penalties whatever the scoring: the balances are the totals
    g = game(3, cash=True, fixed_rounds=1, winner_takes_all=True)
    res = end_hand(g, "C", remaining={"A": "KS", "B": "5S"})
    assert res.scores == {"A": -10, "B": -5, "C": 15}
    assert g.summary().to_json()["scoring"] == "winner_takes_all"


# --------------------------------------------------------------------------- A-R14 cards held


def test_a_r14_a_loser_cannot_hold_more_than_the_deal() -> None:
    g = game(3)  # 7 cards each
    reason = refused(g, end("A", B="2C 3C 4C 5C 6C 7C 8C 9C", C=""), "A-R14")
    assert "at most 7" in reason
    assert end_hand(g, "A", remaining={"B": "2C 3C 4C 5C 6C 7C 8C", "C": ""}).scores["B"] == 35


def test_a_r14_two_players_hold_at_most_ten() -> None:
    g = game(2)
    eleven = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC"
    refused(g, end("A", B=eleven), "A-R14")
    play = g.summary().detail.play
    assert play is not None and play.deal_size == 10 and play.most_held == {"A": 10, "B": 10}
    assert can_end_hand(g, "A", remaining={"B": eleven[3:]})


def test_a_r14_cards_put_down_count_against_the_cards_held() -> None:
    g = game(6)  # 6 cards each
    meld(g, "B", "7H 8H 9H")
    refused(
        g,
        {**end("A", B="2C 3C 4C 5C"), "typed": {"C": 0, "D": 0, "E": 0, "F": 0}},
        "A-R14",
    )
    assert can_end_hand(g, "A", remaining={"B": "2C 3C 4C"}, typed=dict.fromkeys("CDEF", 0))


# --------------------------------------------------------------------------- A-R15 stock draws


def test_a_r15_the_upcard_is_never_in_the_stock() -> None:
    g = logged(2, upcard="5S")
    reason = refused(g, {"type": "draw", "player": "B", "card": "5S"}, "A-R15")
    assert "discard pile" in reason
    draw(g, "B", "stock", "6S")


def test_a_r15_cards_on_the_table_or_drawn_are_not_in_the_stock() -> None:
    g = logged(2, upcard="5S")
    draw(g, "B", "stock", "6S")
    meld(g, "B", "7H 8H 9H")
    discard(g, "B", "2C")
    refused(g, {"type": "draw", "player": "A", "card": "8H"}, "A-R15")
    refused(g, {"type": "draw", "player": "A", "card": "6S"}, "A-R15")
    draw(g, "A", "discard", "2C")  # the pile's top is known again after a discard


def test_a_r15_a_card_taken_from_the_pile_is_not_in_the_stock() -> None:
    g = logged(2, upcard="5S")
    draw(g, "B", "discard")  # the upcard, named by the start of the hand
    discard(g, "B", "2C")
    refused(g, {"type": "draw", "player": "A", "card": "5S"}, "A-R15")


def test_a_r15_no_shuffle_turns_the_pile_over_as_it_lies() -> None:
    g = logged(2, upcard="5S", no_shuffle=True)
    draw(g, "B")
    discard(g, "B", "6S")
    draw(g, "A")
    discard(g, "A", "7S")
    assert g._hand is not None
    g._hand.stock = 0  # the stock runs out: the pile is 5S 6S 7S, 7S on top
    reason = refused(g, {"type": "draw", "player": "B", "card": "7S"}, "A-R15")
    assert "5♠" in reason and "No shuffle" in reason
    draw(g, "B", "stock", "5S")  # the bottom card of the old pile comes first
    assert g._hand.pile == [] and g._hand.stock == 2  # no new upcard (A-R15)
    discard(g, "B", "8D")
    refused(g, {"type": "draw", "player": "A", "card": "7S"}, "A-R15")
    draw(g, "A")  # unnamed: it is 6S
    discard(g, "A", "9D")
    refused(g, {"type": "draw", "player": "B", "card": "6S"}, "A-R15")  # drawn already
    draw(g, "B", "stock", "7S")


def test_a_r15_shuffled_pile_turns_up_a_new_card() -> None:
    g = logged(2, upcard="5S")
    draw(g, "B")
    discard(g, "B", "6S")
    assert g._hand is not None
    g._hand.stock = 0
    draw(g, "A", "stock", "6S")  # shuffled: any card of the old pile may come up (R5.1)
    assert len(g._hand.pile) == 1 and g._hand.stock == 0


def test_a_r15_no_shuffle_meets_max_reshuffles() -> None:
    g = logged(2, upcard="5S", no_shuffle=True, max_reshuffles=1)
    assert g._hand is not None
    g._hand.stock = 0
    draw(g, "B", "stock", "5S")  # the one reuse allowed: the pile held only the upcard
    discard(g, "B", "6S")
    refused(g, {"type": "draw", "player": "A"}, "R5.2")
    holds(g, A=10, B=10)
    assert g.summary().phase is Phase.SCORING
    res = end_hand(g, None, typed={"A": 30, "B": 40})
    assert res.block and res.scores == {"A": 30, "B": 40}


# --------------------------------------------------------------------------- A-R16, A-R17


def test_a_r16_winner_takes_all_with_fixed_rounds_highest_total_wins() -> None:
    g = game(3, winner_takes_all=True, fixed_rounds=2, target=5)
    end_hand(g, "A", remaining={"B": "KS", "C": "2S"})
    assert not g.finished  # the target does not end a game of fixed hands
    start_hand(g)
    end_hand(g, "C", remaining={"A": "3S", "B": "4S"})
    s = g.summary()
    assert s.totals == {"A": 12, "B": 0, "C": 7}
    assert s.finished and s.winners == ("A",) and s.higher_is_better
    assert s.detail.rule_of_end == "A-R16"
    assert [e.kind for e in s.ledger] == ["collect"] * 4
    assert {e.other for e in s.ledger if e.player == "A"} == {"B", "C"}


def test_a_r17_round_the_corner_without_ace_high_or_low_names_what_it_needs() -> None:
    with pytest.raises(HouseRuleError) as exc:
        parse_house_rules(RummyRules, "round_the_corner")
    assert "ace_high_or_low" in str(exc.value) and "Ace high or low" in str(exc.value)
    assert "bad value for :" not in str(exc.value) and "A-R17" in str(exc.value)
    assert parse_house_rules(RummyRules, "round_the_corner,ace_high_or_low").round_the_corner


# --------------------------------------------------------------------------- pinned behaviour


def test_r2_2_a_king_laid_off_onto_a_2_3_is_refused() -> None:
    v = check("KC", onto="AC 2C 3C")
    assert not v.legal and v.rule == "R3.3"
    assert not check("KC", onto="AC 2C 3C", ace_high_or_low=True).legal  # K-A-2 turns the corner
    v = check("KC", onto="AC 2C 3C", ace_high_or_low=True, round_the_corner=True)
    assert v.legal and v.cards == ("KC", "AC", "2C", "3C")
    g = game(3)
    meld(g, "B", "AC 2C 3C")
    assert not can_lay_off(g, "C", "KC", 0) and can_lay_off(g, "C", "4C", 0)


def test_r2_1_a_five_card_set_with_a_joker_is_refused() -> None:
    v = check("7H 7S 7D 7C JK", jokers=True)
    assert not v.legal and v.rule == "R2.1"
    assert check("7H 7S 7D JK", jokers=True).legal


def test_r7_joker_swaps_on_sets() -> None:
    g = game(3, jokers=True, joker_swap=True)
    meld(g, "B", "7H 7S JK")
    refused(g, {"type": "swap_joker", "player": "C", "meld": 0, "card": "7H"}, "R2.3")
    refused(g, {"type": "swap_joker", "player": "C", "meld": 0, "card": "8D"}, "R7")
    m = swap_joker(g, "C", 0, "7D")
    assert [str(c) for c in m.cards] == ["7H", "7S", "7D"] and not m.shape.stands_for()
    meld(g, "A", "9C 9D JK")
    lay_off(g, "B", "9H", 1)
    assert swap_joker(g, "C", 1, "9S").cards[2] == parse_cards("9S")[0]


def test_r6_2_a_loser_holding_both_jokers() -> None:
    g = game(2, jokers=True)
    assert end_hand(g, "A", remaining={"B": "JK JK 5S"}).scores == {"A": 0, "B": 35}
    g = game(2, jokers=True)
    meld(g, "A", "5H 6H JK")
    refused(g, end("A", B="JK JK 5S"), "R7")  # the pack has two jokers


def test_r1_1_check_a_card_also_listed_in_the_rest_of_the_hand() -> None:
    v = RULESET.check(parse_cards("7H 8H 9H"), hand=parse_cards("9H 2C"))
    assert not v.legal and v.rule == "R1.1" and "9♥" in v.reason
    assert RULESET.check(parse_cards("7H 8H 9H"), hand=parse_cards("10H 2C")).legal


def test_r6_2_a_negative_typed_penalty_is_refused() -> None:
    g = game(2)
    reason = refused(g, {"type": "hand_end", "went_out": "A", "typed": {"B": -3}}, "R6.2")
    assert "-3" in reason
    assert end_hand(g, "A", typed={"B": 0}).scores == {"A": 0, "B": 0}


# --------------------------------------------------------------------------- the entered hand


def test_r3_2_cards_of_a_meld_must_be_in_the_entered_hand() -> None:
    g = game(2)
    meld = {"type": "meld", "player": "B", "cards": ["7H", "8H", "9H"]}
    refused(g, meld, "R3.2", hand=parse_cards("7H 8H 2C"))
    assert g.can(meld, hand=parse_cards("7H 8H 9H 2C"))
    assert g.can(meld)  # no hand entered: nothing to check against


def test_r7_must_discard_to_go_out_with_the_entered_hand() -> None:
    g = game(2, must_discard_to_go_out=True)
    meld = {"type": "meld", "player": "B", "cards": ["7H", "8H", "9H"]}
    refused(g, meld, "R7", hand=parse_cards("7H 8H 9H"))
    g.push(meld, hand=parse_cards("7H 8H 9H 2C"))
    assert g.actions[-1].to_json() == {**meld, "kind": None}  # the hand is never recorded


def test_r3_4_a_discard_must_be_in_the_entered_hand() -> None:
    g = logged(2)
    draw(g, "B")
    refused(g, {"type": "discard", "player": "B", "card": "KS"}, "R3.4", hand=["2C", "3C"])
    g.push({"type": "discard", "player": "B", "card": "2C"}, hand=["2C", "3C"])


def test_judge_answers_bad_notation_with_a_verdict() -> None:
    g = game(2)
    v = g.judge({"type": "meld", "player": "B", "cards": ["7H", "8X", "9H"]})
    assert not v.legal and "8X" in v.reason
    assert not g.judge({"type": "lay_off", "player": "Zed", "cards": ["7H"], "meld": 0}).legal
    assert not g.judge({"type": "hand_end"}).legal


# --------------------------------------------------------------------------- switches meeting


def test_r7_multi_meld_meets_must_discard_to_go_out() -> None:
    g = logged(2, multi_meld=True, must_discard_to_go_out=True)
    holds(g, B=6)
    draw(g, "B")
    meld(g, "B", "7H 8H 9H")
    refused(g, {"type": "meld", "player": "B", "cards": ["KS", "KD", "KC", "KH"]}, "R7")
    meld(g, "B", "KS KD KC")
    discard(g, "B", "2C")
    assert g.summary().phase is Phase.SCORING


def test_r7_meld_before_layoff_meets_jokers() -> None:
    g = game(3, meld_before_layoff=True, jokers=True)
    meld(g, "B", "7H 8H 9H")
    refused(g, {"type": "lay_off", "player": "C", "cards": ["JK"], "meld": 0}, "R7")
    meld(g, "C", "5S 5D JK")
    lay_off(g, "C", "JK", 0)
    assert g.table[0].shape.stands_for() == ("JK=10H",)


def test_r5_2_block_rummy_meets_winner_takes_all_and_winner_deals() -> None:
    g = game(3, block_rummy=True, winner_takes_all=True, winner_deals=True, dealer="B")
    res = end_hand(g, None, remaining={"A": "KS", "B": "2C", "C": ""})
    assert res.block and res.scores == {"A": 0, "B": 0, "C": 0}  # nobody won, nobody scores
    assert res.penalties == {"A": 10, "B": 2, "C": 0}
    assert g.dealer == "C"  # no winner to deal: the deal passes clockwise
    refused(g, {"type": "start_hand", "dealer": "A"}, "R1.2")


def test_r5_2_block_rummy_meets_going_rummy_double() -> None:
    g = game(2, block_rummy=True, going_rummy_double=True)
    refused(g, end(None, True, A="KS", B="2C"), "R4.2")
    assert end_hand(g, None, remaining={"A": "KS", "B": "2C"}).scores == {"A": 10, "B": 2}


def test_r6_3_target_meets_fixed_rounds_and_penalty_units() -> None:
    assert RULESET.units(RummyRules()) is Units.PENALTY
    assert not RULESET.higher_is_better(RummyRules(target=50))
    assert RULESET.units(RummyRules(winner_takes_all=True)) is Units.POINTS
    assert RULESET.higher_is_better(RummyRules(cash=True, fixed_rounds=2))
    s = game(2, target=50, fixed_rounds=3).summary()
    assert s.detail.target is None and s.detail.hands_left == 3


# --------------------------------------------------------------------------- the protocol


def test_r1_4_opening_and_opening_actions() -> None:
    o = RULESET.opening(["Ann", "Bob"], "Bob")
    assert (o.dealer, o.first, o.rule) == ("Bob", "Ann", "R1.4")
    (act,) = RULESET.opening_actions(["Ann", "Bob"], "Bob")
    g = RULESET.new_game(["Ann", "Bob"])
    g.push(act)
    s = g.summary()
    assert s.phase is Phase.PLAY and s.dealer == "Bob" and s.hand == 1
    assert RULESET.hand_word == "Hand" and RULESET.starting_stack is None


def test_phases() -> None:
    g = RummyGame(["A", "B"], {"target": 5})
    assert g.summary().phase is Phase.DEAL
    start_hand(g, "A")
    assert g.summary().phase is Phase.PLAY
    end_hand(g, "A", remaining={"B": "KS"})
    assert g.summary().phase is Phase.OVER and g.summary().to_json()["phase"] == "over"


def test_ledger_kinds_and_rules_of_a_doubled_penalty_hand() -> None:
    g = game(3, going_rummy_double=True)
    res = end_hand(g, "A", going_rummy=True, remaining={"B": "KS"}, typed={"C": 4})
    assert [(e.player, e.kind, e.amount, e.rule) for e in res.ledger] == [
        ("B", "penalty", 10, "R6.2"),
        ("B", "going_rummy", 10, "R7"),
        ("C", "typed", 4, "R6.2"),
        ("C", "going_rummy", 4, "R7"),
    ]
    assert res.ledger[0].cards == ("KS",)
    rows = g.summary().rows()
    assert [r.title for r in rows] == ["Hand 1"] and rows[0].amounts == {"A": 0, "B": 20, "C": 8}


def test_suggest_at_a_table_lays_off_and_keeps_one_meld_per_turn() -> None:
    g = game(2)
    meld(g, "A", "4S 5S 6S")
    a = RULESET.suggest(parse_cards("7S 8S KD KH KC 2D 2H 2C"), game=g, player="B")
    # one new meld per turn (R3.2): a set of kings or of twos, and the spades laid off
    assert len([v for v in a.plays if v.rule != "R3.3"]) == 1
    assert [v.rule for v in a.plays][-1] == "R3.3"
    assert a.points == 6 and len(a.left) == 3 and not a.can_go_out
    multi = RummyGame(["A", "B"], {"multi_meld": True})
    start_hand(multi, "A")
    meld(multi, "A", "4S 5S 6S")
    b = RULESET.suggest(parse_cards("7S 8S KD KH KC 2D 2H 2C"), game=multi, player="B")
    assert b.points == 0 and b.can_go_out and b.left == ()


def test_suggest_at_a_table_respects_meld_before_layoff_and_must_discard() -> None:
    g = game(2, meld_before_layoff=True)
    meld(g, "A", "4S 5S 6S")
    a = RULESET.suggest(parse_cards("7S 8S 2C"), game=g, player="B")
    assert a.plays == () and a.points == 17  # may not lay off without a meld of one's own
    g = game(2, must_discard_to_go_out=True)
    a = RULESET.suggest(parse_cards("7H 8H 9H 10H"), game=g, player="B")
    assert a.left == ("7H",) and a.points == 7 and a.can_go_out  # kept for the last discard
    a = RULESET.suggest(parse_cards("7H 8H 9H"), game=g, player="B")
    assert a.plays == () and not a.can_go_out  # melding all three would go out by a meld


def test_refusals_name_switches_by_their_titles() -> None:
    switch = re.compile("|".join(rf"\b{n}\b" for n in RummyRules.model_fields if "_" in n))
    rng = random.Random(12)
    for rules in (
        {},
        {"jokers": True, "joker_swap": True, "meld_before_layoff": True},
        {"must_discard_to_go_out": True, "block_rummy": True},
    ):
        g = RummyGame(["A", "B", "C"], rules)
        for _ in range(300):
            action = _random_action(rng, ["A", "B", "C"])
            verdict = g.judge(action)
            assert not switch.search(verdict.reason), verdict.reason
            assert "." not in verdict.rule or verdict.rule[1:].replace(".", "").isdigit()
            if verdict.legal:
                g.push(action)


# --------------------------------------------------------------------------- every switch

#: each switch: a test where it changes a verdict or score, and one where it meets another.
SWITCH_TESTS = {
    "fixed_rounds": (
        "test_r7_fixed_rounds",
        "test_a_r16_winner_takes_all_with_fixed_rounds_highest_total_wins",
    ),
    "multi_meld": ("test_r7_multi_meld", "test_r7_multi_meld_meets_must_discard_to_go_out"),
    "going_rummy_double": (
        "test_r7_going_rummy_double_doubles_each_loser",
        "test_a_r13_cash_meets_going_rummy_double",
    ),
    "meld_before_layoff": ("test_r7_meld_before_layoff", "test_r7_meld_before_layoff_meets_jokers"),
    "ace_high_or_low": (
        "test_r7_ace_high_or_low_runs",
        "test_a_r12_a_joker_at_the_end_of_a_run_takes_its_written_place",
    ),
    "round_the_corner": ("test_r7_round_the_corner", "test_a_r12_round_the_corner_meets_jokers"),
    "jokers": (
        "test_r7_jokers_wild_and_say_what_they_stand_for",
        "test_r7_meld_before_layoff_meets_jokers",
    ),
    "joker_swap": (
        "test_r7_joker_swap",
        "test_r4_2_no_going_rummy_after_a_joker_swap_on_an_earlier_turn",
    ),
    "must_discard_to_go_out": (
        "test_r7_must_discard_to_go_out",
        "test_r7_multi_meld_meets_must_discard_to_go_out",
    ),
    "winner_takes_all": (
        "test_r7_winner_takes_all",
        "test_r5_2_block_rummy_meets_winner_takes_all_and_winner_deals",
    ),
    "cash": ("test_a_r13_cash_is_settled_hand_by_hand", "test_a_r13_cash_meets_winner_takes_all"),
    "target": (
        "test_r6_3_target_ends_game_lowest_wins",
        "test_r6_3_target_meets_fixed_rounds_and_penalty_units",
    ),
    "no_shuffle": (
        "test_a_r15_no_shuffle_turns_the_pile_over_as_it_lies",
        "test_a_r15_no_shuffle_meets_max_reshuffles",
    ),
    "max_reshuffles": ("test_r5_2_max_reshuffles", "test_a_r15_no_shuffle_meets_max_reshuffles"),
    "block_rummy": (
        "test_r5_2_block_rummy_everyone_scores",
        "test_r5_2_block_rummy_meets_going_rummy_double",
    ),
    "winner_deals": (
        "test_r7_winner_deals",
        "test_r5_2_block_rummy_meets_winner_takes_all_and_winner_deals",
    ),
}


def test_every_switch_has_its_two_tests() -> None:
    from tests.rulesets import test_rummy

    assert set(SWITCH_TESTS) == set(RummyRules.model_fields)
    here = globals()
    for name, (changes, meets) in SWITCH_TESTS.items():
        assert changes in here or hasattr(test_rummy, changes), (name, changes)
        assert meets in here or hasattr(test_rummy, meets), (name, meets)


# --------------------------------------------------------------------------- corrections


def _two_hands(**rules: Any) -> RummyGame:
    g = game(3, **rules)
    meld(g, "B", "7H 8H 9H")
    end_hand(g, "B", remaining={"A": "KS 7D", "C": "5C"})
    start_hand(g)
    end_hand(g, "A", remaining={"B": "2C", "C": "3C"})
    return g


def test_r6_2_a_finished_hand_is_judged_in_place_without_a_replay() -> None:
    g = _two_hands()
    index = 2  # start, meld, hand end
    before = timeline.summary_at(g, index)
    assert before.phase is Phase.PLAY and [m.cards for m in before.detail.table] == [
        parse_cards("7H 8H 9H")
    ]
    fixed = {
        "type": "hand_end",
        "went_out": "B",
        "remaining": {"A": ["KS", "7D", "AC"], "C": ["5C"]},
    }
    assert timeline.judge_at(g, index, fixed).legal
    assert timeline.preview(g, fixed, at=index).hands[0].scores == {"A": 18, "B": 0, "C": 5}
    # a card on the table at that time cannot be in a loser's hand (R2.3)
    bad = {"type": "hand_end", "went_out": "B", "remaining": {"A": ["9H"], "C": []}}
    assert timeline.judge_at(g, index, bad).rule == "R2.3"
    assert g.totals == {"A": 17, "B": 2, "C": 8}  # nothing changed


def test_r1_2_a_corrected_winner_moves_later_deals_with_winner_deals() -> None:
    g = _two_hands(winner_deals=True)
    record = timeline.corrected(
        g, 2, {"type": "hand_end", "went_out": "C", "remaining": {"A": [], "B": ["2D"]}}
    )
    again = RummyGame(["A", "B", "C"], {"winner_deals": True}, record)
    assert again.results[0].went_out == "C" and again.results[1].dealer == "C"
    with pytest.raises(RulesetError):
        timeline.corrected(
            g, 2, {"type": "hand_end", "went_out": "C", "remaining": {"A": ["8H"], "B": []}}
        )


def test_detail_cites_the_rules_the_screens_show() -> None:
    d = game(2, going_rummy_double=True).summary().detail
    assert d.cite["going_rummy"] == "R4.2" and d.cite["end"] == "R6.3"
    assert "Going rummy doubles" in d.explain["doubling"]
    assert game(2, winner_takes_all=True, fixed_rounds=2).summary().detail.cite["end"] == "A-R16"


def test_r3_3_suggest_lays_off_without_a_meld_of_ones_own() -> None:
    table = (analyse_meld(parse_cards("4S 5S 6S")),)
    a = advise(parse_cards("7S 2C"), table=table)
    assert [(v.rule, v.legal) for v in a.plays] == [("R3.3", True)] and a.left == ("2C",)
    assert all(v.legal for v in advise(parse_cards("7H 8H 9H 2C")).plays)


def test_r2_1_suggest_lays_off_one_group_per_meld_on_the_table() -> None:
    # 10C and the joker each fit 10S 10D 10H, but a set has at most 4 cards
    table = (analyse_meld(parse_cards("10S 10D 10H")),)
    a = advise(parse_cards("10C JK"), RummyRules(jokers=True), table=table)
    assert a.points == 10 and a.left == ("10C",)
    assert a.plays[0].cards == ("10S", "10D", "10H", "JK")


def test_r3_3_suggest_lays_off_onto_a_set_and_says_onto_which_meld() -> None:
    table = (analyse_meld(parse_cards("4S 5S 6S")), analyse_meld(parse_cards("10S 10D 10H")))
    a = advise(parse_cards("10C 2D"), table=table, owners=("Ann", "Bob"))
    assert a.points == 2 and a.left == ("2D",)
    assert a.plays[0].reason == "lay off 10♣ onto meld 2 (Bob's set)"
    assert a.can_go_out and a.notes == ("discard 2D to go out",)
    a = advise(parse_cards("7S 8S 9S 2D"), RummyRules(must_discard_to_go_out=True))
    assert a.notes == ("discard 2D to go out (the house rule “Discard to go out”)",)
    assert advise(parse_cards("7S 8S 9S")).notes == (
        "the last card goes down: the hand ends at once",
    )


def test_r2_1_a_natural_and_two_jokers_make_a_set() -> None:
    s = suggest("7H JK JK", RummyRules(jokers=True))
    assert [m.kind for m in s.melds] == ["set"] and s.points == 0


def test_r5_2_who_may_end_a_hand_without_a_winner() -> None:
    def may(g: RummyGame) -> bool:
        play = g.summary().detail.play
        assert play is not None
        return play.may_end_without_winner

    assert not may(game(2))  # R5.1: the pile is reshuffled, someone goes out
    assert may(game(2, block_rummy=True))  # table-only: the table says the stock ran out
    g = logged(2, block_rummy=True)
    assert not may(g)  # logged: the stock still has cards
    assert g._hand is not None
    g._hand.stock = 0
    assert may(g) and g.summary().phase is Phase.SCORING


def test_r7_fixed_rounds_hands_left_and_entries_out_of_range() -> None:
    g = game(2, fixed_rounds=3)
    end_hand(g, "A", remaining={"B": "2C"})
    assert g.summary().detail.hands_left == 2
    with pytest.raises(RulesetError, match="entry 100"):
        timeline.summary_at(g, 99)


def test_suggest_between_hands_at_a_table() -> None:
    g = game(2)
    end_hand(g, "A", remaining={"B": "2C"})
    a = RULESET.suggest(parse_cards("7H 8H 9H KS"), game=g, player="B")
    assert a.left == ("KS",) and a.points == 10
