"""The top of the Umtali discard pile on the table screen: the referee's answer drawn
in one fixed slot (issue 18), without a browser."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.umtali.pile import PILE_SLOT_WIDTH, discard_top
from rulesets.umtali import UmtaliGame, UmtaliRules, UmtaliSummary
from rulesets.umtali.actions import Discard, Draw, GoOut, Meld, StartHand


def summary_after(*actions: Any, rules: UmtaliRules | None = None) -> UmtaliSummary:
    g = UmtaliGame(("Ann", "Bob"), rules, actions=[StartHand(dealer="Ann"), *actions])
    return g.summary()


def slot(summary: UmtaliSummary) -> tuple[str, ft.Container]:
    node = discard_top(summary)
    assert isinstance(node, ft.Semantics) and node.identifier == "discard-top"
    assert isinstance(node.content, ft.Container)
    return str(node.label), node.content


def test_u4_5_the_discarded_card_is_shown_as_a_card_face() -> None:
    label, box = slot(summary_after(Draw(player="Bob"), Discard(player="Bob", card="5H")))
    assert label == "Top of the discard pile: 5♥"
    column = box.content
    assert isinstance(column, ft.Column)
    assert isinstance(column.controls[1], ft.Semantics)  # the kit's card face
    assert column.controls[1].label == "five of hearts"


def test_u3_1_an_unknown_top_is_said_in_words_never_guessed() -> None:
    label, _ = slot(summary_after())
    assert label == "Top of the discard pile: not known"
    label, _ = slot(summary_after(rules=UmtaliRules(deal_eleven_ten=True)))
    assert label == "Top of the discard pile: empty"
    down = summary_after(
        Draw(player="Bob"),
        Meld(player="Bob", cards=("5H", "6H", "7H")),
        GoOut(player="Bob", discard="QC", face_down=True),
    )
    assert slot(down)[0] == "Top of the discard pile: face down"


def test_the_slot_has_one_size_whatever_it_shows() -> None:
    """A card, a word: the same box, so nothing beside or under it moves."""
    word = slot(summary_after())[1]
    card = slot(summary_after(Draw(player="Bob"), Discard(player="Bob", card="10D")))[1]
    assert (word.width, word.height) == (card.width, card.height)
    assert word.width == PILE_SLOT_WIDTH and word.height is not None


def test_no_slot_between_hands() -> None:
    g = UmtaliGame(("Ann", "Bob"))
    assert not isinstance(discard_top(g.summary()), ft.Semantics)
