"""Rummy scores: the running totals, the sheet of finished hands, the result.

Everything shown comes from the referee's typed summary
(:class:`~rulesets.rummy.RummySummary`): penalties, doubled hands, typed
totals, the dealer, the winners, the units and the rules it cites.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.components.kit.common import rule_link, rule_words, said, tag
from companion.components.kit.ui import slug
from companion.session import Refusal
from rulesets.cards import format_cards
from rulesets.rummy import RULESET, HandLine, RummyHand, RummySummary

__all__ = [
    "box",
    "goal_text",
    "hand_lines",
    "hand_sheet",
    "hand_title",
    "radio",
    "refusal_note",
    "scoreboard",
    "status_line",
]


def refusal_note(refusal: Refusal | None, ident: str) -> list[ft.Control]:
    """The referee's "no" to an entry just tried, shown where it was tried, with its rule."""
    if refusal is None:
        return []
    text = f"Not recorded: {refusal.message}"
    out: list[ft.Control] = [
        said(
            ft.Row(
                [
                    ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
                    ft.Text(text, color=ft.Colors.ERROR, expand=True),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            text + (f" ({rule_words(refusal.rule)})" if refusal.rule else ""),
            ident,
        )
    ]
    if refusal.rule:
        out.append(ft.Row([rule_link(refusal.rule, f"{ident}-rule")], wrap=True))
    return out


def radio(value: str, label: str) -> ft.Radio:
    """A radio button sized to its label, so several share a line on a phone."""
    return ft.Radio(value=value, label=label, width=min(60 + 9 * len(label), 320))


def box(content: ft.Control, *, tone: str = ft.Colors.SURFACE_CONTAINER_HIGHEST) -> ft.Container:
    return ft.Container(content=content, bgcolor=tone, border_radius=10, padding=10)


def goal_text(summary: RummySummary) -> str:
    """Target or hands left, as the referee's summary has them (R6.3, R7)."""
    d = summary.detail
    wins = "highest total wins" if summary.higher_is_better else "lowest total wins"
    if d.fixed_rounds is not None:
        return f"{d.fixed_rounds} hands, {d.hands_left} left to score; {wins}"
    if summary.higher_is_better:
        return f"Target {d.target}: the first to reach {d.target} wins"
    return f"Target {d.target}: the game ends when a total reaches {d.target}; {wins}"


def status_line(summary: RummySummary) -> str:
    """Hand number, dealer and who plays first, in the ruleset's words (R1.2, R1.4)."""
    done = len(summary.hands)
    dealer = summary.dealer
    if summary.finished or dealer is None:
        return f"{done} hands played"
    text = RULESET.opening(summary.players, dealer).text
    if summary.in_hand:
        return f"Hand {summary.hand}: {text}"
    return f"Hand {done} is scored. Next, hand {done + 1}: {text}"


def _dealer_badge() -> ft.Control:
    return ft.Container(
        ft.Text("Dealer", size=12, color=ft.Colors.ON_PRIMARY_CONTAINER),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
        border_radius=6,
        padding=ft.Padding.symmetric(horizontal=6, vertical=2),
    )


def scoreboard(summary: RummySummary) -> ft.Control:
    """Each player's running total, the dealer marked, with progress to the target."""
    target = summary.detail.target
    dealer = summary.dealer if not summary.finished else None
    rows: list[ft.Control] = []
    for p in summary.players:
        total = summary.totals.get(p, 0)
        name_bits: list[ft.Control] = [
            ft.Text(p, size=16, weight=ft.FontWeight.W_500, no_wrap=False, expand=True)
        ]
        if p == dealer:
            name_bits.append(_dealer_badge())
        name_bits.append(ft.Text(str(total), size=20, weight=ft.FontWeight.BOLD))
        parts: list[ft.Control] = [
            ft.Row(name_bits, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        ]
        if target is not None:
            parts.append(ft.ProgressBar(value=min(max(total, 0) / target, 1.0), bar_height=6))
        label = f"{p}: total {summary.units.of(total)}" + (", dealer" if p == dealer else "")
        rows.append(said(ft.Column(parts, spacing=2), label, f"total-{slug(p)}"))
    title = "Balances" if summary.detail.settlement is not None else "Totals"
    return box(
        ft.Column(
            [
                ft.Text(f"{title} ({summary.units.value})", weight=ft.FontWeight.BOLD),
                *rows,
                ft.Text(goal_text(summary), size=13, italic=True),
            ],
            spacing=6,
        )
    )


def _line_text(line: HandLine, doubled: bool) -> str:
    if line.went_out:
        return f"{line.player}: went out, {line.score}"
    if line.typed:
        what = f"typed {line.penalty}"
    elif line.cards is not None:
        shown = format_cards(line.cards, symbols=True) or "no cards"
        what = f"{shown} = {line.penalty}"
    else:
        what = str(line.penalty or 0)
    if line.penalty is not None and line.score != line.penalty:
        what += f" ×2 = {line.score}" if doubled else f", scores {line.score}"
    return f"{line.player}: {what}"


def hand_lines(hand: RummyHand, players: tuple[str, ...]) -> list[str]:
    """One line per player for a finished hand, as the referee scored it."""
    return [_line_text(line, hand.doubled) for line in hand.lines(players)]


def hand_title(hand: RummyHand) -> str:
    who = hand.went_out
    out = f"{who} went out" if who else "nobody went out (stock ran out)"
    title = f"Hand {hand.number} · {hand.dealer} dealt · {out}"
    if hand.going_rummy:
        title += " · going rummy" + (" ×2" if hand.doubled else "")
    return title


def _hand_box(
    hand: RummyHand, players: tuple[str, ...], on_edit: Callable[[int], None] | None
) -> ft.Control:
    n = hand.number
    totals = " · ".join(f"{p} {hand.totals.get(p, 0)}" for p in players)
    body: list[ft.Control] = [
        ft.Text(hand_title(hand), weight=ft.FontWeight.W_500),
        *[
            said(ft.Text(line), f"Hand {n}, {line}", f"hand-{n}-{slug(p)}")
            for line, p in zip(hand_lines(hand, players), players, strict=True)
        ],
        ft.Text(f"Totals: {totals}", size=13, italic=True),
    ]
    if hand.typed:
        body.append(ft.Text("typed = a total typed in, cards not shown", size=12))
    if on_edit is not None:
        body.append(
            tag(
                ft.TextButton(
                    f"Edit hand {n}", icon=ft.Icons.EDIT, on_click=lambda _, n=n: on_edit(n)
                ),
                f"edit-hand-{n}",
            )
        )
    return box(ft.Column(body, spacing=2))


def hand_sheet(summary: RummySummary, on_edit: Callable[[int], None] | None) -> ft.Control:
    """The score sheet: every finished hand, newest first, each one editable."""
    if not summary.hands:
        return ft.Container()
    items: list[ft.Control] = [ft.Text("Score sheet", weight=ft.FontWeight.BOLD)]
    items += [_hand_box(h, summary.players, on_edit) for h in reversed(summary.hands)]
    return ft.Column(items, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
