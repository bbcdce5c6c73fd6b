"""Pieces of the Umtali table screen: a side of melds, a verdict line, the hand sheet.

Pure rendering: everything shown (kinds, points, totals, reasons, rule IDs)
comes from the referee's summary dict or its :class:`~rulesets.protocol.Verdict`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion.components.cards import card_face
from companion.routes import rule_route
from companion.ui import go, slug
from rulesets.cards import format_cards, parse_cards
from rulesets.protocol import Verdict

KIND_WORDS = {
    "set": "Set",
    "sequence": "Sequence",
    "marriage": "Marriage",
    "jack": "Jack",
    "single": "Single",
    "pair": "Pair",
    "leftover": "Leftover",
}


def side_total_text(name: str, points: int) -> str:
    """The running-points line of one side (what the latency benchmark waits for)."""
    return f"{name}'s side: {points} point{'s' if points != 1 else ''}"


def meld_caption(meld: dict[str, Any], index: int) -> str:
    kind = KIND_WORDS.get(str(meld.get("kind")), str(meld.get("kind")).title())
    pts = int(meld.get("points", 0))
    text = f"#{index + 1} {kind} · {pts}"
    anchor = meld.get("anchor")
    if anchor:
        text += f" (on {anchor[0]} #{int(anchor[1]) + 1})"
    elif meld.get("kind") == "leftover":
        text += f" (from {meld.get('by')})"
    return text


def meld_words(meld: dict[str, Any]) -> str:
    cards = parse_cards(list(meld.get("cards", [])))
    return f"{KIND_WORDS.get(str(meld.get('kind')), '')} {format_cards(cards, symbols=True)}"


def meld_tile(
    side: str,
    index: int,
    meld: dict[str, Any],
    *,
    pickable: bool,
    selected: bool,
    on_pick: Callable[[tuple[str, int]], None] | None,
) -> ft.Control:
    """One meld: its cards and "#n Kind · points"; in Extend mode a tappable anchor."""
    cards = parse_cards(list(meld.get("cards", [])))
    caption = meld_caption(meld, index)
    # Only the content is hidden from assistive technology, not the tap: an excluding
    # wrapper around the tappable box would leave screen readers nothing to press.
    box = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Column(
                [
                    ft.Row([card_face(c, width=30) for c in cards], spacing=2, wrap=True),
                    ft.Text(caption, size=12),
                ],
                spacing=2,
                tight=True,
            ),
        ),
        padding=5,
        border_radius=8,
        border=ft.Border.all(
            3 if selected else 1,
            ft.Colors.PRIMARY if selected or pickable else ft.Colors.OUTLINE_VARIANT,
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER if selected else None,
        on_click=(lambda _: on_pick((side, index))) if pickable and on_pick else None,
        ink=pickable,
    )
    words = f"{side}'s meld {index + 1}: {meld_words(meld)}, {meld.get('points', 0)} points"
    return ft.Semantics(
        content=box,
        label=("Anchor " if pickable else "") + words,
        identifier=f"meld-{slug(side)}-{index}",
        button=pickable,
        selected=selected if pickable else None,
        container=True,
        # a fresh node when the role changes: Flutter web drops the identifier otherwise
        key=f"meld-{side}-{index}-{'anchor' if pickable else 'meld'}",
    )


def side_panel(
    name: str,
    melds: Sequence[dict[str, Any]],
    points: int,
    *,
    badges: Sequence[str] = (),
    pickable: bool = False,
    anchor: tuple[str, int] | None = None,
    on_pick: Callable[[tuple[str, int]], None] | None = None,
) -> ft.Control:
    """A player's side: the running points, then every meld on it."""
    total = side_total_text(name, points)
    head: list[ft.Control] = [
        ft.Semantics(
            content=ft.Text(total, size=17, weight=ft.FontWeight.BOLD),
            identifier=f"side-total-{slug(name)}",
        )
    ]
    for b in badges:
        head.append(
            ft.Container(
                content=ft.Text(b, size=12, color=ft.Colors.ON_SECONDARY_CONTAINER),
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            )
        )
    tiles = [
        meld_tile(
            name,
            i,
            m,
            pickable=pickable,
            selected=anchor == (name, i),
            on_pick=on_pick,
        )
        for i, m in enumerate(melds)
    ]
    body: ft.Control = (
        ft.Row(tiles, wrap=True, spacing=6, run_spacing=6)
        if tiles
        else ft.Text("No melds yet.", italic=True, size=13)
    )
    return ft.Container(
        content=ft.Column(
            [
                ft.Row(head, wrap=True, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                body,
            ],
            spacing=6,
        ),
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


def rule_link(rule: str) -> ft.Control:
    return ft.TextButton(
        f"Rule {rule}",
        icon=ft.Icons.MENU_BOOK,
        on_click=lambda _, r=rule: go(rule_route(r)),
    )


def verdict_line(v: Verdict | None, *, ident: str = "verdict", empty: str = "") -> ft.Control:
    """The referee's live verdict: kind and points, or the reason -- always with its rule."""
    if v is None:
        return ft.Text(empty, size=13, italic=True) if empty else ft.Container()
    if v.legal:
        kind = KIND_WORDS.get(v.kind or "", (v.kind or "").replace("_", " ").capitalize())
        pts = v.points or 0
        head = f"{kind}: {pts} point{'s' if pts != 1 else ''}"
        color = None
        bg = ft.Colors.SURFACE_CONTAINER_HIGH
        icon = ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY)
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
        ft.Text(v.reason, color=color),
    ]
    for note in v.notes:
        lines.append(ft.Text(note, size=12, italic=True, color=color))
    if v.rule:
        lines.append(rule_link(v.rule))
    label = f"{head}. {v.reason}" + (f" (rule {v.rule})" if v.rule else "")
    return ft.Semantics(
        content=ft.Container(
            content=ft.Column(lines, spacing=4), bgcolor=bg, border_radius=8, padding=8
        ),
        identifier=ident,
        label=label,
        container=True,
    )


def hands_sheet(
    summary: dict[str, Any],
    *,
    on_edit: Callable[[int], None] | None = None,
    editing: int | None = None,
) -> ft.Control:
    """Score sheet: one row per hand (dealer, each player's score), then the totals."""
    players: list[str] = list(summary.get("players", []))
    hands: list[dict[str, Any]] = list(summary.get("hands", []))

    def cell(text: str, *, bold: bool = False, expand: int = 2) -> ft.Control:
        return ft.Text(
            text,
            expand=expand,
            weight=ft.FontWeight.BOLD if bold else None,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
        )

    rows: list[ft.Control] = [
        ft.Row(
            [cell("Hand", bold=True, expand=2)]
            + [cell(p, bold=True, expand=2) for p in players]
            + [ft.Container(width=96)]
        )
    ]
    for h in hands:
        n = int(h["number"])
        scores = h.get("scores", {})
        how = "stock empty" if h.get("ended") == "empty_stock" else f"{h.get('went_out')} out"
        label = f"Hand {n}: " + ", ".join(f"{p} {scores.get(p, 0)}" for p in players)
        row: list[ft.Control] = [
            ft.Column(
                [ft.Text(f"{n}", weight=ft.FontWeight.BOLD), ft.Text(how, size=11)],
                spacing=0,
                expand=2,
            )
        ]
        row += [cell(str(scores.get(p, 0))) for p in players]
        if on_edit is not None:
            row.append(
                ft.Semantics(
                    content=ft.TextButton(
                        "Editing" if editing == n else f"Edit {n}",
                        icon=ft.Icons.EDIT,
                        on_click=lambda _, n=n: on_edit(n),
                        width=96,
                    ),
                    identifier=f"edit-hand-{n}",
                )
            )
        else:
            row.append(ft.Container(width=96))
        rows.append(
            ft.Semantics(
                content=ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                label=label,
                identifier=f"hand-row-{n}",
                container=True,
            )
        )
    totals = summary.get("totals", {})
    label = "Totals: " + ", ".join(f"{p} {totals.get(p, 0)}" for p in players)
    rows.append(ft.Divider(height=4))
    rows.append(
        ft.Semantics(
            content=ft.Row(
                [cell("Total", bold=True)]
                + [cell(str(totals.get(p, 0)), bold=True) for p in players]
                + [ft.Container(width=96)]
            ),
            label=label,
            identifier="totals-row",
            container=True,
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=2),
        padding=10,
        border_radius=10,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


def hand_detail(hand: dict[str, Any], players: Sequence[str]) -> ft.Control:
    """A finished hand: both sides as melds with their points, and how it ended."""
    n = hand.get("number")
    if hand.get("ended") == "empty_stock":
        how = "The stock ran out: each side scores itself, hands score 0 (U4.6)."
    elif hand.get("both_out"):
        first = hand.get("went_out")
        other = next((p for p in players if p != first), "the other player")
        how = f"{first} went out, then {other} went out too: nothing moved (U8.5)."
    else:
        how = f"{hand.get('went_out')} went out; the leftovers moved to that side (U8.4)."
    sides = hand.get("sides", {})
    scores = hand.get("scores", {})
    panels: list[ft.Control] = [
        ft.Container(
            content=side_panel(p, sides.get(p, []), int(scores.get(p, 0))),
            col={"xs": 12, "md": 6},
        )
        for p in players
    ]
    return ft.Column(
        [
            ft.Text(f"Hand {n} result", size=18, weight=ft.FontWeight.BOLD),
            ft.Text(how),
            ft.ResponsiveRow(panels, spacing=8, run_spacing=8),
        ],
        spacing=6,
    )
