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

from companion.components.kit.common import rule_link, rule_words, said
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.thumb_screen import thumb_screen
from companion.components.kit.ui import labelled, one_line, slug
from companion.components.rummoli.board import Board, mini_cards, stacks
from companion.session import GameSession
from rulesets.protocol import LedgerEntry, Verdict
from rulesets.rummoli import FinalResult, Phase, PokerResult, RummoliSummary
from rulesets.rummoli.notes import Note
from rulesets.words import card_words, names_and, plural

__all__ = [
    "ROW",
    "Draft",
    "Panel",
    "Primary",
    "TableUi",
    "entry_bar",
    "panel_screen",
    "table_top",
    "Top",
    "chip_row",
    "explain",
    "names_and",
    "note_row",
    "plural",
    "poker_result",
    "score_sheet",
    "section",
    "statement_card",
    "statement_lines",
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
    combo: bool | None = None  #: for a combination pot: did one player lay all of it?
    notice: Note | None = None  #: something to say in the bar until the next tap or entry
    notice_at: int = -1

    def set_poker_mode(self, mode: str) -> None:
        """Tap the winners ("tap") or enter the hands ("hands"): a bound method, equal
        from render to render, so the memoized mode chips are not drawn again for it."""
        self.poker_mode = mode

    def tapped_pot(self, at: int) -> str | None:
        """The pot tapped since the last entry, if any."""
        return self.pot if self.pot_at == at else None

    def tap_pot(self, pot: str | None, at: int) -> None:
        self.pot, self.pot_at, self.combo, self.notice = pot, at, None, None

    def say(self, note: Note, at: int) -> None:
        """Show ``note`` in the bar (e.g. a pot that pays nobody) until the next entry."""
        self.notice, self.notice_at = note, at

    def said(self, at: int) -> Note | None:
        return self.notice if self.notice_at == at else None


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

    def forget(self) -> None:
        """Clear this draft at its next :meth:`fresh` (the phase changed: an undo may
        come back to the same entry count with other choices to make)."""
        object.__setattr__(self, "_at", -1)


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


def _link_room(rule: str, ident: str | None) -> ft.Control:
    """The link to ``rule`` beside a sentence: it gets at most two fifths of the row (a
    row lays a link out at its whole title's width otherwise, and a long title -- an
    "our ruling" -- squeezed the sentence beside it to nothing).  Its title stands over its ID
    (``stacked``): beside the ID it had some 45 px at a 360 px phone and ended in "…"
    after a word or two ("The final p…", "Deal every ca…")."""
    link = rule_link(rule, ident, stacked=True, align=ft.Alignment.CENTER_LEFT)
    return ft.Container(link, expand=2, alignment=ft.Alignment.CENTER_RIGHT)


def explain(text: str, rule: str | None = None, ident: str | None = None) -> ft.Control:
    """A sentence, read as one, with the rule it cites."""
    parts: list[ft.Control] = [ft.Text(text, size=14, expand=3)]
    if ident:
        parts[0] = said(parts[0], text, ident, expand=3)
    if rule:
        parts.append(_link_room(rule, f"{ident}-rule" if ident else None))
    return ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)


@ft.component
def _note_line(text: str, rule: str | None, ident: str | None) -> ft.Control:
    return explain(text, rule, ident)


#: a note's row, drawn again only when its words or rule change: the panels around the
#: table draw again on every entry anyone makes, and most of their notes stay as they were
NoteLine: Callable[..., ft.Control] = ft.memo(_note_line)  # type: ignore[no-untyped-call]


def note_row(note: Note | None, ident: str | None = None) -> list[ft.Control]:
    """The referee's note as a row (nothing when there is no such note now)."""
    return [] if note is None else [NoteLine(note.text, note.rule, ident, key=ident)]


def section(
    title: str,
    controls: Sequence[ft.Control],
    ident: str | None = None,
    *,
    head: ft.Control | None = None,
    spacing: int = 6,
) -> ft.Control:
    """A card with a title; ``head`` sits at the right of the title (e.g. a mode switch)."""
    heading: ft.Control = ft.Text(title, size=16, weight=ft.FontWeight.BOLD)
    if head is not None:
        heading = ft.Row(
            [ft.Text(title, size=16, weight=ft.FontWeight.BOLD, expand=True), head],
            height=ROW,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    box = ft.Container(
        content=ft.Column([heading, *controls], spacing=spacing, tight=True),
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )
    return ft.Semantics(content=box, identifier=ident, key=ident, container=True) if ident else box


def _icon_step(
    icon: ft.IconData, label: str, ident: str, on_click: Any, off: bool, size: int = 30
) -> ft.Control:
    return labelled(
        ft.IconButton(icon, on_click=on_click, disabled=off, icon_size=size),
        label,
        ident,
        button=True,
        key=ident,
    )


def stepper(
    label: str,
    value: int,
    on_step: Callable[[int], None],
    ident: str,
    lo: int = 0,
    hi: int = 99,
    *,
    shown: str | None = None,
) -> ft.Control:
    """- value +; ``on_step(delta)`` works from the latest value (never a stale closure).

    ``shown``: shorter words on screen than ``label`` (a name), and a narrower stepper
    (two fit a phone's row; its targets stay 42 px)."""
    narrow = shown is not None
    number = ft.Text(
        str(value),
        size=20,
        weight=ft.FontWeight.BOLD,
        width=28 if narrow else 36,
        text_align=ft.TextAlign.CENTER,
    )
    icon = 26 if narrow else 30
    return ft.Row(
        height=ROW,
        controls=[
            one_line(shown or label, size=15, expand=True),
            _icon_step(
                ft.Icons.REMOVE_CIRCLE_OUTLINE,
                f"Less: {label}",
                f"{ident}-minus",
                lambda _: on_step(-1),
                value <= lo,
                icon,
            ),
            said(number, f"{label}: {value}", ident),
            _icon_step(
                ft.Icons.ADD_CIRCLE_OUTLINE,
                f"More: {label}",
                f"{ident}-plus",
                lambda _: on_step(+1),
                value >= hi,
                icon,
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
            said(
                ft.Text(words, size=14), f"{name}: {words} ({rule_words(e.rule)})", ident, expand=3
            ),
            _link_room(e.rule, f"{ident}-rule"),
        ],
        spacing=2,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def statement_lines(name: str, lines: Sequence[LedgerEntry], ident: str) -> ft.Control:
    """A statement's lines: one per chip movement, linked to its rule."""
    rows = [_entry_row(name, e, f"{ident}-line-{i}") for i, e in enumerate(lines)]
    if not rows:
        rows.append(ft.Text("no chips moved", size=14, italic=True))
    return ft.Column(rows, spacing=0, tight=True)


def statement_card(
    name: str,
    entries: Sequence[LedgerEntry],
    ident: str,
    *,
    chips_now: int | None = None,
    lines: ft.Control | None = None,
) -> ft.Control:
    """A player's statement, drawn from their ledger entries: the net change, then one
    line per chip movement linked to its rule (``lines``: those already drawn, e.g. a
    memoized :func:`statement_lines` of the same entries)."""
    mine = tuple(e for e in entries if e.player == name)
    net = sum(e.amount for e in mine)
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
                [
                    said(title, f"Statement {head}", f"{ident}-net"),
                    lines if lines is not None else statement_lines(name, mine, ident),
                ],
                spacing=0,
                tight=True,
            ),
        ),
    )


def poker_result(
    result: PokerResult | FinalResult, ident: str, *, hands: bool = True
) -> list[ft.Control]:
    """The referee's poker verdict: each hand's name and best five (unless ``hands`` is
    False: the verdict alone), who won what."""
    out: list[ft.Control] = []
    for name, h in (result.hands or {}).items() if hands else ():
        words = f"{name}: {h.name}"
        column = ft.Column(
            [
                ft.Text(words, size=14, weight=ft.FontWeight.W_500),
                mini_cards(" ".join(h.best), width=30),
            ],
            spacing=2,
            tight=True,
        )
        out.append(said(column, f"{words} ({card_words(h.best)})", f"{ident}-hand-{slug(name)}"))
    out.append(explain(result.words, result.rule, f"{ident}-verdict"))
    return out


def chip_row(chips: Sequence[ft.Control]) -> ft.Control:
    """Choice chips in a row that wraps on a phone."""
    return ft.Row(list(chips), wrap=True, spacing=6, run_spacing=6)


# --------------------------------------------------------------------------- the screen
#
# Every phase is laid out by the thumb kit: ``thumb_screen`` (the table scrolls, the
# entry stays, the bar is pinned at the bottom) and its ``EntryBar`` (the verdict
# line of reserved height, Undo under the thumb, the one primary action).

#: a row of thumb-sized targets (a stepper, a bettor, a choice)
ROW = 48


def entry_bar(
    session: GameSession,
    verdict: Verdict | None,
    primary: Primary | None,
    *,
    hint: Note | str | None = None,
    ident: str,
) -> ft.Control:
    """The kit's bar: the referee's verdict (or its note while nothing is picked)
    over [Undo] [primary action]; the same height whatever it says."""
    if isinstance(hint, Note):
        words, rule = hint.text, hint.rule
    else:
        words, rule = hint or "", None
    if verdict is not None and verdict.points is not None:
        # Rummoli moves chips, not points: the verdict's notes say who gets how many
        # ("Cy +4 (10♠ pot)"), so the bar leaves out the kit's "N points" head
        verdict = verdict.model_copy(update={"points": None})
    return EntryBar(session, verdict, primary, hint=words, hint_rule=rule, ident=ident)


@dataclass(frozen=True)
class Panel:
    """What a phase adds to the table: the rows above the board (what this step asks
    first), ``between`` the board and the stacks, ``below`` the chip count, and its bar.

    The board, the stacks and the chip count themselves are the table's (:class:`Top`),
    drawn by ``RummoliTable`` for every phase: a phase change (a deal, its undo) keeps
    them on every device and patches their figures, and draws only the panel anew."""

    above: Sequence[ft.Control]
    bar: ft.Control | None
    between: Sequence[ft.Control] = ()
    below: Sequence[ft.Control] = ()


def panel_screen(top: Top, panel: Panel) -> ft.Control:
    """The kit's one-thumb layout: ``top``'s score sheet first while the scoreboard is
    open, then the panel's rows around the board, the stacks and the chip count (one
    column that scrolls on its own), the panel's bar pinned at the bottom."""
    board = [
        *top.sheet,
        *panel.above,
        top.board,
        *panel.between,
        top.stacks,
        top.chips,
        *panel.below,
    ]
    return thumb_screen(board=board, entry=[], bar=panel.bar)


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Top:
    """What every phase shows of the table: the board, the stacks, the chip count --
    and, while the collapsed scoreboard is open, the score sheet above them."""

    board: ft.Control
    stacks: ft.Control
    chips: ft.Control
    sheet: tuple[ft.Control, ...] = ()


def _cell(text: str, *, bold: bool = False, first: bool = False) -> ft.Control:
    return one_line(
        text,
        size=13,
        weight=ft.FontWeight.BOLD if bold else None,
        expand=2 if first else 1,
        text_align=ft.TextAlign.LEFT if first else ft.TextAlign.RIGHT,
    )


@ft.component
def _sheet_row(title: str, figures: tuple[str, ...], words: str, ident: str) -> ft.Control:
    cells = [_cell(title, first=True), *(_cell(f) for f in figures)]
    return said(ft.Row(cells, spacing=4), words, ident)


#: a row of the score sheet, drawn again only when its figures change: an entry adds or
#: changes the last rows and "Now", and leaves the rounds before it as they were
SheetRow: Callable[..., ft.Control] = ft.memo(_sheet_row)  # type: ignore[no-untyped-call]


def score_sheet(summary: RummoliSummary) -> ft.Control:
    """Every row of the referee's ledger (start, each round, buy-ins, the final poker)
    with each player's change, then the stacks now: the rows add up to the totals."""
    players = summary.players
    lines: list[ft.Control] = [
        ft.Row([_cell("", first=True), *(_cell(p, bold=True) for p in players)], spacing=4)
    ]
    for i, row in enumerate(summary.rows()):
        amounts = [row.amounts.get(p, 0) for p in players]
        title = row.title if row.hand is None else f"Round {row.hand}"
        words = f"{title}: " + ", ".join(
            f"{p} {a:+d}" for p, a in zip(players, amounts, strict=True)
        )
        ident = f"sheet-row-{i}"
        lines.append(SheetRow(title, tuple(f"{a:+d}" for a in amounts), words, ident, key=ident))
    now = [summary.totals.get(p, 0) for p in players]
    words = "Now: " + ", ".join(
        f"{p} {plural(n, 'chip')}" for p, n in zip(players, now, strict=True)
    )
    cells = [_cell("Now", bold=True, first=True), *(_cell(str(n), bold=True) for n in now)]
    lines.append(said(ft.Row(cells, spacing=4), words, "sheet-now"))
    return section("Score sheet", lines, "score-sheet", spacing=2)


def _notes_on_stacks(summary: RummoliSummary) -> dict[str, str]:
    """ "folded" / "bet 2" under each stack while a poker is played."""
    betting = summary.detail.betting
    if betting is None:
        return {}
    notes = {p: "folded" for p in betting.folded}
    notes.update({p: f"bet {n}" for p, n in betting.bets.items() if n and p not in notes})
    return notes


@dataclass(frozen=True)
class TapPot:
    """A tap on a pot of the board: remembered until the next entry.  Equal from render
    to render (a lambda is not), so the memoized board and its pots are not all drawn
    again on every entry while they may be tapped -- only the pots that changed."""

    table: TableUi
    session: GameSession

    def __call__(self, pot: str) -> None:
        self.table.tap_pot(pot, len(self.session.actions))


def table_top(session: GameSession, table: TableUi, sheet: bool = False) -> Top:
    """The board (its pots tappable in a quick settlement), the stacks, the chip count;
    with ``sheet`` (the scoreboard is open) the score sheet too."""
    summary = summary_of(session)
    d = summary.detail
    play = d.play
    quick = play is not None and play.mode != "live" and table.play_mode == "quick"
    taps = play.open_pots if quick and play is not None else ()
    in_round = summary.phase in (Phase.WIDOW, Phase.POKER, Phase.PLAY)
    chips = f"Chips on the table: {d.chips_total}"
    seen = chips + (f" (started with {d.chips_added})" if d.chips_added != d.chips_total else "")
    return Top(
        board=ft.Semantics(
            content=Board(
                tuple(d.pots),
                d.pool,
                TapPot(table, session) if taps else None,
                table.tapped_pot(len(session.actions)),
                tuple(taps),
                key="board",
            ),
            identifier="pots",
            key="pots",
            container=True,
        ),
        stacks=stacks(
            summary.players,
            summary.totals,
            dealer=None if summary.phase in (Phase.FINAL, Phase.OVER) else summary.dealer,
            in_game=d.in_game,
            ante=d.ante,
            held=d.held if in_round else None,
            note=_notes_on_stacks(summary),
        ),
        chips=said(
            ft.Text(seen, size=12, color=ft.Colors.ON_SURFACE_VARIANT), chips, "chips-total"
        ),
        sheet=(score_sheet(summary),) if sheet else (),
    )
