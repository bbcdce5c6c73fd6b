"""The top of the Umtali discard pile: a fixed slot at the end of the table's head.

Pure rendering of the referee's :class:`~rulesets.umtali.UmtaliCurrent`: the
referee says whether the top is a card it knows, an empty pile, a face-down
going-out discard or not known (it never guesses); this only draws it.  The slot
has one size whatever it shows, so nothing beside or below it moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import flet as ft

from companion.components.kit.cards import card_face
from rulesets.cards import Card
from rulesets.umtali import UmtaliSummary

__all__ = ["PILE_SLOT_WIDTH", "DiscardTop", "discard_top"]

#: the slot's size: a card face under a one-word caption
PILE_SLOT_WIDTH: Final = 46
_SLOT_HEIGHT: Final = 46
_CARD_WIDTH: Final = 22

#: what the pile shows when it is not a card the record proves
_WORDS: Final = {"empty": "Empty", "face_down": "Face down", "unknown": "Not known"}


def discard_top(summary: UmtaliSummary) -> ft.Control:
    """ "Discard" over the top card (5♥) or over a word: empty, face down, not known."""
    current = summary.detail.current
    if current is None:
        return ft.Container()
    return _slot(current.discard_pile, current.discard_top)


def _slot(pile: str, card: Card | None) -> ft.Control:
    if pile == "card" and card is not None:
        shown: ft.Control = card_face(card, width=_CARD_WIDTH)
        label = f"Top of the discard pile: {card.symbol}"
    else:
        word = _WORDS.get(pile, _WORDS["unknown"])
        shown = ft.Text(word, size=10, text_align=ft.TextAlign.CENTER)
        label = f"Top of the discard pile: {word.lower()}"
    slot = ft.Container(
        ft.Column(
            [ft.Text("Discard", size=10, color=ft.Colors.ON_SURFACE_VARIANT), shown],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        width=PILE_SLOT_WIDTH,
        height=_SLOT_HEIGHT,
        alignment=ft.Alignment.TOP_CENTER,
    )
    return ft.Semantics(
        content=slot, label=label, identifier="discard-top", container=True, exclude_semantics=True
    )


@ft.component
def _discard_slot(pile: str, top: Card | None) -> ft.Control:
    return _slot(pile, top)


_DiscardSlot: Callable[..., ft.Control] = ft.memo(_discard_slot)  # type: ignore[no-untyped-call]


def DiscardTop(summary: UmtaliSummary) -> ft.Control:  # noqa: N802 - drawn like a component
    """:func:`discard_top`, drawn again only when the pile's top changes (a meld or an
    undo by another device leaves it as it was on every phone)."""
    current = summary.detail.current
    if current is None:
        return ft.Container()
    return _DiscardSlot(current.discard_pile, current.discard_top, key="discard-slot")
