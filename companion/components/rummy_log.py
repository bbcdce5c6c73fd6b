"""The optional Rummy table log: melds and lay-offs as they go down.

Pick who is playing and the cards; the referee answers at once whether they
make a new meld and whether they lay off onto each meld on the table, each
verdict with its rule.  Recording is one tap; an illegal entry is refused by
the referee and the refusal is shown next to the entry, with its rule link.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from companion.components.cards import card_row
from companion.components.common import rule_link, said, tag
from companion.components.picker import CardPicker
from companion.components.rummy_entry import (
    cards_of,
    lay_off_action,
    lay_off_verdict,
    meld_action,
    meld_verdict,
    summary_of,
    unavailable,
)
from companion.components.rummy_scores import box, radio, refusal_note
from companion.session import GameSession, Refusal
from companion.ui import labelled
from rulesets.cards import Card
from rulesets.protocol import Action, Verdict
from rulesets.rummy import RummyMeld


@ft.observable
@dataclass
class LogUi:
    """What the table log holds between taps: who is playing, the cards, the last "no"."""

    player: str = ""
    cards: list[Card] = field(default_factory=list)
    message: str = ""
    refused: Refusal | None = None


def verdict_row(title: str, verdict: Verdict, button: ft.Control, ident: str) -> ft.Control:
    """One verdict: ✓ or ✗, the referee's reason, its rule link, and the action."""
    word = "legal" if verdict.legal else "refused"
    icon = (
        ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.GREEN)
        if verdict.legal
        else ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR)
    )
    text = f"{title}: {word}. {verdict.reason}"
    color = None if verdict.legal else ft.Colors.ERROR
    return ft.Column(
        [
            said(
                ft.Row(
                    [icon, ft.Text(text, expand=True, color=color)],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
                f"{text} (rule {verdict.rule})",
                ident,
            ),
            ft.Row(
                [rule_link(verdict.rule, f"{ident}-rule"), button],
                wrap=True,
                alignment=ft.MainAxisAlignment.END,
            ),
        ],
        spacing=0,
    )


def _meld_name(m: RummyMeld) -> str:
    return f"Meld {m.index + 1}: {m.owner}'s {m.kind}"


def _table(table: tuple[RummyMeld, ...]) -> list[ft.Control]:
    items: list[ft.Control] = [ft.Text("On the table", weight=ft.FontWeight.BOLD)]
    if not table:
        items.append(ft.Text("No melds yet in this hand.", italic=True))
    for m in table:
        parts: list[ft.Control] = [
            ft.Text(_meld_name(m), weight=ft.FontWeight.W_500),
            card_row(cards_of(m.cards), width=34),
        ]
        if m.jokers:
            parts.append(ft.Text(", ".join(m.jokers), size=12, italic=True))
        label = f"{_meld_name(m)}, {' '.join(m.cards)}"
        items.append(said(ft.Column(parts, spacing=2), label, f"meld-{m.index + 1}"))
    return items


def _verdicts(
    session: GameSession, ui: LogUi, table: tuple[RummyMeld, ...], record: Callable[[Action], None]
) -> ft.Control:
    """The referee's verdicts on the chosen cards: as a new meld, onto each meld."""
    who = ui.player or session.players[0]
    head = f"The referee, for {who}:" if ui.player else "The referee (choose the player to record):"
    rows: list[ft.Control] = [ft.Text(head, weight=ft.FontWeight.W_500)]
    cards = list(ui.cards)
    meld_button = ft.FilledTonalButton(
        "Meld", icon=ft.Icons.ADD, on_click=lambda _: record(meld_action(ui.player, cards))
    )
    rows.append(
        verdict_row(
            "As a new meld",
            meld_verdict(session, who, cards),
            tag(meld_button, "record-meld"),
            "verdict-meld",
        )
    )
    for m in table:
        n = m.index + 1
        button = ft.FilledTonalButton(
            f"Lay off onto {n}",
            icon=ft.Icons.CALL_MERGE,
            on_click=lambda _, i=m.index: record(lay_off_action(ui.player, cards, i)),
        )
        rows.append(
            verdict_row(
                f"Lay off onto meld {n} ({m.owner}'s {m.kind})",
                lay_off_verdict(session, who, cards, m.index),
                tag(button, f"record-lay-off-{n}"),
                f"verdict-lay-off-{n}",
            )
        )
    return ft.Column(rows, spacing=6)


@ft.component
def TableLog(session: GameSession) -> ft.Control:
    ui, _ = ft.use_state(LogUi())
    summary = summary_of(session)
    play = summary.detail.play
    table = summary.detail.table
    jokers = bool(summary.detail.rules.get("jokers"))

    def record(action: Action) -> None:
        if not ui.player:
            ui.message = "Choose who is putting the cards down."
            return
        ui.message = ""
        refusal = session.add(action)
        if refusal is None:
            ui.refused = None
            ui.cards = []
        else:
            session.clear_error()  # shown here, next to the entry, not at the top of the page
            ui.refused = refusal

    def choose(cards: list[Card]) -> None:
        ui.cards = list(cards)

    def pick_player(e: ft.Event[ft.RadioGroup]) -> None:
        ui.player = e.control.value or ""

    items = _table(table)
    items += [
        ft.Divider(),
        ft.Text("Who is putting cards down?", weight=ft.FontWeight.W_500),
        labelled(
            ft.RadioGroup(
                value=ui.player or None,
                on_change=pick_player,
                content=ft.Row([radio(p, p) for p in session.players], wrap=True),
            ),
            "Who is putting cards down?",
            "log-player",
        ),
        CardPicker(
            ui.cards,
            choose,
            ident="log",
            label="Cards going down",
            jokers=jokers,
            unavailable=unavailable(play),
        ),
    ]
    if ui.cards:
        items.append(_verdicts(session, ui, table, record))
    if ui.message:
        items.append(ft.Text(ui.message, color=ft.Colors.ERROR))
    items += refusal_note(ui.refused, "log-refusal")
    return box(ft.Column(items, spacing=8))
