"""Card entry used everywhere: a picker laid out by suit, plus a text box.

One tap adds a card, a second tap removes it; the chosen cards are shown in
the order they were tapped (tap one there to remove it too).  Keyboard users
type the notation (``5h 6h 7h``) and press Enter.  The component is
controlled: the parent owns the list and receives every change.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import flet as ft

from companion.components.cards import card_face
from companion.ui import BLACK_SUIT, RED_SUIT, icon_button
from rulesets import RulesetError
from rulesets.cards import JOKER, Card, Color, Rank, Suit, format_cards, parse_cards

TARGET = 46  # px: a thumb-sized target; 7 fit across a 390 px phone


def in_sentence(label: str) -> str:
    """``label`` inside a sentence ("Type …"): its first letter lower-cased, unless it
    starts with a name, which keeps the case it was typed in.

    >>> in_sentence("Meld cards"), in_sentence("Ann's cards"), in_sentence("ann's cards")
    ('meld cards', "Ann's cards", "ann's cards")
    """
    first = label.split(" ", 1)[0]
    if first.endswith(("'s", "’s", "'", "’")):  # a possessive: someone's name
        return label
    return label[:1].lower() + label[1:]


def _card_button(
    card: Card, *, chosen: bool, disabled: bool, on_tap: Callable[[Card], None], ident: str
) -> ft.Control:
    color = RED_SUIT if card.suit is not None and card.s.color is Color.RED else BLACK_SUIT
    text = "🃏" if card.is_joker else card.r.value
    # The name sits on the text, not on an excluding wrapper: a wrapper that hides its
    # content from assistive technology hides the tap too (screen readers could not press).
    button = ft.Container(
        width=TARGET,
        height=TARGET,
        border_radius=8,
        alignment=ft.Alignment.CENTER,
        bgcolor="#FFF59D" if chosen else ("#EEEEEE" if disabled else "#FFFFFF"),
        border=ft.Border.all(3 if chosen else 1, "#F57F17" if chosen else "#9E9E9E"),
        content=ft.Text(
            text,
            size=18,
            weight=ft.FontWeight.BOLD,
            color="#9E9E9E" if disabled else color,
            semantics_label=card.words,
        ),
        on_click=None if disabled else (lambda _: on_tap(card)),
        ink=True,
    )
    return ft.Semantics(
        content=button,
        identifier=f"{ident}-card-{card}",
        button=True,
        selected=chosen,
    )


@ft.component
def CardPicker(
    selected: Sequence[Card],
    on_change: Callable[[list[Card]], None],
    *,
    ident: str = "picker",
    label: str = "Cards",
    jokers: bool = False,
    unavailable: Collection[Card] = (),
    max_cards: int | None = None,
) -> ft.Control:
    typed = ft.use_ref("")
    problem, set_problem = ft.use_state("")
    chosen = list(selected)
    # When the parent empties the selection (an entry was recorded), the typed text
    # goes too: a new key gives a fresh, empty text box.
    had_cards = ft.use_ref(False)
    field_gen = ft.use_ref(0)
    if had_cards.current and not chosen and typed.current:
        typed.current = ""
        field_gen.current = (field_gen.current or 0) + 1
    had_cards.current = bool(chosen)

    def tap(card: Card) -> None:
        if card in chosen and not card.is_joker:
            on_change([c for c in chosen if c != card])
            return
        if max_cards is not None and len(chosen) >= max_cards:
            set_problem(f"At most {max_cards} card{'s' if max_cards != 1 else ''} here.")
            return
        set_problem("")
        on_change([*chosen, card])

    def remove_at(i: int) -> None:
        on_change(chosen[:i] + chosen[i + 1 :])

    def on_text(e: ft.Event[ft.TextField]) -> None:
        typed.current = e.control.value or ""

    def submit(_: object = None) -> None:
        text = typed.current or ""
        try:
            cards = list(parse_cards(text))
        except RulesetError as exc:
            set_problem(str(exc))
            return
        if not jokers and any(c.is_joker for c in cards):
            set_problem(f'"{text}": jokers are not in play in this game')
            return
        blocked = [c for c in cards if c in unavailable]
        if blocked:
            set_problem(f'"{text}": {format_cards(blocked)} already on the table or used')
            return
        if max_cards is not None and len(cards) > max_cards:
            set_problem(f'"{text}": at most {max_cards} cards here')
            return
        set_problem("")
        on_change(cards)

    suits: list[ft.Control] = []
    for suit in Suit:
        row = [
            _card_button(
                Card(rank, suit),
                chosen=Card(rank, suit) in chosen,
                disabled=Card(rank, suit) in unavailable and Card(rank, suit) not in chosen,
                on_tap=tap,
                ident=ident,
            )
            for rank in Rank
        ]
        suits.append(
            ft.Column(
                [
                    ft.Text(
                        f"{suit.symbol} {suit.name.title()}",
                        size=13,
                        color=RED_SUIT if suit.color is Color.RED else None,
                    ),
                    ft.Row(row, wrap=True, spacing=4, run_spacing=4),
                ],
                spacing=2,
            )
        )
    if jokers:
        suits.append(
            ft.Row(
                [_card_button(JOKER, chosen=False, disabled=False, on_tap=tap, ident=ident)],
            )
        )

    chosen_row: list[ft.Control] = [
        ft.Semantics(
            content=ft.Container(
                content=card_face(c, width=34, label=f"Remove {c.words}"),
                on_click=lambda _, i=i: remove_at(i),
            ),
            identifier=f"{ident}-chosen-{i}",
        )
        for i, c in enumerate(chosen)
    ]
    summary = (
        f"{label}: {format_cards(chosen, symbols=True)}" if chosen else f"{label}: none chosen"
    )
    return ft.Column(
        [
            ft.Text(summary, size=15, weight=ft.FontWeight.W_500, semantics_label=summary),
            ft.Row(chosen_row, wrap=True, spacing=4) if chosen else ft.Container(height=4),
            ft.Row(
                [
                    ft.TextField(
                        key=f"{ident}-typed-{field_gen.current}",
                        label=f"Type {in_sentence(label)}",
                        hint_text="e.g. 5h 6h 7h",
                        on_change=on_text,
                        on_submit=lambda _: submit(),
                        dense=True,
                        expand=True,
                    ),
                    icon_button(
                        ft.Icons.KEYBOARD_RETURN,
                        f"Use typed {in_sentence(label)}",
                        lambda _: submit(),
                        f"{ident}-use-typed",
                    ),
                    icon_button(
                        ft.Icons.BACKSPACE_OUTLINED,
                        f"Clear {in_sentence(label)}",
                        lambda _: on_change([]),
                        f"{ident}-clear",
                        disabled=not chosen,
                    ),
                ],
                spacing=4,
            ),
            ft.Text(problem, color=ft.Colors.ERROR, selectable=True) if problem else ft.Container(),
            *suits,
        ],
        spacing=6,
    )
