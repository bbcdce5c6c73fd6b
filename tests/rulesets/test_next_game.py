"""A finished game's ending: the result, the ranking, and who deals first when the same
players start a new game (the deal goes on round the table as between hands)."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets import load_ruleset
from rulesets.protocol import Ending, Summary
from rulesets.rummoli import Deal, End, FinalPoker, Impasse, Poker, RummoliGame, Start, Widow
from rulesets.rummy import RummyGame
from rulesets.umtali import EndHandEmptyStock, Meld, StartHand, UmtaliGame, UmtaliRules


def _ending(summary: Summary) -> Ending:
    assert summary.finished and summary.ending is not None
    return summary.ending


# ---------------------------------------------------------------- Umtali


def _umtali(rules: UmtaliRules | None = None, first: str = "Ann") -> UmtaliGame:
    """Four hands; in each the non-dealer melds K♥ Q♥ (20) and the stock runs out."""
    g = UmtaliGame(("Ann", "Bob"), rules)
    for n in range(4):
        g.push(StartHand(dealer=first if n == 0 else None))
        other = "Bob" if g.dealer == "Ann" else "Ann"
        cards = ("KH", "QH") if n < 3 else ("5H", "6H", "7H")
        g.push(Meld(player=other, cards=cards))
        g.push(EndHandEmptyStock())
    return g


def test_u2_3_next_game_first_dealer_continues_the_alternation() -> None:
    g = _umtali(first="Bob")
    dealers = [h.dealer for h in g.summary().hands]
    assert dealers == ["Bob", "Ann", "Bob", "Ann"]
    end = _ending(g.summary())
    # the deal alternates across games as across hands: Bob deals hand 1 of the next
    assert (end.next_dealer, end.next_rule) == ("Bob", "U2.3")
    assert end.next_deal == "Bob deals first (the deal alternates)"
    assert end.chips is None


def test_u2_1_ending_says_the_winner_and_the_ranking_puts_the_higher_total_first() -> None:
    g = _umtali(first="Ann")  # Bob melds as non-dealer in hands 1 and 3 (20 + 20), Ann 20 + 3
    s = g.summary()
    end = _ending(s)
    assert s.totals == {"Ann": 23, "Bob": 40}
    assert (end.text, end.rule) == ("Bob wins, 40 to 23.", "U2.1")
    assert [(r.place, r.player, r.total, r.winner) for r in s.ranking()] == [
        (1, "Bob", 40, True),
        (2, "Ann", 23, False),
    ]


def test_a_u18_next_game_with_winner_deals_goes_to_the_last_hands_higher_scorer() -> None:
    g = _umtali(UmtaliRules(winner_deals=True), first="Ann")
    last = g.summary().hands[-1]
    end = _ending(g.summary())
    assert last.winner is not None
    assert (end.next_dealer, end.next_rule) == (last.winner, "A-U18")
    assert "scored more in hand 4" in end.next_deal


def test_a_game_in_play_has_no_ending() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    g.push(StartHand(dealer="Ann"))
    assert g.summary().ending is None


# ---------------------------------------------------------------- Rummy


def _rummy(n: int, dealer: str, **rules: Any) -> RummyGame:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n]
    g = RummyGame(names, {"target": 10, **rules})
    g.push({"type": "start_hand", "dealer": dealer})
    kings = iter(["KS", "KH", "KD", "KC", "QS"])
    rest = {p: [next(kings)] for p in names if p != "Ann"}
    g.push({"type": "hand_end", "went_out": "Ann", "remaining": rest})
    return g


def test_r1_2_next_game_first_dealer_is_left_of_the_last_dealer() -> None:
    g = _rummy(6, dealer="Fay")
    end = _ending(g.summary())
    assert (end.next_dealer, end.next_rule) == ("Ann", "R1.2")  # clockwise, wrapping round
    assert end.next_deal == "Ann deals first (the deal passes clockwise)"
    assert (end.text, end.rule) == ("Ann wins with 0 penalty points.", "R6.3")


def test_r1_2_next_game_with_winner_deals_goes_to_who_went_out_last() -> None:
    g = _rummy(3, dealer="Bob", winner_deals=True)
    end = _ending(g.summary())
    assert end.next_dealer == "Ann"
    assert end.next_deal == "Ann deals first (Ann won the last hand)"


def test_a_r11_ending_of_a_shared_win_and_equal_places() -> None:
    g = RummyGame(["Ann", "Bob", "Cy"], {"target": 10})
    g.push({"type": "start_hand", "dealer": "Ann"})
    g.push({"type": "hand_end", "went_out": "Ann", "remaining": {"Bob": [], "Cy": ["KS"]}})
    s = g.summary()
    end = _ending(s)
    assert (end.text, end.rule) == ("Shared win: Ann and Bob, 0 penalty points each.", "A-R11")
    assert [(r.place, r.player) for r in s.ranking()] == [(1, "Ann"), (1, "Bob"), (3, "Cy")]


# ---------------------------------------------------------------- Rummoli


def _rummoli_round(g: RummoliGame) -> None:
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=[0]))
    g.push(Impasse(held=[0, 0, 1]))


def test_m6_3_next_game_first_dealer_is_left_of_the_final_pokers_dealer() -> None:
    g = RummoliGame(["Ann", "Bob", "Cy"])
    g.push(Start(chips=[50, 40, 30], dealer="Bob"))
    _rummoli_round(g)  # Bob deals round 1
    g.push(End())
    g.push(FinalPoker(winners=[0]))  # dealt by Cy, the next in rotation (A-M18)
    s = g.summary()
    assert [f.dealer for f in s.detail.final] == ["Cy"]
    end = _ending(s)
    assert (end.next_dealer, end.next_rule) == ("Ann", "M6.3")
    assert end.next_deal == "Ann deals first (the deal passes one seat clockwise)"
    assert end.chips == (50, 40, 30)  # the same starting chips
    assert end.rule == "M7.3" and end.text.startswith(f"{s.winners[0]} wins with ")
    assert [r.player for r in s.ranking()][0] == s.winners[0]


def test_m6_3_a_game_ended_before_any_deal_keeps_its_first_dealer() -> None:
    g = RummoliGame(["Ann", "Bob", "Cy"])
    g.push(Start(chips=[50, 50, 50], dealer="Cy"))
    g.push(End())  # nothing on the board: no final poker either
    s = g.summary()
    assert s.detail.final == ()
    end = _ending(s)
    assert end.next_dealer == "Cy"  # nobody has dealt yet
    assert end.text == "Shared win: Ann, Bob and Cy, 50 chips each."


@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_every_finished_random_game_has_an_ending_whose_dealer_is_a_player(game: str) -> None:
    ruleset = load_ruleset(game)
    for seed in range(4):
        s = ruleset.from_record(ruleset.random_record(seed)).summary()
        end = _ending(s)
        assert end.next_dealer in s.players
        ranking = s.ranking()
        assert {r.player for r in ranking} == set(s.players)
        assert {r.player for r in ranking if r.place == 1} == set(s.winners)
