"""The optional Rummy table log: melds and lay-offs as they go down.

Who is putting cards down follows the turn order (the referee's turn when turns
are logged, else the player after the last one who put cards down, else the
dealer's left), changeable with one tap.  Each card is one tap in the pack
grid.  The referee judges the cards at once as a new meld and as a lay-off onto
every meld on the table; the bar at the bottom shows its verdict on the first
way it accepts (or why not, with the rule) and records it with one tap.  Another
way is one tap on its chip.  A card on the table stays greyed where it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.common import kind_words, rule_link, said, tag
from companion.components.rummy_bar import bar
from companion.components.rummy_entry import (
    cards_of,
    lay_off_action,
    meld_action,
    summary_of,
    unavailable,
)
from companion.components.rummy_grid import card_grid, target
from companion.session import GameSession, Refusal
from companion.ui import slug
from rulesets.cards import Card, format_cards
from rulesets.protocol import Action, Verdict
from rulesets.rummy import LayOff, Meld, RummyMeld, RummySummary

__all__ = ["LogBar", "LogPanel", "LogUi", "acting_player"]

NEW_MELD = -1  # the target "a new meld" (table melds are 0, 1, ...)


@ft.observable
@dataclass
class LogUi:
    """What the table log holds between taps: who, the cards, the way, the last "no"."""

    player: str = ""  # chosen by a tap; "" follows the turn order
    cards: list[Card] = field(default_factory=list)
    target: int | None = None  # NEW_MELD or a table meld; None: the first the referee accepts
    refused: Refusal | None = None


def acting_player(summary: RummySummary, actions: tuple[Action, ...]) -> str:
    """Who most likely puts cards down next: the referee's turn when turns are logged,
    else the player after the last one who put cards down in this hand, else the
    player on the dealer's left (who plays first, R1.4)."""
    players = summary.players
    if summary.turn:
        return summary.turn
    for a in reversed(actions):
        if a.type == "start_hand":
            break
        if isinstance(a, Meld | LayOff) and a.player in players:
            return players[(players.index(a.player) + 1) % len(players)]
    dealer = summary.dealer
    if dealer in players:
        return players[(players.index(dealer) + 1) % len(players)]
    return players[0]


@dataclass(frozen=True)
class _Way:
    """One way to put the chosen cards down, and the referee's verdict on it."""

    target: int
    action: Action
    verdict: Verdict | None  # None while no card is chosen

    @property
    def legal(self) -> bool:
        return self.verdict is not None and self.verdict.legal

    @property
    def words(self) -> str:
        return "New meld" if self.target == NEW_MELD else f"Onto meld {self.target + 1}"

    @property
    def button(self) -> str:
        return "Meld" if self.target == NEW_MELD else f"Lay off onto {self.target + 1}"


def _ways(session: GameSession, who: str, cards: list[Card]) -> list[_Way]:
    """A new meld, and a lay-off onto each meld on the table, each with its verdict."""
    table = summary_of(session).detail.table
    actions: list[tuple[int, Action]] = [(NEW_MELD, meld_action(who, cards))]
    actions += [(m.index, lay_off_action(who, cards, m.index)) for m in table]
    return [_Way(t, a, session.judge(a) if cards else None) for t, a in actions]


def _chosen_way(ui: LogUi, ways: list[_Way]) -> _Way | None:
    if not ui.cards:
        return None
    for w in ways:
        if w.target == ui.target:
            return w
    return next((w for w in ways if w.legal), ways[0])


def _meld_line(m: RummyMeld) -> ft.Control:
    shown = format_cards(cards_of(m.cards), symbols=True)
    text = f"{m.index + 1}. {m.owner}'s {m.kind}: {shown}"
    if m.jokers:
        text += f" ({', '.join(m.jokers)})"
    label = f"Meld {m.index + 1}: {m.owner}'s {m.kind}, {' '.join(m.cards)}"
    return said(ft.Text(text, size=14), label, f"meld-{m.index + 1}")


def _chip(text: str, *, chosen: bool, ident: str, label: str, on_click: Any) -> ft.Control:
    box = ft.Container(
        ft.Text(text, size=14, weight=ft.FontWeight.W_600 if chosen else None, no_wrap=True),
        height=44,
        padding=ft.Padding.symmetric(horizontal=12),
        alignment=ft.Alignment.CENTER,
        border_radius=22,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(2 if chosen else 1, ft.Colors.PRIMARY if chosen else "#9E9E9E"),
        on_click=on_click,
        ink=True,
    )
    return target(box, label=label, ident=ident, selected=chosen)


def _players(ui: LogUi, who: str, players: tuple[str, ...]) -> ft.Control:
    def pick(p: str) -> None:
        ui.player = p
        ui.refused = None

    chips = [
        _chip(
            p,
            chosen=p == who,
            ident=f"log-player-{slug(p)}",
            label=f"{p} is putting cards down",
            on_click=lambda _, p=p: pick(p),
        )
        for p in players
    ]
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def _targets(ui: LogUi, ways: list[_Way], way: _Way | None) -> ft.Control:
    def pick(target: int) -> None:
        ui.target = target
        ui.refused = None

    chips = []
    for w in ways:
        mark = "" if w.verdict is None else (" ✓" if w.legal else " ✗")
        state = "" if w.verdict is None else (": allowed" if w.legal else ": not allowed")
        ident = "log-target-meld" if w.target == NEW_MELD else f"log-target-{w.target + 1}"
        chips.append(
            _chip(
                w.words + mark,
                chosen=way is not None and w.target == way.target,
                ident=ident,
                label=w.words + state,
                on_click=lambda _, t=w.target: pick(t),
            )
        )
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def _chosen_row(ui: LogUi) -> ft.Control:
    text = f"Cards going down: {format_cards(ui.cards, symbols=True) if ui.cards else 'none yet'}"

    def back(_: Any) -> None:
        ui.cards = ui.cards[:-1]

    def clear(_: Any) -> None:
        ui.cards = []
        ui.target = None

    def icon(name: ft.IconData, label: str, on_click: Any, ident: str) -> ft.Control:
        button = ft.IconButton(
            icon=ft.Icon(name, semantics_label=label), on_click=on_click, disabled=not ui.cards
        )
        return ft.Semantics(content=button, identifier=ident, key=ident)

    return ft.Container(
        ft.Row(
            [
                said(
                    ft.Text(text, size=15, weight=ft.FontWeight.W_500, max_lines=2),
                    text,
                    "log-chosen",
                    expand=True,
                ),
                icon(ft.Icons.BACKSPACE_OUTLINED, "Take back the last card", back, "log-back"),
                icon(ft.Icons.CLEAR_ALL, "Clear the cards going down", clear, "log-clear"),
            ],
            spacing=2,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=44,
    )


@ft.component
def LogPanel(session: GameSession, ui: LogUi) -> ft.Control:
    """The log's body: who, which way, the cards (the verdict is in the bar)."""
    summary = summary_of(session)
    who = ui.player or acting_player(summary, session.actions)
    ways = _ways(session, who, list(ui.cards))
    way = _chosen_way(ui, ways)

    def tap(card: Card) -> None:
        adding = card.is_joker or card not in ui.cards
        ui.cards = [*ui.cards, card] if adding else [c for c in ui.cards if c != card]
        ui.refused = None

    table = summary.detail.table
    items: list[ft.Control] = [
        ft.Text("Who is putting cards down?", size=14, weight=ft.FontWeight.W_500),
        _players(ui, who, session.players),
        _targets(ui, ways, way),
        _chosen_row(ui),
        card_grid(
            ui.cards,
            on_tap=tap,
            ident="log",
            unavailable=unavailable(summary.detail.play),
            jokers=bool(summary.detail.rules.get("jokers")),
        ),
        ft.Text("On the table", size=14, weight=ft.FontWeight.BOLD),
    ]
    if not table:
        items.append(ft.Text("No melds yet in this hand.", size=14, italic=True))
    items += [_meld_line(m) for m in table]
    return ft.Column(items, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _verdict_text(v: Verdict) -> str:
    if v.legal:
        head = kind_words(v.kind) or "Allowed"
        if v.points is not None:
            head += f", {v.points} point{'s' if abs(v.points) != 1 else ''}"
        return f"{head}: {v.reason}" + (f" ({'; '.join(v.notes)})" if v.notes else "")
    return f"Not allowed: {v.reason}"


def _log_verdict(ui: LogUi, way: _Way | None, who: str) -> ft.Control:
    if ui.refused is not None:
        text, rule, error = f"Not recorded: {ui.refused.message}", ui.refused.rule, True
        ident = "log-refusal"
    elif way is None or way.verdict is None:
        text = f"{who}: tap the cards going down; the referee answers here."
        return said(ft.Text(text, size=14, italic=True), text, "log-verdict")
    else:
        text, rule, error = _verdict_text(way.verdict), way.verdict.rule, not way.legal
        ident = "log-verdict"
    color = ft.Colors.ERROR if error else None
    label = text + (f" (rule {rule})" if rule else "")
    parts: list[ft.Control] = [
        ft.Container(said(ft.Text(text, size=14, color=color), label, ident), expand=True)
    ]
    if rule:
        parts.append(rule_link(rule, f"{ident}-rule"))
    return ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.START, spacing=4)


@ft.component
def LogBar(session: GameSession, ui: LogUi, left: ft.Control, lines: int) -> ft.Control:
    """The referee's verdict on the chosen way and the button that records it."""
    summary = summary_of(session)
    who = ui.player or acting_player(summary, session.actions)
    ways = _ways(session, who, list(ui.cards))
    way = _chosen_way(ui, ways)

    def record(_: Any) -> None:
        if way is None:
            return
        refusal = session.add(way.action)
        if refusal is None:
            ui.refused = None
            ui.cards = []
            ui.target = None
            ui.player = ""  # the next entry follows the turn order again
        else:
            session.clear_error()  # shown in the bar, not at the top of the page
            ui.refused = refusal

    word = way.button if way is not None else "Meld"
    primary = tag(
        ft.FilledButton(
            f"{word} ({who})",
            icon=ft.Icons.ADD,
            on_click=record,
            disabled=way is None or not way.legal,
            height=52,
        ),
        "log-record",
        expand=True,
    )
    return bar(_log_verdict(ui, way, who), left, primary, lines=lines)
