"""The Umtali entry for one thumb: who is acting, what they did, the cards, the verdict.

Top to bottom, all of it on one phone screen, nothing moving when a card is tapped:

* the acting player (whoever the referee says is on turn; one tap picks the
  other) and "My hand";
* the mode: meld, extend (or tap any meld on the board), discard, go out, and in
  the opponent's final turn the leftovers;
* the chosen strip (the cards picked, or the parts of a going-out: the pair,
  the discard, face down);
* the 52-card grid (:mod:`companion.components.kit.card_grid`);
* the entry bar (:mod:`companion.components.kit.entry_bar`): the referee's live
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

from companion.components.kit.card_grid import CompactPicker, chosen_strip, strip_part
from companion.components.kit.common import choice
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.turn_order import acting_row
from companion.components.umtali.ui import Table, TableUi, Taps, on_table, sees_private
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

#: CompactPicker with a ``key`` (Flet components take one): each picker keeps its own
#: state; memoized: its props are plain values and a handler equal from render to render
#: (:class:`_Choose`), so another device's entry redraws it only if it changes its cards
Picker: Any = ft.memo(CompactPicker)  # type: ignore[no-untyped-call]

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
        GoOut(
            player=who,
            pair=tuple(ui.pair),
            discard=disc[0] if disc else None,
            face_down=bool(ui.face_down and disc),
        )
    ]


def _leftovers(ui: TableUi, who: str) -> list[UmtaliAction]:
    out: list[UmtaliAction] = []
    if ui.out_discard:
        out.append(Discard(player=who, card=ui.out_discard[0]))
    out.append(Leftovers(player=who, cards=tuple(ui.cards)))
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
        return [Meld(player=who, cards=tuple(ui.cards))]
    if mode == "discard":
        return [Discard(player=who, card=ui.cards[0])]
    if mode == "extend" and ui.anchor is not None:
        return [ExtendAction(player=who, card=ui.cards[0], anchor=ui.anchor)]
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
        return Primary(text, ident, _Add(self.table.taps), enabled=v is not None and v.legal)

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


def add_current(taps: Taps) -> Refusal | None:
    """Record the entry as it is now (read at the tap, not at the render: P6)."""
    ui, session = taps.ui, taps.session
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


@dataclass(frozen=True)
class _Add:
    """The bar's press: the same from render to render (its bar is memoized)."""

    taps: Taps

    def __call__(self) -> Refusal | None:
        return add_current(self.taps)


# ------------------------------------------------------------------ strips (one per mode)


@dataclass(frozen=True)
class _StripView:
    """What the strip shows: plain values, so a memoized strip compares them."""

    mode: str
    label: str
    ident: str
    field: str
    chosen: tuple[Card, ...]
    pair: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    face_down: bool = False
    part: str = "pair"


def _part(
    taps: Taps, v: _StripView, key: str, label: str, cards: Sequence[Card], said: str | None = None
) -> ft.Control:
    return strip_part(
        label,
        cards,
        active=v.part == key,
        on_click=lambda _: taps.fill_part(key),
        ident=f"part-{key}",
        said=said,
    )


def _parts(taps: Taps, v: _StripView) -> list[ft.Control]:
    if v.mode == "go_out":
        disc = format_cards(v.discard, symbols=True) or "none"
        if v.discard and v.face_down:
            disc += " (face down)"
        return [
            _part(taps, v, "pair", "Pair", v.pair),
            _part(taps, v, "discard", "Discard", v.discard, f"Discard: {disc}"),
            choice(
                "Face down",
                v.face_down,
                lambda _: taps.flip_face_down(),
                "face-down",
                label="Discard face down",
            ),
        ]
    if v.mode == "leftovers":
        return [
            _part(taps, v, "pair", "Leftovers", v.pair, f"Leftover cards: {_symbols(v.pair)}"),
            _part(taps, v, "discard", "Final discard", v.discard),
        ]
    return []


@ft.component
def _strip_view(v: _StripView, taps: Taps) -> ft.Control:
    return chosen_strip(
        v.label,
        v.chosen,
        ident=v.ident,
        on_clear=lambda: taps.clear(v.field),
        parts=_parts(taps, v),
    )


#: the chosen strip, drawn again only when what it shows changes
StripView: Callable[..., ft.Control] = ft.memo(_strip_view)  # type: ignore[no-untyped-call]


def _symbols(cards: Sequence[Card]) -> str:
    return format_cards(cards, symbols=True) or "none"


def _strip(e: _Entry, pick: _Pick) -> ft.Control:
    ui = e.ui
    label = pick.label
    if e.mode == "extend" and ui.anchor is not None:
        side, n = ui.anchor
        label = f"On {side}'s meld {n + 1}"
    # a going-out's parts: the pair and the discard; the leftovers': the cards and the
    # final discard (in the strip's "pair" part)
    parts: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    if e.mode == "go_out":
        parts = (tuple(ui.pair), tuple(ui.out_discard))
    elif e.mode == "leftovers":
        parts = (tuple(ui.cards), tuple(ui.out_discard))
    view = _StripView(
        e.mode,
        label,
        pick.ident,
        pick.field,
        tuple(getattr(ui, pick.field)),
        *parts,
        face_down=bool(ui.face_down),
        part=ui.part,
    )
    return StripView(view, e.table.taps, key="strip")


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


@ft.component
def _acting_row(
    players: tuple[str, ...], who: str, turn: str | None, hand: bool | None, taps: Taps
) -> ft.Control:
    """Who acts (one tap picks another) and, where the hand may show, "My hand"
    (``hand``: on or off; None: not drawn)."""
    row: list[ft.Control] = [
        ft.Container(acting_row(players, who, turn, taps.pick_acting), expand=True)
    ]
    if hand is not None:  # at a table of devices: only on the acting player's own
        row.append(choice("My hand", hand, lambda _: taps.toggle_hand(), "mode-hand"))
    return ft.Row(
        row,
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


#: the acting row, drawn again only when the turn, the acting player or the hand change
ActingRow: Callable[..., ft.Control] = ft.memo(_acting_row)  # type: ignore[no-untyped-call]


def _acting(e: _Entry) -> ft.Control:
    hand = e.mode == "hand" if e.table.shows_hand else None
    return ActingRow(
        tuple(e.summary.players), e.who, e.summary.turn, hand, e.table.taps, key="acting-row"
    )


@ft.component
def _mode_row(final: bool, mode: str, taps: Taps) -> ft.Control:
    def pick(m: str) -> Callable[[Any], None]:
        return lambda _: taps.pick_mode(m)

    modes = MODES_FINAL if final else MODES_PLAY
    # four equal slots: a mode keeps its place whatever the words of the others
    return ft.Row(
        [
            ft.Container(choice(text, m == mode, pick(m), f"mode-{m}", fill=True), expand=True)
            for m, text in modes
        ],
        spacing=6,
    )


#: the modes, drawn again only when the mode or the phase changes
ModeRow: Callable[..., ft.Control] = ft.memo(_mode_row)  # type: ignore[no-untyped-call]


def _modes(e: _Entry) -> ft.Control:
    return ModeRow(e.summary.phase == Phase.FINAL, e.mode, e.table.taps, key="mode-row")


@dataclass(frozen=True)
class _Choose:
    """The grid's change handler for one list of the entry: equal from render to render
    while it fills the same list (and, for a private hand, for the same player): the
    picker is memoized, so the turn passing redraws it only in "My hand"."""

    taps: Taps
    field: str
    #: whose private hand the grid fills ("" for every other list: no owner to set)
    owner: str

    def __call__(self, cards: list[Card]) -> None:
        self.taps.choose(self.field, self.owner, cards)


def _picker(e: _Entry, pick: _Pick) -> Any:
    chosen: list[Card] = list(getattr(e.ui, pick.field))
    return Picker(
        chosen,
        _Choose(e.table.taps, pick.field, e.who if pick.field == "hand" else ""),
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
