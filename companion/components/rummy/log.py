"""The optional Rummy table log: melds and lay-offs as they go down.

Who is putting cards down follows the turn order (the referee's turn when turns are
logged, else the player after the last one who put cards down, else the dealer's left),
changeable with one tap. Each card is one tap in the thumb kit's still grid of the pack
(or typed: ``7h 8h 9h``). The referee judges the cards at once as a new meld and as a
lay-off onto every meld on the table; the bar at the bottom shows its verdict on the
first way it accepts (or why not, with the rule) and records it with one tap. Another
way is one tap on its chip. A card on the table stays greyed where it is. While no card
is chosen the bar's action is "Hand over".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.card_grid import CompactPicker
from companion.components.kit.common import said
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.ui import one_line, slug, tap_target
from companion.components.rummy.entry import (
    lay_off_action,
    meld_action,
    replayed_change,
    summary_of,
    unavailable,
)
from companion.session import GameSession, Refusal
from rulesets import seats
from rulesets.cards import Card, format_cards
from rulesets.protocol import Action, Verdict
from rulesets.rummy import LayOff, Meld, RummyMeld, RummySummary

__all__ = ["LogBar", "LogEntry", "LogUi", "acting_player", "table_melds"]

NEW_MELD = -1  # the target "a new meld" (table melds are 0, 1, ...)


@ft.observable
@dataclass
class LogUi:
    """What the table log holds between taps: who, the cards, the way."""

    player: str = ""  # chosen by a tap; "" follows the turn order
    cards: list[Card] = field(default_factory=list)
    target: int | None = None  # NEW_MELD or a table meld; None: the first the referee accepts


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
            return seats.left_of(players, a.player)
    dealer = summary.dealer
    if dealer in players:
        return seats.left_of(players, dealer)
    return players[0]


@dataclass(frozen=True)
class _Way:
    """One way to put the chosen cards down, and the referee's verdict on it."""

    target: int
    action: Action
    verdict: Verdict | None  # None while no card is chosen
    meld: RummyMeld | None = None  # the meld on the table a lay-off goes onto

    @property
    def legal(self) -> bool:
        return self.verdict is not None and self.verdict.legal

    @property
    def words(self) -> str:
        """The chip: the meld's own cards ("7♥ 8♥ 9♥", "4♠ 5♠ +2"), so which meld a
        lay-off goes onto reads on the chip, not only in the list above it."""
        if self.meld is None:
            return "New meld"
        cards = [c.symbol for c in self.meld.cards]
        return " ".join(cards) if len(cards) <= 3 else f"{' '.join(cards[:2])} +{len(cards) - 2}"

    @property
    def label(self) -> str:
        if self.meld is None:
            return "New meld"
        return f"Onto meld {self.target + 1}, {_meld_words(self.meld)}"

    @property
    def button(self) -> str:
        if self.meld is None:
            return "Meld"
        return f"Lay off onto {format_cards(self.meld.cards, symbols=True)}"


def _meld_words(m: RummyMeld) -> str:
    """ "Bob's run 7♥ 8♥ 9♥"."""
    return f"{m.owner}'s {m.kind} {format_cards(m.cards, symbols=True)}"


def _ways(session: GameSession, who: str, cards: list[Card]) -> list[_Way]:
    """A new meld, and a lay-off onto each meld on the table, each with its verdict."""
    table = summary_of(session).detail.table
    ways = [_Way(NEW_MELD, meld_action(who, cards), None)]
    ways += [_Way(m.index, lay_off_action(who, cards, m.index), None, m) for m in table]
    if not cards:
        return ways
    return [_Way(w.target, w.action, session.judge(w.action), w.meld) for w in ways]


def _chosen_way(ui: LogUi, ways: list[_Way]) -> _Way | None:
    if not ui.cards:
        return None
    for w in ways:
        if w.target == ui.target:
            return w
    return next((w for w in ways if w.legal), ways[0])


def _meld_line(m: RummyMeld) -> ft.Control:
    shown = format_cards(m.cards, symbols=True)
    text = f"{m.index + 1}. {m.owner}'s {m.kind}: {shown}"
    if m.jokers:
        text += f" ({', '.join(m.jokers)})"
    label = f"Meld {m.index + 1}: {m.owner}'s {m.kind}, {shown}"
    return said(ft.Text(text, size=14), label, f"meld-{m.index + 1}")


def table_melds(summary: RummySummary) -> list[ft.Control]:
    """The melds on the table in this hand, numbered as the lay-off chips name them."""
    table = summary.detail.table
    items: list[ft.Control] = [ft.Text("On the table", size=14, weight=ft.FontWeight.BOLD)]
    if not table:
        items.append(ft.Text("No melds yet in this hand.", size=14, italic=True))
    items += [_meld_line(m) for m in table]
    return items


#: px: a player or target chip -- the same width chosen or not, marked or not, so a
#: tap never moves the chips after it (three a row on a 390 px phone)
CHIP_WIDTH = 116
#: the referee's yes or no on a way to put the cards down
_MARKS = {"yes": ft.Icons.CHECK, "no": ft.Icons.CLOSE}


def _still_chip(
    words: str, mark: str, *, chosen: bool, on_click: Any, ident: str, label: str
) -> ft.Control:
    """A chip of fixed size: its words, and a reserved slot for the referee's yes or no
    (``mark``: "yes", "no" or "")."""
    box = ft.Container(
        ft.Row(
            [
                one_line(
                    words,
                    size=14,
                    weight=ft.FontWeight.W_600,
                    color=ft.Colors.ON_PRIMARY if chosen else None,
                ),
                # an icon, not a ✓ glyph: the app's fonts have none (offline, no fallback)
                ft.Container(
                    ft.Icon(
                        _MARKS[mark],
                        size=16,
                        color=ft.Colors.ON_PRIMARY if chosen else None,
                    )
                    if mark
                    else None,
                    width=16,
                ),
            ],
            spacing=2,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        width=CHIP_WIDTH,
        height=45,
        alignment=ft.Alignment.CENTER,
        border_radius=22,
        bgcolor=ft.Colors.PRIMARY if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=on_click,
        ink=True,
    )
    return tap_target(box, label, ident, selected=chosen)


def _players(session: GameSession, ui: LogUi, who: str, players: tuple[str, ...]) -> ft.Control:
    def pick(p: str) -> None:
        ui.player = p
        session.clear_error()  # a refusal never blocks the next entry

    chips = [
        _still_chip(
            p,
            "",
            chosen=p == who,
            on_click=lambda _, p=p: pick(p),
            ident=f"log-player-{slug(p)}",
            label=f"{p} is putting cards down",
        )
        for p in players
    ]
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=4)


def _targets(session: GameSession, ui: LogUi, ways: list[_Way], way: _Way | None) -> ft.Control:
    """A chip per way to put the cards down, each marked with the referee's yes or no."""

    def pick(t: int) -> None:
        ui.target = t
        session.clear_error()

    chips: list[ft.Control] = []
    for w in ways:
        mark = "" if w.verdict is None else ("yes" if w.legal else "no")
        state = "" if w.verdict is None else (": allowed" if w.legal else ": not allowed")
        ident = "log-target-meld" if w.target == NEW_MELD else f"log-target-{w.target + 1}"
        chips.append(
            _still_chip(
                w.words,
                mark,
                chosen=way is not None and w.target == way.target,
                on_click=lambda _, t=w.target: pick(t),
                ident=ident,
                label=w.label + state,
            )
        )
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=4)


@ft.component
def LogEntry(session: GameSession, ui: LogUi) -> ft.Control:
    """The log's still part: who, which way, the cards (the verdict is in the bar)."""
    summary = summary_of(session)
    who = ui.player or acting_player(summary, session.actions)
    ways = _ways(session, who, list(ui.cards))
    way = _chosen_way(ui, ways)

    shown = list(ui.cards)

    def change(picked: list[Card]) -> None:
        ui.cards = replayed_change(shown, picked, ui.cards)  # a quick second tap counts
        if not ui.cards:
            ui.target = None
        if session.error is not None:  # the next entry starts: the refusal has been seen
            session.clear_error()

    return ft.Column(
        [
            _players(session, ui, who, session.players),
            _targets(session, ui, ways, way),
            # the chosen strip, the pack, and typing the cards one tap away ("Type")
            CompactPicker(
                shown,
                change,
                ident="log",
                label="Cards going down",
                jokers=bool(summary.detail.rules.get("jokers")),
                unavailable=unavailable(summary.detail.play),
            ),
        ],
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


@ft.component
def LogBar(session: GameSession, ui: LogUi, on_hand_over: Callable[[], None]) -> ft.Control:
    """The referee's verdict on the chosen way and the button that records it (while
    no card is chosen: "Hand over")."""
    summary = summary_of(session)
    who = ui.player or acting_player(summary, session.actions)
    ways = _ways(session, who, list(ui.cards))
    way = _chosen_way(ui, ways)

    def record() -> Refusal | None:
        if way is None:
            on_hand_over()
            return None
        refusal = session.add(way.action)  # a "no" shows in the bar, with its rule
        if refusal is None:
            ui.cards = []
            ui.target = None
            ui.player = ""  # the next entry follows the turn order again
        return refusal

    if way is None:
        primary = Primary("Hand over", "hand-over", record, icon=ft.Icons.FLAG)
        hint = f"{who}: tap the cards going down. Someone went out? Hand over."
        return EntryBar(session, None, primary, hint=hint, ident="log-verdict")
    primary = Primary(
        f"{way.button} ({who})", "log-record", record, enabled=way.legal, icon=ft.Icons.ADD
    )
    return EntryBar(session, way.verdict, primary, ident="log-verdict")
