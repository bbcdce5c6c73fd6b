"""The top of the Umtali discard pile, as far as the record shows it (U3.1, U4.1-U4.5, U8.1).

The referee reports the top card only when the recorded discards and takes prove
it; otherwise it says the top is not known (the deal's upcard is not recorded, a
turn ended without its discard recorded), never a guess.  ``pop`` restores it with
the rest of the state (one snapshot rule).
"""

from __future__ import annotations

import random

import pytest

from rulesets.umtali import UmtaliGame, UmtaliRules
from rulesets.umtali.actions import (
    Discard,
    Draw,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
    UmtaliAction,
)
from rulesets.umtali.simulate import _Hand
from rulesets.umtali.summary import UmtaliCurrent


def new_game(rules: UmtaliRules | None = None) -> UmtaliGame:
    """Ann and Bob; Ann deals hand 1, so Bob plays first (U3.3)."""
    g = UmtaliGame(("Ann", "Bob"), rules)
    g.push(StartHand(dealer="Ann"))
    return g


def now(g: UmtaliGame) -> UmtaliCurrent:
    current = g.summary().detail.current
    assert current is not None
    return current


def top(g: UmtaliGame) -> tuple[str, str | None]:
    """(what the pile is, its top card): ("card", "5H"), ("unknown", None), ..."""
    c = now(g)
    return c.discard_pile, None if c.discard_top is None else str(c.discard_top)


def three_discards() -> UmtaliGame:
    """Bob, Ann, Bob each discard (5H, 9C, 2S): the pile shows 5H 9C 2S, 2S on top."""
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="5H"))
    g.push(Draw(player="Ann"))
    g.push(Discard(player="Ann", card="9C"))
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="2S"))
    return g


# ---------------------------------------------------------------- U3 the deal
def test_u3_1_top_of_discard_pile_unknown_after_the_deal() -> None:
    """The deal's upcard is not recorded: the top is not known (never guessed)."""
    g = new_game()
    assert top(g) == ("unknown", None)
    g.push(Draw(player="Bob"))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    assert top(g) == ("unknown", None)


def test_u3_1_variant_deal_eleven_ten_starts_with_no_discard_pile() -> None:
    """The 11-card player begins the pile: empty until then, and again once the only
    card is taken."""
    g = new_game(UmtaliRules(deal_eleven_ten=True))
    assert top(g) == ("empty", None)
    g.push(Discard(player="Bob", card="KD"))
    assert top(g) == ("card", "KD")
    g.push(TakeDiscards(player="Ann", cards=("KD",)))
    assert top(g) == ("empty", None)


# ---------------------------------------------------------------- U4 the turn
def test_u4_5_top_of_discard_pile_after_discard() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="5H"))
    assert top(g) == ("card", "5H")
    g.push(Draw(player="Ann"))  # a stock draw leaves the pile as it is
    assert top(g) == ("card", "5H")
    g.push(Discard(player="Ann", card="9C"))
    assert top(g) == ("card", "9C")


def test_u4_1_top_of_discard_pile_after_taking_the_top_card() -> None:
    g = three_discards()
    g.push(TakeDiscards(player="Ann", cards=("2S",)))
    assert top(g) == ("card", "9C")


def test_u4_1_top_unknown_once_the_known_cards_are_all_taken() -> None:
    """Under the first recorded discard lies the unrecorded upcard."""
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="5H"))
    g.push(TakeDiscards(player="Ann", cards=("5H",)))
    assert top(g) == ("unknown", None)


def test_u4_1_top_unknown_when_the_card_taken_is_not_the_recorded_top() -> None:
    g = three_discards()
    g.push(TakeDiscards(player="Ann", cards=("7D",)))
    assert top(g) == ("unknown", None)


def test_u4_2_top_of_discard_pile_after_taking_two_at_once() -> None:
    g = three_discards()
    g.push(TakeDiscards(player="Ann", cards=("2S", "9C")))
    assert top(g) == ("card", "5H")


def test_u4_2_top_of_discard_pile_after_the_second_discard_taken_separately() -> None:
    g = three_discards()
    g.push(TakeDiscards(player="Ann", cards=("2S",)))
    g.push(Meld(player="Ann", cards=("2S", "3S", "4S")))  # D1 melded at once
    assert top(g) == ("card", "9C")
    g.push(TakeDiscards(player="Ann", cards=("9C",)))  # then D2 (U4.2)
    assert top(g) == ("card", "5H")
    g.push(Meld(player="Ann", cards=("9C", "9D", "9H")))
    g.push(Discard(player="Ann", card="KS"))
    assert top(g) == ("card", "KS")


def test_u4_1_a_melded_top_card_was_taken_even_when_the_take_went_unrecorded() -> None:
    """The app records no draws: a card of the pile that goes down was taken, with the
    cards above it, and the card under it is the top."""
    g = three_discards()
    g.push(Meld(player="Ann", cards=("2S", "3S", "4S")))
    assert top(g) == ("card", "9C")
    g.push(Meld(player="Ann", cards=("9C", "9D", "9H")))  # D2 (U4.2)
    assert top(g) == ("card", "5H")


def test_u4_3_top_unknown_once_a_turn_goes_on_without_its_draw() -> None:
    """Ann melds without a draw recorded: she may have taken 2S and kept it (U4.3)."""
    g = three_discards()
    assert top(g) == ("card", "2S")  # what Ann may take
    g.push(Meld(player="Ann", cards=("8C", "8D", "8H")))
    assert top(g) == ("unknown", None)
    g.push(Discard(player="Ann", card="KS"))
    assert top(g) == ("card", "KS")


def test_u4_3_a_discard_alone_shows_the_discarded_card_over_an_unknown_pile() -> None:
    """Ann's draw went unrecorded: KS is on top, but 2S under it may have been taken."""
    g = three_discards()
    g.push(Discard(player="Ann", card="KS"))
    assert top(g) == ("card", "KS")
    g.push(TakeDiscards(player="Bob", cards=("KS",)))
    assert top(g) == ("unknown", None)


def test_u4_5_top_unknown_after_a_turn_whose_discard_went_unrecorded() -> None:
    """Bob's turn ends without its discard recorded: what he put on top is unknown."""
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="5H"))
    g.push(Draw(player="Ann"))
    g.push(Meld(player="Ann", cards=("8C", "8D", "8S")))
    assert top(g) == ("card", "5H")  # Ann's turn is still open
    g.push(Draw(player="Bob"))  # so Ann discarded something unrecorded
    assert top(g) == ("unknown", None)
    g.push(Discard(player="Bob", card="KS"))
    assert top(g) == ("card", "KS")


def test_u4_5_top_unknown_after_a_whole_turn_went_unrecorded() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="5H"))
    g.push(Draw(player="Bob"))  # Ann's whole turn, discard and all, went unrecorded
    assert top(g) == ("unknown", None)


def test_u4_6_option_reshuffle_a_take_leaves_the_top_unknown() -> None:
    """With the reshuffle option the cards under the top may have become the stock."""
    g = three_discards()
    assert top(g) == ("card", "2S")
    g = UmtaliGame(("Ann", "Bob"), UmtaliRules(empty_stock_reshuffle=True))
    for a in three_discards().actions:
        g.push(a)
    assert top(g) == ("card", "2S")
    g.push(TakeDiscards(player="Ann", cards=("2S",)))
    assert top(g) == ("unknown", None)


# ---------------------------------------------------------------- U8 going out
def test_u8_1_top_of_discard_pile_after_going_out_face_up_then_the_final_discard() -> None:
    g = new_game()
    g.push(Draw(player="Bob"))
    g.push(Meld(player="Bob", cards=("5H", "6H", "7H")))
    g.push(GoOut(player="Bob", discard="QC"))
    assert top(g) == ("card", "QC")
    g.push(TakeDiscards(player="Ann", cards=("QC",)))  # drawn as usual (U8.2)
    assert top(g) == ("unknown", None)
    g.push(Discard(player="Ann", card="4D"))
    assert top(g) == ("card", "4D")
    g.push(Leftovers(player="Ann", cards=("2C",)))
    assert g.summary().detail.current is None  # between hands: no pile to show


def test_u8_2_top_of_discard_pile_is_face_down_after_a_face_down_going_out_discard() -> None:
    g = three_discards()
    g.push(Draw(player="Ann"))
    g.push(Meld(player="Ann", cards=("5C", "6C", "7C")))
    g.push(GoOut(player="Ann", discard="KH", face_down=True))
    assert top(g) == ("face_down", None)
    g.push(Draw(player="Bob"))
    g.push(Discard(player="Bob", card="4D"))
    assert top(g) == ("card", "4D")


# ---------------------------------------------------------------- push / pop
def test_u4_1_top_of_discard_pile_push_pop_round_trip() -> None:
    """Every push then pop gives back the pile as it was (one snapshot rule)."""
    g = new_game()
    script: list[UmtaliAction] = [
        Draw(player="Bob"),
        Discard(player="Bob", card="5H"),
        Draw(player="Ann"),
        Discard(player="Ann", card="9C"),
        TakeDiscards(player="Bob", cards=("9C",)),
        Meld(player="Bob", cards=("9C", "9D", "9H")),
        TakeDiscards(player="Bob", cards=("5H",)),
        Meld(player="Bob", cards=("5H", "5D", "5S")),
        Extend(player="Bob", card="5C", anchor=("Bob", 1)),
        Discard(player="Bob", card="JC"),
        Draw(player="Bob"),
        GoOut(player="Bob", discard="KH", face_down=True),
    ]
    seen: list[tuple[str, str | None]] = [top(g)]
    for action in script:
        g.push(action)
        seen.append(top(g))
    assert ("card", "JC") in seen and ("face_down", None) in seen
    for i in range(len(script), 0, -1):
        g.pop()
        assert top(g) == seen[i - 1], i
    # and forwards again: the same answers, so nothing was left behind by a pop
    for i, action in enumerate(script, 1):
        g.push(action)
        assert top(g) == seen[i]


# ---------------------------------------------------------------- never a guess
#: the simulator moves its true pile right after pushing a discard (so the next
#: action may open a turn after an unrecorded one) and right before pushing a take:
#: right after these actions the two must agree
_CHECKED_AFTER = (Draw, Meld, Extend, TakeDiscards)


class _Watched:
    """One hand dealt for real, each push checked against the simulator's true pile."""

    def __init__(self, game: UmtaliGame, rng: random.Random) -> None:
        self.game, self.hand = game, _Hand(game, rng)
        self.push, self.turn = game.push, self.hand.turn
        self.pushes, self.known = 0, 0
        #: a turn with nothing recorded at all can look like no turn (after a turn
        #: whose discard went unrecorded, or after another such turn): from then on
        #: the record cannot show the pile, so it is not checked (until the next hand)
        self.silent = False

    def play(self) -> int:
        self.game.push = self.checked  # type: ignore[method-assign]
        self.hand.turn = self.counted  # type: ignore[method-assign]
        try:
            self.hand.play()
        finally:
            self.game.push = self.push  # type: ignore[method-assign]
        return self.known

    def counted(self, cur: int, first_turn: bool) -> str:
        before = self.pushes
        ended = self.turn(cur, first_turn)
        self.silent = self.silent or self.pushes == before
        return ended

    def checked(self, action: UmtaliAction, **kw: object) -> UmtaliAction:
        self.pushes += 1
        done = self.push(action, **kw)  # type: ignore[arg-type]
        if isinstance(action, _CHECKED_AFTER) and not self.silent:
            kind, card = top(self.game)
            pile = self.hand.pile
            if kind == "card":
                self.known += 1
                assert pile and card == str(pile[-1]), action
            elif kind == "empty":
                assert not pile, action
        return done


@pytest.mark.parametrize(
    "rules",
    [
        UmtaliRules(),
        UmtaliRules(deal_eleven_ten=True, no_rediscard=False),
        UmtaliRules(discard_dig=True),
        UmtaliRules(empty_stock_reshuffle=True),
    ],
    ids=["house", "eleven-ten", "dig", "reshuffle"],
)
@pytest.mark.parametrize("seed", range(6))
def test_u4_1_top_of_discard_pile_matches_the_real_pile_in_dealt_games(
    seed: int, rules: UmtaliRules
) -> None:
    """Real shuffled hands (the simulator keeps the true pile and records only some
    draws and discards): whenever the referee names the top, it is the real top; when
    it says the pile is empty, it is."""
    rng = random.Random(seed)
    game = UmtaliGame(("North", "South"), rules)
    first = rng.randrange(2)
    known = 0
    while not game.finished:
        game.push(StartHand(dealer=game.players[first] if not game.hands else None))
        known += _Watched(game, rng).play()
    assert known > 0
