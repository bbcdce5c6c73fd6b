"""Every action of every game words itself for a "who did what" line (``Action.words()``):
the table's words, cards as 5♥, never a field name, never a card in letters.

The hub says these words on every device ("Bob: Bob melded 5♥ 6♥ 7♥", told as done
with ``past=True``; "Ann undid Bob meld 5♥ 6♥ 7♥"); before
``words()`` it guessed which JSON field held a card.  Each example names the
card symbols its words must show, so an action that drops its cards fails too.
"""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from rulesets.protocol import Action
from rulesets.rummoli import actions as rummoli
from rulesets.rummy import actions as rummy
from rulesets.umtali import actions as umtali

#: (game, action, card symbols its words show, seating for a seat-numbered player)
EXAMPLES: list[tuple[str, Action, tuple[str, ...], tuple[str, ...]]] = [
    ("umtali", umtali.StartHand(), (), ()),
    ("umtali", umtali.StartHand(dealer="Ann"), (), ()),
    ("umtali", umtali.Draw(player="Ann"), (), ()),
    ("umtali", umtali.TakeDiscards(player="Ann", cards=("5H", "6h")), ("5♥", "6♥"), ()),
    ("umtali", umtali.Meld(player="Bob", cards=("5H", "6H", "7H")), ("5♥", "6♥", "7♥"), ()),
    ("umtali", umtali.Extend(player="Ann", card="10D", anchor=("Bob", 2)), ("10♦",), ()),
    ("umtali", umtali.Discard(player="Ann", card="QS"), ("Q♠",), ()),
    ("umtali", umtali.GoOut(player="Bob"), (), ()),
    (
        "umtali",
        umtali.GoOut(player="Bob", pair=("4C", "4D"), discard="2C", face_down=True),
        ("4♣", "4♦", "2♣"),
        (),
    ),
    ("umtali", umtali.Leftovers(player="Ann", cards=("9S", "JC")), ("9♠", "J♣"), ()),
    ("umtali", umtali.Leftovers(player="Ann"), (), ()),
    ("umtali", umtali.EndHandEmptyStock(), (), ()),
    ("rummy", rummy.StartHand(), (), ()),
    ("rummy", rummy.StartHand(dealer="Ann", turns=True, upcard="KH"), ("K♥",), ()),
    ("rummy", rummy.Draw(player="Ann"), (), ()),
    ("rummy", rummy.Draw(player="Ann", source="discard", card="AS"), ("A♠",), ()),
    ("rummy", rummy.Meld(player="Ann", cards=("7H", "7S", "JK"), kind="set"), ("7♥", "7♠"), ()),
    ("rummy", rummy.LayOff(player="Bob", cards=("10H", "JH"), meld=0), ("10♥", "J♥"), ()),
    ("rummy", rummy.SwapJoker(player="Bob", meld=1, card="8D"), ("8♦",), ()),
    ("rummy", rummy.Discard(player="Cy"), (), ()),
    ("rummy", rummy.Discard(player="Cy", card="3C"), ("3♣",), ()),
    ("rummy", rummy.HandEnd(went_out=None), (), ()),
    (
        "rummy",
        rummy.HandEnd(went_out="Ann", remaining={"Bob": ("KS", "2C"), "Cy": ()}, typed={"Dee": 7}),
        ("K♠", "2♣"),
        (),
    ),
    ("rummy", rummy.HandEnd(went_out="Ann", going_rummy=True), (), ()),
    ("rummoli", rummoli.Start(chips=[50, 50, 50], dealer=2), (), ("Ann", "Bob", "Cy")),
    ("rummoli", rummoli.Adjust(player="Ann", chips=-5, note="home"), (), ()),
    ("rummoli", rummoli.Adjust(player=1, chips=10), (), ("Ann", "Bob")),
    ("rummoli", rummoli.Deal(), (), ()),
    ("rummoli", rummoli.Widow(), (), ()),
    ("rummoli", rummoli.Widow(player="Bob", bid=3, hand=["2S", "3S"]), (), ()),
    ("rummoli", rummoli.Bet(player="Cy", chips=1), (), ()),
    ("rummoli", rummoli.Fold(player=0), (), ("Ann", "Bob")),
    ("rummoli", rummoli.Poker(winners=[0, "Bob"]), (), ("Ann", "Bob")),
    ("rummoli", rummoli.Poker(hands=[["AS", "KS", "QS", "JS", "10S"], None]), (), ()),
    ("rummoli", rummoli.FinalPoker(winners=["Ann"]), (), ()),
    ("rummoli", rummoli.FinalPoker(), (), ()),
    ("rummoli", rummoli.Lay(player="Ann", card="10S"), ("10♠",), ()),
    ("rummoli", rummoli.Claim(player="Bob", pot="AD+KD"), ("A♦", "K♦"), ()),
    ("rummoli", rummoli.Claim(player="Bob", pot="7-8-9"), (), ()),
    ("rummoli", rummoli.Out(player="Cy", held=[2, 0, 1]), (), ()),
    ("rummoli", rummoli.Impasse(held=[1, 2, 3]), (), ()),
    ("rummoli", rummoli.End(), (), ()),
]

#: every action class of every game, read off its discriminated union
CLASSES: dict[str, tuple[type[Action], ...]] = {
    "umtali": get_args(get_args(umtali.UmtaliAction)[0]),
    "rummy": get_args(rummy.RummyAction),
    "rummoli": get_args(get_args(rummoli.RummoliAction)[0]),
}

SNAKE = re.compile(r"[A-Za-z]+_[A-Za-z]+")
LETTER_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")
SEAT_NUMBER = re.compile(r"\bseat \d|^\d|\b[0-9]+ (?:meld|lay|bet|fold|go)\b")


def _id(example: tuple[str, Action, Any, Any]) -> str:
    return f"{example[0]}-{example[1].type}"


def test_every_action_type_of_every_game_has_an_example() -> None:
    for game, classes in CLASSES.items():
        assert len(classes) >= 7, game  # the union was read, not an empty tuple
        shown = {type(a) for g, a, _, _ in EXAMPLES if g == game}
        assert set(classes) == shown, game


@pytest.mark.parametrize("game,classes", CLASSES.items())
def test_every_action_type_words_itself(game: str, classes: tuple[type[Action], ...]) -> None:
    """Each game's action says its own words; none falls back on the generic
    "its type in words" of an action no card game defines."""
    for cls in classes:
        assert cls.words is not Action.words, f"{game}: {cls.__name__} has no words()"


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_action_words_are_players_words(example: tuple[str, Action, tuple[str, ...], Any]) -> None:
    _, action, symbols, players = example
    said = action.words(players)
    assert said.strip() and said == said.strip(), said
    assert not SNAKE.search(said), f"a field or type name: {said!r}"
    assert not LETTER_CARD.search(said), f"a card in letters: {said!r}"
    for symbol in symbols:
        assert symbol in said, f"{symbol} missing from {said!r}"
    assert "None" not in said and "()" not in said and "[" not in said, said
    if players:  # a seat number is said by the seating's name
        assert not SEAT_NUMBER.search(said), said
    player = getattr(action, "player", None)
    if isinstance(player, str):
        assert said.startswith(player), said


def test_a_seat_numbered_player_is_named_by_the_seating() -> None:
    assert rummoli.Lay(player=1, card="5H").words(["Ann", "Bob"]) == "Bob lay 5♥"
    assert rummoli.Lay(player=1, card="5H").words() == "seat 2 lay 5♥"
    assert rummoli.Start(chips=[9, 9], dealer=1).words(["Ann", "Bob"]).endswith("Bob deals first")


def test_the_hub_line_keeps_its_words() -> None:
    """The "who did what" line the table tests read ("Bob: Bob meld 10♣ 10♦ 10♥")."""
    from companion.hub import describe_action

    assert describe_action(umtali.Meld(player="Bob", cards=("10C", "10D", "10H"))) == (
        "Bob meld 10♣ 10♦ 10♥"
    )
    ann = rummy.Meld(player="Ann", cards=("AC", "2C", "3C"))
    assert describe_action(ann) == "Ann meld A♣ 2♣ 3♣"


#: a verb as a player's entry names it, bare ("Bob meld 5♥"): the news says it done
BARE_VERB = re.compile(
    r"^\S+ (?:meld|draw|take|play|lay|discard|go|swap|fold|collect|add)\b|, discard\b"
)


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_the_news_tells_each_entry_as_done(example: tuple[str, Action, Any, Any]) -> None:
    """The table's news reports what happened: "Phone 3: Bob melded J♣", never
    "Bob meld J♣"; the same cards and names as the entry's own words."""
    _, action, symbols, players = example
    told = action.words(players, past=True)
    assert not BARE_VERB.search(told), told
    for symbol in symbols:
        assert symbol in told, f"{symbol} missing from {told!r}"
    player = getattr(action, "player", None)
    if isinstance(player, str):
        assert told.startswith(player), told


def test_the_news_line_of_a_new_entry_says_it_done() -> None:
    from companion.hub import TableHub
    from companion.session import GameSession
    from companion.storage import MemoryRepository

    session = GameSession.start(TableHub(MemoryRepository()), "umtali", ["Ann", "Bob"], {})
    session.add({"type": "start_hand", "dealer": "Ann"})
    assert session.add({"type": "meld", "player": "Bob", "cards": ["10C", "10D", "10H"]}) is None
    event = session.live.events[-1]
    assert event.line.endswith(": Bob melded 10♣ 10♦ 10♥"), event.line
    assert event.news.endswith("just recorded Bob meld 10♣ 10♦ 10♥"), event.news  # an entry named
    undone = session.undo()
    assert undone is not None
    assert session.live.events[-1].line.endswith("undid Bob meld 10♣ 10♦ 10♥")
