"""Controls every screen shares: the rule link, the verdict line, choice buttons.

One implementation each, so a rule link or a verdict looks and reads the same
on every screen, and a change (e.g. opening rules over the table) is made once.

KEYS: every control with a test/accessibility identifier also carries it as its
key.  Flutter web sets a semantics node's identifier when it creates the node
and does not update it when the widget in that place changes (seen with Flet
1.0.5): without a key, "record-poker" could name whatever button later takes
its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion import rulebook
from companion.components.kit.rule_sheet import show_rule
from companion.components.kit.thumb_screen import TABLE_WIDTH, FrameNotes
from companion.components.kit.ui import labelled, slug, tap_target
from companion.rulebook import published_id
from rulesets.protocol import Units, Verdict

__all__ = [
    "READABLE_WIDTH",
    "button",
    "choice",
    "kind_words",
    "readable",
    "rule_link",
    "rule_words",
    "said",
    "tag",
    "thumb_board_screen",
    "verdict_line",
]

#: the widest a form, a list or a page of text grows on a desktop (lines stay readable)
READABLE_WIDTH = 720


def readable(controls: Sequence[ft.Control], *, spacing: int = 8) -> ft.Control:
    """``controls`` in a column at most :data:`READABLE_WIDTH` wide, centred in the row
    it sits in -- the whole width of a phone, a readable column on a desktop."""
    return ft.Row(
        [
            ft.Container(
                ft.Column(list(controls), spacing=spacing),
                width=READABLE_WIDTH,
                expand=True,
                expand_loose=True,  # up to READABLE_WIDTH, less on a phone
            )
        ],
        alignment=ft.MainAxisAlignment.CENTER,
    )


def rule_words(rule: str) -> str:
    """A rule as a rule link names it, for a label that cites it: its title, then
    "rule U5.1" or, for one of our rulings, "our ruling A-M11" -- never "rule A-M11".

    >>> rule_words("U5.1"), rule_words("A-M11")
    ('Sets, rule U5.1', 'Who gets the per-card chips, our ruling A-M11')
    """
    sec = rulebook.section(rule)
    return f"Rule {published_id(rule)}" if sec is None else f"{sec.name}, {sec.cited}"


def rule_link(
    rule: str,
    ident: str | None = None,
    *,
    align: ft.Alignment | None = None,
    stacked: bool = False,
) -> ft.Control:
    """The link to a rule every verdict, refusal and ledger line carries: the rule's
    title in players' words, with its ID small beside it ("Sets U5.1"), never a bare
    "Rule U5.1".

    It opens the rule in a sheet over the current screen (``rule_sheet``), so
    reading a rule never leaves the table; the sheet closes back to it with one tap.
    ``align`` places the words in a link made wider than them (a slot it fills).
    ``stacked`` puts the ID under the title, for a narrow slot (the entry bar's, 112
    px): beside it, a title had some 45 px at a 360 px phone and broke mid-word
    ("Bettin g"); over the ID it has the slot's whole width.
    """
    ident = ident or f"rule-{slug(rule)}"
    sec = rulebook.section(rule)
    if sec is None:  # not in the rulebook: its ID is all there is to show
        title, small = f"Rule {published_id(rule)}", ""
    else:
        title, small = sec.title, sec.shown_id
    label = rule_words(rule)
    # the title is a text of its own, not a span: Flet 1.0.5 drops the "…" of a text
    # made of spans, so a title cut short ("Lay off onto any") would say nothing of it.
    # It wraps to a second line where the link's room is narrow, then ends in "…"
    # (the label and the sheet it opens say it whole); the ID beside it is never cut.
    words: ft.Control
    if stacked:  # two short lines of title over the ID: 30 + 12 px in the 44 px button
        words = ft.Column(
            [
                ft.Text(
                    title,
                    size=13,
                    style=ft.TextStyle(height=1.15),
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
                *([ft.Text(small, size=10, color=ft.Colors.OUTLINE)] if small else []),
            ],
            spacing=0,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
        )
    else:
        words = ft.Row(
            [
                ft.Text(
                    title,
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                    expand_loose=True,
                ),
                *([ft.Text(small, size=11, color=ft.Colors.OUTLINE)] if small else []),
            ],
            spacing=6,
            tight=True,
        )
    return labelled(
        ft.TextButton(
            content=words,
            icon=ft.Icons.MENU_BOOK,
            on_click=lambda _, r=rule: show_rule(r),
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=6), alignment=align),
            height=44,
        ),
        label,
        ident,
        button=True,
        key=ident,
    )


def said(
    control: ft.Control, label: str, ident: str, *, expand: bool | int = False
) -> ft.Semantics:
    """Something to read, not to press: one clear sentence for screen readers (and tests);
    the text inside is not read twice."""
    return ft.Semantics(
        content=control,
        label=label,
        identifier=ident,
        key=ident,  # a new node when the meaning changes (see KEYS)
        container=True,
        exclude_semantics=True,
        expand=expand,
    )


def tag(control: ft.Control, ident: str, *, expand: bool = False) -> ft.Semantics:
    """A stable test id on a control that already has its own name (a labelled button)."""
    if expand:  # (expand=False is not "no expand" to the client: leave it unset)
        return ft.Semantics(content=control, identifier=ident, expand=True, key=ident)
    return ft.Semantics(content=control, identifier=ident, key=ident)


def button(
    text: str,
    on_click: Callable[..., Any],
    ident: str,
    *,
    filled: bool = False,
    icon: ft.IconData | None = None,
    disabled: bool = False,
    label: str | None = None,
) -> ft.Control:
    """A thumb-sized (44 px) labelled button."""
    cls = ft.FilledButton if filled else ft.OutlinedButton
    ctl = cls(text, icon=icon, on_click=on_click, disabled=disabled, height=44)
    return labelled(ctl, label or text, ident, button=True, key=ident)


def choice(
    text: str,
    chosen: bool,
    on_click: Callable[..., Any],
    ident: str,
    label: str | None = None,
    *,
    fill: bool = False,
) -> ft.Control:
    """A toggle chip: a player, a pot or a mode to pick (thumb-sized).  ``fill``: as
    wide as the slot it is given, its words centred (a row of equal slots)."""
    chip = ft.Container(
        content=ft.Text(
            text,
            size=15,
            no_wrap=fill,
            overflow=ft.TextOverflow.ELLIPSIS if fill else ft.TextOverflow.CLIP,
            text_align=ft.TextAlign.CENTER if fill else ft.TextAlign.START,
            # one weight, chosen or not: a chip never changes width when tapped, so
            # the chips beside it stay put (chosen shows in its colours)
            weight=ft.FontWeight.W_500,
            color=ft.Colors.ON_PRIMARY if chosen else None,
        ),
        # 11 px above and below a 15 px line: 45 px, a thumb-sized target (issue 15: >= 44)
        padding=ft.Padding.symmetric(horizontal=4 if fill else 14, vertical=11),
        alignment=ft.Alignment.CENTER if fill else None,
        border_radius=22,
        bgcolor=ft.Colors.PRIMARY if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=on_click,
        ink=True,
    )
    return tap_target(chip, label or text, ident, selected=chosen)


def kind_words(kind: str | None) -> str:
    """A verdict's ``kind`` as a heading: "sequence" -> "Sequence", "lay_off" -> "Lay off"."""
    words = (kind or "").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def verdict_line(
    v: Verdict | None, *, ident: str = "verdict", empty: str = "", units: Units = Units.POINTS
) -> ft.Control:
    """The referee's live verdict: kind and points (in ``units``, :meth:`Units.meld`), or
    the reason -- always with its rule."""
    if v is None:
        return ft.Text(empty, size=13, italic=True) if empty else ft.Container()
    if v.legal:
        head = kind_words(v.kind) or "Allowed"
        if v.points is not None:
            head += f": {units.meld(v.points) if v.cards else units.of(v.points)}"
        color = None
        bg = ft.Colors.SURFACE_CONTAINER_HIGH
        icon = ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY)
    elif v.incomplete:  # a meld still being picked: neutral, nothing is wrong yet
        head = "Keep picking"
        color = None
        bg = ft.Colors.SURFACE_CONTAINER_HIGH
        icon = ft.Icon(ft.Icons.TOUCH_APP, color=ft.Colors.ON_SURFACE_VARIANT)
    else:
        head = "Not allowed"
        color = ft.Colors.ON_ERROR_CONTAINER
        bg = ft.Colors.ERROR_CONTAINER
        icon = ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR)
    lines: list[ft.Control] = [
        ft.Row(
            [icon, ft.Text(head, weight=ft.FontWeight.BOLD, color=color, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        ft.Text(v.said, color=color),
    ]
    for note in v.said_notes:
        lines.append(ft.Text(note, size=12, italic=True, color=color))
    if v.rule:
        lines.append(rule_link(v.rule, f"{ident}-rule"))
    label = f"{head}. {v.said}" + (f" ({rule_words(v.rule)})" if v.rule else "")
    return ft.Semantics(
        content=ft.Container(
            content=ft.Column(lines, spacing=4), bgcolor=bg, border_radius=8, padding=8
        ),
        identifier=ident,
        key=ident,
        label=label,
        container=True,
    )


def thumb_board_screen(
    *,
    head: Sequence[ft.Control] = (),
    board: Sequence[ft.Control] = (),
    entry: Sequence[ft.Control] = (),
    bar: ft.Control | None = None,
    board_ident: str = "board",
) -> ft.Control:
    """A table whose board may hold more than a phone's screen: the board and the
    entry scroll together as the page, anchored at the bottom; ``head`` (fixed, at
    the top: what must never scroll away, e.g. the sides' totals) and ``bar`` (the
    verdict and the action, pinned under the thumb) stay put.

    ::

        ┌──────────────────────────┐
        │ the frame's note, head   │  fixed (the note's slot is one line, kept at a
        │                          │  table: a note never moves what is below it)
        │ board  ▲ grows upwards   │  ┐ one scrolling area, as tall as the screen
        │ entry (next to the bar)  │  ┘ allows, held at its bottom
        │ bar: verdict · action    │  pinned
        └──────────────────────────┘

    The scrolling area is anchored at its bottom (a reversed list): the entry starts
    in sight next to the bar, and a meld added to the board, a note or a sheet opened
    above it grows the area upwards -- nothing under the thumb moves.  A board of
    any size is reached by scrolling that one tall area, never an inner box.
    """
    column: list[ft.Control] = [FrameNotes(), *head]
    column.append(
        ft.Semantics(
            content=ft.ListView(
                # reversed: the first child sits at the bottom, next to the bar.  One
                # item per control: Flutter web gives a text field the box of the list
                # item it is in, so an item that held the whole entry made a field
                # 250 px tall that covered the rows above it
                [*reversed(entry), *reversed(board)],
                reverse=True,
                # every item built and in the accessibility tree, however far off
                # screen (a lazy list would drop the top of a tall board from it)
                build_controls_on_demand=False,
                cache_extent=10_000,
                spacing=8,
                # a little room past the top of the board: scrolled all the way, its
                # first line is not flush with the edge (it reads as cut off)
                padding=ft.Padding.only(top=6),
                expand=True,
            ),
            identifier=board_ident,
            container=True,
            expand=True,
        )
    )
    if bar is not None:
        column.append(bar)
    return ft.Row(
        [
            ft.Container(
                ft.Column(column, spacing=4, expand=True),
                width=TABLE_WIDTH,
                expand=True,
                expand_loose=True,
            )
        ],
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        expand=True,
    )
