"""Rummy scores: the running totals, the sheet of finished hands, the result.

Everything shown comes from the referee's replay summary (``rulesets.rummy``):
penalties, doubled hands, typed totals, the dealer and the winners.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.components.rummy_entry import cards_of
from companion.games import opening
from companion.routes import rule_route
from companion.session import Refusal
from companion.ui import go, slug
from rulesets.cards import format_cards


def rule_link(rule: str, ident: str | None = None) -> ft.Control:
    """A small button that opens the rule a verdict cites."""
    button = ft.TextButton(f"Rule {rule}", on_click=lambda _, r=rule: go(rule_route(r)))
    return tag(button, ident) if ident else button


def said(control: ft.Control, label: str, ident: str) -> ft.Semantics:
    """Something to read, not to press: one clear sentence for screen readers (and tests)."""
    return ft.Semantics(
        content=control,
        label=label,
        identifier=ident,
        container=True,
        exclude_semantics=True,
        key=ident,
    )


def tag(control: ft.Control, ident: str, *, expand: bool = False) -> ft.Semantics:
    """A stable test id on a control that already has its own name (a labelled button)."""
    # keyed by its id: the web client does not update the id of a reused node
    if expand:  # (expand=False is not "no expand" to the client: leave it unset)
        return ft.Semantics(content=control, identifier=ident, expand=True, key=ident)
    return ft.Semantics(content=control, identifier=ident, key=ident)


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
            text + (f" (rule {refusal.rule})" if refusal.rule else ""),
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


def unit(summary: dict[str, Any]) -> str:
    return "points" if summary.get("scoring") == "winner_takes_all" else "penalty"


def goal_text(summary: dict[str, Any]) -> str:
    """Target or hands left, in the words of the house rules (R6.3, R7)."""
    rules = summary.get("rules", {})
    done = len(summary.get("hands", []))
    rounds = rules.get("fixed_rounds")
    lowest = summary.get("scoring") != "winner_takes_all"
    wins = "lowest total wins" if lowest else "highest total wins"
    if rounds:
        left = max(int(rounds) - done, 0)
        return f"{rounds} hands, {left} left to score; {wins}"
    target = int(rules.get("target", 100))
    if lowest:
        return f"Target {target}: the game ends when a total reaches {target}; {wins}"
    return f"Target {target}: the first to reach {target} wins"


def status_line(summary: dict[str, Any], players: list[str]) -> str:
    """Hand number, dealer and who plays first (R1.2, R1.4)."""
    hands = len(summary.get("hands", []))
    dealer = summary.get("dealer")
    if summary.get("finished") or not dealer or dealer not in players:
        return f"{hands} hands played"
    number = hands + 1
    text = opening("rummy", players, dealer).text
    if summary.get("hand_in_progress"):
        return f"Hand {number}: {text}"
    return f"Hand {hands} is scored. Next, hand {number}: {text}"


def scoreboard(summary: dict[str, Any], players: list[str]) -> ft.Control:
    """Each player's running total, the dealer marked, with progress to the target."""
    totals: dict[str, int] = summary.get("totals", {})
    rules = summary.get("rules", {})
    target = int(rules.get("target", 100))
    by_target = not rules.get("fixed_rounds")
    dealer = summary.get("dealer") if not summary.get("finished") else None
    word = unit(summary)
    rows: list[ft.Control] = []
    for p in players:
        total = int(totals.get(p, 0))
        name_bits: list[ft.Control] = [
            ft.Text(p, size=16, weight=ft.FontWeight.W_500, no_wrap=False, expand=True)
        ]
        if p == dealer:
            name_bits.append(
                ft.Container(
                    ft.Text("Dealer", size=12, color=ft.Colors.ON_PRIMARY_CONTAINER),
                    bgcolor=ft.Colors.PRIMARY_CONTAINER,
                    border_radius=6,
                    padding=ft.Padding.symmetric(horizontal=6, vertical=2),
                )
            )
        name_bits.append(ft.Text(str(total), size=20, weight=ft.FontWeight.BOLD))
        parts: list[ft.Control] = [
            ft.Row(name_bits, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        ]
        if by_target:
            parts.append(ft.ProgressBar(value=min(total / target, 1.0), bar_height=6))
        label = f"{p}: total {total} {word}" + (", dealer" if p == dealer else "")
        rows.append(said(ft.Column(parts, spacing=2), label, f"total-{slug(p)}"))
    return box(
        ft.Column(
            [
                ft.Text(f"Totals ({word})", weight=ft.FontWeight.BOLD),
                *rows,
                ft.Text(goal_text(summary), size=13, italic=True),
            ],
            spacing=6,
        )
    )


def hand_lines(hand: dict[str, Any], players: list[str]) -> list[str]:
    """One line per player for a finished hand, as the referee scored it."""
    typed = set(hand.get("typed", []))
    penalties: dict[str, int] = hand.get("penalties", {})
    scores: dict[str, int] = hand.get("scores", {})
    remaining: dict[str, list[str]] = hand.get("remaining", {})
    doubled = bool(hand.get("doubled"))
    lines: list[str] = []
    for p in players:
        score = scores.get(p, 0)
        if p == hand.get("went_out"):
            lines.append(f"{p}: went out, {score}")
            continue
        if p in typed:
            what = f"typed {penalties.get(p, 0)}"
        elif p in remaining:
            shown = format_cards(cards_of(remaining[p]), symbols=True) or "no cards"
            what = f"{shown} = {penalties.get(p, 0)}"
        else:
            what = str(penalties.get(p, 0))
        if doubled and p in penalties and score != penalties[p]:
            what += f" ×2 = {score}"
        elif p in penalties and score != penalties[p]:
            what += f", scores {score}"
        lines.append(f"{p}: {what}")
    return lines


def hand_title(hand: dict[str, Any]) -> str:
    who = hand.get("went_out")
    out = f"{who} went out" if who else "nobody went out (stock ran out)"
    title = f"Hand {hand['number']} · {hand.get('dealer')} dealt · {out}"
    if hand.get("going_rummy"):
        title += " · going rummy" + (" ×2" if hand.get("doubled") else "")
    return title


def hand_sheet(
    summary: dict[str, Any], players: list[str], on_edit: Callable[[int], None] | None
) -> ft.Control:
    """The score sheet: every finished hand, newest first, each one editable."""
    hands: list[dict[str, Any]] = summary.get("hands", [])
    if not hands:
        return ft.Container()
    items: list[ft.Control] = [ft.Text("Score sheet", weight=ft.FontWeight.BOLD)]
    for hand in reversed(hands):
        n = int(hand["number"])
        lines = hand_lines(hand, players)
        totals = hand.get("totals", {})
        totals_text = "Totals: " + " · ".join(f"{p} {totals.get(p, 0)}" for p in players)
        body: list[ft.Control] = [
            ft.Text(hand_title(hand), weight=ft.FontWeight.W_500),
            *[
                said(ft.Text(line), f"Hand {n}, {line}", f"hand-{n}-{slug(p)}")
                for line, p in zip(lines, players, strict=True)
            ],
            ft.Text(totals_text, size=13, italic=True),
        ]
        if hand.get("typed"):
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
        items.append(box(ft.Column(body, spacing=2)))
    return ft.Column(items, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def result_card(summary: dict[str, Any], players: list[str]) -> ft.Control:
    """The end of the game: winner(s), a shared win on a tie, the final totals (R6.3, A-R11)."""
    winners: list[str] = summary.get("winners", [])
    totals: dict[str, int] = summary.get("totals", {})
    lowest = summary.get("scoring") != "winner_takes_all"
    if len(winners) == 1:
        headline = f"{winners[0]} wins with {totals.get(winners[0], 0)}"
        rule = "R6.3"
    else:
        headline = f"Shared win: {' and '.join(winners)} ({totals.get(winners[0], 0)} each)"
        rule = "A-R11"
    order = sorted(players, key=lambda p: totals.get(p, 0) if lowest else -totals.get(p, 0))
    rows: list[ft.Control] = []
    for p in order:
        mine = totals.get(p, 0)
        place = 1 + sum(
            1 for q in players if (totals.get(q, 0) < mine if lowest else totals.get(q, 0) > mine)
        )
        crown = p in winners
        rows.append(
            said(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.EMOJI_EVENTS if crown else ft.Icons.PERSON, size=20),
                        ft.Text(f"{place}. {p}", size=16, expand=True),
                        ft.Text(str(totals.get(p, 0)), size=18, weight=ft.FontWeight.BOLD),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                f"Final: {p} {totals.get(p, 0)}" + (", winner" if crown else ""),
                f"final-{slug(p)}",
            )
        )
    settle = summary.get("settlement")
    extra: list[ft.Control] = []
    if isinstance(settle, dict):
        extra.append(ft.Text("Cash settlement", weight=ft.FontWeight.BOLD))
        extra += [ft.Text(f"{p}: {settle.get(p, 0):+d}") for p in players]
    return box(
        ft.Column(
            [
                ft.Text("Game over", size=22, weight=ft.FontWeight.BOLD),
                said(
                    ft.Text(headline, size=18, weight=ft.FontWeight.W_600),
                    f"Result: {headline}",
                    "result",
                ),
                ft.Row([ft.Text(goal_text(summary), size=13, expand=True), rule_link(rule)]),
                *rows,
                *extra,
                ft.Row(
                    [
                        ft.FilledButton("Home", icon=ft.Icons.HOME, on_click=lambda _: go("/")),
                        ft.OutlinedButton(
                            "New Rummy game",
                            icon=ft.Icons.REPLAY,
                            on_click=lambda _: go("/new/rummy"),
                        ),
                    ],
                    wrap=True,
                ),
            ],
            spacing=8,
        ),
        tone=ft.Colors.SECONDARY_CONTAINER,
    )
