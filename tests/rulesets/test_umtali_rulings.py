"""Umtali rule fixes of issue 12 and behaviour no test pinned before (found by mutation).

Each test is named after the rule it proves.  The house-rule switches meeting
each other are in ``test_umtali_switches.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulesets.cards import DECK, Card, parse_card, parse_cards
from rulesets.errors import IllegalActionError
from rulesets.protocol import Verdict
from rulesets.umtali import (
    RULESET,
    Draw,
    MeldKind,
    Phase,
    UmtaliGame,
    UmtaliRules,
    breaking_meld,
)
from rulesets.umtali.actions import (
    Discard,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
)
from tests.rulesets.umtali_cards import card_of, cards_of, player_of

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


# ---------------------------------------------------------------- U4.2 one card at a time
def test_u4_2_second_discard_taken_separately_must_be_melded_at_once() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S",)))  # D1 alone
    g.push(Meld(player="Bob", cards=("8S", "8D", "8C")))  # ... melded at once
    g.push(TakeDiscards(player="Bob", cards=("4D",)))  # so D2 may follow, and must go down next
    assert g.must_meld_now("Bob") == (parse_card("4D"),)
    assert rule_of(lambda: g.push(Discard(player="Bob", card="2H"))) == "U4.2"
    assert rule_of(lambda: g.push(Meld(player="Bob", cards=("5C", "6C", "7C")))) == "U4.2"
    assert rule_of(lambda: g.push(GoOut(player="Bob"))) == "U4.2"
    g.push(Meld(player="Bob", cards=("4D", "4C", "4H")))
    g.push(Discard(player="Bob", card="2H"))
    assert g.turn == "Ann"


def test_u4_2_two_takes_before_melding_are_judged_as_one_take_of_two() -> None:
    apart, together = new_game(), new_game()
    apart.push(TakeDiscards(player="Bob", cards=("8S",)))
    apart.push(TakeDiscards(player="Bob", cards=("4D",)))
    together.push(TakeDiscards(player="Bob", cards=("8S", "4D")))
    assert apart.must_meld_now("Bob") == together.must_meld_now("Bob")
    assert apart.taken_this_turn("Bob") == together.taken_this_turn("Bob")
    probes = [
        Discard(player="Bob", card="2H"),
        Meld(player="Bob", cards=("4D", "4C", "4H")),  # D1 (8S) goes first
        Meld(player="Bob", cards=("8S", "8D", "8C")),
        GoOut(player="Bob"),
    ]
    for probe in probes:
        a, t = apart.judge(probe), together.judge(probe)
        assert (a.legal, a.rule) == (t.legal, t.rule), probe
    for game in (apart, together):
        game.push(Meld(player="Bob", cards=("8S", "8D", "8C")))
        assert rule_of(lambda game=game: game.push(Discard(player="Bob", card="2H"))) == "U4.2"
        game.push(Meld(player="Bob", cards=("4D", "4C", "4H")))
        game.push(Discard(player="Bob", card="2H"))
    assert apart.summary().current == together.summary().current


def test_u4_2_at_most_two_cards_also_one_at_a_time() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S",)))
    assert rule_of(lambda: g.push(TakeDiscards(player="Bob", cards=("4D", "9C")))) == "U4.2"
    g.push(TakeDiscards(player="Bob", cards=("4D",)))
    # a third take would leave the two taken cards unmelded (U4.2)
    assert rule_of(lambda: g.push(TakeDiscards(player="Bob", cards=("9C",)))) == "U4.2"


def test_u4_2_no_second_card_once_something_else_went_down_first() -> None:
    g = new_game()
    g.push(TakeDiscards(player="Bob", cards=("8S",)))
    g.push(Meld(player="Bob", cards=("5C", "6C", "7C")))  # not D1: D1 was not melded at once
    v = g.judge(TakeDiscards(player="Bob", cards=("4D",)))
    # the only way Bob takes again is a new turn: the app says it assumed one
    assert v.legal and any("unrecorded" in n for n in v.notes)
    assert not g.judge(TakeDiscards(player="Bob", cards=("4D",))).reason.endswith("at once")


def test_u4_2_second_card_after_a_stock_draw_is_a_new_turn() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    v = g.judge(TakeDiscards(player="Bob", cards=("4D",)))
    assert v.legal and any("unrecorded" in n for n in v.notes)


def test_u4_2_option_discard_dig_one_at_a_time_melds_the_dug_card() -> None:
    g = new_game(UmtaliRules(discard_dig=True))
    g.push(TakeDiscards(player="Bob", cards=("8S",)))
    g.push(TakeDiscards(player="Bob", cards=("5C",)))
    assert g.must_meld_now("Bob") == (parse_card("5C"),)  # 8S may be kept
    assert rule_of(lambda: g.push(Discard(player="Bob", card="2H"))) == "U4.2"
    g.push(Meld(player="Bob", cards=("5C", "6C", "7C")))
    g.push(Discard(player="Bob", card="2H"))


# ---------------------------------------------------------------- A-U5 one code path
def test_a_u5_check_and_game_agree_on_a_loose_pair() -> None:
    rules = UmtaliRules(loose_pair=True)
    v = RULESET.check(C("KS QH"), going_out=True, rules=rules)
    assert v.legal and v.kind == "pair" and v.points == 10
    g = new_game(rules)
    assert g.judge(GoOut(player="Bob", pair=("KS", "QH"))).legal
    assert g.judge(GoOut(player="Bob", pair=("KS", "4D"), discard="2C"), hand="KS 4D 2C").legal
    assert RULESET.check(C("KS 4D"), going_out=True, hand=C("KS 4D 2C"), rules=rules).legal
    # and without the switch both refuse it, for the same reason
    v = RULESET.check(C("KS QH"), going_out=True)
    w = new_game().judge(GoOut(player="Bob", pair=("KS", "QH")))
    assert not v.legal and not w.legal and v.rule == w.rule == "U5.5"


RULES = st.builds(
    UmtaliRules,
    **{name: st.booleans() for name in UmtaliRules.model_fields},
)


def _game_verdict(
    cards: tuple[Card, ...], going_out: bool, held: frozenset[Card], rules: UmtaliRules
) -> Verdict:
    """The live game's verdict on putting ``cards`` down (going out with the rest)."""
    g = new_game(rules)
    rest = sorted(held - set(cards))
    is_pair = going_out and len(cards) == 2 and RULESET.check(cards).kind != "marriage"
    if is_pair:
        return g.judge(
            GoOut(
                player="Bob",
                pair=cards_of(cards),
                discard=card_of(rest[0] if len(rest) == 1 else None),
            ),
            hand=held,
        )
    v = g.judge(Meld(player="Bob", cards=cards_of(cards)), hand=held)
    if v.legal and going_out:
        g.push(Meld(player="Bob", cards=cards_of(cards)), hand=held)
        left = held - set(cards)
        out = g.judge(
            GoOut(player="Bob", discard=card_of(rest[0] if len(rest) == 1 else None)), hand=left
        )
        if not out.legal:
            return out
    return v


@settings(max_examples=150, deadline=None)
@example(  # the marriage melded going out takes the discard: compulsory refuses it
    C("KH QH"), C("KS"), True, UmtaliRules(compulsory_melding=True, marriage_extendable=True)
)
@example(C("5H 6H 7H"), C("8H"), True, UmtaliRules(compulsory_melding=True))
@example(C("9S 9D"), C("9C"), True, UmtaliRules(compulsory_melding=True, no_breaking=False))
@example(C("KS 4D"), C("JC"), True, UmtaliRules(compulsory_melding=True, loose_pair=True))
@given(
    st.lists(st.sampled_from(DECK[:52]), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(DECK[:52]), max_size=2, unique=True),
    st.booleans(),
    RULES,
)
def test_a_u5_check_and_the_game_judge_melds_through_one_code_path(
    played: Sequence[Card], others: Sequence[Card], going_out: bool, rules: UmtaliRules
) -> None:
    cards = tuple(played)
    held = frozenset(cards) | (frozenset(others) - set(cards))
    checked = RULESET.check(cards, going_out=going_out, hand=sorted(held), rules=rules)
    judged = _game_verdict(cards, going_out, held, rules)
    assert checked.legal == judged.legal, (checked, judged)
    if checked.legal:  # the game's verdict on a pair is the going out it is part of
        kind = "pair" if judged.kind == "go_out" else judged.kind
        assert (checked.kind, checked.points) == (kind, judged.points)
    else:
        assert checked.rule == judged.rule


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(
        ["5H 6H 7H", "AS 2S 3S", "9C 9D 9H", "8C 8D 8H 8S", "KH QH", "JD", "9S 9D", "KS 4D"]
    ),
    st.sampled_from(DECK[:52]),
    st.lists(st.sampled_from(DECK[:52]), max_size=3, unique=True),
    RULES,
)
def test_a_u5_check_and_the_game_judge_extensions_through_one_code_path(
    anchor: str, card: Card, others: list[Card], rules: UmtaliRules
) -> None:
    onto = C(anchor)
    if card in onto:
        return
    held = (frozenset(others) - set(onto)) | {card}
    checked = RULESET.check([card], onto=onto, hand=sorted(held), rules=rules)
    g = new_game(rules)
    try:
        if len(onto) == 2 and anchor != "KH QH":  # the going-out pair: Bob's final turn
            g.push(GoOut(player="Ann", pair=cards_of(onto)))
        else:  # Ann's meld; Bob extends it (out of turn: the verdict notes it)
            g.push(Meld(player="Ann", cards=cards_of(onto)))
    except IllegalActionError:  # no such anchor can be on the table under these rules
        assert not checked.legal
        return
    judged = g.judge(Extend(player="Bob", card=card_of(card), anchor=("Ann", 0)), hand=held)
    assert checked.legal == judged.legal, (checked, judged)
    if checked.legal:
        assert (checked.rule, checked.points) == (judged.rule, judged.points)
    else:
        assert checked.rule == judged.rule


# ---------------------------------------------------------------- U4.4 / A-U8 compulsory melding
def test_u5_4_compulsory_melding_refuses_discarding_a_jack() -> None:
    g = new_game(UmtaliRules(compulsory_melding=True))
    v = g.judge(Discard(player="Bob", card="JH"))  # no hand entered: the jack itself is enough
    assert not v.legal and v.rule == "U4.4" and "jack" in v.reason
    assert new_game().can(Discard(player="Bob", card="JH"))  # melding is optional by default (A-U8)


def test_u4_4_compulsory_melding_counts_an_extension_as_melding() -> None:
    g = new_game(UmtaliRules(compulsory_melding=True))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Discard(player="Bob", card="2C"))
    assert rule_of(lambda: g.push(Discard(player="Ann", card="8H"), hand="8H 2D 3S")) == "U4.4"
    assert rule_of(lambda: g.push(Discard(player="Ann", card="2D"), hand="8H 2D 3S")) == "U4.4"
    assert (
        rule_of(lambda: g.push(Discard(player="Ann", card="8H"))) == "U4.4"
    )  # the card itself is known
    v = g.judge(Discard(player="Ann", card="2D"))  # 2D alone could go nowhere
    assert v.legal and not v.notes  # the rest of the hand: said once, in the opening
    g.push(Discard(player="Ann", card="2D"), hand="2D 3S 9C")


def test_u4_4_compulsory_melding_refuses_a_going_out_discard_that_could_go_down() -> None:
    g = new_game(UmtaliRules(compulsory_melding=True))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert rule_of(lambda: g.push(GoOut(player="Bob", discard="JC"))) == "U4.4"
    assert rule_of(lambda: g.push(GoOut(player="Bob", discard="8H"))) == "U4.4"
    assert rule_of(lambda: g.push(GoOut(player="Bob", pair=("9S", "9D"), discard="9C"))) == "U4.4"
    g.push(GoOut(player="Bob", discard="2C"))


def test_a_u8_compulsory_melding_refuses_leftovers_holding_a_play() -> None:
    g = new_game(UmtaliRules(compulsory_melding=True))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(GoOut(player="Bob", pair=("9S", "9D")))
    for leftovers in ("7C 7D 7S 2S", "JC 2S", "8H 2S", "9C 2S", "KS QS"):
        v = g.judge(Leftovers(player="Ann", cards=cards_of(leftovers)))
        assert not v.legal and v.rule == "A-U8", leftovers
    g.push(Discard(player="Ann", card="3D"))
    assert (
        rule_of(lambda: g.push(Leftovers(player="Ann", cards=("2S", "3D")))) == "U8.4"
    )  # 3D was discarded
    g.push(Leftovers(player="Ann", cards=("2S", "7C", "10D")))
    assert g.hands[-1].scores == (0, 3 + 2 + 1 + 1 + 5)


def test_a_u8_melding_is_optional_by_default_also_for_leftovers() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    g.push(Leftovers(player="Ann", cards=("7C", "7D", "7S", "JC")))
    assert g.hands[-1].scores == (0, 3 + 5)


# ---------------------------------------------------------------- A-U17 marriage anchors
def test_a_u17_each_marriage_card_anchors_like_a_single() -> None:
    rules = UmtaliRules(marriage_extendable=True)
    g = new_game(rules)
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    for card, legal in (("JH", True), ("KS", True), ("QD", True), ("10H", False), ("JS", False)):
        v = g.judge(Extend(player="Ann", card=card_of(card), anchor=("Bob", 0)))
        assert v.legal is legal and v.rule == "A-U17", card
        assert RULESET.check(C(card), onto=C("KH QH"), rules=rules).legal is legal
    g.push(Extend(player="Ann", card="JH", anchor=("Bob", 0)))  # J♥ off Q♥ ...
    g.push(Extend(player="Ann", card="10H", anchor=("Ann", 0)))  # ... and 10♥ off that J♥ (U6.3)
    g.push(Extend(player="Bob", card="KS", anchor=("Bob", 0)))  # K♠ off K♥
    assert g.side_scores == {"Ann": 10, "Bob": 25}
    # by default a marriage takes nothing (A-U4)
    d = new_game()
    d.push(Meld(player="Bob", cards=("KH", "QH")))
    assert rule_of(lambda: d.push(Extend(player="Ann", card="JH", anchor=("Bob", 0)))) == "A-U4"


# ---------------------------------------------------------------- A-U18 winner deals
def test_a_u18_winner_deals_follows_the_higher_hand_score_not_going_out() -> None:
    g = new_game(UmtaliRules(winner_deals=True))  # Ann deals hand 1
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    g.push(GoOut(player="Ann", pair=("2S", "2D")))  # Ann goes out, but Bob's side scores more
    g.push(Leftovers(player="Bob"))
    assert g.hands[-1].scores == (2, 20)
    assert g.dealer == "Bob"
    assert rule_of(lambda: g.push(StartHand(dealer="Ann"))) == "U2.3"
    deal = g.summary().detail.next_deal
    assert deal is not None and deal.rule == "A-U18"
    assert deal.text == "Bob deals (Bob scored more in hand 1)"
    g.push(StartHand())
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(EndHandEmptyStock())  # Ann 0, Bob 3: the higher scorer deals again
    assert g.dealer == "Bob"
    g.push(StartHand())
    g.push(EndHandEmptyStock())  # equal scores (0-0): the deal alternates
    assert g.dealer == "Ann"
    assert g.summary().hands[-1].winner is None


# ---------------------------------------------------------------- pinned by mutation testing
def test_u7_2_no_breaking_with_an_ace_two_three_sequence() -> None:
    assert breaking_meld(parse_card("AH"), C("2H 3H")) == C("AH 2H 3H")
    assert breaking_meld(parse_card("2H"), C("AH 3H")) == C("AH 2H 3H")
    assert breaking_meld(parse_card("AH"), C("2H 4H")) is None
    g = new_game()
    g.push(Meld(player="Bob", cards=("AS", "AD", "AC")))
    assert (
        rule_of(lambda: g.push(Extend(player="Ann", card="AH", anchor=("Bob", 0)), hand="AH 2H 3H"))
        == "U7.2"
    )
    g.push(Extend(player="Ann", card="AH", anchor=("Bob", 0)), hand="AH 2H 4H")


def test_u2_4_fifth_hand_on_tie_only_on_equal_totals() -> None:
    g = UmtaliGame(("Ann", "Bob"), UmtaliRules(fifth_hand_on_tie=True))
    for n in range(4):
        g.push(StartHand())
        if n == 3:
            g.push(
                Meld(
                    player=player_of(g, "Bob" if g.dealer == "Ann" else "Ann"),
                    cards=("5H", "6H", "7H"),
                )
            )
        g.push(EndHandEmptyStock())
    assert g.finished and len(g.hands) == 4 and len(g.winners) == 1
    assert rule_of(lambda: g.push(StartHand())) == "U2.1"


def test_u2_4_draw_flag_is_false_with_a_single_winner() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    for n in range(4):
        g.push(StartHand())
        if n == 0:
            g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
        g.push(EndHandEmptyStock())
    s = g.summary()
    assert s.winners == ("Bob",) and s.detail.draw is False and s.to_json()["draw"] is False
    assert s.detail.result is not None and s.detail.result.rule == "U2.1"


def test_u4_6_u8_3_no_empty_stock_end_after_someone_went_out() -> None:
    g = new_game()
    g.push(GoOut(player="Bob"))
    assert rule_of(lambda: g.push(EndHandEmptyStock())) == "U4.6"
    assert g.phase is Phase.FINAL
    g.push(Leftovers(player="Ann"))


def test_u8_1_going_out_with_one_card_left_to_discard() -> None:
    v = RULESET.check(C("5H 6H 7H"), going_out=True, hand=C("5H 6H 7H 2C"))
    assert v.legal and v.kind == "sequence"
    v = RULESET.check(C("5H 6H 7H"), going_out=True, hand=C("5H 6H 7H 2C 3D"))
    assert not v.legal and v.rule == "U8.1"
    v = RULESET.check(C("9S 9D"), going_out=True, hand=C("9S 9D 2C"))
    assert v.legal and v.kind == "pair"
    g = new_game()
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")), hand="5H 6H 7H 2C")
    assert not g.can(GoOut(player="Bob"), hand="2C")  # the one card left must be discarded
    g.push(GoOut(player="Bob", discard="2C"), hand="2C")


def test_u9_2_score_of_a_king_and_queen_of_two_suits() -> None:
    r = RULESET.score(C("KS QH"))
    assert (r.points, r.rule) == (10, "U9.1")
    r = RULESET.score(C("KS QS"))
    assert (r.points, r.rule) == (20, "U9.2")


def test_u2_1_hand_numbers() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    assert g.hand_number == 0 and g.summary().hand == 0
    assert g.summary().detail.hand_label == "Hand 1 of 4"
    seen = []
    for n in range(1, 5):
        g.push(StartHand())
        s = g.summary()
        assert g.hand_number == s.hand == n
        assert s.current is not None and s.current.number == n
        assert s.detail.hand_label == f"Hand {n} of 4"
        g.push(EndHandEmptyStock())
        assert g.hand_number == g.summary().hand == n  # the last hand played
        seen.append(g.summary().hands[-1].number)
    assert seen == [1, 2, 3, 4]


def test_u9_1_u9_2_ledger_has_one_entry_per_meld_and_adds_up_to_the_totals() -> None:
    g = new_game()
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Extend(player="Ann", card="8H", anchor=("Bob", 1)))
    g.push(GoOut(player="Ann", pair=("2S", "2D")))
    g.push(Leftovers(player="Bob", cards=("10C",)))
    s = g.summary()
    rows = [(e.player, e.kind, e.amount, e.rule, e.cards) for e in s.ledger]
    assert rows == [
        ("Ann", "single", 1, "U9.1", ("8H",)),
        ("Ann", "pair", 2, "U9.1", ("2S", "2D")),
        ("Ann", "leftover", 5, "U9.1", ("10C",)),
        ("Bob", "marriage", 20, "U9.2", ("KH", "QH")),
        ("Bob", "sequence", 3, "U9.1", ("5H", "6H", "7H")),
    ]
    assert s.totals == {"Ann": 8, "Bob": 23} == s.hands[0].scores
    assert [e.kind for e in s.hands[0].ledger] == [e.kind for e in s.ledger]
    assert {m.kind for side in s.hands[0].sides.values() for m in side} >= {MeldKind.LEFTOVER}


def test_u4_5_a_recorded_turn_is_never_called_unrecorded() -> None:
    """Issue 18: after Ann's recorded turn, Bob's draw, take, meld or extension is Bob's
    next turn -- no note that a turn went unrecorded or that Bob drew twice."""
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Discard(player="Bob", card="KS"))
    assert not g.judge(TakeDiscards(player="Ann", cards=("KS",))).notes
    assert not g.judge(Draw(player="Ann")).notes
    g.push(TakeDiscards(player="Ann", cards=("KS",)))
    assert not g.judge(
        Meld(player="Ann", cards=("KS", "QS"))
    ).notes  # the marriage taken from the pile
    g.push(Meld(player="Ann", cards=("KS", "QS")))
    g.push(Discard(player="Ann", card="2C"))
    assert not g.judge(Extend(player="Bob", card="8H", anchor=("Bob", 0))).notes
    assert not g.judge(Draw(player="Bob")).notes


def test_u4_5_a_turn_without_its_discard_recorded_simply_ends() -> None:
    # the discard is an optional record: Bob's recorded draw and meld were his turn
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert not g.judge(Extend(player="Ann", card="8H", anchor=("Bob", 0))).notes
    assert not g.judge(Draw(player="Ann")).notes


def test_u4_5_a_whole_turn_missing_is_still_noted() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="KS"))
    v = g.judge(Draw(player="Bob"))  # Ann's turn in between was not recorded at all
    assert v.legal and any("expected Ann" in n for n in v.notes)
    g.push(Draw(player="Ann"))
    g.push(Meld(player="Ann", cards=("5H", "6H", "7H")))
    v = g.judge(Draw(player="Ann"))  # a second draw by Ann: Bob's turn unrecorded
    assert v.legal and any("unrecorded" in n for n in v.notes)
