"""Umtali house-rule switches meeting each other (each switch alone is in test_umtali.py).

Every switch of :class:`UmtaliRules` appears here at least once next to another
switch, in a case where the two together decide the verdict or the score.
"""

from __future__ import annotations

import pytest

from rulesets.cards import parse_cards
from rulesets.errors import IllegalActionError
from rulesets.umtali import RULESET, UmtaliGame, UmtaliRules

C = parse_cards


def new_game(rules: UmtaliRules, dealer: str = "Ann") -> UmtaliGame:
    """Ann and Bob; Ann deals hand 1, so Bob plays first (U3.3)."""
    g = UmtaliGame(("Ann", "Bob"), rules)
    g.start_hand(dealer)
    return g


def rule_of(fn: object) -> str:
    with pytest.raises(IllegalActionError) as info:
        fn()  # type: ignore[operator]
    return info.value.rule or ""


def test_switches_jack_extends_any_suit_meets_marriage_extendable() -> None:
    both = UmtaliRules(jack_extends_any_suit=True, marriage_extendable=True)
    g = new_game(both)
    g.meld("Bob", "KH QH")
    # a marriage takes only its own suit's jack (A-U17): the jack switch is about
    # what a jack takes, not about jacks being taken
    assert rule_of(lambda: g.extend("Ann", "JS", ("Bob", 0))) == "A-U17"
    g.extend("Ann", "JH", ("Bob", 0))
    g.extend("Bob", "10C", ("Ann", 0))  # ... and that J♥ takes a 10 of any suit (A-U2)
    assert g.side_scores == {"Ann": 5, "Bob": 25}
    only_jacks = new_game(UmtaliRules(jack_extends_any_suit=True))
    only_jacks.meld("Bob", "KH QH")
    assert rule_of(lambda: only_jacks.extend("Ann", "JH", ("Bob", 0))) == "A-U4"


def test_switches_compulsory_melding_meets_no_rediscard() -> None:
    # with no_rediscard off a taken card may go straight back ...
    loose = new_game(UmtaliRules(no_rediscard=False))
    loose.take_discards("Bob", "JD")
    loose.discard("Bob", "JD")
    # ... unless melding is compulsory and it is a jack (U5.4)
    both = new_game(UmtaliRules(no_rediscard=False, compulsory_melding=True))
    both.take_discards("Bob", "JD")
    assert rule_of(lambda: both.discard("Bob", "JD")) == "U4.4"
    plain = new_game(UmtaliRules(no_rediscard=False, compulsory_melding=True))
    plain.take_discards("Bob", "9D")
    plain.discard("Bob", "9D", hand="9D 2C 5S")  # nothing to meld: back it goes


def test_switches_discard_dig_meets_no_rediscard() -> None:
    strict = new_game(UmtaliRules(discard_dig=True))
    strict.take_discards("Bob", "2H 9D 5C")
    strict.meld("Bob", "5C 6C 7C")
    assert rule_of(lambda: strict.discard("Bob", "9D")) == "U4.3"  # dug past, still taken
    loose = new_game(UmtaliRules(discard_dig=True, no_rediscard=False))
    loose.take_discards("Bob", "2H 9D 5C")
    assert rule_of(lambda: loose.discard("Bob", "5C")) == "U4.2"  # the dug card: meld it
    loose.meld("Bob", "5C 6C 7C")
    loose.discard("Bob", "9D")


def test_switches_deal_eleven_ten_meets_winner_deals() -> None:
    g = new_game(UmtaliRules(deal_eleven_ten=True, winner_deals=True))  # Ann deals
    assert rule_of(lambda: g.draw("Bob")) == "U3.3"  # Bob holds 11: no draw
    g.meld("Bob", "5H 6H 7H")
    g.discard("Bob", "2C")
    g.go_out("Ann")
    g.leftovers("Bob")
    assert g.hands[-1].scores == (0, 3)
    g.start_hand()  # Bob scored more: Bob deals (A-U18), so Ann holds 11
    assert g.dealer == "Bob" and g.turn == "Ann"
    assert rule_of(lambda: g.draw("Ann")) == "U3.3"
    g.discard("Ann", "2C")
    g.draw("Bob")


def test_switches_empty_stock_reshuffle_meets_deal_eleven_ten() -> None:
    rules = UmtaliRules(deal_eleven_ten=True, empty_stock_reshuffle=True)
    g = new_game(rules)
    g.discard("Bob", "2C")  # the 11-card player's opening turn: no draw (U3.3)
    for i in range(31):  # 52 - 21 dealt: 31 in the stock, no upcard
        g.draw("Ann" if i % 2 == 0 else "Bob")
    assert g.stock_left == 0
    g.draw("Ann")  # ... then one more draw: the pile was reshuffled into a new stock
    assert g.stock_left is None
    assert rule_of(g.end_hand_empty_stock) == "U4.6"
    plain = new_game(UmtaliRules(deal_eleven_ten=True))
    plain.discard("Bob", "2C")
    for i in range(31):
        plain.draw("Ann" if i % 2 == 0 else "Bob")
    assert plain.stock_left == 0
    assert rule_of(lambda: plain.draw("Bob")) == "U4.6"
    plain.end_hand_empty_stock()


def test_switches_no_breaking_meets_loose_pair() -> None:
    loose = UmtaliRules(loose_pair=True)
    # K♠ in the pair would form a marriage with Q♠ still held (U7.2) ...
    v = RULESET.check(C("KS 4D"), going_out=True, hand=C("KS 4D QS"), rules=loose)
    assert not v.legal and v.rule == "U7.2"
    g = new_game(loose)
    assert rule_of(lambda: g.go_out("Bob", pair="KS 4D", discard="QS", hand="KS 4D QS")) == "U7.2"
    # ... unless no-breaking is off
    both = UmtaliRules(loose_pair=True, no_breaking=False)
    v = RULESET.check(C("KS 4D"), going_out=True, hand=C("KS 4D QS"), rules=both)
    assert v.legal and v.points == 6
    new_game(both).go_out("Bob", pair="KS 4D", discard="QS", hand="KS 4D QS")


def test_switches_fifth_hand_on_tie_meets_winner_deals() -> None:
    g = UmtaliGame(("Ann", "Bob"), UmtaliRules(fifth_hand_on_tie=True, winner_deals=True))
    g.start_hand("Ann")
    g.end_hand_empty_stock()  # 0-0: the deal alternates
    g.start_hand()
    assert g.dealer == "Bob"
    g.meld("Ann", "5H 6H 7H")
    g.end_hand_empty_stock()  # Ann 3
    g.start_hand()
    assert g.dealer == "Ann"
    g.meld("Bob", "5H 6H 7H")
    g.end_hand_empty_stock()  # Bob 3: totals tied again
    g.start_hand()
    assert g.dealer == "Bob"
    g.end_hand_empty_stock()  # four hands, 3-3
    assert not g.finished and g.totals == {"Ann": 3, "Bob": 3}
    assert g.summary().detail.hand_label == "Hand 5 (tie-break, U2.4)"
    g.start_hand()  # hand 4 was 0-0: the deal alternates into the tie-break
    assert g.dealer == "Ann" and g.summary().detail.hands_in_game == 5
    g.meld("Bob", "KH QH")
    g.end_hand_empty_stock()
    assert g.finished and g.winners == ["Bob"]


def test_switches_marriage_extendable_meets_no_breaking() -> None:
    g = new_game(UmtaliRules(marriage_extendable=True))
    g.meld("Bob", "KH QH")
    # K♠ off K♥ (A-U17), but K♠ forms a marriage with the Q♠ still held (U7.2)
    assert rule_of(lambda: g.extend("Ann", "KS", ("Bob", 0), hand="KS QS")) == "U7.2"
    off = new_game(UmtaliRules(marriage_extendable=True, no_breaking=False))
    off.meld("Bob", "KH QH")
    off.extend("Ann", "KS", ("Bob", 0), hand="KS QS")


def test_switches_jack_extends_any_suit_meets_compulsory_melding() -> None:
    both = new_game(UmtaliRules(jack_extends_any_suit=True, compulsory_melding=True))
    both.meld("Bob", "JH")
    both.discard("Bob", "2S")
    # 10♣ extends the J♥ when jacks take any suit, so it may not be thrown away
    assert rule_of(lambda: both.discard("Ann", "10C")) == "U4.4"
    own = new_game(UmtaliRules(compulsory_melding=True))
    own.meld("Bob", "JH")
    own.discard("Bob", "2S")
    own.discard("Ann", "10C")  # only 10♥ / Q♥ extend it


def test_every_switch_meets_another_in_a_test_here_and_changes_a_verdict_in_test_umtali() -> None:
    """Each house-rule switch has a test where it changes a verdict or a score (named
    ``test_…_option_<switch>…`` or after its ruling in test_umtali / test_umtali_rulings)
    and one here where it meets another switch."""
    import inspect

    from rulesets.umtali.melds import UmtaliRules
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
