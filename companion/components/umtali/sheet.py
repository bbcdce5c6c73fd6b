"""The Umtali score sheet (one row per hand, then the totals) and the editor of a
finished hand: remove an entry, correct the leftovers, or reopen the hand.

Scores and totals are the referee's (its ledger, summed per hand); an edit goes
through :meth:`GameSession.replace`, which rebuilds the game from the corrected
record, so every later hand is rescored by the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from companion.components.kit.card_grid import CompactPicker
from companion.components.kit.common import tag
from companion.components.kit.ui import icon_button, one_line
from companion.components.umtali.sides import cards_text
from companion.components.umtali.ui import Table, TableUi
from companion.session import GameSession
from rulesets.cards import Card
from rulesets.protocol import Action
from rulesets.umtali import (
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
    UmtaliHand,
    UmtaliSummary,
)

__all__ = ["UmtaliHandEditor", "action_text", "hands_sheet"]

#: the kit's picker with a ``key`` (Flet components take one): each keeps its own typed text
Picker: Any = CompactPicker


def _go_out_text(a: GoOut) -> str:
    text = f"{a.player} goes out"
    if a.pair:
        text += f" with pair {cards_text(a.pair)}"
    if a.discard:
        down = " face down" if a.face_down else ""
        text += f", discards {cards_text(a.discard)}{down}"
    return text


def action_text(a: Action) -> str:
    """One recorded action as the table would say it ("Ann plays 8♥ on Bob #1")."""
    if isinstance(a, StartHand):
        return f"{a.dealer or 'expected dealer'} deals"
    if isinstance(a, Meld):
        return f"{a.player} melds {cards_text(a.cards)}"
    if isinstance(a, Extend):
        return f"{a.player} plays {cards_text(a.card)} on {a.anchor[0]} #{a.anchor[1] + 1}"
    if isinstance(a, Discard):
        return f"{a.player} discards {cards_text(a.card)}"
    if isinstance(a, Draw):
        return f"{a.player} draws"
    if isinstance(a, TakeDiscards):
        return f"{a.player} takes {cards_text(a.cards)}"
    if isinstance(a, GoOut):
        return _go_out_text(a)
    if isinstance(a, Leftovers):
        return f"{a.player}'s leftovers: {cards_text(a.cards) or 'none'}"
    if isinstance(a, EndHandEmptyStock):
        return "Stock empty: hand ends"
    return a.type


def _cell(text: str, *, bold: bool = False) -> ft.Control:
    return one_line(text, expand=2, weight=ft.FontWeight.BOLD if bold else None)


def _hand_row(
    h: UmtaliHand, players: Sequence[str], on_edit: Callable[[int], None], editing: int | None
) -> ft.Control:
    n = h.number
    how = "stock empty" if h.ended == "empty_stock" else f"{h.went_out} out"
    label = f"Hand {n}: " + ", ".join(f"{p} {h.scores.get(p, 0)}" for p in players)
    row: list[ft.Control] = [
        ft.Column(
            [ft.Text(f"{n}", weight=ft.FontWeight.BOLD), ft.Text(how, size=11)],
            spacing=0,
            expand=2,
        ),
        *[_cell(str(h.scores.get(p, 0))) for p in players],
        tag(
            ft.TextButton(
                "Editing" if editing == n else f"Edit {n}",
                icon=ft.Icons.EDIT,
                on_click=lambda _, n=n: on_edit(n),
                width=96,
            ),
            f"edit-hand-{n}",
        ),
    ]
    return ft.Semantics(
        content=ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        label=label,
        identifier=f"hand-row-{n}",
        container=True,
    )


def hands_sheet(
    summary: UmtaliSummary, *, on_edit: Callable[[int], None], editing: int | None
) -> ft.Control:
    """Score sheet: one row per hand (how it ended, each player's score), then the totals.

    Memoized (:data:`HandsSheet`): the same for every device at the table, and the same
    through a hand, so an entry draws it again on no device that has it open -- only the
    end of a hand (or a correction) does; ``on_edit`` must be equal from render to render.
    """
    return HandsSheet(
        tuple(summary.players),
        tuple(summary.hands),
        tuple(summary.totals.items()),
        on_edit,
        editing,
        key="hands-sheet",
    )


@ft.component
def _hands_sheet(
    players: tuple[str, ...],
    hands: tuple[UmtaliHand, ...],
    totals_: tuple[tuple[str, int], ...],
    on_edit: Callable[[int], None],
    editing: int | None,
) -> ft.Control:
    rows: list[ft.Control] = [
        ft.Row(
            [_cell("Hand", bold=True), *[_cell(p, bold=True) for p in players]]
            + [ft.Container(width=96)]
        ),
        *[_hand_row(h, players, on_edit, editing) for h in hands],
        ft.Divider(height=4),
    ]
    totals = dict(totals_)
    label = "Totals: " + ", ".join(f"{p} {totals.get(p, 0)}" for p in players)
    rows.append(
        ft.Semantics(
            content=ft.Row(
                [_cell("Total", bold=True)]
                + [_cell(str(totals.get(p, 0)), bold=True) for p in players]
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


HandsSheet: Callable[..., ft.Control] = ft.memo(_hands_sheet)  # type: ignore[no-untyped-call]


def start_edit(ui: TableUi, summary: UmtaliSummary, actions: Sequence[Action], n: int) -> None:
    """Open (or close) the editor of finished hand ``n``, its leftovers ready to correct."""
    if ui.editing == n:
        ui.editing = None
        return
    ui.confirm = ""
    ui.fix = list(_leftovers_of(summary, actions, n)[1])
    ui.editing = n


def _leftovers_of(
    summary: UmtaliSummary, actions: Sequence[Action], n: int
) -> tuple[int | None, tuple[Card, ...]]:
    """(index, cards) of hand ``n``'s leftovers entry, if it has one."""
    if not 0 < n <= len(summary.hands):
        return None, ()
    first, last = summary.hands[n - 1].actions
    for i in range(last, first - 1, -1):
        a = actions[i] if i < len(actions) else None
        if isinstance(a, Leftovers):
            return i, a.cards
    return None, ()


def _entry_rows(session: GameSession, first: int, last: int) -> list[ft.Control]:
    actions = list(session.actions)
    rows: list[ft.Control] = []
    for i in range(first + 1, last + 1):
        text = action_text(actions[i])
        rows.append(
            ft.Row(
                [
                    ft.Text(text, expand=True),
                    icon_button(
                        ft.Icons.DELETE_OUTLINE,
                        f"Remove: {text}",
                        lambda _, i=i: session.replace(actions[:i] + actions[i + 1 :]),
                        f"remove-action-{i}",
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    return rows


def _leftovers_rows(session: GameSession, ui: TableUi, hand: UmtaliHand, at: int) -> list[Any]:
    actions = list(session.actions)
    old = actions[at]
    assert isinstance(old, Leftovers)
    on_table = {
        c
        for melds in hand.sides.values()
        for m in melds
        if m.kind.value != "leftover"
        for c in m.cards
    }

    def save(_: Any) -> None:
        fixed = Leftovers(player=old.player, cards=tuple(ui.fix))
        if session.replace([*actions[:at], fixed, *actions[at + 1 :]]) is None:
            ui.editing = None

    return [
        ft.Text(f"Correct {old.player}'s leftovers", weight=ft.FontWeight.W_500),
        Picker(
            list(ui.fix),
            lambda cards: setattr(ui, "fix", cards),
            ident="fix-leftovers",
            key="picker-fix-leftovers",
            label="Leftover cards",
            unavailable=on_table,
            max_cards=11,
        ),
        tag(ft.FilledButton("Save leftovers", icon=ft.Icons.SAVE, on_click=save), "save-leftovers"),
    ]


def _reopen_button(session: GameSession, ui: TableUi, n: int, last: int) -> ft.Control:
    actions = list(session.actions)
    asked = ui.confirm == f"reopen-{n}"

    def reopen(_: Any) -> None:
        if ui.confirm != f"reopen-{n}":
            ui.confirm = f"reopen-{n}"
            return
        if session.replace(actions[:last]) is None:
            ui.editing = None
            ui.confirm = ""

    later = len(actions) - last - 1
    return tag(
        ft.OutlinedButton(
            f"Tap again: reopen hand {n}, dropping {later} later "
            f"{'entry' if later == 1 else 'entries'}"
            if asked
            else f"Reopen hand {n} at its last entry",
            icon=ft.Icons.HISTORY,
            on_click=reopen,
        ),
        f"reopen-hand-{n}",
    )


@ft.component
def UmtaliHandEditor(table: Table) -> ft.Control:
    """Correct finished hand ``ui.editing``: every later hand is rescored by the referee."""
    session, summary, ui = table.session, table.summary, table.ui
    n = ui.editing
    if n is None or not 0 < n <= len(summary.hands):
        return ft.Container()
    hand = summary.hands[n - 1]
    first, last = hand.actions
    rows: list[ft.Control] = [
        ft.Text(f"Edit hand {n}", size=16, weight=ft.FontWeight.BOLD),
        ft.Text("Correct an entry; every later hand is rescored.", size=13),
        *_entry_rows(session, first, last),
    ]
    at, _ = _leftovers_of(summary, session.actions, n)
    if at is not None:
        rows += _leftovers_rows(session, ui, hand, at)
    rows.append(_reopen_button(session, ui, n, last))
    return ft.Container(
        content=ft.Column(rows, spacing=6),
        padding=ft.Padding.symmetric(horizontal=2, vertical=8),
        border=ft.Border.only(top=ft.BorderSide(2, ft.Colors.PRIMARY)),
    )
