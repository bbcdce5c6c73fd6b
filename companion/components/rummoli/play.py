"""The Rummoli phase: a quick settlement (pots and who went out) or a live card log.

Quick: tap a pot on the board when its card is laid, then who laid it; then
who went out and how many cards each other player still holds, or an impasse.
Live: who laid which card, judged by the referee as it is chosen.  Open pots,
held cards, the next card, pending claims and every rule come from the referee.

The screen is one scrolling column.  Quick: the mode row, the board (its pots
tapped), then who laid a pot / who went out (the same least height whether it
asks one or the other; the other players' cards held two to a row, so eight
players fit a phone), then the stacks.  Live: the mode row, the log, who lays,
the still card grid, then the board and the stacks.  Nothing above a target
changes height, so the pots and the grid stay where the thumb found them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.card_grid import CompactPicker
from companion.components.kit.common import button, choice, said, tag
from companion.components.kit.ui import one_line, slug
from companion.components.rummoli.board import mini_card
from companion.components.rummoli.parts import (
    ROW,
    Draft,
    Panel,
    Primary,
    TableUi,
    chip_row,
    entry_bar,
    note_row,
    plural,
    poker_result,
    section,
    stepper,
    summary_of,
)
from companion.session import GameSession, Refusal
from rulesets.cards import Card
from rulesets.protocol import Verdict
from rulesets.rummoli import (
    Claim,
    Impasse,
    Lay,
    Out,
    PendingClaim,
    PlayView,
    PokerResult,
    PotView,
    RummoliSummary,
)
from rulesets.rummoli.notes import Note
from rulesets.words import card_words

#: the kit's compact picker, with a ``key`` (Flet components take one)
Picker: Any = CompactPicker

__all__ = ["LiveUi", "QuickUi", "play_panel"]


@ft.component
def _poker_part(poker: PokerResult) -> ft.Control:
    """The poker's verdict, and the hands shown in a tile that folds them away."""
    # the hands shown are drawn only while they are unfolded on this device (Flutter
    # builds nothing of a folded tile either): seven hands are ~200 controls
    opened, set_opened = ft.use_state(False)
    *hands, verdict = poker_result(poker, "poker-result", hands=opened)
    rows: list[ft.Control] = [verdict]
    if poker.hands:
        rows.append(
            tag(
                ft.ExpansionTile(
                    title=ft.Text("The hands shown", size=14),
                    controls=hands,
                    dense=True,
                    tile_padding=ft.Padding.symmetric(horizontal=0),
                    expanded=opened,
                    on_change=lambda e: set_opened(bool(e.data)),
                ),
                "hands-shown",
            )
        )
    return ft.Column(rows, spacing=6, tight=True)


#: the poker's verdict and hands, drawn again only when the poker changes (or its hands
#: are unfolded) -- not when a pot is won or a card laid
PokerPart: Callable[..., ft.Control] = ft.memo(_poker_part)  # type: ignore[no-untyped-call]


@ft.component
def _intro(number: int, poker: PokerResult | None, won: Note | None) -> ft.Control:
    """The poker's verdict (the hands shown fold away) and the pots won so far: at the
    foot of the table, so a pot won (a line more) moves nothing a thumb is after."""
    rows: list[ft.Control] = []
    if poker is not None:
        rows.append(PokerPart(poker, key="poker-part"))
    rows += note_row(won, "won-so-far")
    return section(f"Round {number}", rows, "rummoli-intro")


#: the round's intro, drawn again only when the poker's verdict or the pots won change
#: -- not for every card laid (every device draws the screen again on every entry)
Intro: Callable[..., ft.Control] = ft.memo(_intro)  # type: ignore[no-untyped-call]


def _modes(table: TableUi, mode: str, fixed: bool) -> ft.Control:
    """Quick / Card by card, in a row of its own at the top of the table: the same
    place in both modes, never under the board.  Once the round's first entry fixed
    the mode (``fixed``), the row says which, at the same height (nothing moves up)."""
    if fixed:
        words = "Card by card" if mode == "live" else "Quick: pots and who went out"
        return ft.Semantics(
            content=ft.Row(
                [ft.Text(words, size=15, weight=ft.FontWeight.W_500, expand=True)],
                height=ROW,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            identifier="rummoli-modes",
            container=True,
        )
    switch = ft.Row(
        [
            choice(
                "Quick",
                mode == "quick",
                lambda _: setattr(table, "play_mode", "quick"),
                "rummoli-mode-quick",
                "Quick: pots and who went out",
            ),
            choice(
                "Card by card",
                mode == "live",
                lambda _: setattr(table, "play_mode", "live"),
                "rummoli-mode-live",
            ),
        ],
        spacing=6,
        tight=True,
    )
    return ft.Semantics(
        content=ft.Row(
            [ft.Text("Enter the round", size=15, weight=ft.FontWeight.W_500, expand=True), switch],
            height=ROW,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        identifier="rummoli-modes",
        container=True,
    )


def play_panel(session: GameSession, table: TableUi, quick: QuickUi, live: LiveUi) -> Panel | None:
    """The round's entry around the table: a quick settlement or a live card log."""
    summary = summary_of(session)
    play = summary.detail.play
    if play is None:
        return None
    mode = play.mode or table.play_mode
    # the switch while the table may still choose (the house rules may fix the mode;
    # the round's first entry does)
    head = [_modes(table, mode, fixed=play.mode is not None)]
    hand = summary.hands[-1]
    intro = [Intro(hand.number, hand.poker, summary.detail.note("won"), key="rummoli-intro")]
    if mode == "live":
        return live_log(session, head, intro, live)
    return quick_settlement(session, table, head, intro, quick)


# --------------------------------------------------------------------------- quick


@ft.observable
@dataclass
class QuickUi(Draft):
    ending: str | None = None  #: who went out, or "" for an impasse
    held: dict[str, int] = field(default_factory=dict)

    def end_with(self, who: str) -> None:
        """Who went out ("" for an impasse): a bound method, equal from render to render."""
        self.ending = who

    def step_by(self, player: str, most: int, delta: int) -> None:
        self.held = {**self.held, player: max(0, min(most, self.held.get(player, 0) + delta))}


def _lower_height(summary: RummoliSummary) -> int:
    """About the height of the part under the board at its tallest on a phone: who went
    out (two rows of chips from five players on), and the other players' cards two to
    a row.  It is the part's least height (it grows if it needs more, it never cuts),
    so it keeps its height whatever it asks and the table under it stays put."""
    players = len(summary.detail.in_game)
    chips = 1 if players <= 3 else 2
    steppers = (max(1, players - 1) + 1) // 2
    return 16 + 22 + chips * (45 + 6) + 20 + steppers * ROW + 4 * 6


def at_least(height: int, control: ft.Control) -> ft.Control:
    """``control`` in a box at least ``height`` px tall that grows with it (never clips)."""
    return ft.Stack([ft.Container(height=height), control])


def quick_settlement(
    session: GameSession,
    table: TableUi,
    head: list[ft.Control],
    intro: list[ft.Control],
    draft: QuickUi,
) -> Panel | None:
    summary = summary_of(session)
    play = summary.detail.play
    ui = draft.fresh(len(session.actions))
    if play is None:
        return None
    pot = table.tapped_pot(len(session.actions))
    pots = {p.pot: p for p in summary.detail.pots}
    if pot is not None and pot in play.open_pots:
        lower, bar = _who_laid(session, summary, pots[pot], table)
    else:
        lower, bar = _ending(session, summary, play, ui, table.said(len(session.actions)))
    # one column that scrolls as a whole: the switch and the board first (a pot is
    # tapped there), then who laid it / who went out (the same least height in either
    # case), then the stacks and the round so far -- nothing above a target changes
    # height, and nothing is squeezed into a box of its own
    between = [at_least(_lower_height(summary), lower)]
    return Panel(above=head, bar=bar, between=between, below=intro)


def _who_laid(
    session: GameSession, summary: RummoliSummary, pot: PotView, table: TableUi
) -> tuple[ft.Control, ft.Control]:
    """Who laid the pot's card -- for a combination pot, after asking whether one
    player laid all of it (A-M8, A-M9, A-M19)."""
    back = button("Back", lambda _: table.tap_pot(None, -1), "claim-back", icon=ft.Icons.UNDO)
    hint: Note
    if pot.combo and table.combo is None:

        def nobody(_: object) -> None:
            # nothing to record: the pot stays on the board; say so, back to the round
            table.tap_pot(None, -1)
            table.say(
                Note(
                    key="no-payout",
                    text=f"Nobody wins the {pot.label} pot this round: its "
                    f"{plural(pot.chips, 'chip')} stay on the board.",
                    rule=pot.rule,
                ),
                len(session.actions),
            )

        rows: list[ft.Control] = [
            ft.Row(
                [
                    button(
                        "Yes, one player",
                        lambda _: setattr(table, "combo", True),
                        "combo-yes",
                        filled=True,
                    ),
                    button("No, different players", nobody, "combo-no"),
                ],
                wrap=True,
            ),
            back,
        ]
        hint = Note(
            key="combo",
            text=f"The {pot.label} pot pays only if {pot.wins}. Did one player lay all of it?",
            rule=pot.rule,
        )
    else:
        rows = [
            chip_row(
                [
                    choice(
                        p,
                        False,
                        lambda _, p=p: session.add(Claim(player=p, pot=pot.pot)),
                        f"claim-by-{slug(p)}",
                        f"{p} laid {pot.label}",
                    )
                    for p in summary.detail.in_game
                ]
            ),
            back,
        ]
        hint = Note(key="who", text=f"Who laid {pot.label}? Tap them to record it.", rule=pot.rule)
    title = f"The {pot.label} pot ({plural(pot.chips, 'chip')})"
    bar = entry_bar(session, None, None, hint=hint, ident="claim-verdict")
    return section(title, rows, "quick-claims"), bar


def _held(summary: RummoliSummary, play: PlayView, ui: QuickUi) -> list[int]:
    """Cards still held per seat (seating order), each at most what the referee says."""
    skip = ui.ending or None
    return [
        max(0, min(ui.held.get(p, 0), play.held.get(p, 0)))
        if p in summary.detail.in_game and p != skip
        else 0
        for p in summary.players
    ]


def _steppers(summary: RummoliSummary, play: PlayView, ui: QuickUi) -> list[ft.Control]:
    """Each other player's cards held, two players to a row (eight players fit a phone)."""
    now = _held(summary, play, ui)
    cells: list[ft.Control] = []
    for i, p in enumerate(summary.players):
        if p not in summary.detail.in_game or p == ui.ending:
            continue
        most = play.held.get(p, 0)
        cells.append(
            ft.Container(
                stepper(
                    f"{p} holds",
                    now[i],
                    functools.partial(ui.step_by, p, most),
                    f"held-{slug(p)}",
                    0,
                    most,
                    shown=p,
                ),
                col={"xs": 6},
            )
        )
    return [ft.ResponsiveRow(cells, spacing=6, run_spacing=0)]


def _paid(verdict: Verdict) -> int:
    """The chips the players pay, by the referee's moves for a legal verdict."""
    return -sum(m.amount for m in verdict.moves if m.amount < 0)


def _ending_action(
    session: GameSession, summary: RummoliSummary, play: PlayView, ui: QuickUi, ending: str
) -> tuple[Verdict, Primary]:
    """The referee's verdict on the ending chosen, and the button that records it."""
    held = _held(summary, play, ui)

    def now() -> list[int]:
        return _held(summary, play, ui)  # the counts when pressed, not when drawn

    if ending:
        verdict = session.judge(Out(player=ending, held=held))
        words = f"{ending} went out"
        if verdict.legal:  # what the others pay, as the referee settles it (short stacks too)
            # "12 chips", not "collects 12": with a long name ("Christopher went out:
            # collects 12 + the Rummoli pot") the words took 3 lines at 360 px
            words += f": {plural(_paid(verdict), 'chip')} + the Rummoli pot"
        return verdict, Primary(
            words,
            "record-out",
            lambda: session.add(Out(player=ending, held=now())),
            enabled=verdict.legal,
            icon=ft.Icons.DONE_ALL,
        )
    verdict = session.judge(Impasse(held=held))
    words = "Record the impasse"
    if verdict.legal:
        words += f": {plural(_paid(verdict), 'chip')} to the centre"
    return verdict, Primary(
        words,
        "record-impasse",
        lambda: session.add(Impasse(held=now())),
        enabled=verdict.legal,
        icon=ft.Icons.BLOCK,
    )


@ft.component
def _out_chips(
    in_game: tuple[str, ...], ending: str | None, end_with: Callable[[str], None]
) -> ft.Control:
    people = [
        choice(p, ending == p, lambda _, p=p: end_with(p), f"out-{slug(p)}", f"{p} went out")
        for p in in_game
    ]
    people.append(
        choice(
            "Impasse", ending == "", lambda _: end_with(""), "impasse", "Impasse: nobody can lay"
        )
    )
    return chip_row(people)


#: who went out, or the impasse: drawn again only when one is tapped or a player leaves
#: the game -- not for every claim another phone records (``end_with`` is a bound method)
OutChips: Callable[..., ft.Control] = ft.memo(_out_chips)  # type: ignore[no-untyped-call]


def _ending(
    session: GameSession,
    summary: RummoliSummary,
    play: PlayView,
    ui: QuickUi,
    notice: Note | None = None,
) -> tuple[ft.Control, ft.Control]:
    """Who went out first (M6.1), or an impasse (M5.7): the section and its bar."""
    ending = ui.ending
    rows: list[ft.Control] = [
        OutChips(tuple(summary.detail.in_game), ending, ui.end_with, key="out-chips")
    ]
    if ending is None:
        bar = entry_bar(
            session,
            None,
            Primary("Who went out? Tap them", "record-out", lambda: None, enabled=False),
            hint=notice or summary.detail.note("claims"),
            ident="end-verdict",
        )
        return section("Who went out first?", rows, "quick-end"), bar
    rows.append(
        ft.Text(
            "Cards each other player still holds:" if ending else "Cards each player still holds:",
            size=14,
        )
    )
    rows += _steppers(summary, play, ui)
    verdict, action = _ending_action(session, summary, play, ui, ending)
    quiet = verdict.legal and not any(_held(summary, play, ui))
    hint = summary.detail.note("out" if ending else "impasse-quick")
    bar = entry_bar(session, None if quiet else verdict, action, hint=hint, ident="end-verdict")
    return section("Who went out first?", rows, "quick-end"), bar


# --------------------------------------------------------------------------- live


@ft.observable
@dataclass
class LiveUi(Draft):
    lay_by: str | None = None
    lay_card: list[Card] = field(default_factory=list)
    impasse: bool = False  #: nobody can lay: the entry is the impasse

    def pick(self, player: str) -> None:
        """``player`` lays the card (not an impasse)."""
        self.lay_by, self.impasse = player, False

    def stuck(self) -> None:
        """Nobody can lay: the entry is the impasse."""
        self.impasse = True


#: the log shows this many of the latest cards in one row (it never wraps, so it never
#: grows); its label reads every card laid
LOG_CARDS = 10


@ft.component
def _laid_cell(who: str, card: Card) -> ft.Control:
    return ft.Column(
        [
            mini_card(card, width=28),
            one_line(who, size=10, width=32, text_align=ft.TextAlign.CENTER),
        ],
        spacing=1,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )


#: a card in the log (7 controls), keyed by its place in the round: a card laid draws
#: that one cell on every phone, not the ten shown
LaidCell: Callable[..., ft.Control] = ft.memo(_laid_cell)  # type: ignore[no-untyped-call]


def _laid_log(laid: tuple[tuple[str, Card], ...]) -> ft.Control:
    first = max(0, len(laid) - LOG_CARDS)
    cells: list[ft.Control] = [
        LaidCell(who, card, key=f"laid-{first + i}") for i, (who, card) in enumerate(laid[first:])
    ]
    earlier = len(laid) - LOG_CARDS
    if earlier > 0:
        cells.insert(0, ft.Text(f"+{earlier}", size=12, italic=True))
    words = (
        "Laid: " + ", ".join(f"{card_words(c)} by {w}" for w, c in laid)
        if laid
        else "Nothing laid yet"
    )
    return said(
        ft.Container(
            ft.Row(cells, spacing=3, vertical_alignment=ft.CrossAxisAlignment.END),
            height=56,
            alignment=ft.Alignment.BOTTOM_LEFT,
        ),
        words,
        "laid-log",
    )


def _pending(session: GameSession, pending: tuple[PendingClaim, ...]) -> ft.Control:
    """Pots a player may claim before the next card (claim=strict, M5.6): a row that is
    always there, so a claim coming or going moves nothing."""
    buttons = [
        button(
            f"{c.player} claims {c.label} ({c.chips})",
            lambda _, c=c: session.add(Claim(player=c.player, pot=c.pot)),
            f"pending-{slug(c.pot)}",
            filled=True,
            icon=ft.Icons.SAVINGS,
        )
        for c in pending
    ]
    return ft.Container(ft.Row(buttons, spacing=6, scroll=ft.ScrollMode.AUTO), height=ROW)


def _live_action(
    session: GameSession, summary: RummoliSummary, ui: LiveUi, who: str | None
) -> tuple[Verdict | None, Primary]:
    """The entry being made: a card laid by someone, or the impasse (M5.7)."""
    if ui.impasse:
        stuck = session.judge(Impasse())
        return stuck, Primary(
            "Record the impasse",
            "record-lay",
            lambda: session.add(Impasse()),
            enabled=stuck.legal,
            icon=ft.Icons.BLOCK,
        )
    chosen = list(ui.lay_card)
    action = Lay(player=who, card=chosen[0]) if who and chosen else None

    def record() -> Refusal | None:
        # who and the card as they are now, not as they were when this was drawn
        now_who = ui.lay_by or who
        if not (now_who and ui.lay_card):
            return None
        return session.add(Lay(player=now_who, card=ui.lay_card[0]))

    verdict = session.judge(action) if action is not None else None
    return verdict, Primary(
        f"Lay {chosen[0].symbol} for {who}" if action else "Pick who and the card",
        "record-lay",
        record,
        enabled=verdict is not None and verdict.legal,
        icon=ft.Icons.PLAY_ARROW,
    )


def _layers(play: PlayView, ui: LiveUi, who: str | None) -> ft.Control:
    """Who laid the card (the referee's next player until another is tapped), or an
    impasse: one row of chips."""
    held = tuple(play.held[p] for p in play.layers)
    return Layers(tuple(play.layers), held, who, ui.impasse, ui.pick, ui.stuck, key="layers")


@ft.component
def _layer_chips(
    layers: tuple[str, ...],
    held: tuple[int, ...],
    who: str | None,
    impasse: bool,
    pick: Callable[[str], None],
    stuck: Callable[[], None],
) -> ft.Control:
    # names only (the stacks above say how many cards each holds): with Impasse they
    # fit one row of a phone, so the grid below keeps its place
    chips = [
        choice(
            p,
            p == who and not impasse,
            lambda _, p=p: pick(p),
            f"lay-by-{slug(p)}",
            f"{p} lays, holds {n}",
        )
        for p, n in zip(layers, held, strict=True)
    ]
    chips.append(
        choice("Impasse", impasse, lambda _: stuck(), "impasse-live", "Impasse: nobody can lay")
    )
    return chip_row(chips)


#: who lays, drawn again only when the next player, a count held or the choice changes
#: (``pick`` and ``stuck`` are bound methods: equal from render to render)
Layers: Callable[..., ft.Control] = ft.memo(_layer_chips)  # type: ignore[no-untyped-call]


def live_log(
    session: GameSession, head: list[ft.Control], intro: list[ft.Control], draft: LiveUi
) -> Panel | None:
    summary = summary_of(session)
    play = summary.detail.play
    ui = draft.fresh(len(session.actions))
    if play is None:
        return None
    # turn order: the referee's next player is chosen until someone else is tapped
    who = ui.lay_by or (summary.turn if summary.turn in play.layers else None)
    entry: list[ft.Control] = [*head, _laid_log(play.laid)]
    if summary.detail.rules.claim == "strict":
        entry.append(_pending(session, summary.detail.pending))
    entry.append(_layers(play, ui, who))

    def pick_card(cards: list[Card]) -> None:
        ui.lay_card, ui.impasse = list(cards[-1:]), False

    entry.append(
        Picker(
            list(ui.lay_card),
            pick_card,
            ident="lay",
            label="Card laid",
            unavailable={c for _, c in play.laid},
            max_cards=1,  # a tap on another card replaces it
            key="lay",
        )
    )
    verdict, action = _live_action(session, summary, ui, who)
    hint = summary.detail.note("impasse" if ui.impasse else "hint")
    bar = entry_bar(session, verdict, action, hint=hint, ident="lay-verdict")
    # one column that scrolls as a whole: the log, who laid, the still grid (nothing
    # above it changes height), then the board and the stacks (a pot just paid shows
    # there) and the round so far -- no part squeezed into a box of its own
    return Panel(above=entry, bar=bar, below=intro)
