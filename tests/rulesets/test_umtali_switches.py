"""Umtali house-rule switches meeting each other (each switch alone is in test_umtali.py).

Every switch of :class:`UmtaliRules` appears here at least once next to another
switch, in a case where the two together decide the verdict or the score.
"""

from __future__ import annotations

import pytest

from rulesets.cards import parse_cards
from rulesets.errors import IllegalActionError
from rulesets.umtali import RULESET, UmtaliGame, UmtaliRules
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
from tests.rulesets.umtali_cards import player_of

C = parse_cards


def new_game(rules: UmtaliRules, dealer: str = "Ann") -> UmtaliGame:
    """Ann and Bob; Ann deals hand 1, so Bob plays first (U3.3)."""
    g = UmtaliGame(("Ann", "Bob"), rules)
    g.push(StartHand(dealer=player_of(g, dealer)))
    return g


def rule_of(fn: object) -> str:
    with pytest.raises(IllegalActionError) as info:
        fn()  # type: ignore[operator]
    return info.value.rule or ""


def test_switches_jack_extends_any_suit_meets_marriage_extendable() -> None:
    both = UmtaliRules(jack_extends_any_suit=True, marriage_extendable=True)
    g = new_game(both)
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    # a marriage takes only its own suit's jack (A-U17): the jack switch is about
    # what a jack takes, not about jacks being taken
    assert rule_of(lambda: g.push(Extend(player="Ann", card="JS", anchor=("Bob", 0)))) == "A-U17"
    g.push(Extend(player="Ann", card="JH", anchor=("Bob", 0)))
    g.push(
        Extend(player="Bob", card="10C", anchor=("Ann", 0))
    )  # ... and that J♥ takes a 10 of any suit (A-U2)
    assert g.side_scores == {"Ann": 5, "Bob": 25}
    only_jacks = new_game(UmtaliRules(jack_extends_any_suit=True))
    only_jacks.push(Meld(player="Bob", cards=("KH", "QH")))
    assert (
        rule_of(lambda: only_jacks.push(Extend(player="Ann", card="JH", anchor=("Bob", 0))))
        == "A-U4"
    )


def test_switches_compulsory_melding_meets_no_rediscard() -> None:
    # with no_rediscard off a taken card may go straight back ...
    loose = new_game(UmtaliRules(no_rediscard=False))
    loose.push(TakeDiscards(player="Bob", cards=("JD",)))
    loose.push(Discard(player="Bob", card="JD"))
    # ... unless melding is compulsory and it is a jack (U5.4)
    both = new_game(UmtaliRules(no_rediscard=False, compulsory_melding=True))
    both.push(TakeDiscards(player="Bob", cards=("JD",)))
    assert rule_of(lambda: both.push(Discard(player="Bob", card="JD"))) == "U4.4"
    plain = new_game(UmtaliRules(no_rediscard=False, compulsory_melding=True))
    plain.push(TakeDiscards(player="Bob", cards=("9D",)))
    plain.push(Discard(player="Bob", card="9D"), hand="9D 2C 5S")  # nothing to meld: back it goes


def test_switches_discard_dig_meets_no_rediscard() -> None:
    strict = new_game(UmtaliRules(discard_dig=True))
    strict.push(TakeDiscards(player="Bob", cards=("2H", "9D", "5C")))
    strict.push(Meld(player="Bob", cards=("5C", "6C", "7C")))
    assert (
        rule_of(lambda: strict.push(Discard(player="Bob", card="9D"))) == "U4.3"
    )  # dug past, still taken
    loose = new_game(UmtaliRules(discard_dig=True, no_rediscard=False))
    loose.push(TakeDiscards(player="Bob", cards=("2H", "9D", "5C")))
    assert (
        rule_of(lambda: loose.push(Discard(player="Bob", card="5C"))) == "U4.2"
    )  # the dug card: meld it
    loose.push(Meld(player="Bob", cards=("5C", "6C", "7C")))
    loose.push(Discard(player="Bob", card="9D"))


def test_switches_deal_eleven_ten_meets_winner_deals() -> None:
    g = new_game(UmtaliRules(deal_eleven_ten=True, winner_deals=True))  # Ann deals
    assert rule_of(lambda: g.push(Draw(player="Bob"))) == "U3.3"  # Bob holds 11: no draw
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(Discard(player="Bob", card="2C"))
    g.push(GoOut(player="Ann"))
    g.push(Leftovers(player="Bob"))
    assert g.hands[-1].scores == (0, 3)
    g.push(StartHand())  # Bob scored more: Bob deals (A-U18), so Ann holds 11
    assert g.dealer == "Bob" and g.turn == "Ann"
    assert rule_of(lambda: g.push(Draw(player="Ann"))) == "U3.3"
    g.push(Discard(player="Ann", card="2C"))
    g.push(Draw(player="Bob"))


def test_switches_empty_stock_reshuffle_meets_deal_eleven_ten() -> None:
    rules = UmtaliRules(deal_eleven_ten=True, empty_stock_reshuffle=True)
    g = new_game(rules)
    g.push(Discard(player="Bob", card="2C"))  # the 11-card player's opening turn: no draw (U3.3)
    for i in range(31):  # 52 - 21 dealt: 31 in the stock, no upcard
        g.push(Draw(player=player_of(g, "Ann" if i % 2 == 0 else "Bob")))
    assert g.stock_left == 0
    g.push(Draw(player="Ann"))  # ... then one more draw: the pile was reshuffled into a new stock
    assert g.stock_left is None
    assert rule_of(lambda: g.push(EndHandEmptyStock())) == "U4.6"
    plain = new_game(UmtaliRules(deal_eleven_ten=True))
    plain.push(Discard(player="Bob", card="2C"))
    for i in range(31):
        plain.push(Draw(player=player_of(plain, "Ann" if i % 2 == 0 else "Bob")))
    assert plain.stock_left == 0
    assert rule_of(lambda: plain.push(Draw(player="Bob"))) == "U4.6"
    plain.push(EndHandEmptyStock())


def test_switches_no_breaking_meets_loose_pair() -> None:
    loose = UmtaliRules(loose_pair=True)
    # K♠ in the pair would form a marriage with Q♠ still held (U7.2) ...
    v = RULESET.check(C("KS 4D"), going_out=True, hand=C("KS 4D QS"), rules=loose)
    assert not v.legal and v.rule == "U7.2"
    g = new_game(loose)
    assert (
        rule_of(
            lambda: g.push(GoOut(player="Bob", pair=("KS", "4D"), discard="QS"), hand="KS 4D QS")
        )
        == "U7.2"
    )
    # ... unless no-breaking is off
    both = UmtaliRules(loose_pair=True, no_breaking=False)
    v = RULESET.check(C("KS 4D"), going_out=True, hand=C("KS 4D QS"), rules=both)
    assert v.legal and v.points == 6
    new_game(both).push(GoOut(player="Bob", pair=("KS", "4D"), discard="QS"), hand="KS 4D QS")


def test_switches_fifth_hand_on_tie_meets_winner_deals() -> None:
    g = UmtaliGame(("Ann", "Bob"), UmtaliRules(fifth_hand_on_tie=True, winner_deals=True))
    g.push(StartHand(dealer="Ann"))
    g.push(EndHandEmptyStock())  # 0-0: the deal alternates
    g.push(StartHand())
    assert g.dealer == "Bob"
    g.push(Meld(player="Ann", cards=("5H", "6H", "7H")))
    g.push(EndHandEmptyStock())  # Ann 3
    g.push(StartHand())
    assert g.dealer == "Ann"
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(EndHandEmptyStock())  # Bob 3: totals tied again
    g.push(StartHand())
    assert g.dealer == "Bob"
    g.push(EndHandEmptyStock())  # four hands, 3-3
    assert not g.finished and g.totals == {"Ann": 3, "Bob": 3}
    assert g.summary().detail.hand_label == "Hand 5 (tie-break)"
    g.push(StartHand())  # hand 4 was 0-0: the deal alternates into the tie-break
    assert g.dealer == "Ann" and g.summary().detail.hands_in_game == 5
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    g.push(EndHandEmptyStock())
    assert g.finished and g.winners == ["Bob"]


def test_switches_marriage_extendable_meets_no_breaking() -> None:
    g = new_game(UmtaliRules(marriage_extendable=True))
    g.push(Meld(player="Bob", cards=("KH", "QH")))
    # K♠ off K♥ (A-U17), but K♠ forms a marriage with the Q♠ still held (U7.2)
    assert (
        rule_of(lambda: g.push(Extend(player="Ann", card="KS", anchor=("Bob", 0)), hand="KS QS"))
        == "U7.2"
    )
    off = new_game(UmtaliRules(marriage_extendable=True, no_breaking=False))
    off.push(Meld(player="Bob", cards=("KH", "QH")))
    off.push(Extend(player="Ann", card="KS", anchor=("Bob", 0)), hand="KS QS")


def test_switches_jack_extends_any_suit_meets_compulsory_melding() -> None:
    both = new_game(UmtaliRules(jack_extends_any_suit=True, compulsory_melding=True))
    both.push(Meld(player="Bob", cards=("JH",)))
    both.push(Discard(player="Bob", card="2S"))
    # 10♣ extends the J♥ when jacks take any suit, so it may not be thrown away
    assert rule_of(lambda: both.push(Discard(player="Ann", card="10C"))) == "U4.4"
    own = new_game(UmtaliRules(compulsory_melding=True))
    own.push(Meld(player="Bob", cards=("JH",)))
    own.push(Discard(player="Bob", card="2S"))
    own.push(Discard(player="Ann", card="10C"))  # only 10♥ / Q♥ extend it


def test_every_switch_meets_another_in_a_test_here_and_changes_a_verdict_in_test_umtali() -> None:
    """Each house-rule switch has a test where it changes a verdict or a score (named
    ``test_…_option_<switch>…`` or after its ruling in test_umtali / test_umtali_rulings)
    and one here where it meets another switch."""
    import inspect

    from rulesets.umtali.house_rules import UmtaliRules
    from tests.rulesets import test_umtali, test_umtali_rulings

    here = [n for n in globals() if n.startswith("test_switches_")]
    elsewhere = [
        n
        for module in (test_umtali, test_umtali_rulings)
        for n, f in inspect.getmembers(module, inspect.isfunction)
        if n.startswith("test_")
    ]
    for switch in UmtaliRules.model_fields:
        assert any(switch in n for n in here), f"{switch}: no test where it meets another"
        word = switch.removeprefix("no_")
        assert any(word in n for n in elsewhere), f"{switch}: no test where it changes a verdict"
