"""The Umtali entry panel: who is acting, what they did, the referee's live verdict.

Modes: meld, extend (tap an anchor on either side), discard, go out (optional pair,
optional discard, maybe face down), and in the opponent's final turn the leftovers
(after an optional final discard); "My hand" is :mod:`umtali_hand`.  Every entry
is judged by the referee as it is being picked (``session.judge``) and recorded
with ``session.add`` -- the add button is live only when the verdict is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.common import choice, rule_link, tag, verdict_line
from companion.components.picker import CardPicker
from companion.components.umtali_hand import UmtaliMyHand, hand_note
from companion.components.umtali_ui import Table, TableUi, on_table
from companion.session import GameSession
from companion.ui import labelled, slug
from rulesets.cards import Card, format_cards
from rulesets.protocol import Verdict
from rulesets.umtali import (
    Discard,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    Phase,
    UmtaliAction,
    UmtaliSummary,
)

__all__ = ["MODES_FINAL", "MODES_PLAY", "UmtaliEntry", "entry_actions"]

#: CardPicker with a ``key`` (Flet components take one): each picker keeps its own typed text.
Picker: Any = CardPicker

MODES_PLAY = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("discard", "Discard"),
    ("go_out", "Go out"),
    ("hand", "My hand"),
)
MODES_FINAL = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("go_out", "Go out"),
    ("leftovers", "Leftovers"),
    ("hand", "My hand"),
)

Body = tuple[list[ft.Control], list[ft.Control]]  # (picker side, verdict side)


def _texts(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)


def _go_out(ui: TableUi, who: str) -> list[UmtaliAction]:
    disc = ui.out_discard
    return [
        GoOut(
            player=who,
            pair=_texts(ui.pair),
            discard=str(disc[0]) if disc else None,
            face_down=bool(ui.face_down and disc),
        )
    ]


def _leftovers(ui: TableUi, who: str) -> list[UmtaliAction]:
    out: list[UmtaliAction] = []
    if ui.out_discard:
        out.append(Discard(player=who, card=str(ui.out_discard[0])))
    out.append(Leftovers(player=who, cards=_texts(ui.cards)))
    return out


def entry_actions(ui: TableUi, mode: str, who: str) -> list[UmtaliAction]:
    """The action(s) the entry describes now; empty while it is incomplete."""
    if mode == "go_out":
        return _go_out(ui, who)
    if mode == "leftovers":
        return _leftovers(ui, who)
    if not ui.cards:
        return []
    if mode == "meld":
        return [Meld(player=who, cards=_texts(ui.cards))]
    if mode == "discard":
        return [Discard(player=who, card=str(ui.cards[0]))]
    if mode == "extend" and ui.anchor is not None:
        return [Extend(player=who, card=str(ui.cards[0]), anchor=ui.anchor)]
    return []


def shown_mode(ui: TableUi, summary: UmtaliSummary) -> str:
    """The mode on screen: leftovers only in the final turn, discard only before it."""
    final = summary.phase == Phase.FINAL
    if (ui.mode == "leftovers" and not final) or (ui.mode == "discard" and final):
        return "meld"
    return ui.mode


@dataclass(frozen=True)
class _Entry:
    """One render of the panel: the session, its summary, the UI state, who acts."""

    session: GameSession
    summary: UmtaliSummary
    ui: TableUi
    who: str
    mode: str

    @property
    def private(self) -> list[Card]:
        return self.ui.private(self.summary)

    @property
    def table(self) -> frozenset[Card]:
        return on_table(self.summary)

    def verdict(self) -> Verdict | None:
        """The referee's verdict on the entry as picked (none while it is incomplete)."""
        acts = entry_actions(self.ui, self.mode, self.who)
        if not acts:
            return None
        hand = self.private or None
        v = self.session.judge(acts[0], hand=hand if len(acts) == 1 else None)
        if v.legal and len(acts) > 1:  # the final discard, then the leftovers
            v = self.session.judge(acts[1])
        return v

    def add_current(self, _: Any = None) -> None:
        """Record the entry as it is now (read at the tap, not at the render: P6)."""
        ui, session = self.ui, self.session
        summary = session.summary
        assert isinstance(summary, UmtaliSummary)
        acts = entry_actions(ui, shown_mode(ui, summary), ui.acting(summary))
        if not acts:
            return
        hand = ui.private(summary) or None
        refusal = session.add(acts[0], hand=hand) if len(acts) == 1 else session.add_many(acts)
        if refusal is None:
            ui.after_entry(acts, summary)

    def picker(self, cards: list[Card], field: str, ident: str, label: str, most: int) -> Any:
        def change(new: list[Card]) -> None:
            setattr(self.ui, field, new)

        return Picker(
            cards,
            change,
            ident=ident,
            key=f"picker-{ident}",
            label=label,
            unavailable=self.table,
            max_cards=most,
        )

    def add_button(self, text: str, v: Verdict | None, ident: str) -> ft.Control:
        ok = v is not None and v.legal
        return tag(
            ft.FilledButton(
                text, icon=ft.Icons.ADD_TASK, on_click=self.add_current, disabled=not ok, height=48
            ),
            ident,
        )

    def toggle(self, parts: tuple[tuple[str, str], ...]) -> ft.Control:
        def pick(key: str) -> Callable[[Any], None]:
            return lambda _: setattr(self.ui, "part", key)

        return ft.Row(
            [choice(text, self.ui.part == key, pick(key), f"part-{key}") for key, text in parts],
            wrap=True,
        )


def _meld_body(e: _Entry) -> Body:
    v = e.verdict()
    left = [
        ft.Text("Pick the cards of a set, sequence, marriage, or a jack alone."),
        e.picker(list(e.ui.cards), "cards", "meld", "Meld cards", 10),
    ]
    right = [
        *hand_note(e.ui, e.summary),
        verdict_line(v, empty="Pick cards for a verdict."),
        e.add_button(f"Add to {e.who}'s side", v, "add-meld"),
    ]
    return left, right


def _extend_body(e: _Entry) -> Body:
    v = e.verdict()
    anchor = e.ui.anchor
    if anchor is None:
        where = "Tap an anchor on either side above, then pick the card."
    else:
        where = f"Anchor: {anchor[0]}'s meld #{anchor[1] + 1}. Now pick the card."
    left = [
        labelled(ft.Text(where, weight=ft.FontWeight.W_500), where, "anchor-hint"),
        e.picker(list(e.ui.cards), "cards", "extend", "Extension card", 1),
    ]
    right = [
        *hand_note(e.ui, e.summary),
        verdict_line(v, empty="Pick an anchor and a card for a verdict."),
        e.add_button(f"Add single to {e.who}'s side", v, "add-extend"),
    ]
    return left, right


def _discard_body(e: _Entry) -> Body:
    v = e.verdict()
    left = [
        ft.Text(f"The card {e.who} discards face up to end the turn (optional record)."),
        e.picker(list(e.ui.cards), "cards", "discard", "Discard", 1),
    ]
    return left, [verdict_line(v), e.add_button(f"{e.who} discards", v, "add-discard")]


def _go_out_body(e: _Entry) -> Body:
    ui = e.ui
    v = e.verdict()
    pair_text = format_cards(ui.pair, symbols=True) or "none"
    disc_text = format_cards(ui.out_discard, symbols=True) or "none"
    if ui.out_discard and ui.face_down:
        disc_text += " (face down)"
    also = " also" if e.summary.phase == Phase.FINAL else ""
    intro = f"{e.who}{also} goes out: pick the pair and the discard, if there were any."
    if ui.part == "pair":
        picker = e.picker(list(ui.pair), "pair", "pair", "Pair", 2)
    else:
        picker = e.picker(
            list(ui.out_discard), "out_discard", "out-discard", "Going-out discard", 1
        )
    left: list[ft.Control] = [ft.Text(intro)]
    if ui.part != "pair":  # the part being picked is summed up by its picker
        left.append(
            labelled(ft.Text(f"Pair: {pair_text}"), f"Pair: {pair_text}", "out-pair-summary")
        )
    left += [
        labelled(ft.Text(f"Discard: {disc_text}"), f"Discard: {disc_text}", "out-discard-summary"),
        ft.Semantics(
            content=ft.Switch(
                label="Discard face down",
                value=bool(ui.face_down),
                on_change=lambda ev: setattr(ui, "face_down", bool(ev.control.value)),
            ),
            identifier="face-down",
        ),
        e.toggle((("pair", "Pick pair"), ("discard", "Pick discard"))),
        picker,
    ]
    right = [
        *hand_note(ui, e.summary),
        verdict_line(v),
        e.add_button(f"{e.who} goes out", v, "add-go-out"),
    ]
    return left, right


def _leftovers_body(e: _Entry) -> Body:
    ui = e.ui
    v = e.verdict()
    current = e.summary.detail.current
    went_out = current.went_out if current else None
    if ui.part == "discard":
        picker = e.picker(list(ui.out_discard), "out_discard", "final-discard", "Final discard", 1)
    else:
        picker = e.picker(list(ui.cards), "cards", "leftovers", "Leftover cards", 11)
    disc_text = format_cards(ui.out_discard, symbols=True) or "none"
    left = [
        ft.Text(
            f"The cards left in {e.who}'s hand move to {went_out}'s side. "
            "Record a final discard first if there was one."
        ),
        labelled(
            ft.Text(f"Final discard: {disc_text}"),
            f"Final discard: {disc_text}",
            "final-discard-summary",
        ),
        e.toggle((("pair", "Pick leftovers"), ("discard", "Pick final discard"))),
        picker,
    ]
    n = len(ui.cards)
    text = (
        f"Move {n} card{'s' if n != 1 else ''} to {went_out}'s side"
        if n
        else "No leftovers: end the hand"
    )
    return left, [verdict_line(v), e.add_button(text, v, "add-leftovers")]


BODIES: dict[str, Callable[[_Entry], Body]] = {
    "meld": _meld_body,
    "extend": _extend_body,
    "discard": _discard_body,
    "go_out": _go_out_body,
    "leftovers": _leftovers_body,
}


def _acting_row(e: _Entry) -> ft.Control:
    def pick(name: str) -> Callable[[Any], None]:
        def tap(_: Any) -> None:
            e.ui.picked = name
            e.ui.reset_entry()

        return tap

    return ft.Row(
        [
            ft.Text("Acting:", weight=ft.FontWeight.W_500),
            *[choice(p, p == e.who, pick(p), f"acting-{slug(p)}") for p in e.summary.players],
        ],
        wrap=True,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _modes_row(e: _Entry) -> ft.Control:
    def pick(mode: str) -> Callable[[Any], None]:
        def tap(_: Any) -> None:
            e.ui.mode = mode
            e.ui.reset_entry()

        return tap

    modes = MODES_FINAL if e.summary.phase == Phase.FINAL else MODES_PLAY
    return ft.Row(
        [choice(text, m == e.mode, pick(m), f"mode-{m}") for m, text in modes],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )


def _empty_stock(e: _Entry) -> ft.Control:
    """U4.6 as the referee words it: a second tap ends the hand on an empty stock."""
    v = e.session.judge(EndHandEmptyStock())
    asked = e.ui.confirm == "stock"

    def tap(_: Any) -> None:
        if e.ui.confirm != "stock":
            e.ui.confirm = "stock"
            return
        if e.session.add(EndHandEmptyStock()) is None:
            e.ui.after_entry([], e.summary)

    button = ft.OutlinedButton(
        "Tap again: end the hand, stock empty" if asked else "Stock ran out: end hand",
        icon=ft.Icons.LAYERS_CLEAR,
        on_click=tap,
        disabled=not v.legal,
    )
    return ft.Row([tag(button, "empty-stock"), rule_link(v.rule, "empty-stock-rule")], wrap=True)


@ft.component
def UmtaliEntry(table: Table) -> ft.Control:
    """Acting player, mode, and the entry of that mode with its live verdict."""
    session, summary, ui = table.session, table.summary, table.ui
    e = _Entry(session, summary, ui, ui.acting(summary), shown_mode(ui, summary))
    head: list[ft.Control] = [ft.Divider(height=4), _acting_row(e), _modes_row(e)]
    if e.mode == "hand":
        body: ft.Control = UmtaliMyHand(table)
    else:
        left, right = BODIES[e.mode](e)
        body = ft.ResponsiveRow(
            [
                ft.Column(left, spacing=8, col={"xs": 12, "md": 7}),
                ft.Column(right, spacing=8, col={"xs": 12, "md": 5}),
            ],
            spacing=12,
            run_spacing=8,
        )
    tail = [_empty_stock(e)] if summary.phase == Phase.PLAY else []
    return ft.Column([*head, body, *tail], spacing=8)
