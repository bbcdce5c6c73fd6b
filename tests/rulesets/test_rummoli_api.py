"""Rummoli on the one Game protocol: players by name (or seat in old records), judge,
pop, the ledger, the typed detail the table screen reads, the private hand, suggest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesets.cards import parse_card, parse_cards
from rulesets.errors import IllegalActionError, RecordError, RulesetError
from rulesets.protocol import Game, GameRecord, Ruleset, Units
from rulesets.rummoli import (
    RULESET,
    Bet,
    Deal,
    End,
    FinalPoker,
    Fold,
    Lay,
    Out,
    Phase,
    Poker,
    RummoliGame,
    RummoliRules,
    RummoliSummary,
    Start,
    Widow,
    parse_action,
)
from tests.rulesets.rummoli_moves import lay

NAMES = ["Ann", "Bob", "Cy"]


def table(**rules: Any) -> RummoliGame:
    g = RummoliGame(NAMES, RummoliRules(**rules))
    g.push(Start(chips=[50, 50, 50], dealer="Ann"))
    return g


def playing(**rules: Any) -> RummoliGame:
    g = table(**rules)
    g.push(Deal())
    g.push(Widow())
    g.push(Poker(winners=["Bob"]))
    return g


# ---------------------------------------------------------------- the protocol


def test_the_game_and_ruleset_satisfy_the_protocol() -> None:
    assert isinstance(RULESET, Ruleset)
    g = RULESET.new_game(NAMES, {"claim": "strict"})
    assert isinstance(g, Game)
    assert g.players == tuple(NAMES) and g.rules.claim == "strict"
    assert RULESET.units() is Units.CHIPS and RULESET.higher_is_better() is True
    assert (RULESET.hand_word, RULESET.starting_stack, RULESET.ante) == ("Round", 50, 9)
    assert RummoliSummary.HAND_WORD == "Round"


def test_m4_2_opening_and_opening_actions_name_the_dealer() -> None:
    opening = RULESET.opening(NAMES, "Cy")
    assert (opening.dealer, opening.first, opening.rule) == ("Cy", "Ann", "M4.2")
    start = RULESET.opening_actions(NAMES, "Bob", chips=[30, 40, 50])
    assert [a.to_json() for a in start] == [
        {"type": "start", "chips": [30, 40, 50], "dealer": "Bob"}
    ]
    g = RULESET.new_game(NAMES)
    for action in start:
        g.push(action)
    assert g.summary().dealer == "Bob" and g.stacks == [30, 40, 50]
    with pytest.raises(RecordError):
        RULESET.opening_actions(NAMES, "Zed")


def test_m4_2_with_a_showdown_the_opening_names_no_one_to_open_the_betting() -> None:
    showdown = RULESET.opening(NAMES, "Cy", rules={"poker_betting": "showdown"})
    assert showdown.text == (
        "Cy deals; the poker hands are shown without betting, and the best one starts the play."
    )
    betting = RULESET.opening(NAMES, "Cy", rules={"poker_betting": "one_round"})
    assert betting == RULESET.opening(NAMES, "Cy")
    assert betting.text == "Cy deals; Ann, on the dealer's left, opens the poker betting."


def test_m1_1_players_by_name_or_by_seat_replay_alike() -> None:
    by_seat = [
        {"type": "start", "chips": [50, 50, 50], "dealer": 0},
        {"type": "deal"},
        {"type": "widow", "player": 1, "bid": 2},
        {"type": "bet", "player": 2, "chips": 1},
        {"type": "poker", "winners": [2]},
        {"type": "lay", "player": 2, "card": "3C"},
        {"type": "claim", "player": 0, "pot": "10S"},
    ]
    by_name = json.loads(
        json.dumps(by_seat)
        .replace('"player": 1', '"player": "Bob"')
        .replace('"player": 2', '"player": "Cy"')
        .replace('"player": 0', '"player": "Ann"')
        .replace('"dealer": 0', '"dealer": "Ann"')
        .replace('"winners": [2]', '"winners": ["Cy"]')
    )
    games = []
    for actions in (by_seat, by_name):
        record = GameRecord(game="rummoli", players=NAMES, actions=actions[:-1])
        games.append(RULESET.from_record(record))
        # each action keeps what it was given: stored JSON round-trips exactly
        assert [a.to_json() for a in games[-1].actions] == [
            parse_action(a).to_json() for a in actions[:-1]
        ]
        assert games[-1].to_record().actions[2]["player"] == actions[2]["player"]
    assert games[0].summary() == games[1].summary()
    assert games[0].can(by_name[-1]) is False  # live log: no quick claims
    assert parse_action(by_seat[2]) == Widow(player=1, bid=2)
    assert parse_action(by_name[2]) == Widow(player="Bob", bid=2)


def test_m1_1_an_unknown_player_is_refused() -> None:
    g = playing()
    v = g.judge(Lay(player="Zed", card="3C"))
    assert not v.legal and v.rule == "M1.1" and "Zed" in v.reason
    assert not g.can({"type": "lay", "player": True, "card": "3C"})


def test_judge_agrees_with_verify_and_never_raises() -> None:
    g = playing(claim="strict")
    ok = g.judge(Lay(player="Bob", card="10S"))
    assert ok.legal and ok.kind == "lay" and ok.rule == "M5.1" and ok.cards == ("10S",)
    assert "Bob may lay 10♠" in ok.reason
    bad = g.judge({"type": "lay", "player": "Ann", "card": "3C"})
    assert not bad.legal and bad.rule == "M5.1" and "Bob starts" in bad.reason
    with pytest.raises(IllegalActionError):
        g.verify({"type": "lay", "player": "Ann", "card": "3C"})
    for junk in (None, [], {"type": "meld"}, {"type": "lay", "player": "Ann"}, 5):
        v = g.judge(junk)  # type: ignore[arg-type]
        assert v.legal is False and v.reason
        with pytest.raises(RulesetError):
            g.verify(junk)  # type: ignore[arg-type]
    g.push(Lay(player="Bob", card="9S"))
    paid = g.judge(Lay(player="Cy", card="10S"))
    assert paid.legal and paid.rule == "M5.2"
    auto = playing()
    auto.push(Lay(player="Bob", card="9S"))
    won = auto.judge(Lay(player="Cy", card="10S"))
    assert won.reason == "Cy may lay 10♠" and won.notes == ("Cy +3 (10♠ pot)",)
    assert won.points == 3


def test_pop_is_the_exact_inverse_of_push_and_replays_nothing() -> None:
    g = playing()
    snapshots = []
    for card, who in (("9S", "Bob"), ("10S", "Ann"), ("JS", "Ann")):
        snapshots.append((g.summary(), g.held, g.to_record()))
        g.push(Lay(player=who, card=card))
    for before in reversed(snapshots):
        g.pop()
        assert (g.summary(), g.held, g.to_record()) == before
    while g.actions:
        g.pop()
    assert g.phase is Phase.SETUP and g.summary() == RummoliGame(NAMES).summary()
    with pytest.raises(RecordError):
        g.pop()


# ---------------------------------------------------------------- the ledger


def test_m1_3_the_ledger_sums_to_the_stacks_with_start_buy_in_and_final_poker() -> None:
    g = playing()
    g.push(Out(player="Bob", held=[2, 0, 1]))
    g.push({"type": "adjust", "player": "Cy", "chips": 10, "note": "cousin's chips"})
    g.push(End())
    g.push(Bet(player="Ann", chips=2))
    g.push(FinalPoker(winners=["Ann"]))
    s = g.summary()
    sums = dict.fromkeys(NAMES, 0)
    for e in s.ledger:
        sums[e.player] += e.amount
    assert sums == s.totals
    kinds = [(e.kind, e.hand) for e in s.ledger if e.player == "Ann"]
    assert kinds[0] == ("start", None)
    assert ("ante", 1) in kinds and ("held", 1) in kinds
    assert kinds[-2:] == [("final_poker", None), ("final_poker", None)]
    buy_in = next(e for e in s.ledger if e.kind == "buy_in")
    assert (buy_in.player, buy_in.amount, buy_in.hand, buy_in.detail) == (
        "Cy",
        10,
        None,
        "cousin's chips",
    )
    rows = s.rows()
    assert [r.title for r in rows] == ["Start", "Round 1", "Buy-in", "Final poker"]
    assert [sum(r.amounts.values()) for r in rows] == [150, -21, 10, 21]
    assert s.hands[0].scores == {p: sum(e.amount for e in s.hands[0].ledger if e.player == p)
                                 for p in NAMES}  # fmt: skip
    assert s.detail.final_statement["Ann"] == (
        "Ann +21: poker bet -2 [M4.2], final poker +23 [M7.2]"
    )


def test_a_m11_statement_lines_are_the_ledger_lines() -> None:
    g = playing()
    g.push(Out(player="Bob", held=[2, 0, 1]))
    hand = g.summary().hands[0]
    bob = [e.line() for e in hand.ledger if e.player == "Bob" and e.kind != "ante"]
    assert hand.statement["Bob"] == "Bob +0: ante -9 [M1.3], " + ", ".join(bob)
    assert bob[-1] == "cards owed +3 (Cy 1, Ann 2) [A-M11]"  # clockwise from Bob


# ---------------------------------------------------------------- the table's detail


def test_m1_2_every_pot_says_what_wins_it_and_the_rule() -> None:
    pots = {p.pot: p for p in table(board="eight_nine_ten").summary().detail.pots}
    assert list(pots) == ["poker", "10S", "JD", "QC", "KH", "AS", "AD+KD", "8-9-10", "rummoli"]
    assert (pots["AD+KD"].label, pots["AD+KD"].rule, pots["AD+KD"].combo) == (
        "A♦+K♦",
        "A-M8",
        True,
    )
    assert pots["10S"].wins == "whoever lays 10♠" and pots["10S"].rule == "M5.6"
    assert pots["rummoli"].rule == "M6.1" and pots["poker"].rule == "M4.3"
    assert pots["8-9-10"].wins == "one player lays the 8, 9 and 10 of one suit"


def test_m2_1_the_deal_order_and_sizes_come_from_the_referee() -> None:
    g = RummoliGame(["Ann", "Bob", "Cy", "Di"])
    g.push(Start(chips=[50, 50, 50, 5], dealer="Cy"))
    g.push(Deal())
    d = g.summary().detail
    assert d.deal is not None
    assert d.deal.order == ("Ann", "Bob", "Cy")  # Di could not ante (M7.1)
    assert d.deal.sizes == {"Ann": 13, "Bob": 13, "Cy": 13} and d.deal.widow == 13
    assert d.deal.gone == ("Di",) and d.deal.dealer == "Cy"
    assert d.widow is not None and d.widow.bidders == ("Ann", "Bob")
    assert d.widow.pay_cards == "10♠ J♦ Q♣ K♥ A♠ K♦ A♦, or the 7-8-9 of one suit"
    assert g.summary().turn == "Cy"


def test_m4_2_the_betting_state_comes_from_the_referee() -> None:
    g = table(bet_limit=3)
    g.push(Deal())
    g.push(Bet(player="Cy", chips=2))
    g.push(Fold(player="Ann"))
    b = g.summary().detail.betting
    assert b is not None
    assert (b.first, b.limit, b.pot, b.chips) == ("Bob", 3, "poker", 5)
    assert b.in_hand == ("Bob", "Cy") and b.folded == ("Ann",)
    assert b.bets == {"Bob": 0, "Cy": 2} and b.to_call == {"Bob": 2, "Cy": 0}
    assert b.max_bet == {"Bob": 5, "Cy": 3}
    assert b.max_cards == {"Ann": 13, "Bob": 13, "Cy": 13}


def test_m5_2_the_play_view_names_the_next_card_and_who_may_break() -> None:
    g = playing()
    p = g.summary().detail.play
    assert p is not None and (p.expected, p.rule, p.starter) == (("Bob",), "M5.1", "Bob")
    assert g.summary().turn == "Bob"
    lay(g, "Bob", "KH")
    p = g.summary().detail.play
    assert p is not None
    assert (p.next_card, p.rule, p.break_colour) == (parse_card("AH"), "M5.2", "black")
    assert p.laid == (("Bob", parse_card("KH")),) and p.won == {"KH": "Bob"}
    assert p.open_pots == ()  # a live log: no quick settlement
    assert g.summary().turn is None  # whoever holds A♥
    lay(g, "Cy", "AH")
    p = g.summary().detail.play
    assert p is not None and (p.next_card, p.rule, p.expected[0]) == (None, "M5.4", "Cy")
    assert g.summary().turn == "Cy"


def test_m7_1_short_stacks_and_the_next_dealer_between_rounds() -> None:
    g = RummoliGame(NAMES)
    g.push(Start(chips=[50, 8, 50], dealer="Cy"))
    d = g.summary().detail
    assert d.short == ("Bob",) and d.next_dealer == "Cy"
    assert d.chips_on_board == 0 and d.chips_added == 108


# ---------------------------------------------------------------- the private hand


def test_m5_1_a_private_hand_proves_the_lowest_card() -> None:
    g = playing()
    bob = parse_cards("3C 5H 9S 10S JS QS KS AS 2D 4D 6D 8D 10D")
    v = g.judge(Lay(player="Bob", card="5H"), hand=bob)
    assert not v.legal and v.rule == "M5.1" and "2D" in v.reason
    assert g.can(Lay(player="Bob", card="5H"))  # without the hand nobody can tell
    assert not g.can(Lay(player="Bob", card="7H"), hand=bob)  # not in his hand (M5)
    g.push(Lay(player="Bob", card="2D"), hand=bob)
    assert g.to_record().actions[-1] == {"type": "lay", "player": "Bob", "card": "2D"}
    rest = [c for c in bob if str(c) != "2D"]
    # 3D is not his, so the sequence breaks: his lowest black card is 3C (M5.3, A-M13)
    v = g.judge(Lay(player="Bob", card="9S"), hand=rest)
    assert not v.legal and v.rule == "M5.3" and "3C" in v.reason
    assert g.can(Lay(player="Bob", card="9S"))  # the table alone cannot tell
    assert g.judge(Lay(player="Bob", card="3C"), hand=rest).legal


def test_m5_2_a_held_next_card_must_be_laid() -> None:
    g = playing()
    g.push(Lay(player="Bob", card="2D"))
    cy = parse_cards("3D 2C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")
    v = g.judge(Lay(player="Cy", card="2C"), hand=cy)
    assert not v.legal and v.rule == "M5.2" and "3D" in v.reason
    assert g.judge(Lay(player="Cy", card="3D"), hand=cy).legal
    short = g.judge(Lay(player="Cy", card="3D"), hand=cy[:5])
    assert not short.legal and short.rule == "M2.1"


def test_m2_4_a_private_hand_checks_the_widow_without_recording_it() -> None:
    g = table()
    g.push(Deal())
    hand = parse_cards("10S 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D")
    v = g.judge(Widow(player="Bob"), hand=hand)
    assert not v.legal and v.rule == "M2.4" and "10S" in v.reason
    g.push(Widow(player="Bob"), hand=parse_cards("2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 8D"))
    assert g.to_record().actions[-1] == {"type": "widow", "player": "Bob", "bid": 0, "hand": None}


# ---------------------------------------------------------------- suggest


def test_m4_1_suggest_names_the_best_five_and_the_pay_cards() -> None:
    advice = RULESET.suggest(parse_cards("AS KS QS JS 10S 2H KD AD 7H 8H 9H"))
    kinds = [(p.kind, p.cards) for p in advice.plays]
    assert kinds[0] == ("poker", ("AS", "KS", "QS", "JS", "10S"))
    assert advice.plays[0].reason.startswith("Poker hand: Royal flush")
    assert advice.plays[0].rule == "M4.1"
    assert ("pay_card", ("KD", "AD")) in kinds and ("pay_card", ("7H", "8H", "9H")) in kinds
    assert "may not take the widow" in advice.notes[0]


def test_m5_2_suggest_at_the_table_lays_the_next_card() -> None:
    g = playing()
    g.push(Lay(player="Bob", card="9S"))
    ann = parse_cards("10S 2C 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D")
    advice = RULESET.suggest(ann, game=g, player="Ann")
    first = advice.plays[0]
    assert first.kind == "lay" and first.legal and first.cards == ("10S",)
    assert advice.points == 3  # the 10♠ pot
    cy = parse_cards("2S 3S 4S 5S 6S 7S 8S 2C 3C 4C 5C 6C 7C")
    assert RULESET.suggest(cy, game=g, player="Cy").plays[0].kind == "poker"


def test_conformance_of_a_record_that_mixes_seats_and_names() -> None:
    record = GameRecord(
        game="rummoli",
        players=NAMES,
        actions=[
            {"type": "start", "chips": [30, 30, 30], "dealer": 2},
            {"type": "deal"},
            {"type": "widow", "player": "Ann", "bid": 1},
            {"type": "poker", "winners": [0, "Bob"]},
            {"type": "out", "player": "Cy", "held": [3, 2, 0]},
            {"type": "end"},
            {"type": "final_poker", "winners": ["Cy"]},
        ],
    )
    g = RULESET.from_record(record)
    assert g.summary().finished and g.summary().winners == ("Cy",)
    assert g.to_record().actions == [parse_action(a).to_json() for a in record.actions]
    assert RULESET.replay(record) == g.summary().to_json()
