"""The Rummy table screen without a browser: its helpers, and the component driven
through a real Flet session with a recording connection (no client).

Scores asserted here are hand-computed with R6.1 (K Q J 10 = 10, 2-9 face, A = 1).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import flet as ft
import pytest

from companion.components.rummy.entry import (
    cards_expected,
    cards_known,
    corrected,
    hand_end_action,
    hand_end_index,
    lay_off_verdict,
    meld_verdict,
    next_deal,
    replayed_change,
    summary_of,
    unavailable,
)
from companion.components.rummy.log import acting_player
from companion.components.rummy.scores import goal_text, hand_lines, status_line
from companion.hub import TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from companion.views.rummy_table import RummyTable, rummy_scoreline
from rulesets.cards import parse_cards
from rulesets.rummy import HandEnd, Meld, RummySummary, StartHand
from tests.companion.flet_harness import HeadlessScreen, render_headless

PLAYERS = ["Ann", "Bob", "Cy"]


def new_session(rules: dict[str, Any] | None = None, dealer: str = "Ann") -> GameSession:
    s = GameSession.start(TableHub(MemoryRepository()), "rummy", PLAYERS, rules or {})
    assert s.add({"type": "start_hand", "dealer": dealer}) is None
    return s


def summary(s: GameSession) -> RummySummary:
    return summary_of(s)


def end(went_out: str | None, rummy: bool = False, **kw: Any) -> HandEnd:
    remaining = {p: list(parse_cards(c)) for p, c in kw.get("remaining", {}).items()}
    typed = kw.get("typed", {})
    losers = [p for p in PLAYERS if p != went_out]
    return hand_end_action(went_out, rummy, losers, remaining, typed)


# ---------------------------------------------------------------- helpers -------------


def test_r6_2_hand_end_action_cards_and_typed_totals() -> None:
    s = new_session()
    action = end("Bob", remaining={"Ann": "KS 7D AC"}, typed={"Cy": 12})
    assert action.to_json() == {
        "type": "hand_end",
        "went_out": "Bob",
        "going_rummy": False,
        "remaining": {"Ann": ["KS", "7D", "AC"]},
        "typed": {"Cy": 12},
    }
    assert s.add(action) is None
    hand = summary(s).hands[0]
    assert hand.scores == {"Ann": 18, "Bob": 0, "Cy": 12}  # K10 + 7 + A1 = 18
    assert hand.typed == ("Cy",)
    assert hand_lines(hand, s.players) == [
        "Ann: K♠ 7♦ A♣ = 18",
        "Bob: went out, 0",
        "Cy: typed 12",
    ]


def test_r7_going_rummy_double_shown_as_times_two() -> None:
    s = new_session({"going_rummy_double": True})
    assert s.add(end("Cy", True, remaining={"Ann": "2C 3D", "Bob": "9S 4H"})) is None
    hand = summary(s).hands[0]
    assert hand.scores == {"Ann": 10, "Bob": 26, "Cy": 0}  # (2+3)x2, (9+4)x2
    assert hand_lines(hand, s.players)[:2] == ["Ann: 2♣ 3♦ = 5 ×2 = 10", "Bob: 9♠ 4♥ = 13 ×2 = 26"]


def test_r1_2_next_deal_passes_clockwise_and_stops_at_game_end() -> None:
    s = new_session({"target": 20})
    assert next_deal(summary(s)) is None  # a hand is in progress
    assert s.add(end("Bob", remaining={"Ann": "5C", "Cy": "6C"})) is None
    assert next_deal(summary(s)) == StartHand(dealer="Bob")
    assert status_line(summary(s)).startswith("Hand 1 is scored. Next, hand 2: Bob deals")
    assert s.add({"type": "start_hand", "dealer": "Bob"}) is None
    assert s.add(end("Ann", remaining={"Bob": "KS QS", "Cy": "AC"})) is None  # Bob 20: over
    assert summary(s).finished and next_deal(summary(s)) is None


def test_hand_end_index_finds_each_hand() -> None:
    actions = [
        StartHand(),
        Meld(player="Ann", cards=("7H", "8H", "9H")),
        HandEnd(went_out="Ann"),
        StartHand(),
        HandEnd(went_out="Bob"),
    ]
    assert hand_end_index(actions, 1) == 2
    assert hand_end_index(actions, 2) == 4
    assert hand_end_index(actions, 3) is None


def test_r1_2_correcting_a_winner_moves_later_deals_with_winner_deals() -> None:
    s = new_session({"winner_deals": True})
    assert s.add_many([end("Bob", remaining={"Ann": "5C", "Cy": "6C"}), next_deal_after(s)]) is None
    assert summary(s).dealer == "Bob"
    fixed = end("Cy", remaining={"Ann": "5C", "Bob": "6C"})
    new = corrected(s, hand_end_index(s.actions, 1) or 0, fixed)
    assert new[-1] == StartHand(dealer="Cy")  # Cy won, so Cy deals hand 2
    assert s.replace(new) is None
    assert summary(s).hands[0].went_out == "Cy" and summary(s).dealer == "Cy"


def next_deal_after(s: GameSession) -> dict[str, Any]:
    """Bob went out in hand 1 with winner_deals: Bob deals hand 2."""
    return {"type": "start_hand", "dealer": "Bob"}


def test_r2_2_meld_verdict_cites_rule_and_r3_3_lay_off_verdict() -> None:
    s = new_session()
    bad = meld_verdict(s, "Cy", parse_cards("QH KH AH"))
    assert not bad.legal and bad.rule == "R2.2" and "Q♥ K♥ A♥" in bad.reason
    good = meld_verdict(s, "Bob", parse_cards("7H 8H 9H"))
    assert good.legal and good.rule == "R2.2"
    assert s.add({"type": "meld", "player": "Bob", "cards": ["7H", "8H", "9H"]}) is None
    meld = summary(s).detail.table[0]
    assert unavailable(summary(s).detail.play) == set(parse_cards("7H 8H 9H"))
    yes = lay_off_verdict(s, "Cy", parse_cards("10H"), meld.index)
    assert yes.legal and yes.rule == "R3.3"
    no = lay_off_verdict(s, "Cy", parse_cards("JS"), meld.index)
    assert not no.legal and no.rule == "R3.3"


def test_r6_3_the_ending_names_the_single_winner_and_ranks_everyone() -> None:
    s = new_session({"target": 10})
    assert s.add(end("Bob", remaining={"Ann": "KS", "Cy": "4D"})) is None  # Ann 10: over
    assert summary(s).winners == ("Bob",)
    ending = summary(s).ending
    assert ending is not None and ending.text == "Bob wins with 0 penalty points."
    assert [(r.place, r.player, r.total) for r in summary(s).ranking()] == [
        (1, "Bob", 0),
        (2, "Cy", 4),
        (3, "Ann", 10),
    ]


def test_a_r11_the_ending_of_a_shared_win() -> None:
    s = new_session({"target": 10})
    # Ann shows no cards (0), Cy K+Q = 20 passes the target: Ann and Bob tie on 0
    assert s.add(end("Bob", remaining={"Ann": "", "Cy": "KS QS"})) is None
    assert summary(s).winners == ("Ann", "Bob")
    ending = summary(s).ending
    assert ending is not None
    assert (ending.text, ending.rule) == (
        "Shared win: Ann and Bob, 0 penalty points each.",
        "A-R11",
    )


# ---------------------------------------------------------------- component ----------


class Screen(HeadlessScreen):
    """The RummyTable rendered in a headless Flet session."""

    def by_id(self, ident: str) -> Any:
        return self.semantics(ident).content

    def has_id(self, ident: str) -> bool:
        return self.has(ident)


def drive(game: GameSession, scenario: Callable[[Screen], Coroutine[Any, Any, None]]) -> None:
    render_headless(RummyTable, game, scenario=scenario, screen=Screen)


def test_r6_2_component_hand_over_scores_and_deals_next() -> None:
    game = new_session({"going_rummy_double": True})

    async def scenario(sc: Screen) -> None:
        assert "Hand 1: Ann deals" in sc.label("hand-status")
        await sc.click("hand-over")
        await sc.click("went-out-cy")
        await sc.change(sc.by_id("going-rummy"), True)
        # round the table from Cy's left: Ann's cards come first, one tap a card
        for card in ("2C", "3D"):
            await sc.click(f"rem-ann-card-{card}")
        assert sc.label("live-ann") == "Ann: penalty 5"
        assert sc.label("rem-ann-chosen") == "Ann's cards: 2♣ 3♦"
        assert sc.label("hand-running") == "So far: Ann 5 (going rummy doubles them)"
        assert sc.semantics("confirm-hand").content.disabled  # Bob is still to enter
        assert sc.label("hand-verdict") == "Still to enter: Bob."
        # Next: Bob, who won't show his cards: a typed total on the keypad
        await sc.click("next-player")
        assert sc.has_id("rem-bob-card-2C") and not sc.has_id("rem-ann-card-2C")
        await sc.click("typed-switch-bob")
        for key in ("1", "3"):
            await sc.click(f"typed-bob-key-{key}")
        assert sc.label("live-bob") == "Bob: typed 13"
        assert sc.label("hand-preview").startswith("This hand: Ann 10 · Bob 26 typed · Cy 0")
        await sc.click("confirm-hand")
        assert summary(game).totals == {"Ann": 10, "Bob": 26, "Cy": 0}
        assert summary(game).hands[0].typed == ("Bob",)
        assert game.actions[-1] == StartHand(dealer="Bob")
        assert "Hand 2: Bob deals" in sc.label("hand-status")
        assert rummy_scoreline(summary(game)) == (
            "Ann 10 · Bob 26 · Cy 0",
            "Hand 2 · Bob deals",
        )
        assert sc.label("hand-1-bob") == "Hand 1, Bob: typed 13 ×2 = 26"

    drive(game, scenario)


def test_a_r14_hand_over_moves_on_once_a_player_shows_all_their_cards() -> None:
    """Three players are dealt 7 (R1.3); Cy put 3 down (logged), so holds at most 4."""
    game = new_session()
    assert game.add({"type": "meld", "player": "Cy", "cards": ["7H", "8H", "9H"]}) is None
    assert cards_expected(summary(game).detail.play, "Cy") == 4

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-bob")
        assert sc.has_id("rem-cy-card-KS")  # Bob's left: Cy first
        for card in ("KS", "QS", "JS"):
            await sc.click(f"rem-cy-card-{card}")
        assert sc.has_id("rem-cy-card-KS")  # three of four: still Cy
        await sc.click("rem-cy-card-2D")
        assert sc.has_id("rem-ann-card-KS") and not sc.has_id("rem-cy-card-KS")  # moved on
        assert sc.label("rem-ann-chosen") == "Ann's cards: none yet"
        # Cy's cards are greyed for Ann, the meld on the table too: a tap does nothing
        await sc.click("rem-ann-card-KS")
        await sc.click("rem-ann-card-7H")
        assert sc.label("rem-ann-chosen") == "Ann's cards: none yet"
        for card in ("AC", "2C", "3C", "4C", "5C", "6C", "7C"):
            await sc.click(f"rem-ann-card-{card}")
        assert sc.has_id("rem-ann-card-KS")  # everyone entered: stays on the last one
        assert sc.label("hand-preview").startswith("This hand: Ann 28 · Bob 0 · Cy 32")
        # any player's chip goes back to them
        await sc.click("live-cy")
        assert sc.label("rem-cy-chosen") == "Cy's cards: K♠ Q♠ J♠ 2♦"
        await sc.click("confirm-hand")
        assert summary(game).totals == {"Ann": 28, "Bob": 0, "Cy": 32}

    drive(game, scenario)


def test_a_r14_more_cards_than_dealt_is_refused_in_the_bar() -> None:
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-cy")
        for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S"):
            await sc.click(f"rem-ann-card-{card}")
        for card in ("AH", "2H"):
            await sc.click(f"rem-bob-card-{card}")
        await sc.click("live-ann")
        await sc.click("rem-ann-card-8S")  # an eighth card: more than Ann was dealt
        problem = sc.label("hand-verdict")
        assert problem.startswith("Not allowed. Hand end: Ann cannot hold 8 cards")
        assert problem.endswith(", our ruling A-R14)")
        assert sc.semantics("confirm-hand").content.disabled
        await sc.click("rem-ann-back")  # take the last card back
        assert "This hand: Ann 28 · Bob 3 · Cy 0" in sc.label("hand-preview")

    drive(game, scenario)


def test_r2_2_component_table_log_refuses_and_lays_off() -> None:
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.change(sc.by_id("table-log-switch"), True)
        # nobody has put cards down yet: the player on the dealer's left comes first
        assert sc.semantics("log-player-bob").selected
        await sc.click("log-player-cy")
        for card in ("QH", "KH", "AH"):
            await sc.click(f"log-card-{card}")
        verdict = sc.label("log-verdict")
        assert verdict.startswith("Not allowed. ") and verdict.endswith(", rule R2.2)")
        assert sc.semantics("log-record").content.disabled  # the referee says no: greyed
        assert summary(game).detail.table == ()
        await sc.click("log-clear")
        await sc.click("log-player-bob")
        for card in ("7H", "8H", "9H"):
            await sc.click(f"log-card-{card}")
        assert sc.label("log-verdict").startswith(
            "Run: 24 penalty points out of the hand. 7♥ 8♥ 9♥ is a run"
        )
        await sc.click("log-record")
        assert [list(map(str, m.cards)) for m in summary(game).detail.table] == [["7H", "8H", "9H"]]
        # the turn passes: Cy is next after Bob
        assert sc.semantics("log-player-cy").selected
        await sc.click("log-card-10H")
        # the referee refuses a new meld of one card, so the lay-off is the way it takes
        assert sc.semantics("log-target-1").selected
        assert sc.label("log-verdict").endswith(", rule R3.3)")
        await sc.click("log-record")
        assert [str(c) for c in summary(game).detail.table[0].cards] == ["7H", "8H", "9H", "10H"]
        assert game.error is None
        # the cards on the table are not offered in the hand over
        await sc.click("hand-over")
        await sc.click("went-out-bob")
        await sc.click("rem-cy-card-10H")
        assert sc.label("live-cy") == "Cy: cards to enter"

    drive(game, scenario)


def test_component_edit_finished_hand_recomputes_totals() -> None:
    game = new_session()
    assert (
        game.add_many([end("Bob", remaining={"Ann": "KS 7D", "Cy": "5C"}), next_deal_after(game)])
        is None
    )
    assert game.add_many([end("Ann", remaining={"Bob": "2C", "Cy": "3C"})]) is None
    assert summary(game).totals == {"Ann": 17, "Bob": 2, "Cy": 8}

    async def scenario(sc: Screen) -> None:
        await sc.click("edit-hand-1")
        assert sc.label("rem-cy-chosen") == "Cy's cards: 5♣"  # Bob's left first
        await sc.click("live-ann")
        await sc.click("rem-ann-card-AC")  # Ann also held the ace: 10 + 7 + 1 = 18
        assert "This hand: Ann 18 · Bob 0 · Cy 5" in sc.label("hand-preview")
        await sc.click("confirm-hand")
        assert summary(game).totals == {"Ann": 18, "Bob": 2, "Cy": 8}
        assert not sc.has_id("confirm-hand")

    drive(game, scenario)


@pytest.mark.parametrize("jokers", [False, True])
def test_r7_jokers_in_the_picker_only_with_the_variant(jokers: bool) -> None:
    game = new_session({"jokers": True} if jokers else {})

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-bob")
        assert sc.has_id("rem-cy-card-JK") is jokers
        if jokers:
            await sc.click("rem-cy-card-JK")
            await sc.click("rem-cy-card-JK")  # jokers may repeat
            assert sc.label("live-cy") == "Cy: penalty 30"

    drive(game, scenario)


def test_r7_fixed_rounds_counts_hands_left() -> None:
    s = new_session({"fixed_rounds": 3})
    assert goal_text(summary(s)) == "3 hands, 3 left to score; lowest total wins"
    assert s.add(end("Bob", remaining={"Ann": "5C", "Cy": "6C"})) is None
    assert goal_text(summary(s)) == "3 hands, 2 left to score; lowest total wins"
    assert status_line(summary(s)).startswith("Hand 1 is scored. Next, hand 2: Bob")


def test_r7_winner_takes_all_scores_points_first_to_target() -> None:
    s = new_session({"winner_takes_all": True, "target": 30})
    assert goal_text(summary(s)) == "Target 30: the first to reach 30 wins"
    assert s.add(end("Bob", remaining={"Ann": "KS QS", "Cy": "JD"})) is None  # 10+10+10 = 30
    assert summary(s).totals == {"Ann": 0, "Bob": 30, "Cy": 0}
    assert summary(s).winners == ("Bob",)
    ending = summary(s).ending
    assert ending is not None and ending.text == "Bob wins with 30 points."


def test_r5_2_block_rummy_offers_nobody_and_everyone_scores() -> None:
    game = new_session({"block_rummy": True})

    async def scenario(sc: Screen) -> None:
        assert sc.label("verdict") == "Someone went out (or the stock ran out)? Tap Hand over."
        await sc.click("hand-over")
        await sc.click("went-out-nobody")
        assert not sc.has_id("going-rummy")
        # nobody went out: everyone shows, from the dealer's (Ann's) left
        await sc.click("rem-bob-card-3C")
        await sc.click("next-player")
        await sc.click("rem-cy-card-4C")
        await sc.click("next-player")
        await sc.click("rem-ann-card-2C")
        assert "This hand: Ann 2 · Bob 3 · Cy 4" in sc.label("hand-preview")
        await sc.click("confirm-hand")
        assert summary(game).hands[0].went_out is None
        assert summary(game).totals == {"Ann": 2, "Bob": 3, "Cy": 4}

    drive(game, scenario)


def test_r5_2_without_block_rummy_the_stock_is_not_mentioned() -> None:
    game = new_session()

    async def scenario(sc: Screen) -> None:
        assert sc.label("verdict") == "Someone went out? Tap Hand over."
        await sc.click("hand-over")
        assert not sc.has_id("went-out-nobody")

    drive(game, scenario)


def test_r1_4_acting_player_follows_the_turn_order() -> None:
    s = new_session(dealer="Cy")
    assert acting_player(summary(s), s.actions) == "Ann"  # the dealer's left plays first
    assert s.add({"type": "meld", "player": "Ann", "cards": ["7H", "8H", "9H"]}) is None
    assert acting_player(summary(s), s.actions) == "Bob"  # the player after the last meld
    # with turns logged the referee knows whose turn it is
    t = GameSession.start(TableHub(MemoryRepository()), "rummy", PLAYERS, {})
    assert t.add({"type": "start_hand", "dealer": "Ann", "turns": True}) is None
    assert acting_player(summary(t), t.actions) == "Bob" == summary(t).turn
    assert t.add({"type": "draw", "player": "Bob"}) is None
    assert t.add({"type": "discard", "player": "Bob"}) is None
    assert acting_player(summary(t), t.actions) == "Cy"
    # and how many cards each holds: exactly
    assert cards_expected(summary(t).detail.play, "Cy") == 7


def test_r4_2_going_rummy_offered_only_to_who_may_claim_it() -> None:
    game = new_session()
    # Bob put cards down on an earlier turn (someone else melded after him): no going rummy
    assert game.add({"type": "meld", "player": "Bob", "cards": ["7H", "8H", "9H"]}) is None
    assert game.add({"type": "meld", "player": "Cy", "cards": ["2S", "3S", "4S"]}) is None

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-bob")
        assert not sc.has_id("going-rummy")
        await sc.click("went-out-bob")  # tap the one who went out again: choose again
        await sc.click("went-out-ann")
        assert sc.has_id("going-rummy")

    drive(game, scenario)


def test_r6_2_hand_over_cards_can_be_typed_too() -> None:
    """A keyboard at hand: the cards as notation ("ks 7d"), Enter."""
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-cy")
        await sc.click("rem-ann-type")
        field = next(c for c in sc.controls() if isinstance(c, ft.TextField))
        await sc.change(field, "ks 7d")
        await sc.fs.dispatch_event(field._i, "submit", None)
        await sc.flush()
        assert sc.label("rem-ann-chosen") == "Ann's cards: K♠ 7♦"
        assert sc.label("live-ann") == "Ann: penalty 17"

    drive(game, scenario)


def test_hand_over_two_quick_card_taps_both_count() -> None:
    """A picker works out its new list from the cards it showed: two taps before the
    screen catches up both start from the same list; neither card is lost."""
    seven, eight, nine = parse_cards("7H 8H 9H")
    # 8H tapped while 7H was shown; 9H's tap (also from [7H]) had already landed
    assert replayed_change([seven], [seven, eight], [seven, nine]) == [seven, nine, eight]
    # the same card twice (a double tap) is still one card
    assert replayed_change([seven], [seven, eight], [seven, eight]) == [seven, eight]
    # taken off, whatever else arrived meanwhile
    assert replayed_change([seven, eight], [eight], [seven, eight, nine]) == [eight, nine]
    # typed cards replace the list
    assert replayed_change([seven], [eight, nine], [seven]) == [eight, nine]


def test_r2_2_table_log_cards_can_be_typed_too() -> None:
    """The table log's picker keeps typing one tap away ("Type"), like the hand over."""
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.change(sc.by_id("table-log-switch"), True)
        await sc.click("log-type")
        field = next(c for c in sc.controls() if isinstance(c, ft.TextField))
        await sc.change(field, "7h 8h 9h")
        await sc.fs.dispatch_event(field._i, "submit", None)
        await sc.flush()
        assert sc.label("log-verdict").startswith(
            "Run: 24 penalty points out of the hand. 7♥ 8♥ 9♥ is a run"
        )
        await sc.click("log-record")
        assert [list(map(str, m.cards)) for m in summary(game).detail.table] == [["7H", "8H", "9H"]]
        # recorded: the typed text goes, the next player comes up with nothing chosen
        field = next(c for c in sc.controls() if isinstance(c, ft.TextField))
        assert not field.value
        assert sc.semantics("log-player-cy").selected

    drive(game, scenario)


def test_r1_2_between_hands_the_bar_names_the_next_dealer() -> None:
    game = new_session()
    assert game.add(end("Bob", remaining={"Ann": "KS", "Cy": "5C"})) is None  # no deal yet

    async def scenario(sc: Screen) -> None:
        assert sc.label("verdict") == "Bob deals hand 2. Tap Start once the cards are out."
        await sc.click("start-hand")
        assert game.actions[-1] == StartHand(dealer="Bob")

    drive(game, scenario)


def test_a_refusal_does_not_block_the_next_entry() -> None:
    """Issue 18: the bar kept a refusal over the next entry's verdict until its ✕ was
    tapped; the next card tapped starts the next entry, with the referee's verdict."""
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.change(sc.by_id("table-log-switch"), True)
        game.refuse("Another phone changed the game: look again")
        await sc.flush()
        assert sc.label("log-verdict").startswith("Refused: Another phone")
        for card in ("7H", "8H", "9H"):
            await sc.click(f"log-card-{card}")
        assert game.error is None
        assert sc.label("log-verdict").startswith("Run: ")
        assert not sc.semantics("log-record").content.disabled

    drive(game, scenario)


def test_r4_2_going_rummy_is_set_from_the_log() -> None:
    """Issue 18: with the table log kept, a player who went out having put nothing down
    before went rummy -- the hand over says so at once; one who melded did not."""
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.change(sc.by_id("table-log-switch"), True)
        await sc.click("log-player-bob")
        for card in ("7H", "8H", "9H"):
            await sc.click(f"log-card-{card}")
        await sc.click("log-record")
        await sc.click("hand-over")
        await sc.click("went-out-cy")  # Cy put nothing down: going rummy
        assert sc.by_id("going-rummy").value is True
        await sc.click("went-out-cy")  # choose again: Bob, who melded
        await sc.click("went-out-bob")
        assert sc.by_id("going-rummy").value is False

    drive(game, scenario)


#: clubs Ann shows (none is on the table)
CLUBS = ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC")


def test_hand_over_next_only_where_the_entry_cannot_move_on_by_itself() -> None:
    """Issue 18: the penalty entry moved on by itself *and* had Next, so a player who
    tapped Next after the last card skipped the player who had just come up.  Next is
    offered only while the entry needs it: a player showing fewer cards than the most
    the referee allows (melds not logged), or a typed total -- never before a first
    card, never when the entry is about to move on by itself."""
    game = new_session()
    assert cards_expected(summary(game).detail.play, "Ann") == 7  # the most: not logged

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-cy")  # Ann, on Cy's left, shows first
        assert not sc.has_id("next-player")  # nothing entered: nothing to move on from
        for card in CLUBS[:6]:
            await sc.click(f"rem-ann-card-{card}")
            assert sc.has_id("next-player")  # she may hold fewer than 7: Next says so
        await sc.click(f"rem-ann-card-{CLUBS[6]}")  # the 7th: on to Bob by itself
        assert sc.has_id("rem-bob-card-KS") and not sc.has_id("rem-ann-card-KS")
        assert not sc.has_id("next-player")  # a second tap there skips nobody
        await sc.click("typed-switch-bob")
        await sc.click("typed-bob-key-9")
        assert sc.has_id("next-player")  # a total has no count to reach: Next (Bob is
        # the last to show, so it has nobody to go to here)

    drive(game, scenario)


def test_hand_over_with_every_turn_logged_has_no_next_for_cards() -> None:
    """With every turn logged the referee knows exactly how many cards Ann holds: the
    entry moves on when they are all in, and fewer is not a choice (no Next)."""
    game = GameSession.start(TableHub(MemoryRepository()), "rummy", PLAYERS, {})
    assert game.add({"type": "start_hand", "dealer": "Ann", "turns": True}) is None
    assert game.add({"type": "draw", "player": "Bob"}) is None
    assert game.add({"type": "discard", "player": "Bob"}) is None
    assert cards_known(summary(game).detail.play, "Ann") == 7

    async def scenario(sc: Screen) -> None:
        await sc.click("hand-over")
        await sc.click("went-out-cy")
        for card in CLUBS[:6]:
            await sc.click(f"rem-ann-card-{card}")
            assert not sc.has_id("next-player")
        await sc.click(f"rem-ann-card-{CLUBS[6]}")
        assert sc.has_id("rem-bob-card-KS") and not sc.has_id("rem-ann-card-KS")

    drive(game, scenario)
