"""Rummy "Hand over": who went out, then each other player's cards, one at a time.

One tap names who went out (or "Nobody went out" when the referee allows a hand
to end without a winner); the screen then shows one player's cards at a time,
going round the table from that player's left.  Each card is one tap in a grid
of the whole pack (``rummy_grid``); once a player has as many cards as the
referee says they hold, the next player comes up by itself ("Next" moves on
sooner, and any player's chip goes back to them).  A player who won't show
their cards gets a typed total on a keypad instead, marked "typed".  Going
rummy is one switch, offered only when the referee says that player may claim it.

The bar at the bottom always shows the referee's running numbers for the hand
(and, once everyone is entered, its scoring of the hand or its "no", with the
rule) and the Confirm button.  Nothing here counts a card: every number is the
referee's (``ask_hand_over``).

The same panel reopens a finished hand for correction: the referee judges the
corrected end in place of the old one, and the record is replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.common import rule_link, said, tag
from companion.components.rummy_bar import LEFT_WIDTH, bar, bar_lines
from companion.components.rummy_entry import (
    HandOverAnswer,
    ask_hand_over,
    cards_expected,
    cards_of,
    corrected,
    hand_end_index,
    live_game,
    losers_in_order,
    next_deal,
    summary_of,
    unavailable,
)
from companion.components.rummy_grid import card_grid, target
from companion.session import GameSession, Refusal
from companion.ui import slug
from rulesets import RulesetError
from rulesets.cards import Card, format_cards
from rulesets.rummy import HandEnd, RummyGame, RummyPlay, RummySummary

__all__ = ["NOBODY", "HandOverBar", "HandOverPanel", "HandOverUi", "hand_over_ui"]

NOBODY = "(nobody)"
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "C")


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
        remaining={p: cards_of(c) for p, c in action.remaining.items()},
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
        order = self.losers
        start = order.index(p) + 1 if p in order else 0
        for q in order[start:] + order[:start]:
            if q != p and not self.entered(ui, q):
                return q
        return None


def _order(session: GameSession, ui: HandOverUi) -> list[str]:
    if ui.went_out is None:
        return []
    game = live_game(session)
    index = hand_end_index(game.actions, ui.number)
    before = game.summary_at(index) if index is not None else summary_of(session)
    dealer = before.detail.play.dealer if before.detail.play else before.dealer
    return losers_in_order(session.players, ui.winner, dealer)


def _typed_totals(ui: HandOverUi) -> dict[str, int]:
    return {p: int(v) for p, v in ui.typed.items() if v.isdigit()}


def _facts(session: GameSession, ui: HandOverUi) -> _Facts:
    game = live_game(session)
    index = hand_end_index(game.actions, ui.number)
    before = game.summary_at(index) if index is not None else summary_of(session)
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


# --------------------------------------------------------------------------- the panel


def _chip(
    name: str, status: str, *, label: str, ident: str, chosen: bool, on_click: Any
) -> ft.Control:
    """A player: their name and where their entry stands; a thumb-sized target."""
    box = ft.Container(
        ft.Column(
            [
                ft.Text(name, size=15, weight=ft.FontWeight.BOLD, no_wrap=True, max_lines=1),
                ft.Text(status, size=13, no_wrap=True, max_lines=1),
            ],
            spacing=0,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=48,
        border_radius=10,
        alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(3 if chosen else 1, ft.Colors.PRIMARY if chosen else "#9E9E9E"),
        on_click=on_click,
        ink=True,
    )
    return target(box, label=label, ident=ident, selected=chosen)


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


def _players_row(ui: HandOverUi, facts: _Facts, players: tuple[str, ...]) -> ft.Control:
    per_row = len(players) if len(players) <= 4 else 3

    def tap(p: str) -> None:
        if ui.went_out is None:
            ui.went_out = p
            ui.remaining = {q: c for q, c in ui.remaining.items() if q != p}
            ui.typed = {q: v for q, v in ui.typed.items() if q != p}
            ui.rummy = False
            ui.current = losers_in_order(players, p, facts.before.dealer)[0]
        elif p == ui.winner:
            ui.went_out = None
            ui.current = None
        else:
            ui.current = p
        ui.refused = None

    chips: list[ft.Control] = []
    for p in players:
        status, label, ident = _chip_for(p, ui, facts)
        chosen = p == ui.current or (p == ui.winner)
        chip = _chip(
            p, status, label=label, ident=ident, chosen=chosen, on_click=lambda _, p=p: tap(p)
        )
        chips.append(ft.Container(chip, col=12 // per_row))
    return ft.ResponsiveRow(chips, spacing=6, run_spacing=6)


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
        left = [
            tag(switch, "going-rummy"),
            rule_link(facts.before.detail.cite.get("going_rummy", "R4.2"), "going-rummy-rule"),
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


def _entry_row(ui: HandOverUi, p: str | None) -> ft.Control:
    """Whose cards are shown, and what is entered so far; take back, or type a total."""
    if p is None:
        hint = "Tap who went out, then each player's cards." if ui.went_out is None else ""
        return ft.Container(ft.Text(hint, size=14, italic=True), height=44)
    s = slug(p)
    if p in ui.typed:
        raw = ui.typed[p]
        text = f"{p}'s total, typed: {raw or '…'}"
        shown = said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, f"typed-{s}")
        toggle_text, toggle_label = "Show cards", f"Enter {p}'s cards instead"
    else:
        cards = ui.remaining.get(p, [])
        text = f"{p}'s cards: {format_cards(cards, symbols=True) if cards else 'none yet'}"
        shown = said(
            ft.Text(text, size=15, weight=ft.FontWeight.W_500, max_lines=2),
            text,
            f"rem-{s}-chosen",
            expand=True,
        )
        toggle_text, toggle_label = "Won't show", f"{p} won't show their cards: type a total"

    def toggle(_: Any) -> None:
        if p in ui.typed:
            ui.typed = {q: v for q, v in ui.typed.items() if q != p}
        else:
            ui.typed = {**ui.typed, p: ""}

    def take_back(_: Any) -> None:
        cards = list(ui.remaining.get(p, []))
        ui.remaining = {**ui.remaining, p: cards[:-1]}

    switch = ft.Container(
        ft.Text(toggle_text, size=14, weight=ft.FontWeight.W_500),
        height=44,
        padding=ft.Padding.symmetric(horizontal=12),
        alignment=ft.Alignment.CENTER,
        border_radius=22,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=toggle,
        ink=True,
    )
    back = ft.IconButton(
        icon=ft.Icon(ft.Icons.BACKSPACE_OUTLINED, semantics_label=f"Take back {p}'s last card"),
        on_click=take_back,
        disabled=p in ui.typed or not ui.remaining.get(p),
    )
    controls: list[ft.Control] = [
        ft.Container(shown, expand=True),
        ft.Semantics(content=back, identifier=f"rem-{s}-back", key=f"rem-{s}-back"),
        target(switch, label=toggle_label, ident=f"typed-switch-{s}"),
    ]
    return ft.Container(
        ft.Row(controls, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER), height=44
    )


def _keypad(ui: HandOverUi, p: str) -> ft.Control:
    """Digits for a typed total: no phone keyboard sliding over the screen."""

    def press(key: str) -> None:
        raw = ui.typed.get(p, "")
        if key == "⌫":
            raw = raw[:-1]
        elif key == "C":
            raw = ""
        elif len(raw) < 3:
            raw = (raw + key).lstrip("0") or "0"
        ui.typed = {**ui.typed, p: raw}

    words = {"⌫": "Delete the last digit", "C": "Clear the total"}
    rows: list[ft.Control] = []
    for i in range(0, len(KEYS), 3):
        keys: list[ft.Control] = []
        for key in KEYS[i : i + 3]:
            box = ft.Container(
                ft.Text(key, size=20, weight=ft.FontWeight.BOLD),
                width=88,
                height=44,
                alignment=ft.Alignment.CENTER,
                border_radius=8,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                on_click=lambda _, k=key: press(k),
                ink=True,
            )
            ident = f"typed-{slug(p)}-key-{'back' if key == '⌫' else key.lower()}"
            keys.append(target(box, label=words.get(key, key), ident=ident))
        rows.append(ft.Row(keys, spacing=8))
    return ft.Column(rows, spacing=4)


def _taken(ui: HandOverUi, facts: _Facts, p: str) -> set[Card]:
    """Cards ``p`` cannot hold: on the table, face up, or shown by another player."""
    off = unavailable(facts.play)
    for q, cards in ui.remaining.items():
        if q != p and q not in ui.typed and q in facts.losers:
            off.update(c for c in cards if not c.is_joker)
    return off


@ft.component
def HandOverPanel(session: GameSession, ui: HandOverUi, on_close: Callable[[], None]) -> ft.Control:
    """The hand over's body: who went out, the players, one player's cards."""
    facts = _facts(session, ui)
    p = ui.current if ui.current in facts.losers else None
    jokers = bool(facts.game.rules.jokers)

    def tap(card: Card) -> None:
        if p is None:
            return
        cards = list(ui.remaining.get(p, []))
        adding = card.is_joker or card not in cards
        cards = [*cards, card] if adding else [c for c in cards if c != card]
        ui.remaining = {**ui.remaining, p: cards}
        ui.refused = None
        expected = cards_expected(facts.play, p)
        if adding and expected is not None and len(cards) == expected:
            ui.current = facts.after(ui, p) or p

    if p is not None and p in ui.typed:
        entry: ft.Control = _keypad(ui, p)
    else:
        entry = card_grid(
            ui.remaining.get(p, []) if p else [],
            on_tap=tap,
            ident=f"rem-{slug(p)}" if p else "rem",
            unavailable=_taken(ui, facts, p) if p else set(),
            jokers=jokers,
            enabled=p is not None,
        )
    return ft.Column(
        [
            _head_row(ui, facts, facts.index is not None, on_close),
            _players_row(ui, facts, session.players),
            _entry_row(ui, p),
            entry,
        ],
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


# --------------------------------------------------------------------------- the bar


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
    parts = []
    for p in facts.losers:
        v = facts.answer.penalties.get(p)
        typed = " typed" if p in ui.typed and v is not None else ""
        parts.append(f"{p} {v}{typed}" if v is not None else f"{p} …")
    doubled = ""
    if ui.rummy and facts.before.detail.doubles_going_rummy:
        doubled = " (going rummy doubles them)"
    return f"So far: {' · '.join(parts)}{doubled}"


def _verdict(ui: HandOverUi, facts: _Facts) -> ft.Control:
    """The bar's line: the referee's running numbers, its scoring, or its "no"."""
    answer = facts.answer
    small = 14
    if ui.refused is not None:
        text = f"Not recorded: {ui.refused.message}"
        return _line(text, ui.refused.rule, "hand-end-refusal", error=True)
    if ui.went_out is None:
        return ft.Text("Who went out? Tap their name.", size=small, italic=True)
    v = answer.verdict
    if answer.missing or v is None:
        text = _running_text(ui, facts)
        return said(ft.Text(text, size=small), text, "hand-running")
    if not v.legal:
        return _line(f"Not accepted: {v.reason}", v.rule, "hand-end-problem", error=True)
    preview = answer.preview
    text = _scores_text(preview, ui.number) if preview is not None else v.reason
    return _line(text, v.rule, "hand-preview", error=False)


def _line(text: str, rule: str | None, ident: str, *, error: bool) -> ft.Control:
    color = ft.Colors.ERROR if error else None
    label = text + (f" (rule {rule})" if rule and error else "")
    words = said(ft.Text(text, size=14, color=color, weight=ft.FontWeight.W_500), label, ident)
    parts: list[ft.Control] = [ft.Container(words, expand=True)]
    if rule:
        parts.append(rule_link(rule, f"{ident}-rule"))
    return ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.START, spacing=4)


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
        return Refusal(exc.reason, exc.rule)
    return session.replace(record)


@ft.component
def HandOverBar(session: GameSession, ui: HandOverUi, on_close: Callable[[], None]) -> ft.Control:
    """The running numbers, "Next" player and Confirm: always on screen."""
    facts = _facts(session, ui)
    answer = facts.answer
    current = ui.current if ui.current in facts.losers else None
    following = facts.after(ui, current) if ui.went_out is not None else None

    def confirm(_: Any) -> None:
        if not answer.ready or answer.action is None or answer.preview is None:
            return
        refusal = _save(session, facts.index, answer.action, answer.preview)
        if refusal is None:
            on_close()
        else:
            session.clear_error()  # shown in the bar, next to Confirm, not at the top
            ui.refused = refusal

    def next_player(_: Any) -> None:
        if following is not None:
            ui.current = following

    editing = facts.index is not None
    word = f"Save hand {ui.number}" if editing else f"Confirm hand {ui.number}"
    primary = tag(
        ft.FilledButton(
            word, icon=ft.Icons.CHECK, on_click=confirm, disabled=not answer.ready, height=52
        ),
        "confirm-hand",
        expand=True,
    )
    left = tag(
        ft.FilledTonalButton(
            f"Next: {following}" if following else "Next",
            on_click=next_player,
            disabled=following is None,
            height=52,
            width=LEFT_WIDTH,
        ),
        "next-player",
    )
    return bar(_verdict(ui, facts), left, primary, lines=bar_lines(len(session.players)))
