"""Playing cards drawn as small face-up cards."""

from __future__ import annotations

import flet as ft

from companion.components.kit.ui import BLACK_SUIT, RED_SUIT
from rulesets.cards import Card, Color, parse_cards


def card_face(
    card: Card, *, width: int = 40, selected: bool = False, label: str | None = None
) -> ft.Control:
    """One card: rank above suit symbol, red or black, with its name for screen readers
    (``label`` replaces the name, e.g. "Remove seven of hearts")."""
    color = "#6A1B9A" if card.is_joker else (RED_SUIT if card.s.color is Color.RED else BLACK_SUIT)
    if card.is_joker:
        top, bottom = "JK", "🃏"
    else:
        top, bottom = card.r.value, card.s.symbol
    height = int(width * 1.4)
    face = ft.Container(
        width=width,
        height=height,
        bgcolor="#FFFDE7" if selected else "#FFFFFF",
        border=ft.Border.all(2 if selected else 1, "#F9A825" if selected else "#9E9E9E"),
        border_radius=6,
        alignment=ft.Alignment.CENTER,
        content=ft.Column(
            [
                ft.Text(top, size=width * 0.38, weight=ft.FontWeight.BOLD, color=color),
                ft.Text(bottom, size=width * 0.38, color=color),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.CENTER,
        ),
    )
    return ft.Semantics(content=face, label=label or card.words, image=True, exclude_semantics=True)


def card_row(cards: str | list[Card] | tuple[Card, ...], *, width: int = 40) -> ft.Row:
    """Cards side by side, wrapping on narrow screens."""
    seq = parse_cards(cards) if isinstance(cards, str) else cards
    return ft.Row([card_face(c, width=width) for c in seq], wrap=True, spacing=4, run_spacing=4)
