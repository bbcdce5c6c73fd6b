"""A whole pack on one phone screen: one tap a card, no suit to switch to.

For the hand over, where each player shows a mixed hand: every suit is a row of
its thirteen ranks (two rows, of 7 and 6, on a phone; one row on a desktop),
each card a target of at least 48 × 44 px showing its rank and suit.  A tap adds
the card, a second tap takes it back.  A card nobody can hold (on the table, or
shown by another player) is greyed and does nothing, but keeps its place:
nothing in the grid ever moves.  The joker, when jokers are in play, ends the
last row; each tap adds one more.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import flet as ft

from companion.ui import BLACK_SUIT, RED_SUIT
from rulesets.cards import JOKER, Card, Color, Rank, Suit

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "GAP", "card_grid", "grid_height", "target"]

CARD_WIDTH = 48
CARD_HEIGHT = 44
GAP = 4
#: seven cards a row fit a 390 px phone (with the page's 12 px margins)
PHONE_ROW = 7


def grid_height(width: float, jokers: bool) -> int:
    """The grid's height when ``width`` px wide (rows of a suit that fit, times four)."""
    per_row = max(1, int((width + GAP) // (CARD_WIDTH + GAP)))
    rows = 4 * -(-13 // per_row)
    if jokers and 13 % per_row == 0:
        rows += 1
    return rows * (CARD_HEIGHT + GAP) - GAP


def target(
    box: ft.Container, *, label: str, ident: str, selected: bool | None = None
) -> ft.Semantics:
    """``box`` (a tappable container) as one named button for screen readers and tests.

    The words inside are hidden from assistive technology (read once, by ``label``);
    the tap is not: a wrapper that excludes its content's semantics hides the tap too.
    """
    if box.content is not None:
        box.content = ft.Semantics(content=box.content, exclude_semantics=True)
    return ft.Semantics(
        content=box,
        label=label,
        identifier=ident,
        key=ident,
        button=True,
        selected=selected,
        container=True,
    )


def _face(card: Card, *, chosen: bool, greyed: bool, count: int) -> ft.Control:
    red = card.suit is not None and card.s.color is Color.RED
    if card.is_joker:
        text = "🃏" if count < 2 else f"🃏×{count}"
        color = "#6A1B9A"
    else:
        text = f"{card.r.value}{card.s.symbol}"
        color = RED_SUIT if red else BLACK_SUIT
    return ft.Text(
        text,
        size=17,
        weight=ft.FontWeight.BOLD,
        color="#9E9E9E" if greyed else color,
        no_wrap=True,
    )


def _card(
    card: Card,
    *,
    chosen: bool,
    greyed: bool,
    count: int,
    on_tap: Callable[[Card], None],
    ident: str,
    label: str,
) -> ft.Control:
    box = ft.Container(
        width=CARD_WIDTH,
        height=CARD_HEIGHT,
        border_radius=8,
        alignment=ft.Alignment.CENTER,
        bgcolor="#FFF59D" if chosen else ("#E0E0E0" if greyed else "#FFFFFF"),
        border=ft.Border.all(3 if chosen else 1, "#F57F17" if chosen else "#9E9E9E"),
        content=_face(card, chosen=chosen, greyed=greyed, count=count),
        on_click=None if greyed else (lambda _: on_tap(card)),
        ink=not greyed,
    )
    return target(box, label=label, ident=f"{ident}-card-{card}", selected=chosen)


def card_grid(
    chosen: Sequence[Card],
    *,
    on_tap: Callable[[Card], None],
    ident: str,
    unavailable: Collection[Card] = (),
    jokers: bool = False,
    enabled: bool = True,
) -> ft.Control:
    """Every card of the pack, by suit (see the module doc); ``chosen`` highlighted."""
    rows: list[ft.Control] = []
    for suit in Suit:
        cards = [Card(rank, suit) for rank in Rank]
        if jokers and suit is list(Suit)[-1]:
            cards.append(JOKER)
        row: list[ft.Control] = []
        for card in cards:
            count = sum(1 for c in chosen if c == card)
            greyed = not enabled or (card in unavailable and not count)
            state = "chosen" if count else ("not available" if greyed and enabled else "")
            label = card.words + (f", {state}" if state else "")
            row.append(
                _card(
                    card,
                    chosen=bool(count),
                    greyed=greyed,
                    count=count,
                    on_tap=on_tap,
                    ident=ident,
                    label=label,
                )
            )
        rows.append(ft.Row(row, wrap=True, spacing=GAP, run_spacing=GAP))
    return ft.Column(rows, spacing=GAP)
