"""The Umtali entry for one thumb: who is acting, what they did, the cards, the verdict.

Top to bottom, all of it on one phone screen, nothing moving when a card is tapped:

* the acting player (whoever the referee says is on turn; one tap picks the
  other) and "My hand";
* the mode: meld, extend (or tap any meld on the board), discard, go out, and in
  the opponent's final turn the leftovers;
* the chosen strip (the cards picked, or the parts of a going-out: the pair,
  the discard, face down);
* the 52-card grid (:mod:`companion.components.card_grid`);
* the entry bar (:mod:`companion.components.entry_bar`): the referee's live
  verdict with its rule, Undo, and the action -- live only when the verdict is legal.

Every entry is judged by the referee as it is being picked (``session.judge``)
and recorded with ``session.add``; after it, the acting player and the mode
follow the turn order (:meth:`TableUi.after_entry`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.card_grid import CompactPicker, chosen_strip, strip_part
from companion.components.common import choice
from companion.components.entry_bar import EntryBar, Primary
from companion.components.turn_order import acting_row
from companion.components.umtali_ui import Table, TableUi, on_table, sees_private
from companion.session import GameSession, Refusal
from rulesets.cards import Card, format_cards
from rulesets.protocol import Units, Verdict
from rulesets.umtali import (
    Discard,
    GoOut,
    Leftovers,
    Meld,
    Phase,
    UmtaliAction,
    UmtaliSummary,
)
from rulesets.umtali import Extend as ExtendAction

__all__ = [
    "MODES_FINAL",
    "MODES_PLAY",
    "UmtaliEntry",
    "entry_actions",
    "shown_mode",
    "umtali_entry",
]

#: CompactPicker with a ``key`` (Flet components take one): each picker keeps its own state.
Picker: Any = CompactPicker

MODES_PLAY = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("discard", "Discard"),
    ("go_out", "Go out"),
)
#: the final turn: the same four slots, Leftovers in Discard's, so Go out stays where it was
MODES_FINAL = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("leftovers", "Leftovers"),
    ("go_out", "Go out"),
)


def _go_out(ui: TableUi, who: str) -> list[UmtaliAction]:
    disc = ui.out_discard
    return [
        GoOut.of_cards(
            player=who,
            pair=tuple(ui.pair),
            discard=disc[0] if disc else None,
            face_down=bool(ui.face_down and disc),
        )
    ]


def _leftovers(ui: TableUi, who: str) -> list[UmtaliAction]:
    out: list[UmtaliAction] = []
    if ui.out_discard:
        out.append(Discard.of_cards(player=who, card=ui.out_discard[0]))
    out.append(Leftovers.of_cards(player=who, cards=tuple(ui.cards)))
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
        return [Meld.of_cards(player=who, cards=tuple(ui.cards))]
    if mode == "discard":
        return [Discard.of_cards(player=who, card=ui.cards[0])]
    if mode == "extend" and ui.anchor is not None:
        return [ExtendAction.of_cards(player=who, card=ui.cards[0], anchor=ui.anchor)]
    return []


def shown_mode(ui: TableUi, summary: UmtaliSummary, *, shows_hand: bool = True) -> str:
    """The mode on screen: leftovers only in the final turn, discard only before it,
    "My hand" only on a device that may show the acting player's hand."""
    final = summary.phase == Phase.FINAL
    if (ui.mode == "leftovers" and not final) or (ui.mode == "discard" and final):
        return "meld"
    if ui.mode == "hand" and not shows_hand:
        return "meld"
    return ui.mode


@dataclass(frozen=True)
class _Pick:
    """What the grid fills in this mode: a list of the UI state, its test id, its words."""

    field: str
    ident: str
    label: str
    most: int


@dataclass(frozen=True)
class _Bar:
    """What the bar says and offers in this mode."""

    verdict: Verdict | None
    hint: str
    primary: Primary | None


@dataclass(frozen=True)
class _Entry:
    """One render of the entry: the table, who acts, in which mode."""

    table: Table
    who: str
    mode: str

    @property
    def session(self) -> GameSession:
        return self.table.session

    @property
    def summary(self) -> UmtaliSummary:
        return self.table.summary

    @property
    def ui(self) -> TableUi:
        return self.table.ui

    def verdict(self) -> Verdict | None:
        """The referee's verdict on the entry as picked (none while it is incomplete)."""
        acts = entry_actions(self.ui, self.mode, self.who)
        if not acts:
            return None
        hand = self.table.private() or None
        v = self.session.judge(acts[0], hand=hand if len(acts) == 1 else None)
        if v.legal and len(acts) > 1:  # the final discard, then the leftovers
            v = self.session.judge(acts[1])
        return v

    def primary(self, text: str, ident: str, v: Verdict | None) -> Primary:
        return Primary(
            text, ident, lambda: add_current(self.table), enabled=v is not None and v.legal
        )

    def pick(self) -> _Pick:
        ui = self.ui
        if self.mode == "go_out":
            if ui.part == "pair":
                return _Pick("pair", "pair", "Pair", 2)
            return _Pick("out_discard", "out-discard", "Going-out discard", 1)
        if self.mode == "leftovers":
            if ui.part == "discard":
                return _Pick("out_discard", "final-discard", "Final discard", 1)
            return _Pick("cards", "leftovers", "Leftover cards", 11)
        if self.mode == "hand":
            return _Pick("hand", "hand", "My hand", 11)
        if self.mode == "extend":
            return _Pick("cards", "extend", "Extension card", 1)
        if self.mode == "discard":
            return _Pick("cards", "discard", "Discard", 1)
        return _Pick("cards", "meld", "Meld cards", 10)


def add_current(table: Table) -> Refusal | None:
    """Record the entry as it is now (read at the tap, not at the render: P6)."""
    ui, session = table.ui, table.session
    summary = session.summary
    assert isinstance(summary, UmtaliSummary)
    who = ui.acting(summary)
    shows = sees_private(session, who)
    acts = entry_actions(ui, shown_mode(ui, summary, shows_hand=shows), who)
    if not acts:
        return None
    hand = ui.private(summary, shown=shows) or None
    refusal = session.add(acts[0], hand=hand) if len(acts) == 1 else session.add_many(acts)
    after = session.summary
    if refusal is None and isinstance(after, UmtaliSummary):
        ui.after_entry(acts, summary, after)
    return refusal


# ------------------------------------------------------------------ strips (one per mode)


def _cards_strip(e: _Entry, pick: _Pick, label: str | None = None) -> ft.Control:
    cards: list[Card] = list(getattr(e.ui, pick.field))

    def clear() -> None:
        setattr(e.ui, pick.field, [])

    return chosen_strip(label or pick.label, cards, ident=pick.ident, on_clear=clear)


def _part(
    e: _Entry, key: str, label: str, cards: Sequence[Card], said: str | None = None
) -> ft.Control:
    def tap(_: Any) -> None:
        e.ui.part = key

    return strip_part(
        label, cards, active=e.ui.part == key, on_click=tap, ident=f"part-{key}", said=said
    )


def _face_down(e: _Entry) -> ft.Control:
    ui = e.ui

    def flip(_: Any) -> None:
        ui.face_down = not ui.face_down

    return choice("Face down", bool(ui.face_down), flip, "face-down", label="Discard face down")


def _go_out_strip(e: _Entry, pick: _Pick) -> ft.Control:
    ui = e.ui
    disc = format_cards(ui.out_discard, symbols=True) or "none"
    if ui.out_discard and ui.face_down:
        disc += " (face down)"
    parts = [
        _part(e, "pair", "Pair", ui.pair),
        _part(e, "discard", "Discard", ui.out_discard, f"Discard: {disc}"),
        _face_down(e),
    ]

    def clear() -> None:
        setattr(ui, pick.field, [])

    return chosen_strip(
        pick.label, getattr(ui, pick.field), ident=pick.ident, on_clear=clear, parts=parts
    )


def _leftovers_strip(e: _Entry, pick: _Pick) -> ft.Control:
    ui = e.ui
    parts = [
        _part(e, "pair", "Leftovers", ui.cards, f"Leftover cards: {_symbols(ui.cards)}"),
        _part(e, "discard", "Final discard", ui.out_discard),
    ]

    def clear() -> None:
        setattr(ui, pick.field, [])

    return chosen_strip(
        pick.label, getattr(ui, pick.field), ident=pick.ident, on_clear=clear, parts=parts
    )


def _symbols(cards: Sequence[Card]) -> str:
    return format_cards(cards, symbols=True) or "none"


def _strip(e: _Entry, pick: _Pick) -> ft.Control:
    if e.mode == "go_out":
        return _go_out_strip(e, pick)
    if e.mode == "leftovers":
        return _leftovers_strip(e, pick)
    if e.mode == "extend" and e.ui.anchor is not None:
        side, n = e.ui.anchor
        return _cards_strip(e, pick, f"On {side}'s meld {n + 1}")
    return _cards_strip(e, pick)


# ------------------------------------------------------------------ the bar (one per mode)


def _meld_bar(e: _Entry) -> _Bar:
    v = e.verdict()
    return _Bar(
        v,
        "Pick the cards of a set, sequence, marriage or a jack alone; tap a meld to extend it.",
        e.primary(f"Add to {e.who}'s side", "add-meld", v),
    )


def _extend_bar(e: _Entry) -> _Bar:
    v = e.verdict()
    hint = (
        "Tap a meld on either side, then the card to add to it."
        if e.ui.anchor is None
        else "Now pick the card to add to it."
    )
    return _Bar(v, hint, e.primary(f"Add single to {e.who}'s side", "add-extend", v))


def _discard_bar(e: _Entry) -> _Bar:
    v = e.verdict()
    hint = f"The card {e.who} discards face up to end the turn (optional record)."
    return _Bar(v, hint, e.primary(f"{e.who} discards", "add-discard", v))


def _go_out_bar(e: _Entry) -> _Bar:
    v = e.verdict()
    return _Bar(v, "", e.primary(f"{e.who} goes out", "add-go-out", v))


def _leftovers_bar(e: _Entry) -> _Bar:
    v = e.verdict()
    current = e.summary.detail.current
    went_out = current.went_out if current else None
    n = len(e.ui.cards)
    text = (
        f"Move {n} card{'s' if n != 1 else ''} to {went_out}'s side"
        if n
        else "No leftovers: end the hand"
    )
    return _Bar(v, "", e.primary(text, "add-leftovers", v))


def _hand_bar(e: _Entry) -> _Bar:
    sug, refused = e.table.suggestion, e.table.refused
    if refused is not None:
        return _Bar(refused, "", None)
    if sug is None:
        hint = f"{e.who}: enter your hand privately. It is not saved; verdicts then check it."
        return _Bar(None, hint, None)
    if not sug.best:
        return _Bar(None, "Nothing in this hand can go down now.", None)
    session, ui = e.session, e.ui
    line = sug.best

    def record() -> Refusal | None:
        before = session.summary
        refusal = session.add_many(line)
        after = session.summary
        if (
            refusal is None
            and isinstance(before, UmtaliSummary)
            and isinstance(after, UmtaliSummary)
        ):
            ui.after_entry(line, before, after)
        return refusal

    hint = f"Best melding this turn: {Units.POINTS.of(sug.best_points)}."
    return _Bar(
        None,
        hint,
        Primary("Record this line", "record-line", record, icon=ft.Icons.PLAYLIST_ADD_CHECK),
    )


BARS: dict[str, Callable[[_Entry], _Bar]] = {
    "meld": _meld_bar,
    "extend": _extend_bar,
    "discard": _discard_bar,
    "go_out": _go_out_bar,
    "leftovers": _leftovers_bar,
    "hand": _hand_bar,
}


# ------------------------------------------------------------------ the rows above the grid


def _acting(e: _Entry) -> ft.Control:
    ui = e.ui

    def pick(name: str) -> None:
        ui.picked = name
        ui.reset_entry()
        if e.session.error is not None:  # a refusal never blocks the next entry
            e.session.clear_error()

    def my_hand(_: Any) -> None:
        ui.mode = "hand" if e.mode != "hand" else "meld"
        ui.reset_entry()

    turn = e.summary.turn
    row: list[ft.Control] = [
        ft.Container(acting_row(e.summary.players, e.who, turn, pick), expand=True)
    ]
    if e.table.shows_hand:  # at a table of devices: only on the acting player's own
        row.append(choice("My hand", e.mode == "hand", my_hand, "mode-hand"))
    return ft.Row(
        row,
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _modes(e: _Entry) -> ft.Control:
    def pick(mode: str) -> Callable[[Any], None]:
        def tap(_: Any) -> None:
            e.ui.mode = mode
            e.ui.reset_entry()
            if e.session.error is not None:
                e.session.clear_error()

        return tap

    modes = MODES_FINAL if e.summary.phase == Phase.FINAL else MODES_PLAY
    # four equal slots: a mode keeps its place whatever the words of the others
    return ft.Row(
        [
            ft.Container(choice(text, m == e.mode, pick(m), f"mode-{m}", fill=True), expand=True)
            for m, text in modes
        ],
        spacing=6,
    )


def _picker(e: _Entry, pick: _Pick) -> Any:
    ui, session = e.ui, e.session
    private_owner = e.who

    def change(new: list[Card]) -> None:
        if pick.field == "hand":
            ui.owner = private_owner
        setattr(ui, pick.field, new)
        if session.error is not None:
            session.clear_error()

    chosen: list[Card] = list(getattr(ui, pick.field))
    return Picker(
        chosen,
        change,
        ident=pick.ident,
        key=f"picker-{pick.ident}",
        label=pick.label,
        unavailable=on_table(e.summary),
        max_cards=pick.most,
        strip=False,
    )


def umtali_entry(table: Table) -> tuple[list[ft.Control], ft.Control]:
    """The entry's rows (acting player, mode, chosen strip, card grid) and its bar
    (the verdict and the action, pinned under the thumb by the table's layout)."""
    summary, ui = table.summary, table.ui
    e = _Entry(table, ui.acting(summary), shown_mode(ui, summary, shows_hand=table.shows_hand))
    pick = e.pick()
    bar = BARS[e.mode](e)
    rows = [_acting(e), _modes(e), _strip(e, pick), _picker(e, pick)]
    return rows, EntryBar(table.session, bar.verdict, bar.primary, hint=bar.hint)


@ft.component
def UmtaliEntry(table: Table) -> ft.Control:
    """Acting player, mode, chosen strip, card grid and the entry bar, in one column."""
    rows, bar = umtali_entry(table)
    return ft.Column([*rows, bar], spacing=4)
