"""The Umtali scoreboard: both sides as melds with their running points, the status
line, a finished hand's result and the game's result.

Pure rendering of the referee's typed :class:`~rulesets.umtali.UmtaliSummary`:
kinds, points, who went out, how a hand ended and who won are the referee's,
with the rule it cites.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.components.kit.card_grid import cards_spans
from companion.components.kit.cards import card_face
from companion.components.kit.common import kind_words, rule_link
from companion.components.kit.ui import slug
from companion.components.umtali.ui import Table
from rulesets.cards import Card, format_cards
from rulesets.protocol import Units
from rulesets.umtali import Phase, Said, UmtaliHand, UmtaliMeld, UmtaliSummary

__all__ = [
    "UmtaliSides",
    "hand_result",
    "meld_caption",
    "meld_chip",
    "side_line",
    "side_panel",
    "side_totals",
    "side_total_text",
    "status_text",
    "words_with_rule",
]

OnPick = Callable[[tuple[str, int]], None]


def side_total_text(name: str, points: int) -> str:
    """The running-points line of one side (what the latency benchmark waits for)."""
    return f"{name}'s side: {Units.POINTS.of(points)}"


def meld_caption(meld: UmtaliMeld, index: int) -> str:
    """ "#2 Marriage · 20", "#1 Single · 1 (on Bob #1)", "#5 Leftover · 5 (from Ann)"."""
    text = f"#{index + 1} {kind_words(meld.kind.value)} · {meld.points}"
    if meld.anchor is not None:
        text += f" (on {meld.anchor[0]} #{meld.anchor[1] + 1})"
    elif meld.by and meld.kind.value == "leftover":
        text += f" (from {meld.by})"
    return text


def meld_tile(
    side: str,
    index: int,
    meld: UmtaliMeld,
    *,
    pickable: bool,
    selected: bool,
    on_pick: OnPick | None,
) -> ft.Control:
    """One meld: its cards and "#n Kind · points"; in Extend mode a tappable anchor."""
    cards = meld.cards
    # Only the content is hidden from assistive technology, not the tap: an excluding
    # wrapper around the tappable box would leave screen readers nothing to press.
    box = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Column(
                [
                    ft.Row([card_face(c, width=30) for c in cards], spacing=2, wrap=True),
                    ft.Text(meld_caption(meld, index), size=12),
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
    words = f"{side}'s meld {index + 1}: {meld.words}, {Units.POINTS.of(meld.points)}"
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


def _badge(text: str) -> ft.Control:
    return ft.Container(
        content=ft.Text(text, size=12, color=ft.Colors.ON_SECONDARY_CONTAINER),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border_radius=10,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def _side_head(name: str, points: int, badges: Sequence[str], *, size: int) -> list[ft.Control]:
    """The side's total ("Bob's side: 3 points", found by its identifier) and its badges."""
    return [
        ft.Semantics(
            content=ft.Text(side_total_text(name, points), size=size, weight=ft.FontWeight.BOLD),
            identifier=f"side-total-{slug(name)}",
        ),
        *[_badge(b) for b in badges],
    ]


def side_panel(
    name: str,
    melds: Sequence[UmtaliMeld],
    points: int,
    *,
    badges: Sequence[str] = (),
    pickable: bool = False,
    anchor: tuple[str, int] | None = None,
    on_pick: OnPick | None = None,
) -> ft.Control:
    """A player's side: the running points, then every meld on it."""
    head = _side_head(name, points, badges, size=17)
    tiles = [
        meld_tile(name, i, m, pickable=pickable, selected=anchor == (name, i), on_pick=on_pick)
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


def status_text(summary: UmtaliSummary) -> str:
    """ "Hand 1 of 4 · Ann dealt · Bob to play" (or whose final turn it is)."""
    current = summary.detail.current
    if current is None:
        return summary.detail.hand_label
    text = f"{summary.detail.hand_label} · {current.dealer} dealt"
    if current.phase == Phase.FINAL:
        text += f" · {current.went_out} went out: {current.turn}'s final turn"
    elif current.turn:
        text += f" · {current.turn} to play"
    return text


def _badges(summary: UmtaliSummary, player: str) -> list[str]:
    current = summary.detail.current
    if current is None:
        return []
    out = []
    if player == current.dealer:
        out.append("Dealer")
    if player == current.turn:
        out.append("Final turn" if current.phase == Phase.FINAL else "To play")
    if player == current.went_out:
        out.append("Went out")
    return out


def meld_chip(
    side: str, index: int, meld: UmtaliMeld, *, selected: bool, on_pick: OnPick | None
) -> ft.Control:
    """One meld on the live board, one thumb-sized line: "5♥ 6♥ 7♥ · 3".  A tap on it
    extends it (it becomes the anchor of the entry)."""
    cards = meld.cards
    # Only the content is hidden from assistive technology, not the tap (see meld_tile).
    box = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Text(
                spans=[
                    *cards_spans(cards, size=15),
                    ft.TextSpan(f"  {meld.points}", style=ft.TextStyle(size=12)),
                ],  # it wraps: as wide as its cards, a run of 13 takes two lines, never cut
            ),
        ),
        # 12 px above and below the line: a 44 px target as wide as its cards (an
        # alignment would stretch it across the row)
        padding=ft.Padding.symmetric(horizontal=8, vertical=12),
        border_radius=8,
        border=ft.Border.all(
            3 if selected else 1, ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER if selected else ft.Colors.SURFACE,
        on_click=(lambda _: on_pick((side, index))) if on_pick else None,
        ink=on_pick is not None,
    )
    words = f"{side}'s meld {index + 1}: {meld.words}, {Units.POINTS.of(meld.points)}"
    return ft.Semantics(
        content=box,
        label=words,
        identifier=f"meld-{slug(side)}-{index}",
        button=on_pick is not None,
        selected=selected,
        container=True,
        key=f"meld-{side}-{index}",
    )


def side_line(
    name: str,
    melds: Sequence[UmtaliMeld],
    *,
    anchor: tuple[str, int] | None = None,
    on_pick: OnPick | None = None,
) -> ft.Control:
    """A side's melds on the live board, under its name (its total is in the fixed
    head, :func:`side_totals`, so it never scrolls away)."""
    chips = [
        meld_chip(name, i, m, selected=anchor == (name, i), on_pick=on_pick)
        for i, m in enumerate(melds)
    ]
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(f"{name}'s side", size=13, weight=ft.FontWeight.W_600),
                ft.Row(chips, wrap=True, spacing=4, run_spacing=4)
                if chips
                else ft.Text("No melds yet.", italic=True, size=13),
            ],
            spacing=4,
        ),
        padding=ft.Padding.symmetric(horizontal=6, vertical=6),
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        # one above the other on a phone (a full row of melds each); side by side wider
        col={"xs": 12, "sm": 6},
    )


@ft.component
def _total_cell(name: str, points: int, badges: tuple[str, ...]) -> ft.Control:
    return ft.Container(
        ft.Row(
            _side_head(name, points, badges, size=14),
            spacing=4,
            run_spacing=2,
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        expand=True,
    )


#: one side's total and badges, drawn again only when they change (a meld moves one
#: side's points; the turn moves the badges)
TotalCell: Callable[..., ft.Control] = ft.memo(_total_cell)  # type: ignore[no-untyped-call]


@ft.component
def _totals_head(cells: tuple[tuple[str, int, tuple[str, ...]], ...]) -> ft.Control:
    row: list[ft.Control] = [
        TotalCell(name, points, badges, key=f"total-{name}") for name, points, badges in cells
    ]
    return ft.Container(
        ft.Row(row, spacing=6, vertical_alignment=ft.CrossAxisAlignment.START),
        padding=ft.Padding.symmetric(horizontal=6, vertical=2),
    )


#: the totals drawn again only when a side's points or badges change: at a table every
#: device redraws on every entry, and most entries leave them as they were
TotalsHead: Callable[..., ft.Control] = ft.memo(_totals_head)  # type: ignore[no-untyped-call]


def side_totals(summary: UmtaliSummary) -> ft.Control:
    """Both sides' running points and badges, one column each: the table's fixed head,
    in sight however far the board below is scrolled."""
    current = summary.detail.current
    if current is None:
        return ft.Container()
    cells = tuple(
        (p, current.scores.get(p, 0), tuple(_badges(summary, p))) for p in summary.players
    )
    return TotalsHead(cells, key="side-totals")


@ft.component
def _side(
    name: str, melds: tuple[UmtaliMeld, ...], picked: int | None, on_pick: OnPick
) -> ft.Control:
    return side_line(
        name, melds, anchor=(name, picked) if picked is not None else None, on_pick=on_pick
    )


#: a side drawn again only when its own melds or its picked anchor change (its
#: handler, :meth:`Taps.pick_anchor`, is the same from render to render)
SideLine: Callable[..., ft.Control] = ft.memo(_side)  # type: ignore[no-untyped-call]


@ft.component
def UmtaliSides(table: Table) -> ft.Control:
    """The hand in play: both sides' melds, each meld a one-tap anchor for an extension;
    each side a memoized :data:`SideLine`."""
    summary, ui = table.summary, table.ui
    current = summary.detail.current
    if current is None:
        return ft.Container()
    anchor = ui.anchor if ui.mode == "extend" else None
    return ft.ResponsiveRow(
        [
            SideLine(
                p,
                tuple(current.sides.get(p, ())),
                anchor[1] if anchor is not None and anchor[0] == p else None,
                table.taps.pick_anchor,
                key=f"side-{p}",
            )
            for p in summary.players
        ],
        spacing=6,
        run_spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def words_with_rule(words: Said, ident: str) -> ft.Control:
    """The referee's words about the game, with the link to the rule they cite."""
    return ft.Row(
        [ft.Text(words.text), rule_link(words.rule, f"{ident}-rule")],
        wrap=True,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def hand_result(hand: UmtaliHand, players: Sequence[str]) -> ft.Control:
    """A finished hand: how it ended (with its rule), then both sides as melds."""
    panels: list[ft.Control] = [
        ft.Container(
            content=side_panel(p, hand.sides.get(p, ()), hand.scores.get(p, 0)),
            col={"xs": 12, "md": 6},
        )
        for p in players
    ]
    parts: list[ft.Control] = [
        ft.Text(f"Hand {hand.number} result", size=18, weight=ft.FontWeight.BOLD)
    ]
    if hand.outcome is not None:
        parts.append(words_with_rule(hand.outcome, "hand-outcome"))
    parts.append(ft.ResponsiveRow(panels, spacing=8, run_spacing=8))
    return ft.Column(parts, spacing=6)


def cards_text(cards: Sequence[Card] | Card) -> str:
    """Cards as a person reads them ("K♠ Q♠")."""
    return format_cards((cards,) if isinstance(cards, Card) else cards, symbols=True)
