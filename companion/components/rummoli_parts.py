"""Small pieces every Rummoli panel uses: the table's UI state, sections, the
referee's notes as rows with their rule link, the +/- stepper, statements drawn
from ledger entries, and poker results.

Nothing here knows a rule: every sentence with a rule ID comes from the
referee (a :class:`~rulesets.rummoli.notes.Note`, a ledger entry, a result).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import flet as ft

from companion.components.common import rule_link, said
from companion.components.rummoli_board import mini_cards
from companion.session import GameSession
from companion.ui import labelled, slug
from rulesets.protocol import LedgerEntry
from rulesets.rummoli import FinalResult, PokerResult, RummoliSummary
from rulesets.rummoli.notes import Note

__all__ = [
    "Draft",
    "TableUi",
    "chip_row",
    "explain",
    "names_and",
    "note_row",
    "plural",
    "poker_result",
    "section",
    "statement_card",
    "stepper",
    "summary_of",
    "use_ui",
]


@ft.observable
@dataclass
class TableUi:
    """What the table remembers between entries: the chosen modes, and the pot
    tapped on the board (for the quick settlement) until the next entry."""

    play_mode: str = "quick"  #: "quick" (pots and who went out) or "live" (card by card)
    poker_mode: str = "tap"  #: "tap" the winners or enter the "hands"
    pot: str | None = None
    pot_at: int = -1  #: the entry count when ``pot`` was tapped

    def tapped_pot(self, at: int) -> str | None:
        """The pot tapped since the last entry, if any."""
        return self.pot if self.pot_at == at else None

    def tap_pot(self, pot: str | None, at: int) -> None:
        self.pot, self.pot_at = pot, at


U = TypeVar("U")
D = TypeVar("D", bound="Draft")


class Draft:
    """Half-made choices of a panel (an ``@ft.observable`` dataclass): they last until
    the next entry, then are forgotten.  The reset happens while drawing, so it is
    quiet (``_at`` is private and the fields are set underneath the observable)."""

    _at: int = -1

    def fresh(self: D, at: int) -> D:
        """This draft for the game at entry ``at``: cleared if it was made before."""
        if self._at != at:
            blank = type(self)()
            for f in dataclasses.fields(self):  # type: ignore[arg-type]
                object.__setattr__(self, f.name, getattr(blank, f.name))
            object.__setattr__(self, "_at", at)
        return self


def use_ui(make: Callable[[], U]) -> U:
    """A component's UI state: an ``@ft.observable`` dataclass made on the first render,
    the same object afterwards (so a tap drawn by an earlier render writes to it)."""
    value, _ = ft.use_state(cast(Any, make))  # (the hook's own typing cannot infer U)
    return cast(U, value)


def summary_of(session: GameSession) -> RummoliSummary:
    summary = session.summary
    if not isinstance(summary, RummoliSummary):  # pragma: no cover - a Rummoli session only
        raise TypeError(f"not a Rummoli game: {type(summary).__name__}")
    return summary


def names_and(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def explain(text: str, rule: str | None = None, ident: str | None = None) -> ft.Control:
    """A sentence, read as one, with the rule it cites."""
    parts: list[ft.Control] = [ft.Text(text, size=14, expand=True)]
    if ident:
        parts[0] = said(parts[0], text, ident, expand=True)
    if rule:
        parts.append(rule_link(rule, f"{ident}-rule" if ident else None))
    return ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)


def note_row(note: Note | None, ident: str | None = None) -> list[ft.Control]:
    """The referee's note as a row (nothing when there is no such note now)."""
    return [] if note is None else [explain(note.text, note.rule, ident)]


def section(title: str, controls: Sequence[ft.Control], ident: str | None = None) -> ft.Control:
    box = ft.Container(
        content=ft.Column(
            [ft.Text(title, size=17, weight=ft.FontWeight.BOLD), *controls],
            spacing=8,
            tight=True,
        ),
        padding=12,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )
    return ft.Semantics(content=box, identifier=ident, key=ident, container=True) if ident else box


def _icon_step(icon: ft.IconData, label: str, ident: str, on_click: Any, off: bool) -> ft.Control:
    return labelled(
        ft.IconButton(icon, on_click=on_click, disabled=off, icon_size=30),
        label,
        ident,
        button=True,
        key=ident,
    )


def stepper(
    label: str, value: int, on_step: Callable[[int], None], ident: str, lo: int = 0, hi: int = 99
) -> ft.Control:
    """- value +; ``on_step(delta)`` works from the latest value (never a stale closure)."""
    number = ft.Text(
        str(value), size=20, weight=ft.FontWeight.BOLD, width=36, text_align=ft.TextAlign.CENTER
    )
    return ft.Row(
        [
            ft.Text(label, size=15, expand=True),
            _icon_step(
                ft.Icons.REMOVE_CIRCLE_OUTLINE,
                f"Less: {label}",
                f"{ident}-minus",
                lambda _: on_step(-1),
                value <= lo,
            ),
            said(number, f"{label}: {value}", ident),
            _icon_step(
                ft.Icons.ADD_CIRCLE_OUTLINE,
                f"More: {label}",
                f"{ident}-plus",
                lambda _: on_step(+1),
                value >= hi,
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        spacing=0,
    )


def _entry_row(name: str, e: LedgerEntry, ident: str) -> ft.Control:
    detail = f" ({e.detail})" if e.detail else ""
    words = f"{e.label or e.kind} {e.amount:+d}{detail}"
    return ft.Row(
        [
            said(ft.Text(words, size=14), f"{name}: {words}, rule {e.rule}", ident, expand=True),
            rule_link(e.rule, f"{ident}-rule"),
        ],
        spacing=2,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def statement_card(
    name: str, entries: Sequence[LedgerEntry], ident: str, *, chips_now: int | None = None
) -> ft.Control:
    """A player's statement, drawn from their ledger entries: the net change, then one
    line per chip movement linked to its rule."""
    mine = [e for e in entries if e.player == name]
    net = sum(e.amount for e in mine)
    rows = [_entry_row(name, e, f"{ident}-line-{i}") for i, e in enumerate(mine)]
    if not rows:
        rows.append(ft.Text("no chips moved", size=14, italic=True))
    head = f"{name} {net:+d}" + (f", now {chips_now} chips" if chips_now is not None else "")
    title = ft.Text(
        head, size=16, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY if net > 0 else None
    )
    return ft.Semantics(
        identifier=ident,
        key=ident,
        container=True,
        content=ft.Container(
            padding=ft.Padding.only(left=10, right=4, top=6, bottom=6),
            border_radius=10,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            content=ft.Column(
                [said(title, f"Statement {head}", f"{ident}-net"), *rows], spacing=0, tight=True
            ),
        ),
    )


def poker_result(result: PokerResult | FinalResult, ident: str) -> list[ft.Control]:
    """The referee's poker verdict: each hand's name and best five, who won what."""
    out: list[ft.Control] = []
    for name, h in (result.hands or {}).items():
        words = f"{name}: {h.name}"
        column = ft.Column(
            [
                ft.Text(words, size=14, weight=ft.FontWeight.W_500),
                mini_cards(" ".join(h.best), width=30),
            ],
            spacing=2,
            tight=True,
        )
        out.append(said(column, f"{words} ({' '.join(h.best)})", f"{ident}-hand-{slug(name)}"))
    out.append(explain(result.words, result.rule, f"{ident}-verdict"))
    return out


def chip_row(chips: Sequence[ft.Control]) -> ft.Control:
    """Choice chips in a row that wraps on a phone."""
    return ft.Row(list(chips), wrap=True, spacing=6, run_spacing=6)
