"""Umtali rules, one test (at least) per rule ID of RULES.md section 1 and per A-U row."""

from __future__ import annotations

import pytest

from rulesets import load_ruleset
from rulesets.cards import JOKER, parse_card, parse_cards
from rulesets.errors import HouseRuleError, IllegalActionError, RecordError, RulesetError
from rulesets.protocol import Ruleset, parse_house_rules
from rulesets.umtali import (
    RULESET,
    U4_4_OPENING,
    U7_OPENING,
    U7_UNCHECKED,
    MeldKind,
    Phase,
    UmtaliGame,
    UmtaliRules,
    accepted_cards,
    breaking_meld,
    card_points,
    classify_meld,
)
from rulesets.umtali.actions import (
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
)
from tests.rulesets.umtali_cards import card_of, player_of

C = parse_cards


def new_game(rules: UmtaliRules | None = None, dealer: str = "Ann") -> UmtaliGame:
    """Ann and Bob; Ann deals hand 1, so Bob plays first (U3.3)."""
    g = UmtaliGame(("Ann", "Bob"), rules)
    g.push(StartHand(dealer=player_of(g, dealer)))
    return g


def rule_of(fn: object) -> str:
    with pytest.raises(IllegalActionError) as info:
        fn()  # type: ignore[operator]
    return info.value.rule or ""


def finish_hand(g: UmtaliGame, out: str = "Ann") -> None:
    g.push(GoOut(player=player_of(g, out)))
    g.push(Leftovers(player=player_of(g, "Bob" if out == "Ann" else "Ann")))


# ---------------------------------------------------------------- U1 equipment
def test_u1_1_two_players_only() -> None:
    with pytest.raises(RecordError):
        UmtaliGame(("Ann", "Bob", "Cy"))
    assert RULESET.min_players == RULESET.max_players == 2


def test_u1_1_no_jokers() -> None:
    v = RULESET.check([JOKER, parse_card("5H"), parse_card("6H")])
    assert not v.legal and v.rule == "U1.1"


def test_u1_1_one_pack_a_card_cannot_go_down_twice() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert rule_of(lambda: g.push(Extend(player="Ann", card="7H", anchor=("Bob", 0)))) == "U1.1"
    assert rule_of(lambda: g.push(Meld(player="Ann", cards=("7H", "7S", "7D")))) == "U1.1"


def test_u1_2_ace_is_low_and_ranks_never_wrap() -> None:
    assert classify_meld(C("AS 2S 3S")) is MeldKind.SEQUENCE
    for text in ("QS KS AS", "KS AS 2S"):
        assert not RULESET.check(C(text)).legal
    # a K single does not take the ace of its suit (no wrap)
    assert not RULESET.check(C("AS"), onto=C("KS")).legal
    assert RULESET.check(C("2S"), onto=C("AS")).legal


# ---------------------------------------------------------------- U2 structure
def test_u2_1_a_game_is_four_hands_and_higher_total_wins() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    for _ in range(4):
        g.push(StartHand())
        g.push(Meld(player=player_of(g, "Ann" if g.dealer == "Bob" else "Bob"), cards=("KH", "QH")))
        g.push(EndHandEmptyStock())
    assert g.finished and g.phase is Phase.OVER
    assert rule_of(lambda: g.push(StartHand())) == "U2.1"
    # each non-dealer scored 20 twice: 40-40, a draw
    assert g.totals == {"Ann": 40, "Bob": 40}


def test_u2_1_no_action_before_a_hand_is_dealt() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    assert rule_of(lambda: g.push(Meld(player="Ann", cards=("5H", "6H", "7H")))) == "U2.1"


def test_u2_2_the_cut_decides_the_first_dealer() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    assert g.dealer is None  # nobody has cut yet
    g.push(StartHand(dealer="Bob"))
    assert g.dealer == "Bob" and g.turn == "Ann"


def test_u2_3_deal_alternates() -> None:
    g = new_game()
    g.push(EndHandEmptyStock())
    assert g.dealer == "Bob"
    assert rule_of(lambda: g.push(StartHand(dealer="Ann"))) == "U2.3"
    g.push(StartHand())
    assert g.dealer == "Bob"


def test_u2_3_option_winner_deals() -> None:
    g = new_game(UmtaliRules(winner_deals=True))  # Ann deals hand 1
    g.push(Meld(player="Ann", cards=("5H", "6H", "7H")))
    finish_hand(g, "Bob")  # Ann scored more (3 to 0), so Ann wins and deals again
    assert g.dealer == "Ann"
    g.push(StartHand(dealer="Ann"))


def test_u2_4_a_u16_equal_totals_are_a_draw() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    for _ in range(4):
        g.push(StartHand())
        g.push(EndHandEmptyStock())
    assert g.finished and g.winners == ["Ann", "Bob"]
    assert g.summary().detail.draw is True


def test_u2_4_option_fifth_hand_on_tie() -> None:
    g = UmtaliGame(("Ann", "Bob"), UmtaliRules(fifth_hand_on_tie=True))
    for _ in range(4):
        g.push(StartHand())
        g.push(EndHandEmptyStock())
    assert not g.finished
    g.push(StartHand())
    g.push(
        Meld(player=player_of(g, "Bob" if g.dealer == "Ann" else "Ann"), cards=("5H", "6H", "7H"))
    )
    g.push(EndHandEmptyStock())
    assert g.finished and len(g.winners) == 1


# ---------------------------------------------------------------- U3 deal
def test_u3_1_stock_holds_31_after_the_deal() -> None:
    g = new_game()
    assert g.stock_left == 31
    g.push(Draw(player="Bob"))
    assert g.stock_left == 30


def test_u3_2_each_player_melds_on_their_own_side() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Meld(player="Ann", cards=("KS", "QS")))
    assert [m.cards for m in g.sides["Bob"]] == [C("5H 6H 7H")]
    assert [m.cards for m in g.sides["Ann"]] == [C("KS QS")]


def test_u3_3_non_dealer_plays_first() -> None:
    assert new_game(dealer="Ann").turn == "Bob"
    assert new_game(dealer="Bob").turn == "Ann"


def test_u3_3_a_u10_option_deal_eleven_ten_first_player_does_not_draw() -> None:
    g = new_game(UmtaliRules(deal_eleven_ten=True))
    assert rule_of(lambda: g.push(Draw(player="Bob"))) == "U3.3"
    assert rule_of(lambda: g.push(TakeDiscards(player="Bob", cards=("5C",)))) == "U3.3"
    g.push(Discard(player="Bob", card="5C"))
    g.push(Draw(player="Ann"))  # later turns draw as usual


# ---------------------------------------------------------------- U4 turn
def test_u4_1_draw_from_stock_or_top_discard() -> None:
    g = new_game()
    assert g.can(Draw(player="Bob"))
    g.push(TakeDiscards(player="Bob", cards=("9C",)))
    g.push(Discard(player="Bob", card="2D"))
    g.push(Draw(player="Ann"))
    assert g.stock_left == 30


def test_u4_2_two_discards_both_melded_at_once() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S", "8D")), hand="8C 2H")
    g.push(Meld(player="Bob", cards=("8S", "8D", "8C")))
    g.push(Discard(player="Bob", card="2H"))
    assert g.side_scores["Bob"] == 3


def test_u4_2_second_discard_must_be_melded() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S", "4D")))
    g.push(Meld(player="Bob", cards=("8S", "8D", "8C")))
    assert rule_of(lambda: g.push(Discard(player="Bob", card="2H"))) == "U4.2"
    assert rule_of(lambda: g.push(GoOut(player="Bob"))) == "U4.2"
    assert (
        rule_of(lambda: g.push(Meld(player="Ann", cards=("5C", "6C", "7C")))) == "U4.2"
    )  # Bob's turn left it unmelded


def test_u4_2_first_discard_is_melded_before_the_second() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S", "4D")))
    v = g.judge(Meld(player="Bob", cards=("4D", "4C", "4H")))
    assert not v.legal and v.rule == "U4.2" and "8S" in v.reason
    g.push(Meld(player="Bob", cards=("8S", "8D", "8C")))
    g.push(Meld(player="Bob", cards=("4D", "4C", "4H")))
    g.push(Discard(player="Bob", card="2H"))


def test_u4_2_a_u9_at_most_two_cards_from_the_discard_pile() -> None:
    g = new_game()
    assert rule_of(lambda: g.push(TakeDiscards(player="Bob", cards=("8S", "8D", "8C")))) == "U4.2"


def test_u4_2_option_discard_dig_takes_deeper_and_melds_the_dug_card() -> None:
    g = new_game(UmtaliRules(discard_dig=True))
    g.push(TakeDiscards(player="Bob", cards=("2H", "9D", "5C")))
    assert rule_of(lambda: g.push(Discard(player="Bob", card="3S"))) == "U4.2"
    g.push(Meld(player="Bob", cards=("5C", "6C", "7C")))
    g.push(Discard(player="Bob", card="3S"))  # 2H and 9D may be kept


def test_u4_3_single_taken_discard_may_be_kept_but_not_rediscarded() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("QD",)))
    assert rule_of(lambda: g.push(Discard(player="Bob", card="QD"))) == "U4.3"
    g.push(Discard(player="Bob", card="3C"))  # QD is kept, unmelded


def test_u4_3_option_rediscard_allowed() -> None:
    g = new_game(UmtaliRules(no_rediscard=False))
    g.push(TakeDiscards(player="Bob", cards=("QD",)))
    g.push(Discard(player="Bob", card="QD"))


def test_u4_4_a_u8_melding_is_optional() -> None:
    g = new_game()
    g.push(Discard(player="Bob", card="2C"), hand="2C 5H 6H 7H")  # could meld 5-6-7H, need not


def test_u4_4_option_compulsory_melding() -> None:
    g = new_game(UmtaliRules(compulsory_melding=True))
    assert rule_of(lambda: g.push(Discard(player="Bob", card="2C"), hand="2C 5H 6H 7H")) == "U4.4"
    v = g.judge(Discard(player="Bob", card="2C"))
    assert v.legal and not v.notes  # the opening says the hand is needed (issue 18)
    g.push(Discard(player="Bob", card="2C"), hand="2C 5H 6H 9S")


def test_u4_4_discard_without_a_hand_carries_no_note() -> None:
    """Issue 18: under compulsory melding, a discard entered without the hand repeated
    "compulsory melding could be checked only against the discarded card"; that is said
    once, in the game's opening words, and the check of the card itself still runs."""
    g = new_game(UmtaliRules(compulsory_melding=True))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    bob = g.judge(Discard(player="Bob", card="2C"))
    assert bob.legal and bob.rule == "U4.5" and bob.notes == ()
    g.push(Discard(player="Bob", card="2C"))
    ann = g.judge(Discard(player="Ann", card="3D"))
    assert ann.legal and ann.notes == ()
    # the card itself is still checked: 8H extends Bob's 5H 6H 7H, a jack goes down alone
    assert rule_of(lambda: g.push(Discard(player="Ann", card="8H"))) == "U4.4"
    assert rule_of(lambda: g.push(Discard(player="Ann", card="JC"))) == "U4.4"
    # with the hand: refused while a meld or an extension was playable ...
    assert rule_of(lambda: g.push(Discard(player="Ann", card="3D"), hand="3D KS QS 2C")) == "U4.4"
    assert rule_of(lambda: g.push(Discard(player="Ann", card="3D"), hand="3D 4H 9C")) == "U4.4"
    # ... and with nothing playable in it, no note either
    assert g.judge(Discard(player="Ann", card="3D"), hand="3D 9C 2S").notes == ()
    g.push(Discard(player="Ann", card="3D"), hand="3D 9C 2S")
    assert g.turn == "Bob"


def test_u4_4_the_opening_says_once_that_compulsory_melding_needs_the_hand() -> None:
    on = RULESET.opening(("Ann", "Bob"), "Ann", rules=UmtaliRules(compulsory_melding=True))
    assert on.text.count(U4_4_OPENING) == 1 and on.text.count(U7_OPENING) == 1, on.text
    assert on.text.startswith("Ann deals 10 each; Bob plays first. ")
    as_dict = RULESET.opening(("Ann", "Bob"), "Ann", rules={"compulsory_melding": True})
    assert as_dict == on  # the new-game form's rules are a dict of switches
    for off in (None, UmtaliRules(), {"compulsory_melding": False}):
        assert U4_4_OPENING not in RULESET.opening(("Ann", "Bob"), "Ann", rules=off).text
    assert "_" not in U4_4_OPENING and "U4" not in U4_4_OPENING  # words, not rule IDs


def test_u7_2_the_opening_says_nothing_of_the_no_breaking_rule_when_it_is_off() -> None:
    off = RULESET.opening(("Ann", "Bob"), "Bob", rules=UmtaliRules(no_breaking=False))
    assert off.text == "Bob deals 10 each; Ann plays first."


def test_a_u10_the_opening_says_the_eleven_ten_deal() -> None:
    o = RULESET.opening(("Ann", "Bob"), "Ann", rules=UmtaliRules(deal_eleven_ten=True))
    assert (o.dealer, o.first) == ("Ann", "Bob")
    assert o.text.startswith(
        "Ann deals 11 cards to Bob and 10 to Ann, with no upcard; Bob plays first, without drawing."
    )
    assert "10 each" not in o.text


def test_u4_4_any_number_of_melds_in_a_turn() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Meld(player="Bob", cards=("KC", "QC")))
    g.push(Meld(player="Bob", cards=("JD",)))
    assert g.side_scores["Bob"] == 3 + 20 + 5


def test_u3_3_out_of_turn_play_is_noted_as_an_unrecorded_turn() -> None:
    g = new_game()
    v = g.judge(Meld(player="Ann", cards=("5H", "6H", "7H")))
    assert v.legal and any("expected Bob" in n for n in v.notes)
    assert not g.judge(Meld(player="Bob", cards=("5H", "6H", "7H"))).notes


def test_u4_5_discard_ends_the_turn() -> None:
    g = new_game()
    assert g.turn == "Bob"
    g.push(Discard(player="Bob", card="2C"))
    assert g.turn == "Ann"


def test_u4_6_a_u12_empty_stock_ends_hand_each_side_scores_itself() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    g.push(Meld(player="Ann", cards=("4S", "4D", "4C")))
    g.push(EndHandEmptyStock())
    h = g.hands[-1]
    assert h.ended == "empty_stock" and h.went_out is None
    assert h.scores == (3, 20)  # Ann 1+1+1, Bob a marriage; hands score nothing


def test_u4_6_cannot_draw_from_an_empty_stock() -> None:
    g = new_game()
    for i in range(31):
        g.push(Draw(player=player_of(g, "Bob" if i % 2 == 0 else "Ann")))
        g.push(
            Discard(
                player=player_of(g, "Bob" if i % 2 == 0 else "Ann"),
                card=card_of("2C" if i % 2 == 0 else "3C"),
            )
        )
    assert g.stock_left == 0
    assert rule_of(lambda: g.push(Draw(player="Ann"))) == "U4.6"


def test_u4_6_option_empty_stock_reshuffle() -> None:
    g = new_game(UmtaliRules(empty_stock_reshuffle=True))
    assert rule_of(lambda: g.push(EndHandEmptyStock())) == "U4.6"
    for i in range(32):
        g.push(Draw(player=player_of(g, "Bob" if i % 2 == 0 else "Ann")))
    assert g.stock_left is None  # reshuffled: size unknown


# ---------------------------------------------------------------- U5 melds
def test_u5_1_sets_of_three_or_four_never_jacks() -> None:
    assert RULESET.check(C("9S 9D 9C")).kind == "set"
    assert RULESET.check(C("9S 9D 9C 9H")).points == 4
    v = RULESET.check(C("JH JD JS"))
    assert not v.legal and v.rule == "U5.1" and "JH JD JS" in v.reason


def test_u5_2_sequence_one_suit_within_ace_to_ten() -> None:
    assert RULESET.check(C("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H")).points == 9 + 5
    for text, rule in (("9H 10H JH", "U5.2"), ("5H 6H 8H", "U5.2"), ("5H 6H 7S", "U5")):
        v = RULESET.check(C(text))
        assert not v.legal and v.rule == rule, text


def test_u5_3_marriage_is_king_and_queen_of_one_suit() -> None:
    assert RULESET.check(C("KD QD")).kind == "marriage"
    assert not RULESET.check(C("KD QS")).legal
    assert not RULESET.check(C("KD QD JD")).legal


def test_u5_4_a_u3_jack_alone_any_time() -> None:
    g = new_game()
    v = g.judge(Meld(player="Bob", cards=("JC",)))
    assert v.legal and v.kind == "jack" and v.points == 5 and v.rule == "U5.4"
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("JC", "JD")))) == "U5.4"


def test_u5_5_pair_only_when_going_out_and_only_one() -> None:
    assert RULESET.check(C("9S 9D")).rule == "U5.5"
    assert not RULESET.check(C("9S 9D")).legal
    assert RULESET.check(C("9S 9D"), going_out=True).legal
    g = new_game()
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("9S", "9D")))) == "U5.5"
    assert rule_of(lambda: g.push(GoOut(player="Bob", pair=("9S", "9D", "4C", "4D")))) == "U5.5"
    g.push(GoOut(player="Bob", pair=("9S", "9D")))
    assert g.sides["Bob"][0].kind is MeldKind.PAIR


def test_u5_5_two_jacks_are_not_a_pair_and_kq_is_a_marriage() -> None:
    assert RULESET.check(C("JS JD"), going_out=True).rule == "U5.4"
    g = new_game()
    assert rule_of(lambda: g.push(GoOut(player="Bob", pair=("KS", "QS")))) == "U5.5"


def test_a_u5_option_loose_pair() -> None:
    g = new_game(UmtaliRules(loose_pair=True))
    g.push(GoOut(player="Bob", pair=("9S", "3D")))


# ---------------------------------------------------------------- U6 extensions
def test_u6_1_extension_is_a_single_on_the_extenders_side_from_either_side() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Extend(player="Ann", card="8H", anchor=("Bob", 0)))  # opponent's anchor
    g.push(Extend(player="Bob", card="4H", anchor=("Bob", 0)))  # own anchor
    assert [(m.kind, m.anchor) for m in g.sides["Ann"]] == [(MeldKind.SINGLE, (1, 0))]
    assert g.sides["Bob"][1].kind is MeldKind.SINGLE and g.sides["Bob"][1].anchor == (1, 0)
    assert g.side_scores == {"Ann": 1, "Bob": 4}


def test_u6_1_anchor_must_exist() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert rule_of(lambda: g.push(Extend(player="Ann", card="8H", anchor=("Bob", 3)))) == "U6.1"
    assert rule_of(lambda: g.push(Extend(player="Ann", card="8H", anchor=("Ann", 0)))) == "U6.1"


def test_u6_1_a_lone_card_needs_an_anchor() -> None:
    v = RULESET.check(C("8H"))
    assert not v.legal and v.rule == "U6.1"


def test_u6_2_set_of_three_takes_its_fourth_card_set_of_four_nothing() -> None:
    assert RULESET.check(C("9H"), onto=C("9S 9D 9C")).legal
    assert not RULESET.check(C("10C"), onto=C("9S 9D 9C")).legal
    assert not RULESET.check(C("9H"), onto=C("9S 9D 9C 9H")).legal


def test_u6_2_sequence_takes_next_card_down_or_up_within_ace_to_ten() -> None:
    assert RULESET.check(C("4H"), onto=C("5H 6H 7H")).legal
    assert RULESET.check(C("8H"), onto=C("5H 6H 7H")).legal
    assert not RULESET.check(C("8S"), onto=C("5H 6H 7H")).legal
    assert not RULESET.check(C("JH"), onto=C("8H 9H 10H")).legal
    assert [str(c) for c in accepted_cards(MeldKind.SEQUENCE, C("AH 2H 3H"), UmtaliRules())] == [
        "4H"
    ]


def test_u6_2_single_takes_same_rank_or_same_suit_one_away() -> None:
    for card, ok in (("8S", True), ("7H", True), ("9H", True), ("10H", False), ("9S", False)):
        assert RULESET.check(C(card), onto=C("8H")).legal is ok, card


def test_u6_2_a_u2_jack_takes_ten_or_queen_of_its_suit() -> None:
    assert RULESET.check(C("10C"), onto=C("JC")).legal
    assert RULESET.check(C("QC"), onto=C("JC")).legal
    v = RULESET.check(C("QH"), onto=C("JC"))
    assert not v.legal and v.rule == "A-U2"


def test_u5_4_a_lone_jack_anchor_is_read_as_a_jack_not_a_single() -> None:
    assert "(jack)" in RULESET.check(C("10C"), onto=C("JC")).reason
    assert "(single)" in RULESET.check(C("9C"), onto=C("10C")).reason


def test_a_u2_option_jack_extends_any_suit() -> None:
    rules = UmtaliRules(jack_extends_any_suit=True)
    assert RULESET.check(C("QH"), onto=C("JC"), rules=rules).legal
    assert RULESET.check(C("10D"), onto=C("JC"), rules=rules).legal


def test_u6_2_pair_takes_third_card_only_in_opponents_final_turn() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("2C", "3C", "4C")))
    g.push(GoOut(player="Bob", pair=("9S", "9D")))
    g.push(Extend(player="Ann", card="9C", anchor=("Bob", 1)))
    assert g.sides["Ann"][0].cards == C("9C")
    # before anyone goes out no pair exists; a pair on the table outside the final
    # turn is not an anchor
    assert RULESET.check(C("9C"), onto=C("9S 9D")).notes


def test_u6_2_a_u4_marriage_takes_nothing() -> None:
    v = RULESET.check(C("JH"), onto=C("KH QH"))
    assert not v.legal and v.rule == "A-U4"
    g = new_game()
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    assert not g.can(Extend(player="Ann", card="KS", anchor=("Bob", 0)))


def test_a_u4_option_marriage_extendable() -> None:
    rules = UmtaliRules(marriage_extendable=True)
    assert RULESET.check(C("KS"), onto=C("KH QH"), rules=rules).legal
    assert RULESET.check(C("JH"), onto=C("KH QH"), rules=rules).legal
    assert not RULESET.check(C("JS"), onto=C("KH QH"), rules=rules).legal


def test_u6_3_chains_within_a_turn() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Extend(player="Ann", card="8H", anchor=("Bob", 0)))
    g.push(Extend(player="Ann", card="9H", anchor=("Ann", 0)))
    assert g.side_scores["Ann"] == 2


def test_u6_3_cannot_skip_a_rank() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert rule_of(lambda: g.push(Extend(player="Ann", card="9H", anchor=("Bob", 0)))) == "U6.3"
    v = RULESET.check(C("9H"), onto=C("5H 6H 7H"))
    assert not v.legal and "play 8H first" in v.reason


def test_a_u15_a_set_extension_single_takes_its_suit_neighbours() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("2H", "2D", "2C")))
    g.push(Extend(player="Ann", card="2S", anchor=("Bob", 0)))
    g.push(Extend(player="Bob", card="AS", anchor=("Ann", 0)))
    g.push(Extend(player="Ann", card="3S", anchor=("Ann", 0)))
    assert g.side_scores == {"Ann": 2, "Bob": 4}


# ---------------------------------------------------------------- U7 no-breaking
def test_u7_1_u7_2_a_card_forming_a_meld_in_hand_may_not_go_down_as_a_single() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("2H", "3H", "4H")))
    v = g.judge(Extend(player="Ann", card="5H", anchor=("Bob", 0)), hand="5H 6H 7H KC")
    assert not v.legal and v.rule == "U7.2" and "5H 6H 7H" in v.reason
    assert g.can(Extend(player="Ann", card="5H", anchor=("Bob", 0)), hand="5H 6H 9H KC")


def test_u7_2_a_u7_meld_first_then_extend_with_the_leftover() -> None:
    g = new_game()
    hand = set(C("5C 5D 5H 5S 2D"))
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("5C", "5D", "5H", "2D")))) == "U5"
    g.push(Meld(player="Bob", cards=("5C", "5D", "5H")), hand=hand)
    hand -= set(C("5C 5D 5H"))
    g.push(Extend(player="Bob", card="5S", anchor=("Bob", 0)), hand=hand)


def test_u7_2_playing_the_fourth_while_three_others_are_held_breaks_the_set() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5C", "6C", "7C")))
    v = g.judge(Extend(player="Ann", card="8C", anchor=("Bob", 0)), hand="8C 8D 8S 2H")
    assert not v.legal and v.rule == "U7.2"


def test_u7_2_marriage_in_hand_is_protected() -> None:
    assert breaking_meld(parse_card("QH"), C("KH 2S")) == (parse_card("QH"), parse_card("KH"))
    v = RULESET.check(C("QH"), onto=C("QS"), hand=C("KH 2S"))
    assert not v.legal and v.rule == "U7.2"


def test_u7_2_jacks_are_never_affected() -> None:
    assert breaking_meld(parse_card("JH"), C("JS JD 10H QH")) is None


def test_u7_2_pair_may_not_break_a_set() -> None:
    g = new_game()
    v = g.judge(GoOut(player="Bob", pair=("9S", "9D"), discard="9C"), hand="9S 9D 9C")
    assert not v.legal and v.rule == "U7.2"


def test_u7_2_without_a_hand_the_opening_says_u7_is_checked_only_with_one() -> None:
    # said once where the game starts (issue 18), not on every verdict of the game
    assert U7_OPENING in RULESET.opening(("Ann", "Bob"), "Ann").text
    g = new_game()
    g.push(Meld(player="Bob", cards=("2H", "3H", "4H")))
    v = g.judge(Extend(player="Ann", card="5H", anchor=("Bob", 0)))
    assert v.legal and not v.notes
    assert not g.judge(Extend(player="Ann", card="9H", anchor=("Bob", 0))).notes
    # the stateless checker has no opening: its verdict still says so
    assert U7_UNCHECKED in RULESET.check(C("5H"), onto=C("2H 3H 4H")).notes
    assert U7_UNCHECKED not in RULESET.check(C("5H"), onto=C("2H 3H 4H"), hand=C("9C")).notes


def test_u7_2_option_no_breaking_off() -> None:
    rules = UmtaliRules(no_breaking=False)
    assert RULESET.check(C("5H"), onto=C("4H"), hand=C("6H 7H"), rules=rules).legal


# ---------------------------------------------------------------- U8 going out
def test_u8_1_go_out_with_an_empty_hand_or_one_discard() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")), hand="5H 6H 7H 2C")
    assert rule_of(lambda: g.push(GoOut(player="Bob"), hand="2C 3D")) == "U8.1"
    g.push(GoOut(player="Bob", discard="2C"), hand="2C")
    assert g.phase is Phase.FINAL and g.went_out == "Bob" and g.turn == "Ann"


def test_u8_1_face_down_needs_a_discard() -> None:
    g = new_game()
    assert rule_of(lambda: g.push(GoOut(player="Bob", face_down=True))) == "U8.1"


def test_u8_2_face_down_discard_forces_a_stock_draw() -> None:
    g = new_game()
    g.push(GoOut(player="Bob", discard="2C", face_down=True))
    assert rule_of(lambda: g.push(TakeDiscards(player="Ann", cards=("9D",)))) == "U8.2"
    g.push(Draw(player="Ann"))


def test_u8_2_face_up_discard_lets_the_opponent_draw_normally() -> None:
    g = new_game()
    g.push(GoOut(player="Bob", discard="2C"))
    g.push(TakeDiscards(player="Ann", cards=("2C",)))


def test_u8_3_one_final_turn_for_the_opponent_only() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))) == "U8.3"
    g.push(Draw(player="Ann"))
    assert rule_of(lambda: g.push(Draw(player="Ann"))) == "U8.3"


def test_u8_3_a_u6_opponent_pair_only_if_going_out_discard_allowed() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    assert rule_of(lambda: g.push(Meld(player="Ann", cards=("6S", "6D")))) == "U5.5"
    g.push(Meld(player="Ann", cards=("2C", "3C", "4C")))
    g.push(
        GoOut(player="Ann", pair=("6S", "6D"), discard="KC")
    )  # A-U6: a discard still counts as out
    assert g.hands[-1].both_out


def test_u8_4_leftovers_go_to_the_going_out_side_as_singles() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(GoOut(player="Bob"))
    g.push(Leftovers(player="Ann", cards=("KS", "QS", "3D")))
    h = g.hands[-1]
    assert [m.kind for m in h.sides[1][1:]] == [MeldKind.LEFTOVER] * 3
    assert h.scores == (0, 3 + 5 + 5 + 1)


def test_u8_4_a_u13_one_optional_final_discard() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    g.push(Discard(player="Ann", card="2D"))
    assert rule_of(lambda: g.push(Discard(player="Ann", card="3D"))) == "U8.4"
    assert rule_of(lambda: g.push(Meld(player="Ann", cards=("5C", "6C", "7C")))) == "U8.4"
    g.push(Leftovers(player="Ann", cards=("9S",)), hand="9S")


def test_u8_4_leftovers_belong_to_the_player_who_did_not_go_out() -> None:
    g = new_game()
    assert rule_of(lambda: g.push(Leftovers(player="Ann", cards=("9S",)))) == "U8.4"
    g.push(GoOut(player="Bob"))
    assert rule_of(lambda: g.push(Leftovers(player="Bob", cards=("9S",)))) in ("U8.3", "U8.4")
    assert rule_of(lambda: g.push(Leftovers(player="Ann", cards=("9S",)), hand="9S 2C")) == "U8.4"


def test_u8_5_opponent_also_out_nothing_transferred() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    g.push(GoOut(player="Bob"))
    g.push(Meld(player="Ann", cards=("9C", "9D", "9S")))
    g.push(GoOut(player="Ann"))
    assert g.hands[-1].scores == (3, 20)


# ---------------------------------------------------------------- U9 scoring
def test_u9_1_ten_and_faces_five_others_one() -> None:
    assert [card_points(c) for c in C("10S JS QS KS AS 9S 2S")] == [5, 5, 5, 5, 1, 1, 1]
    r = RULESET.score(C("10S 9H AS"))
    assert r.points == 7 and r.breakdown == (("10S", 5), ("9H", 1), ("AS", 1))


def test_u9_2_a_u14_marriage_is_20() -> None:
    assert RULESET.check(C("KS QS")).points == 20
    assert RULESET.score(C("QS KS")).points == 20


def test_u9_2_king_and_queen_reaching_a_side_separately_score_10() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("JH",)))
    g.push(Extend(player="Ann", card="QH", anchor=("Bob", 0)))
    g.push(Extend(player="Ann", card="KH", anchor=("Ann", 0)))
    assert g.side_scores["Ann"] == 10
    assert RULESET.score(C("KH QH 2C")).points == 11


def test_u9_2_transferred_king_queen_are_singles() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    g.push(Leftovers(player="Ann", cards=("KS", "QS")))
    assert g.hands[-1].scores[1] == 10


def test_u9_3_hands_stock_and_discards_score_nothing_on_an_abandoned_hand() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="KC"))
    g.push(EndHandEmptyStock())
    assert g.hands[-1].scores == (0, 0)


def test_u9_4_whole_pack_is_116() -> None:
    from rulesets.cards import DECK

    assert sum(card_points(c) for c in DECK) == 116


# ---------------------------------------------------------------- A-U rows
def test_a_u1_sequences_exclude_queen_and_king() -> None:
    v = RULESET.check(C("10H JH QH"))
    assert not v.legal and v.rule == "U5.2"
    assert not RULESET.check(C("QH KH AH")).legal


def test_a_u3_jack_needs_no_anchor() -> None:
    g = new_game()
    assert g.can(Meld(player="Bob", cards=("JS",)))  # first play of the hand


def test_a_u9_by_default_no_digging_below_the_second_discard() -> None:
    g = new_game()
    v = g.judge(TakeDiscards(player="Bob", cards=("2H", "9D", "5C")))
    assert not v.legal and v.rule == "U4.2"
    assert new_game(UmtaliRules(discard_dig=True)).can(
        TakeDiscards(player="Bob", cards=("2H", "9D", "5C"))
    )


def test_a_u10_default_deal_is_ten_each_with_an_upcard() -> None:
    assert UmtaliRules().deal_eleven_ten is False
    assert new_game().stock_left == 52 - 20 - 1


def test_a_u11_deal_alternates_by_default() -> None:
    g = new_game()
    finish_hand(g, "Ann")
    assert g.dealer == "Bob"


def test_a_u12_no_transfer_on_empty_stock() -> None:
    g = new_game()
    g.push(EndHandEmptyStock())
    assert all(not side for side in g.hands[-1].sides)


def test_a_u13_final_discard_is_optional() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    g.push(Leftovers(player="Ann", cards=("2C", "3D")))
    assert g.hands[-1].scores == (0, 2)


def test_a_u16_equal_nonzero_totals_are_a_draw() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    for number in range(4):
        g.push(StartHand())
        if number < 2:  # hand 1: Bob plays first and scores 3; hand 2: Ann does
            g.push(Meld(player=player_of(g, g.turn or ""), cards=("4S", "5S", "6S")))
        g.push(EndHandEmptyStock())
    assert g.totals == {"Ann": 3, "Bob": 3}
    assert g.winners == ["Ann", "Bob"] and g.summary().detail.draw is True


# ---------------------------------------------------------------- API shape
def test_ruleset_protocol_and_registry() -> None:
    rs = load_ruleset("umtali")
    assert rs is RULESET and isinstance(rs, Ruleset)
    assert rs.house_rules is UmtaliRules


def test_house_rules_every_switch_is_explained_and_parsable() -> None:
    rules = parse_house_rules(UmtaliRules, "jack_extends_any_suit,winner_deals")
    assert rules.jack_extends_any_suit and rules.winner_deals
    for name in (
        "jack_extends_any_suit",
        "marriage_extendable",
        "compulsory_melding",
        "discard_dig",
        "deal_eleven_ten",
        "winner_deals",
        "empty_stock_reshuffle",
    ):
        assert name in UmtaliRules.EXPLAIN
    with pytest.raises(HouseRuleError):
        parse_house_rules(UmtaliRules, "jokers")


def test_verdict_reports_kind_points_side_and_rule() -> None:
    g = new_game()
    v = g.judge(Meld(player="Bob", cards=("KC", "QC")))
    assert (v.legal, v.kind, v.points, v.rule) == (True, "marriage", 20, "U5.3")
    assert "Bob's side" in v.reason
    bad = g.judge(Meld(player="Bob", cards=("KC", "QD")))
    assert not bad.legal and "KC QD" in bad.reason and bad.rule == "U5.3"


def test_triad_verify_raises_can_is_bool_do_returns_frozen_record() -> None:
    g = new_game()
    with pytest.raises(IllegalActionError):
        g.verify(Meld(player="Bob", cards=("5H", "6H", "8H")))
    assert g.can(Meld(player="Bob", cards=("5H", "6H", "7H"))) is True
    act = g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert act.to_json() == {"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]}
    with pytest.raises(Exception):  # noqa: B017 - pydantic frozen model
        act.player = "Ann"  # type: ignore[misc]


def test_illegal_action_leaves_state_unchanged() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    before = g.summary()
    for bad in (
        lambda: g.push(Extend(player="Ann", card="9H", anchor=("Bob", 0))),
        lambda: g.push(Meld(player="Ann", cards=("5H", "5S", "5D"))),
        lambda: g.push(Leftovers(player="Ann", cards=("2C",))),
        lambda: g.push(StartHand()),
    ):
        with pytest.raises(RulesetError):
            bad()
    assert g.summary() == before and len(g.actions) == 2


def test_unknown_player_and_bad_card_text_raise_the_error_family() -> None:
    g = new_game()
    with pytest.raises(RecordError):
        g.push(Meld(player="Zed", cards=("5H", "6H", "7H")))
    with pytest.raises(RulesetError):
        g.push(Meld(player="Bob", cards=("5H", "6H", "7X")))


def test_u4_6_unconfirmed_empty_stock_is_noted() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    v = g.judge({"type": "end_hand_empty_stock"})
    assert v.legal and any("only 1 stock draws" in n for n in v.notes)


def test_u2_1_dealer_after_the_game_is_the_last_dealer() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    for _ in range(4):
        g.push(StartHand())
        g.push(EndHandEmptyStock())
    assert g.dealer == "Bob"  # Ann, Bob, Ann, Bob


# ---------------------------------------------------------------- a meld still being picked
def test_u5_2_two_cards_of_a_run_are_one_card_short_of_a_sequence() -> None:
    # issue 18: neutral words while a meld is being picked, not a refusal
    g = new_game()
    v = g.judge(Meld(player="Bob", cards=("5H", "6H")))
    assert not v.legal and v.incomplete and v.rule == "U5.2"
    assert "pick one more card" in v.reason and "4H or 7H" in v.reason
    gap = g.judge(Meld(player="Bob", cards=("5H", "7H")))
    assert gap.incomplete and "6H" in gap.reason and "4H" not in gap.reason
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("5H", "6H")))) == "U5.2"
    assert RULESET.check(C("9C 10C")).incomplete  # the checker says the same
    assert "8C" in RULESET.check(C("9C 10C")).reason  # nothing above 10 (U5.2)


def test_u5_5_a_pair_in_meld_mode_is_one_card_short_of_a_set() -> None:
    v = new_game().judge(Meld(player="Bob", cards=("9S", "9D")))
    assert not v.legal and v.incomplete and v.rule == "U5.5"
    assert "pick one more 9" in v.reason


def test_u6_1_one_card_in_meld_mode_asks_for_more() -> None:
    v = new_game().judge(Meld(player="Bob", cards=("KS",)))
    assert not v.legal and v.incomplete and v.rule == "U6.1" and "marriage" in v.reason


def test_u5_cards_no_more_cards_can_mend_are_refused_outright() -> None:
    g = new_game()
    for cards in (("5H", "9C"), ("QH", "JH"), ("5H", "8H"), ("JH", "JD"), ("5H", "6H", "8H")):
        v = g.judge(Meld(player="Bob", cards=cards))
        assert not v.legal and not v.incomplete, cards
    assert not g.judge(Discard(player="Bob", card="5C")).incomplete  # only melds are picked
