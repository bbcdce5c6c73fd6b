"""Rummy "Hand over": who went out, then each other player's cards, one at a time.

One tap names who went out (or "Nobody went out" when the referee allows a hand
to end without a winner); the screen then shows one player's cards at a time,
going round the table from that player's left.  Each card is one tap in the
thumb kit's still grid of the whole pack (or typed: ``5h 6h 7h``); once a player
has as many cards as the referee says they hold, the next player comes up by
itself.  "Next" is there only where the entry cannot move on by itself: a typed
total, or a player who holds fewer cards than the most the referee allows (their
melds were not logged) -- never beside an entry about to move on, nor just after
it moved, so a tap meant for Next never skips the player who just came up (any
player's chip goes back to them).  A
player who won't show their cards gets a typed total on a keypad instead, marked
"typed".  Going rummy is one switch, offered only when the referee says that
player may claim it.

Three parts, laid out by the table with ``thumb_screen``: the entry (who went
out, the players, one player's cards) never moves; the board above it shows the
referee's running numbers and, once everyone is entered, its scoring of the
hand (totals after it, the end of the game) or its "no" with the rule; the bar
holds the referee's verdict and Confirm, always on screen.  Nothing here counts
a card: every number is the referee's (``ask_hand_over``).

The same panel reopens a finished hand for correction: the referee judges the
corrected end in place of the old one, and the record is replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.card_grid import (
    CELL,
    GAP,
    CompactPicker,
    card_cell,
    cards_line,
    cards_spans,
)
from companion.components.kit.common import rule_link, said, tag
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.components.kit.ui import one_line, slug, tap_target
from companion.components.rummy.entry import (
    HandOverAnswer,
    ask_hand_over,
    cards_expected,
    cards_known,
    corrected,
    hand_end_index,
    live_game,
    losers_in_order,
    next_deal,
    replayed_change,
    summary_of,
    unavailable,
)
from companion.session import GameSession, Refusal
from rulesets import RulesetError, seats, timeline
from rulesets.cards import JOKER, Card, Rank, Suit, format_cards
from rulesets.protocol import Verdict
from rulesets.rummy import (
    HandEnd,
    LayOff,
    Meld,
    RummyGame,
    RummyPlay,
    RummySummary,
    StartHand,
)

__all__ = [
    "NOBODY",
    "HandOverBar",
    "HandOverBoard",
    "HandOverEntry",
    "HandOverUi",
    "hand_over_ui",
]

NOBODY = "(nobody)"
#: the keypad for a typed total: digits, delete the last one
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0")


@ft.observable
@dataclass
class HandOverUi:
    """The hand over while it is filled in (a new hand end, or a finished one corrected)."""

    number: int
    went_out: str | None = None  # a player, NOBODY, or None while nobody is chosen
    rummy: bool = False
    remaining: dict[str, list[Card]] = field(default_factory=dict)
    #: the players whose total is typed, and the digits typed so far
    typed: dict[str, str] = field(default_factory=dict)
    current: str | None = None  # the player whose cards are shown
    refused: Refusal | None = None

    @property
    def winner(self) -> str | None:
        return None if self.went_out in (None, NOBODY) else self.went_out


def hand_over_ui(session: GameSession, number: int) -> HandOverUi:
    """A fresh hand over for hand ``number``, or the recorded one to correct."""
    game = live_game(session)
    index = hand_end_index(game.actions, number)
    action = game.actions[index] if index is not None else None
    if not isinstance(action, HandEnd):
        return HandOverUi(number)
    ui = HandOverUi(
        number,
        went_out=NOBODY if action.went_out is None else action.went_out,
        rummy=bool(action.going_rummy),
        remaining={p: list(c) for p, c in action.remaining.items()},
        typed={p: str(v) for p, v in action.typed.items()},
    )
    order = _order(session, ui)
    ui.current = order[0] if order else None
    return ui


# --------------------------------------------------------------------------- what it comes to


@dataclass(frozen=True)
class _Facts:
    """The hand over as the referee sees it, worked out once per render."""

    game: RummyGame
    index: int | None
    before: RummySummary
    play: RummyPlay | None
    losers: list[str]
    answer: HandOverAnswer

    def entered(self, ui: HandOverUi, p: str) -> bool:
        return bool(ui.remaining.get(p)) or p in ui.typed

    def after(self, ui: HandOverUi, p: str | None) -> str | None:
        """The next player round the table after ``p`` still to enter (None: nobody)."""
        for q in seats.after(self.losers, p):
            if q != p and not self.entered(ui, q):
                return q
        return None


def _order(session: GameSession, ui: HandOverUi) -> list[str]:
    if ui.went_out is None:
        return []
    game = live_game(session)
    index = hand_end_index(game.actions, ui.number)
    with session.live.lock:  # looking back pops and pushes the shared live game
        before = timeline.summary_at(game, index) if index is not None else summary_of(session)
    dealer = before.detail.play.dealer if before.detail.play else before.dealer
    return losers_in_order(session.players, ui.winner, dealer)


def _typed_totals(ui: HandOverUi) -> dict[str, int]:
    return {p: int(v) for p, v in ui.typed.items() if v.isdigit()}


def _facts(session: GameSession, ui: HandOverUi) -> _Facts:
    with session.live.lock:  # looking back pops and pushes the shared live game
        return _facts_now(session, ui)


def _facts_now(session: GameSession, ui: HandOverUi) -> _Facts:
    game = live_game(session)
    index = hand_end_index(game.actions, ui.number)
    before = timeline.summary_at(game, index) if index is not None else summary_of(session)
    play = before.detail.play
    losers = _order(session, ui)
    answer = HandOverAnswer()
    if ui.went_out is not None:
        claim = ui.rummy and play is not None and ui.winner in play.may_go_rummy
        typed = _typed_totals(ui)
        answer = ask_hand_over(
            game,
            index,
            ui.number,
            went_out=ui.winner,
            claim_rummy=claim,
            losers=losers,
            remaining={p: c for p, c in ui.remaining.items() if p not in ui.typed},
            typed=typed,
        )
    return _Facts(game, index, before, play, losers, answer)


# --------------------------------------------------------------------------- the entry


def _chip(
    name: str,
    status: str,
    *,
    label: str,
    ident: str,
    chosen: bool,
    on_click: Any,
    winner: bool = False,
) -> ft.Control:
    """A player: their name and where their entry stands; a thumb-sized target.  The
    player whose cards are shown has a thick border; who went out is shaded apart."""
    bg: ft.ColorValue
    edge: ft.ColorValue
    if winner:
        bg, edge, width = ft.Colors.TERTIARY_CONTAINER, ft.Colors.TERTIARY, 1
    elif chosen:
        bg, edge, width = ft.Colors.PRIMARY_CONTAINER, ft.Colors.PRIMARY, 3
    else:
        bg, edge, width = ft.Colors.SURFACE_CONTAINER_HIGHEST, "#9E9E9E", 1
    box = ft.Container(
        ft.Column(
            [
                one_line(name, size=15, weight=ft.FontWeight.BOLD),
                one_line(status, size=13),
            ],
            spacing=0,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=48,
        border_radius=10,
        alignment=ft.Alignment.CENTER,
        bgcolor=bg,
        # drawn inside the fixed box: a thicker border never resizes the chip
        border=ft.Border.all(width, edge),
        on_click=on_click,
        ink=True,
    )
    return tap_target(box, label, ident, selected=chosen)


def _chip_for(p: str, ui: HandOverUi, facts: _Facts) -> tuple[str, str, str]:
    """(status, label, identifier) of player ``p``'s chip."""
    if ui.went_out is None:
        return "", f"{p} went out", f"went-out-{slug(p)}"
    if p == ui.winner:
        rummy = " · rummy" if ui.rummy else ""
        return f"went out{rummy}", f"{p} went out (tap to change)", f"went-out-{slug(p)}"
    value = facts.answer.penalties.get(p)
    if p in ui.typed:
        raw = ui.typed[p]
        status = f"typed {raw}" if raw else "typed …"
        label = f"{p}: typed {raw}" if raw else f"{p}: type a total"
    elif value is not None:
        status, label = str(value), f"{p}: penalty {value}"
    else:
        status, label = "…", f"{p}: cards to enter"
    return status, label, f"live-{slug(p)}"


def _went_rummy_by_the_log(facts: _Facts, p: str) -> bool:
    """Going rummy, as the table log shows it: the log was kept this hand (someone put
    cards down), it shows ``p`` put none down before, and the referee lets ``p`` claim it."""
    play = facts.before.detail.play
    if play is None or p not in play.may_go_rummy:
        return False
    actions = facts.game.actions if facts.index is None else facts.game.actions[: facts.index]
    who_put_down: set[str] = set()
    for a in reversed(actions):
        if isinstance(a, StartHand):
            break
        if isinstance(a, Meld | LayOff):
            who_put_down.add(a.player)
    return bool(who_put_down) and p not in who_put_down


def _players_row(ui: HandOverUi, facts: _Facts, players: tuple[str, ...]) -> ft.Control:
    """Every player, a chip each, the same width whatever it says (nothing moves)."""
    per_row = len(players) if len(players) <= 4 else 3

    def tap(p: str) -> None:
        if ui.went_out is None:
            ui.went_out = p
            ui.remaining = {q: c for q, c in ui.remaining.items() if q != p}
            ui.typed = {q: v for q, v in ui.typed.items() if q != p}
            ui.rummy = _went_rummy_by_the_log(facts, p)
            ui.current = losers_in_order(players, p, facts.before.dealer)[0]
        elif p == ui.winner:  # choose again
            ui.went_out = None
            ui.current = None
        else:
            ui.current = p
        ui.refused = None

    chips: list[ft.Control] = []
    for p in players:
        status, label, ident = _chip_for(p, ui, facts)
        chosen = p in (ui.current, ui.winner)
        chip = _chip(
            p,
            status,
            label=label,
            ident=ident,
            chosen=chosen,
            on_click=lambda _, p=p: tap(p),
            winner=p == ui.winner,
        )
        chips.append(ft.Container(chip, col=12 // per_row))
    return ft.ResponsiveRow(chips, spacing=6, run_spacing=4)


def _head_row(
    ui: HandOverUi, facts: _Facts, editing: bool, on_close: Callable[[], None]
) -> ft.Control:
    """The title (or the going-rummy switch), "Nobody went out", and Cancel."""
    n = ui.number
    play = facts.play
    verb = f"Correct hand {n}" if editing else f"Hand {n} is over"
    left: list[ft.Control]
    if ui.went_out is None:
        left = [ft.Text(f"{verb}: who went out?", size=16, weight=ft.FontWeight.BOLD, expand=True)]
        if play is not None and play.may_end_without_winner:

            def nobody(_: Any) -> None:
                ui.went_out = NOBODY
                ui.current = losers_in_order(facts.game.players, None, facts.before.dealer)[0]

            left.append(
                tag(ft.TextButton("Nobody went out", on_click=nobody, height=44), "went-out-nobody")
            )
    elif ui.winner is not None and play is not None and ui.winner in play.may_go_rummy:

        def flip(e: ft.Event[ft.Switch]) -> None:
            ui.rummy = bool(e.control.value)

        switch = ft.Switch(label=f"{ui.winner} went rummy", value=ui.rummy, on_change=flip)
        rule = facts.before.detail.cite.get("going_rummy")  # the referee's, as every rule
        left = [
            tag(switch, "going-rummy"),
            *([rule_link(rule, "going-rummy-rule")] if rule else []),
            ft.Container(expand=True),
        ]
    else:
        who = f"{ui.winner} went out" if ui.winner else "nobody went out"
        left = [ft.Text(f"{verb}: {who}", size=16, weight=ft.FontWeight.BOLD, expand=True)]
        if ui.went_out == NOBODY:

            def change(_: Any) -> None:
                ui.went_out = None
                ui.current = None

            left.append(tag(ft.TextButton("Change", on_click=change, height=44), "went-out-change"))
    cancel = tag(ft.TextButton("Cancel", on_click=lambda _: on_close(), height=44), "cancel-hand")
    return ft.Container(
        ft.Row([*left, cancel], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=44,
    )


def _offers_next(ui: HandOverUi, facts: _Facts, p: str) -> bool:
    """Whether ``p``'s entry needs Next to move on: a typed total (no count to reach),
    or some cards picked, fewer than the most the referee allows -- never when the
    referee knows ``p``'s exact count (the entry moves on once it is reached; fewer
    is refused), nor before a first card (the entry may just have moved on by itself:
    a second tap there would skip ``p``)."""
    if p in ui.typed:
        return True
    entered = len(ui.remaining.get(p, []))
    if entered == 0 or cards_known(facts.play, p) is not None:
        return False
    most = cards_expected(facts.play, p)
    return most is None or entered < most


def _entry_row(
    ui: HandOverUi, p: str | None, following: str | None, *, offers_next: bool = True
) -> ft.Control:
    """Whose cards are shown and what is entered so far; take one back; won't show; and
    Next, where the entry needs it (``offers_next``, see :func:`_offers_next`)."""
    if p is None:
        hint = "Tap who went out, then each player's cards." if ui.went_out is None else ""
        return ft.Container(ft.Text(hint, size=14, italic=True), height=44)
    s = slug(p)
    typed = p in ui.typed
    if typed:
        text = f"{p}'s total, typed: {ui.typed[p] or '…'}"
        shown = said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, f"typed-{s}")
    else:
        cards = ui.remaining.get(p, [])
        text = f"{p}'s cards: {format_cards(cards, symbols=True) if cards else 'none yet'}"
        words = cards_line(
            [
                ft.TextSpan(f"{p}: ", style=ft.TextStyle(size=14, weight=ft.FontWeight.W_500)),
                *(cards_spans(cards, size=14) if cards else [ft.TextSpan("none yet")]),
            ]
        )
        shown = said(words, text, f"rem-{s}-chosen")

    def take_back(_: Any) -> None:
        ui.remaining = {**ui.remaining, p: list(ui.remaining.get(p, []))[:-1]}

    def flip(_: Any) -> None:
        ui.typed = {q: v for q, v in ui.typed.items() if q != p} if typed else {**ui.typed, p: ""}

    def next_player(_: Any) -> None:
        if following is not None:
            ui.current = following

    back = ft.IconButton(
        icon=ft.Icon(ft.Icons.BACKSPACE_OUTLINED, semantics_label=f"Take back {p}'s last card"),
        on_click=take_back,
        disabled=typed or not ui.remaining.get(p),
    )
    switch = ft.Container(
        ft.Text("Show cards" if typed else "Won't show", size=13, weight=ft.FontWeight.W_500),
        height=44,
        padding=ft.Padding.symmetric(horizontal=10),
        alignment=ft.Alignment.CENTER,
        border_radius=22,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=flip,
        ink=True,
    )
    label = f"Enter {p}'s cards instead" if typed else f"{p} won't show their cards: type a total"
    step: ft.Control = ft.FilledTonalButton(
        "Next",
        icon=ft.Icons.ARROW_FORWARD,
        on_click=next_player,
        disabled=not offers_next or following is None,
        height=44,
        tooltip=f"Next: {following}" if following and offers_next else None,
    )
    if not offers_next:  # Next's room stays, empty and unseen: nothing beside it moves
        step = ft.Semantics(content=ft.Container(step, opacity=0), exclude_semantics=True)
    else:
        step = tag(step, "next-player")
    return ft.Container(
        ft.Row(
            [
                ft.Container(shown, expand=True),
                ft.Semantics(content=back, identifier=f"rem-{s}-back", key=f"rem-{s}-back"),
                tap_target(switch, label, f"typed-switch-{s}"),
                step,
            ],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=44,
    )


def _keypad(ui: HandOverUi, p: str) -> ft.Control:
    """Digits for a typed total: no phone keyboard sliding over the screen."""

    def press(key: str) -> None:
        raw = ui.typed.get(p, "")
        if key == "⌫":
            raw = raw[:-1]
        elif len(raw) < 3:
            raw = (raw + key).lstrip("0") or "0"
        ui.typed = {**ui.typed, p: raw}

    words = {"⌫": "Delete the last digit"}
    idents = {"⌫": "back"}
    rows: list[ft.Control] = []
    for i in range(0, len(KEYS), 3):
        keys: list[ft.Control] = []
        for key in KEYS[i : i + 3]:
            face: ft.Control = (  # an icon: the app's fonts have no ⌫ (offline, no fallback)
                ft.Icon(ft.Icons.BACKSPACE_OUTLINED, size=22)
                if key == "⌫"
                else ft.Text(key, size=20, weight=ft.FontWeight.BOLD)
            )
            box = ft.Container(
                face,
                width=96,
                height=CELL,
                alignment=ft.Alignment.CENTER,
                border_radius=8,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                on_click=lambda _, k=key: press(k),
                ink=True,
            )
            ident = f"typed-{slug(p)}-key-{idents.get(key, key)}"
            keys.append(tap_target(box, words.get(key, key), ident))
        rows.append(ft.Row(keys, spacing=6, tight=True))
    return ft.Column(rows, spacing=4, tight=True)


def _taken(ui: HandOverUi, facts: _Facts, p: str) -> set[Card]:
    """Cards ``p`` cannot hold: on the table, face up, or shown by another player."""
    off = unavailable(facts.play)
    for q, cards in ui.remaining.items():
        if q != p and q not in ui.typed and q in facts.losers:
            off.update(c for c in cards if not c.is_joker)
    return off


def _pack(jokers: bool, *, opacity: float) -> ft.Control:
    """The whole pack greyed, laid out as the picker lays out its grid (a suit a row,
    jokers and its "Type" cell last) -- exactly its size, whatever the screen's width --
    and hidden from screen readers (nothing in it can be tapped)."""
    rows: list[ft.Control] = []
    suits = list(Suit)
    for n, suit in enumerate(suits):
        cells = [
            card_cell(Card(r, suit), chosen=False, disabled=True, on_tap=_no_tap, ident="rem")
            for r in Rank
        ]
        if n == len(suits) - 1:
            if jokers:
                cells.append(
                    card_cell(JOKER, chosen=False, disabled=True, on_tap=_no_tap, ident="rem")
                )
            cells.append(ft.Container(width=CELL, height=CELL))  # the "Type" cell's place
        rows.append(ft.Row(cells, wrap=True, spacing=GAP, run_spacing=GAP))
    return ft.Semantics(
        content=ft.Container(ft.Column(rows, spacing=GAP), opacity=opacity),
        exclude_semantics=True,
    )


def _no_tap(_: Card) -> None:
    return None


def _same_room(
    control: ft.Control, jokers: bool, where: ft.Alignment = ft.Alignment.TOP_LEFT
) -> ft.Control:
    """``control`` (the keypad, the picker typing) over an unseen pack: the entry keeps
    the height of the card grid, so switching to the keypad or to typing moves nothing
    above it (the players, Won't show, Next)."""
    return ft.Stack([_pack(jokers, opacity=0), control], alignment=where)


@ft.component
def HandOverEntry(session: GameSession, ui: HandOverUi, on_close: Callable[[], None]) -> ft.Control:
    """The part that never moves: who went out, the players, one player's cards."""
    facts = _facts(session, ui)
    p = ui.current if ui.current in facts.losers else None
    following = facts.after(ui, p) if p is not None else None

    shown = list(ui.remaining.get(p, [])) if p is not None else []

    def change(picked: list[Card]) -> None:
        if p is None:
            return
        before = ui.remaining.get(p, [])
        cards = replayed_change(shown, picked, before)  # a quick second tap is not lost
        ui.remaining = {**ui.remaining, p: cards}
        ui.refused = None
        expected = cards_expected(facts.play, p)
        if len(cards) > len(before) and expected is not None and len(cards) == expected:
            ui.current = facts.after(ui, p) or p  # shown in full: on to the next player

    jokers = bool(facts.game.rules.jokers)
    entry: ft.Control
    if p is None:  # nobody chosen yet: the grid is there, greyed (nothing to tap yet)
        entry = _pack(jokers, opacity=0.6)
    elif p in ui.typed:
        entry = _same_room(_keypad(ui, p), jokers, ft.Alignment.BOTTOM_CENTER)  # near the thumb
    else:
        # a fresh picker (not typing, no typed text) for each player: flet's component
        # wrapper takes ``key``, its signature does not say so
        picker = CompactPicker(  # type: ignore[call-arg]
            shown,
            change,
            ident=f"rem-{slug(p)}",
            label=f"{p}'s cards",
            jokers=jokers,
            unavailable=_taken(ui, facts, p),
            strip=False,
            key=f"rem-{slug(p)}",
        )
        entry = _same_room(picker, jokers)
    return ft.Column(
        [
            _head_row(ui, facts, facts.index is not None, on_close),
            _players_row(ui, facts, session.players),
            _entry_row(ui, p, following, offers_next=p is not None and _offers_next(ui, facts, p)),
            entry,
        ],
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


# --------------------------------------------------------------------------- the board


def _scores_text(summary: RummySummary, number: int) -> str:
    hand = summary.hands[number - 1]
    players = summary.players
    parts = [
        f"{p} {hand.scores.get(p, 0)}" + (" typed" if p in hand.typed else "") for p in players
    ]
    lines = [f"This hand: {' · '.join(parts)}"]
    if hand.doubled:
        lines.append("Going rummy: every penalty doubled.")
    lines.append("Totals after it: " + " · ".join(f"{p} {hand.totals.get(p, 0)}" for p in players))
    if summary.finished and len(summary.hands) == number:
        won = summary.winners
        lines.append(
            "This ends the game: "
            + (f"{won[0]} wins." if len(won) == 1 else f"shared win, {' and '.join(won)}.")
        )
    return "\n".join(lines)


def _running_text(ui: HandOverUi, facts: _Facts) -> str:
    """ "So far: Ann 17 · Cy …" -- each entered player's penalty as the referee counts it."""
    parts = []
    for p in facts.losers:
        v = facts.answer.penalties.get(p)
        if v is not None:  # who is still to enter, the bar's line says
            parts.append(f"{p} {v}" + (" typed" if p in ui.typed else ""))
    doubled = ""
    if ui.rummy and facts.before.detail.doubles_going_rummy:
        doubled = " (going rummy doubles them)"
    return f"So far: {' · '.join(parts) or 'no cards entered yet'}{doubled}"


@ft.component
def HandOverBoard(session: GameSession, ui: HandOverUi) -> ft.Control:
    """The referee's numbers for the hand: running, then its scoring of the whole hand.

    The table shows them fixed above the board and the entry (the ``head`` of
    ``thumb_board_screen``): the entry and the grid fill a phone, and "This hand: …"
    scrolled out of sight above them is the one line the table confirms by."""
    facts = _facts(session, ui)
    answer = facts.answer
    if ui.went_out is None:
        return ft.Container()
    v = answer.verdict
    if answer.missing or v is None:
        text = _running_text(ui, facts)
        return said(ft.Text(text, size=15), text, "hand-running")
    if not v.legal or answer.preview is None:
        return ft.Container()  # the bar says why, with the rule
    text = _scores_text(answer.preview, ui.number)
    return said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, "hand-preview")


@ft.component
def HandOverRules(session: GameSession, ui: HandOverUi) -> ft.Control:
    """The rules the referee scored the hand by, as links, on the board (they may take
    a few lines; the numbers they explain stay fixed above, ``HandOverBoard``)."""
    facts = _facts(session, ui)
    answer = facts.answer
    v = answer.verdict
    if ui.went_out is None or answer.missing or v is None or not v.legal or answer.preview is None:
        return ft.Container()
    cite = facts.before.detail.cite
    hand = answer.preview.hands[ui.number - 1]
    rules = [cite.get("values", ""), *dict.fromkeys(e.rule for e in hand.ledger)]
    if answer.preview.finished:
        rules.append(cite.get("end", ""))
    return ft.Row(
        [rule_link(r, f"hand-preview-rule-{slug(r)}") for r in dict.fromkeys(rules) if r],
        wrap=True,
        spacing=0,
    )


# --------------------------------------------------------------------------- the bar


def _save(
    session: GameSession, index: int | None, action: HandEnd, preview: RummySummary
) -> Refusal | None:
    """Record the hand end (and deal the next hand), or replace the corrected one."""
    if index is None:
        deal = next_deal(preview)
        return session.add_many([action, *([deal] if deal else [])])
    try:
        record = corrected(session, index, action)
    except RulesetError as exc:
        return Refusal(exc.words, exc.rule)
    return session.replace(record)


def _hint(ui: HandOverUi, facts: _Facts) -> str:
    if ui.went_out is None:
        return "Who went out? Tap their name."
    if facts.answer.missing:
        names = list(facts.answer.missing)
        left = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        # the bar's line is short on a phone: the how is on the screen (the pack, Won't show)
        return f"Still to enter: {left}."
    return ""


@ft.component
def HandOverBar(session: GameSession, ui: HandOverUi, on_close: Callable[[], None]) -> ft.Control:
    """The referee's verdict on the hand end, and Confirm: always on screen."""
    facts = _facts(session, ui)
    answer = facts.answer

    def confirm() -> Refusal | None:
        if not answer.ready or answer.action is None or answer.preview is None:
            return Refusal("Enter every player's cards first.")
        refusal = _save(session, facts.index, answer.action, answer.preview)
        if refusal is None:
            on_close()
        else:
            ui.refused = refusal
        return refusal

    verdict: Verdict | None = answer.verdict if not answer.missing else None
    if ui.refused is not None:
        verdict = Verdict(legal=False, rule=ui.refused.rule or "", reason=ui.refused.message)
    word = f"Save hand {ui.number}" if facts.index is not None else f"Confirm hand {ui.number}"
    primary = Primary(word, "confirm-hand", confirm, enabled=answer.ready, icon=ft.Icons.CHECK)
    return EntryBar(session, verdict, primary, hint=_hint(ui, facts), ident="hand-verdict")
