"""The compact card picker: 52 thumb-sized cards in one still grid, and a chosen strip.

Designed for one thumb on a 390 px phone: every card is a 44x44 target (7 a row
on a phone, a suit to a row on a desktop), so a set or a going-out pair of
several suits costs one tap a card -- no suit tabs to switch.  Nothing moves
under a finger:

* the grid never changes shape: a chosen card is highlighted in place, a card
  already on the table is greyed (and cannot be tapped) but keeps its place;
* the chosen cards are listed in a strip of reserved height above the grid
  (:func:`chosen_strip`), in the order they were tapped;
* typing the cards (``5h 6h 7h``, Enter) stays an option: the last cell of the
  grid ("Type") swaps the grid for a text box, and back.

:class:`CompactPicker` is the whole picker, controlled (the parent owns the
list of chosen cards and hears every change).  A screen whose entry has parts
(a going-out pair *and* a discard) draws its own strip with :func:`strip_part`
chips and uses ``CompactPicker(..., strip=False)``.

Test and accessibility identifiers: ``<ident>-card-<card>`` (``meld-card-5H``),
``<ident>-chosen`` (the strip's words), ``<ident>-clear``, ``<ident>-type`` (the
typing switch), ``<ident>-use-typed``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import flet as ft

from companion.components.kit.ui import (
    BLACK_SUIT,
    RED_SUIT,
    icon_button,
    tap_target,
)
from rulesets import RulesetError
from rulesets.cards import JOKER, Card, Color, Rank, Suit, format_cards, parse_cards

__all__ = [
    "CELL",
    "CardMark",
    "GAP",
    "STRIP_HEIGHT",
    "CompactPicker",
    "card_cell",
    "card_grid",
    "cards_line",
    "cards_spans",
    "chosen_strip",
    "in_sentence",
    "strip_part",
]

#: px: a card target (Material's minimum touch target is 48 dp, WCAG's 44 px)
CELL = 44
#: px between cards: 7 cells fit a phone's 366 px row, 13 (a suit) a 608 px one
GAP = 3
#: px: the chosen strip's height, the same empty or full
STRIP_HEIGHT = 44
CHOSEN_BG = "#FFF59D"
CHOSEN_BORDER = "#F57F17"
GREY = "#9E9E9E"


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


def _color(card: Card) -> str:
    return RED_SUIT if card.suit is not None and card.s.color is Color.RED else BLACK_SUIT


def card_cell(
    card: Card,
    *,
    chosen: bool,
    disabled: bool,
    on_tap: Callable[[Card], None],
    ident: str,
) -> ft.Control:
    """One card of the grid: rank and suit ("10♥"), 44x44, the same size in every state."""
    text = "🃏" if card.is_joker else card.symbol
    # The name sits on the text, not on an excluding wrapper: a wrapper that hides its
    # content from assistive technology hides the tap too (screen readers could not press).
    box = ft.Container(
        width=CELL,
        height=CELL,
        border_radius=8,
        alignment=ft.Alignment.CENTER,
        bgcolor=CHOSEN_BG if chosen else ("#E0E0E0" if disabled else "#FFFFFF"),
        # the border is drawn inside the fixed box: a thicker one never resizes the cell
        border=ft.Border.all(3 if chosen else 1, CHOSEN_BORDER if chosen else GREY),
        content=ft.Text(
            text,
            size=15 if len(text) > 2 else 16,
            weight=ft.FontWeight.BOLD,
            color=GREY if disabled else _color(card),
            semantics_label=card.words + (" (on the table)" if disabled else ""),
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
        ),
        on_click=None if disabled else (lambda _: on_tap(card)),
        ink=not disabled,
    )
    ident_card = f"{ident}-card-{card}"
    return ft.Semantics(
        content=box,
        identifier=ident_card,
        key=ident_card,  # a new node when the grid's ident changes (see common.KEYS)
        button=True,
        selected=chosen,
    )


def cards_spans(cards: Sequence[Card], *, size: int = 15) -> list[ft.TextSpan]:
    """Cards as coloured text ("5♥ 6♥ 7♥", hearts and diamonds in red; spades and
    clubs in the theme's text colour, so they read on a dark screen too)."""
    spans: list[ft.TextSpan] = []
    for i, c in enumerate(cards):
        red = c.suit is not None and c.s.color is Color.RED
        spans.append(
            ft.TextSpan(
                ("" if i == 0 else " ") + c.symbol,
                style=ft.TextStyle(
                    color=RED_SUIT if red else ft.Colors.ON_SURFACE,
                    weight=ft.FontWeight.BOLD,
                    size=size,
                ),
            )
        )
    return spans


def cards_line(spans: list[ft.TextSpan], *, said: str | None = None) -> ft.Control:
    """Coloured cards on one line that is never cut: longer than its box, the line is
    swiped sideways, and it keeps its end in view -- the card just added -- as it
    grows.  It fills the width its box gives it; ``said`` is what a screen reader
    hears instead of the symbols ("Meld cards: 5♥ 6♥").  (A text made of spans cannot be held
    short: Flet 1.0.5 draws it cut with no "…", so nobody would know cards are missing.)"""
    return ft.Row(
        [ft.Text(spans=spans, no_wrap=True, semantics_label=said)],
        scroll=ft.ScrollMode.HIDDEN,
        auto_scroll=True,
        auto_scroll_animation=0,
        spacing=0,
    )


def strip_part(
    label: str,
    cards: Sequence[Card],
    *,
    active: bool,
    on_click: Callable[..., object],
    ident: str,
    empty: str = "none",
    said: str | None = None,
    expand: bool | int = True,
) -> ft.Control:
    """One part of a multi-part entry in the strip ("Pair 4♣ 4♦"): tap it to fill it.
    ``said`` replaces what a screen reader hears ("Discard: 2♣ (face down)").  It takes
    its share of the strip (``expand``), whatever it holds: a card added to it never
    moves the part beside it (cards that do not fit are swiped sideways, the last one
    added in view: :func:`cards_line`)."""
    said = said or f"{label}: {format_cards(cards, symbols=True) or empty}"
    line = cards_line(
        [
            ft.TextSpan(f"{label} ", style=ft.TextStyle(size=12)),
            *(cards_spans(cards, size=14) if cards else [ft.TextSpan("–")]),
        ]
    )
    chip = ft.Container(
        content=line,
        height=STRIP_HEIGHT - 4,
        padding=ft.Padding.symmetric(horizontal=8),
        alignment=ft.Alignment.CENTER_LEFT,
        border_radius=20,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if active else None,
        border=ft.Border.all(
            2 if active else 1, ft.Colors.PRIMARY if active else ft.Colors.OUTLINE
        ),
        on_click=on_click,
        ink=True,
        expand=expand,
    )
    return tap_target(chip, said, ident, selected=active, expand=expand)


def chosen_strip(
    label: str,
    cards: Sequence[Card],
    *,
    ident: str,
    on_clear: Callable[[], object] | None,
    problem: str = "",
    parts: Sequence[ft.Control] = (),
) -> ft.Control:
    """The reserved line above the grid: "Meld cards: 5♥ 6♥ 7♥" (or the parts of an
    entry), and the clear button -- the same height whatever it holds."""
    summary = f"{label}: {format_cards(cards, symbols=True)}" if cards else f"{label}: none chosen"
    if problem:
        shown: ft.Control = ft.Text(
            problem,
            color=ft.Colors.ERROR,
            size=13,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
            semantics_label=problem,
            expand=True,
            selectable=True,
        )
    elif parts:
        # the parts share the row (each its fixed share): nothing in it moves
        shown = ft.Row(list(parts), spacing=6, expand=True)
    else:
        shown = ft.Semantics(
            content=cards_line(
                [
                    ft.TextSpan(
                        f"{label}: ", style=ft.TextStyle(size=14, weight=ft.FontWeight.W_500)
                    ),
                    *(cards_spans(cards) if cards else [ft.TextSpan("none chosen")]),
                ],
                said=summary,
            ),
            identifier=f"{ident}-chosen",
            key=f"{ident}-chosen",
            expand=True,
        )
    clear = icon_button(
        ft.Icons.BACKSPACE_OUTLINED,
        f"Clear {in_sentence(label)}",
        (lambda _: on_clear()) if on_clear is not None else None,
        f"{ident}-clear",
        disabled=on_clear is None or not cards,
    )
    return ft.Container(
        content=ft.Row([shown, clear], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=STRIP_HEIGHT,
    )


def _typing_switch(on: bool, label: str, ident: str, flip: Callable[[], None]) -> ft.Control:
    """The last cell of the grid: "Type" (or, while typing, "Cards" back to the grid)."""
    words = "Tap cards instead" if on else f"Type {in_sentence(label)}"
    box = ft.Container(
        width=CELL,
        height=CELL,
        border_radius=8,
        alignment=ft.Alignment.CENTER,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        content=ft.Column(
            [
                ft.Icon(ft.Icons.GRID_VIEW if on else ft.Icons.KEYBOARD, size=18),
                ft.Text("Cards" if on else "Type", size=10, semantics_label=words),
            ],
            spacing=0,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        on_click=lambda _: flip(),
        ink=True,
    )
    return ft.Semantics(content=box, identifier=f"{ident}-type", key=f"{ident}-type", button=True)


@ft.observable
@dataclass(eq=False)  # one per card of a picker: compared by identity (a memo prop)
class CardMark:
    """One card's state in a picker's grid: chosen, or greyed (on the table).

    The grid's rows and cells are given these (the same objects for as long as the
    picker is open), not the states themselves: a row is never drawn again for a
    change of its cards, and a cell -- subscribed to its own mark -- is drawn again
    alone when its state changes.  5♥ 6♥ 7♥ melded on another phone redraws those
    three cells on every phone, not their row of thirteen."""

    chosen: bool = False
    disabled: bool = False


#: a picker's marks: one per card, made when first shown
Marks = dict[Card, CardMark]


def _mark(marks: Marks, card: Card) -> CardMark:
    mark = marks.get(card)
    if mark is None:
        mark = marks[card] = CardMark()
    return mark


@ft.component
def _card_cell(
    card: Card, mark: CardMark, on_tap: Callable[[Card], None], ident: str
) -> ft.Control:
    return card_cell(card, chosen=mark.chosen, disabled=mark.disabled, on_tap=on_tap, ident=ident)


#: a card drawn again only when its mark changes (it is chosen, put on the table or
#: taken back): it follows its :class:`CardMark`, so its row is not drawn again for it
CardCell: Callable[..., ft.Control] = ft.memo(_card_cell)  # type: ignore[no-untyped-call]


@ft.component
def _suit_row(
    suit: Suit | None,
    marks: Marks,
    ident: str,
    on_tap: Callable[[Card], None],
    jokers: bool = False,
    switch: tuple[str, Callable[[], None]] | None = None,
) -> ft.Control:
    """One suit's 13 cards (``suit`` None: only the jokers/typing cell row's tail).

    Memoized (:data:`SuitRow`): the props are the picker's marks (one dict for as
    long as the picker is open) and callbacks that keep their identity, so a change
    of the cards chosen or on the table draws no row again -- only the cells whose
    mark changed (:data:`CardCell`), the server's work per device per update
    (issues 14 and 20).
    """
    cells: list[ft.Control] = []
    if suit is not None:
        for rank in Rank:
            card = Card(rank, suit)
            cells.append(
                CardCell(card, _mark(marks, card), on_tap, ident, key=f"{ident}-cell-{card}")
            )
    if jokers:
        cells.append(card_cell(JOKER, chosen=False, disabled=False, on_tap=on_tap, ident=ident))
    if switch is not None:
        label, flip = switch
        cells.append(_typing_switch(False, label, ident, flip))
    return ft.Row(cells, wrap=True, spacing=GAP, run_spacing=GAP)


#: a suit row drawn again only when its props change (see :func:`_suit_row`)
SuitRow: Callable[..., ft.Control] = ft.memo(_suit_row)  # type: ignore[no-untyped-call]


def mark_cards(marks: Marks, chosen: Collection[Card], unavailable: Collection[Card]) -> None:
    """Set every card's mark: chosen, or greyed when on the table and not chosen.  A
    mark that changes redraws its cell (and only it); the others stay as they were."""
    picked = set(chosen)
    off = set(unavailable)
    for suit in Suit:
        for rank in Rank:
            card = Card(rank, suit)
            mark = _mark(marks, card)
            now_chosen, now_off = card in picked, card in off and card not in picked
            if mark.chosen is not now_chosen:  # (an observable's set costs: only on a change)
                mark.chosen = now_chosen
            if mark.disabled is not now_off:
                mark.disabled = now_off


def card_grid(
    chosen: Collection[Card],
    unavailable: Collection[Card],
    *,
    ident: str,
    on_tap: Callable[[Card], None],
    jokers: bool,
    switch: tuple[str, Callable[[], None]],
    marks: Marks | None = None,
) -> ft.Control:
    """All 52 cards, a suit a row (wrapping to 7 a row on a phone), jokers and the
    typing switch after the last suit; each row memoized (:data:`SuitRow`), each card
    following its mark in ``marks`` (a picker's own, kept from render to render; None:
    fresh ones, for a grid drawn once)."""
    marks = {} if marks is None else marks
    mark_cards(marks, chosen, unavailable)
    rows: list[ft.Control] = []
    suits = list(Suit)
    for n, suit in enumerate(suits):
        last = n == len(suits) - 1
        rows.append(
            SuitRow(
                suit,
                marks,
                ident,
                on_tap,
                jokers=jokers and last,
                switch=switch if last else None,
            )
        )
    return ft.Column(rows, spacing=GAP)


@ft.component
def CompactPicker(
    selected: Sequence[Card],
    on_change: Callable[[list[Card]], None],
    *,
    ident: str = "picker",
    label: str = "Cards",
    jokers: bool = False,
    unavailable: Collection[Card] = (),
    max_cards: int | None = None,
    strip: bool = True,
    on_refused: Callable[[str], None] | None = None,
) -> ft.Control:
    """The chosen strip (if ``strip``) over the 52-card grid, or the typing box.

    A tap on a card adds it, a second tap removes it.  With ``max_cards == 1`` a tap
    on another card replaces the chosen one; with more, a tap past the limit is
    refused (the strip says why, or ``on_refused`` hears it).
    """
    typing, set_typing = ft.use_state(False)
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

    def refuse(words: str) -> None:
        if on_refused is not None:
            on_refused(words)
        set_problem(words)

    # the cards as the taps left them: a second tap that arrives before the screen is
    # drawn again builds on the first (read from the render, it would drop it)
    picked = ft.use_ref(chosen)
    picked.current = chosen

    def pick(cards: list[Card]) -> None:
        picked.current = cards
        set_problem("")
        on_change(cards)

    def tap(card: Card) -> None:
        now: list[Card] = picked.current or []
        if card in now and not card.is_joker:
            pick([c for c in now if c != card])
        elif max_cards == 1:
            pick([card])
        elif max_cards is not None and len(now) >= max_cards:
            refuse(f"At most {max_cards} card{'s' if max_cards != 1 else ''} here.")
        else:
            pick([*now, card])

    def on_text(e: ft.Event[ft.TextField]) -> None:
        typed.current = e.control.value or ""

    def submit(_: object = None) -> None:
        text = typed.current or ""
        try:
            cards = list(parse_cards(text))
        except RulesetError as exc:  # in players' words (the rule ID not in the sentence)
            set_problem(exc.words)
            return
        if not jokers and any(c.is_joker for c in cards):
            set_problem(f'"{text}": jokers are not in play in this game')
            return
        blocked = [c for c in cards if c in unavailable]
        if blocked:
            set_problem(
                f'"{text}": {format_cards(blocked, symbols=True)} already on the table or used'
            )
            return
        if max_cards is not None and len(cards) > max_cards:
            set_problem(f'"{text}": at most {max_cards} cards here')
            return
        pick(cards)

    def clear() -> None:
        pick([])

    # callbacks that keep their identity from render to render (the memoized rows')
    latest: dict[str, Callable[..., None]] = ft.use_memo(dict, [])  # this render's tap, flip
    latest["tap"] = tap
    latest["flip"] = lambda: set_typing(not typing)
    stable_tap = ft.use_callback(lambda card: latest["tap"](card), [])
    stable_flip = ft.use_callback(lambda: latest["flip"](), [])
    marks: Marks = ft.use_memo(dict, [])  # each card's state, followed by its cell
    if typing:
        switch = _typing_switch(typing, label, ident, stable_flip)
        body: ft.Control = ft.Column(
            [
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
                            autofocus=True,
                        ),
                        icon_button(
                            ft.Icons.KEYBOARD_RETURN,
                            f"Use typed {in_sentence(label)}",
                            lambda _: submit(),
                            f"{ident}-use-typed",
                        ),
                    ],
                    spacing=4,
                ),
                ft.Row(
                    [
                        ft.Text(problem, color=ft.Colors.ERROR, size=13, expand=True)
                        if problem and not strip
                        else ft.Container(expand=True),
                        switch,
                    ],
                ),
            ],
            spacing=GAP,
        )
    else:
        body = card_grid(
            chosen,
            unavailable,
            ident=ident,
            on_tap=stable_tap,
            jokers=jokers,
            switch=(label, stable_flip),
            marks=marks,
        )
    if not strip:
        return body
    return ft.Column(
        [chosen_strip(label, chosen, ident=ident, on_clear=clear, problem=problem), body],
        spacing=GAP,
    )
