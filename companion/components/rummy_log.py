"""The optional Rummy table log: melds and lay-offs as they go down.

Pick who is playing and the cards; the referee answers at once whether they
make a new meld and whether they lay off onto each meld on the table, each
verdict with its rule.  Recording is one tap; an illegal entry is refused by
the referee (and shown by the frame's banner with the rule link).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.components.cards import card_row
from companion.components.picker import CardPicker
from companion.components.rummy_entry import (
    Answer,
    cards_of,
    house_rules,
    lay_off_action,
    lay_off_verdict,
    meld_action,
    meld_verdict,
    table_cards,
)
from companion.components.rummy_scores import box, radio, refusal_note, rule_link, said, tag
from companion.session import GameSession, Refusal
from companion.ui import labelled
from rulesets.cards import Card


def verdict_row(title: str, answer: Answer, button: ft.Control, ident: str) -> ft.Control:
    """One verdict: ✓ or ✗, the referee's reason, its rule link, and the action."""
    word = "legal" if answer.legal else "refused"
    icon = (
        ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.GREEN)
        if answer.legal
        else ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR)
    )
    text = f"{title}: {word}. {answer.reason}"
    return ft.Column(
        [
            said(
                ft.Row(
                    [
                        icon,
                        ft.Text(
                            text,
                            expand=True,
                            color=None if answer.legal else ft.Colors.ERROR,
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
                text + (f" (rule {answer.rule})" if answer.rule else ""),
                ident,
            ),
            ft.Row(
                [*([rule_link(answer.rule, f"{ident}-rule")] if answer.rule else []), button],
                wrap=True,
                alignment=ft.MainAxisAlignment.END,
            ),
        ],
        spacing=0,
    )


def _meld_name(m: dict[str, Any]) -> str:
    return f"Meld {int(m['index']) + 1}: {m['owner']}'s {m['kind']}"


@ft.component
def TableLog(session: GameSession) -> ft.Control:
    stored = session.stored
    players = list(stored.players)
    rules = house_rules(stored)
    jokers = bool(rules.model_dump().get("jokers"))
    actions = list(session.actions)
    table: list[dict[str, Any]] = session.summary.get("table", [])
    player, set_player = ft.use_state("")
    cards, set_cards = ft.use_state(list[Card]())
    message, set_message = ft.use_state("")
    nothing: Refusal | None = None
    refused, set_refused = ft.use_state(nothing)

    def record(action: dict[str, Any]) -> None:
        if not player:
            set_message("Choose who is putting the cards down.")
            return
        set_message("")
        refusal = session.add(action)
        if refusal is None:
            set_refused(None)
            set_cards([])
        else:
            session.clear_error()  # shown here, next to the entry, not at the top of the page
            set_refused(refusal)

    items: list[ft.Control] = [ft.Text("On the table", weight=ft.FontWeight.BOLD)]
    if not table:
        items.append(ft.Text("No melds yet in this hand.", italic=True))
    for m in table:
        label = f"{_meld_name(m)}, {' '.join(m['cards'])}"
        parts: list[ft.Control] = [
            ft.Text(_meld_name(m), weight=ft.FontWeight.W_500),
            card_row(cards_of(m["cards"]), width=34),
        ]
        if m.get("jokers"):
            parts.append(ft.Text(", ".join(m["jokers"]), size=12, italic=True))
        items.append(said(ft.Column(parts, spacing=2), label, f"meld-{int(m['index']) + 1}"))

    items += [
        ft.Divider(),
        ft.Text("Who is putting cards down?", weight=ft.FontWeight.W_500),
        labelled(
            ft.RadioGroup(
                value=player or None,
                on_change=lambda e: set_player(e.control.value or ""),
                content=ft.Row([radio(p, p) for p in players], wrap=True),
            ),
            "Who is putting cards down?",
            "log-player",
        ),
        CardPicker(
            cards,
            set_cards,
            ident="log",
            label="Cards going down",
            jokers=jokers,
            unavailable=table_cards(table),
        ),
    ]
    if cards:
        who = player or players[0]
        verdicts: list[ft.Control] = [
            ft.Text(
                f"The referee, for {who}:"
                if player
                else "The referee (choose the player to record):",
                weight=ft.FontWeight.W_500,
            )
        ]
        answer = meld_verdict(stored, actions, who, cards)
        verdicts.append(
            verdict_row(
                "As a new meld",
                answer,
                tag(
                    ft.FilledTonalButton(
                        "Meld",
                        icon=ft.Icons.ADD,
                        on_click=lambda _: record(meld_action(player, cards)),
                    ),
                    "record-meld",
                ),
                "verdict-meld",
            )
        )
        for m in table:
            n = int(m["index"]) + 1
            answer = lay_off_verdict(stored, actions, who, cards, m)
            verdicts.append(
                verdict_row(
                    f"Lay off onto meld {n} ({m['owner']}'s {m['kind']})",
                    answer,
                    tag(
                        ft.FilledTonalButton(
                            f"Lay off onto {n}",
                            icon=ft.Icons.CALL_MERGE,
                            on_click=lambda _, i=int(m["index"]): record(
                                lay_off_action(player, cards, i)
                            ),
                        ),
                        f"record-lay-off-{n}",
                    ),
                    f"verdict-lay-off-{n}",
                )
            )
        items.append(ft.Column(verdicts, spacing=6))
    if message:
        items.append(ft.Text(message, color=ft.Colors.ERROR))
    items += refusal_note(refused, "log-refusal")
    return box(ft.Column(items, spacing=8))
