"""Rummy "Hand over": who went out, going rummy, and every other player's cards.

For each player who did not go out: their remaining cards in the card picker
(the referee's penalty shown live) or a typed total, marked "typed".  The
picker never offers a card the referee lists as out of everyone's hand (on the
table, face up on the pile) or that another player has already been given in
this hand end.  Before confirming, the referee's scoring of the hand (doubling
included) is shown as a preview.

Who may be named, whether "nobody" may be, whether going rummy may be claimed:
all asked of the referee's summary of the hand as it stood before its end.

The same form reopens a finished hand for correction: the referee judges the
corrected end in place of the old one, and the record is replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.common import rule_link, said, tag
from companion.components.picker import CardPicker
from companion.components.rummy_entry import (
    cards_of,
    corrected,
    hand_end_action,
    hand_end_index,
    live_game,
    next_deal,
    summary_of,
    unavailable,
)
from companion.components.rummy_scores import box, radio, refusal_note
from companion.session import GameSession, Refusal
from companion.ui import labelled, slug
from rulesets import RulesetError
from rulesets.cards import Card
from rulesets.protocol import Verdict
from rulesets.rummy import RULESET, HandEnd, RummyGame, RummyPlay, RummySummary

NOBODY = "(nobody)"


@ft.observable
@dataclass
class HandEndUi:
    """What the form holds while it is filled in."""

    went_out: str | None = None  # a player, NOBODY, or None while nobody is chosen
    rummy: bool = False
    remaining: dict[str, list[Card]] = field(default_factory=dict)
    typed_on: list[str] = field(default_factory=list)
    typed_text: dict[str, str] = field(default_factory=dict)
    refused: Refusal | None = None

    @classmethod
    def of(cls, action: Any) -> HandEndUi:
        """The form filled in from a recorded hand end (to correct it), or empty."""
        if not isinstance(action, HandEnd):
            return cls()
        return cls(
            went_out=NOBODY if action.went_out is None else action.went_out,
            rummy=bool(action.going_rummy),
            remaining={p: cards_of(c) for p, c in action.remaining.items()},
            typed_on=list(action.typed),
            typed_text={p: str(v) for p, v in action.typed.items()},
        )

    @property
    def winner(self) -> str | None:
        return None if self.went_out in (None, NOBODY) else self.went_out


@dataclass(frozen=True)
class _Entry:
    """The form as the referee will see it: the action, or what is still missing."""

    losers: list[str]
    action: HandEnd | None
    problems: list[str]


def _entered(ui: HandEndUi, players: tuple[str, ...], play: RummyPlay | None) -> _Entry:
    if ui.went_out is None:
        return _Entry([], None, [])
    winner = ui.winner
    losers = [p for p in players if p != winner]
    typed: dict[str, int] = {}
    problems: list[str] = []
    for p in losers:
        if p not in ui.typed_on:
            continue
        raw = ui.typed_text.get(p, "").strip()
        if raw.isdigit():
            typed[p] = int(raw)
        else:
            problems.append(f"type a whole number for {p}" if raw else f"type {p}'s total")
    claim = ui.rummy and play is not None and winner in play.may_go_rummy
    action = hand_end_action(winner, claim, losers, ui.remaining, typed)
    return _Entry(losers, None if problems else action, problems)


@dataclass(frozen=True)
class _Answer:
    verdict: Verdict | None
    preview: RummySummary | None


def _ask(
    session: GameSession, game: RummyGame, index: int | None, action: HandEnd | None
) -> _Answer:
    """The referee's verdict on the hand end (in place of entry ``index`` when correcting)."""
    if action is None:
        return _Answer(None, None)
    verdict = session.judge(action) if index is None else game.judge_at(index, action)
    if not verdict.legal:
        return _Answer(verdict, None)
    return _Answer(verdict, game.preview(action, at=index))


# --------------------------------------------------------------------------- pieces


def _who_went_out(ui: HandEndUi, players: tuple[str, ...], play: RummyPlay | None) -> ft.Control:
    may_win = play.may_win if play is not None else players
    radios: list[ft.Control] = [radio(p, p) for p in may_win]
    if play is not None and play.may_end_without_winner:
        radios.append(radio(NOBODY, "Nobody (stock ran out)"))

    def choose(e: ft.Event[ft.RadioGroup]) -> None:
        value = e.control.value or None
        ui.went_out = value
        if value not in (None, NOBODY):
            ui.remaining = {p: c for p, c in ui.remaining.items() if p != value}

    if not radios:  # every turn is logged and the referee has seen nobody empty their hand
        return ft.Text("Nobody has gone out yet: every turn of this hand is logged.", italic=True)
    return labelled(
        ft.RadioGroup(value=ui.went_out, on_change=choose, content=ft.Row(radios, wrap=True)),
        "Who went out?",
        "went-out",
    )


def _rummy_row(ui: HandEndUi, summary: RummySummary, play: RummyPlay | None) -> list[ft.Control]:
    winner = ui.winner
    if winner is None or play is None or winner not in play.may_go_rummy:
        return []
    d = summary.detail

    def flip(e: ft.Event[ft.Switch]) -> None:
        ui.rummy = bool(e.control.value)

    switch = ft.Switch(label="Going rummy", value=ui.rummy, on_change=flip)
    words = f"{winner} {d.explain.get('going_rummy', 'went rummy')}."
    if "doubling" in d.explain:
        words += " " + d.explain["doubling"]
    return [
        ft.Row(
            [tag(switch, "going-rummy"), rule_link(d.cite["going_rummy"], "going-rummy-rule")],
            wrap=True,
        ),
        ft.Text(words, size=12, italic=True),
    ]


def _live_value(ui: HandEndUi, p: str, game: RummyGame) -> str:
    """What the player's entry comes to: the referee's penalty of the cards, or the typed total."""
    if p in ui.typed_on:
        raw = ui.typed_text.get(p, "")
        return f"typed {raw}" if raw.strip().isdigit() else "typed: enter a total"
    try:
        return f"penalty {RULESET.score(ui.remaining.get(p, []), rules=game.rules).points}"
    except RulesetError as exc:
        return exc.reason


def _entry_control(ui: HandEndUi, p: str, others: set[Card], jokers: bool) -> ft.Control:
    if p in ui.typed_on:

        def on_typed(e: ft.Event[ft.TextField]) -> None:
            ui.typed_text = {**ui.typed_text, p: e.control.value or ""}

        return tag(
            ft.TextField(
                label=f"{p}'s typed total",
                value=ui.typed_text.get(p, ""),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=on_typed,
                dense=True,
                width=200,
            ),
            f"typed-{slug(p)}",
        )

    def set_cards(cards: list[Card]) -> None:
        ui.remaining = {**ui.remaining, p: list(cards)}

    return CardPicker(
        list(ui.remaining.get(p, [])),
        set_cards,
        ident=f"rem-{slug(p)}",
        label=f"{p}'s cards",
        jokers=jokers,
        unavailable=others,
    )


def _loser_box(
    ui: HandEndUi, p: str, losers: list[str], game: RummyGame, off: set[Card]
) -> ft.Control:
    """One loser: the live value, cards or typed total, and the switch between them."""
    others = set(off)
    for q in losers:
        if q != p and q not in ui.typed_on:
            others.update(c for c in ui.remaining.get(q, []) if not c.is_joker)
    value = _live_value(ui, p, game)

    def toggle(e: ft.Event[ft.Switch]) -> None:
        on = bool(e.control.value)
        ui.typed_on = [q for q in ui.typed_on if q != p] + ([p] if on else [])

    head = ft.Row(
        [
            ft.Text(p, size=16, weight=ft.FontWeight.BOLD, expand=True),
            said(
                ft.Text(value, size=16, weight=ft.FontWeight.W_500),
                f"{p}: {value}",
                f"live-{slug(p)}",
            ),
        ]
    )
    switch = ft.Switch(
        label=f"Type {p}'s total instead of cards", value=p in ui.typed_on, on_change=toggle
    )
    entry = _entry_control(ui, p, others, bool(game.rules.jokers))
    return box(ft.Column([head, tag(switch, f"typed-switch-{slug(p)}"), entry], spacing=6))


def _preview(summary: RummySummary, number: int) -> list[ft.Control]:
    """The referee's scoring of this hand, before it is saved, and the rules it used."""
    hand = summary.hands[number - 1]
    players = summary.players
    parts = [
        f"{p} {hand.scores.get(p, 0)}" + (" typed" if p in hand.typed else "") for p in players
    ]
    lines = [f"This hand: {' · '.join(parts)}"]
    if hand.doubled:
        lines.append("Going rummy: every penalty doubled.")
    lines.append("Totals after it: " + " · ".join(f"{p} {hand.totals.get(p, 0)}" for p in players))
    ends = summary.finished and len(summary.hands) == number
    if ends:
        won = summary.winners
        lines.append(
            "This ends the game: "
            + (f"{won[0]} wins." if len(won) == 1 else f"shared win, {' and '.join(won)}.")
        )
    text = "\n".join(lines)
    cite = summary.detail.cite
    rules = [cite["values"], *dict.fromkeys(e.rule for e in hand.ledger)]
    if ends:
        rules.append(cite["end"])
    return [
        said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, "hand-preview"),
        ft.Row(
            [rule_link(r, f"hand-preview-rule-{slug(r)}") for r in dict.fromkeys(rules)],
            wrap=True,
            spacing=0,
        ),
    ]


def _outcome(ui: HandEndUi, entry: _Entry, answer: _Answer, number: int) -> list[ft.Control]:
    if ui.went_out is None:
        return [ft.Text("Pick who went out, then enter everyone else's cards.")]
    if entry.problems:
        return [ft.Text("To confirm: " + "; ".join(entry.problems) + ".", italic=True)]
    v = answer.verdict
    if v is not None and not v.legal:
        row = ft.Row(
            [
                ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
                ft.Text(v.reason, color=ft.Colors.ERROR, expand=True),
            ]
        )
        label = f"Not accepted: {v.reason} (rule {v.rule})"
        return [said(row, label, "hand-end-problem"), rule_link(v.rule, "hand-end-problem-rule")]
    return _preview(answer.preview, number) if answer.preview is not None else []


# --------------------------------------------------------------------------- the form


@ft.component
def HandEndForm(session: GameSession, number: int, on_close: Callable[[], None]) -> ft.Control:
    """The hand-end entry for hand ``number`` (a new one, or a finished one to correct)."""
    game = live_game(session)
    index = hand_end_index(game.actions, number)
    ui, _ = ft.use_state(HandEndUi.of(game.actions[index] if index is not None else None))
    before = game.summary_at(index) if index is not None else summary_of(session)
    play = before.detail.play  # the hand as it stood before its end
    entry = _entered(ui, session.players, play)
    answer = _ask(session, game, index, entry.action)

    def confirm(_: Any) -> None:
        action, preview = entry.action, answer.preview
        if action is None or preview is None:
            return
        refusal = _save(session, index, action, preview)
        if refusal is None:
            on_close()
        else:
            session.clear_error()  # shown here, next to the entry, not at the top of the page
            ui.refused = refusal

    title = f"Correct hand {number}" if index is not None else f"Hand {number} is over"
    off = unavailable(play)
    controls: list[ft.Control] = [
        ft.Text(title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text("Who went out?", weight=ft.FontWeight.W_500),
        _who_went_out(ui, session.players, play),
        *_rummy_row(ui, before, play),
        *[_loser_box(ui, p, entry.losers, game, off) for p in entry.losers],
        *_outcome(ui, entry, answer, number),
        *refusal_note(ui.refused, "hand-end-refusal"),
        _buttons(index is not None, number, answer.preview is None, confirm, on_close),
    ]
    # no frame around the whole form: on a phone each player's picker keeps 7 cards a row
    return ft.Column(controls, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


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


def _buttons(
    editing: bool,
    number: int,
    disabled: bool,
    confirm: Callable[[Any], None],
    on_close: Callable[[], None],
) -> ft.Control:
    return ft.Row(
        [
            tag(
                ft.FilledButton(
                    f"Save hand {number}" if editing else f"Confirm hand {number}",
                    icon=ft.Icons.CHECK,
                    on_click=confirm,
                    disabled=disabled,
                    height=48,
                ),
                "confirm-hand",
            ),
            tag(
                ft.OutlinedButton("Cancel", on_click=lambda _: on_close(), height=48), "cancel-hand"
            ),
        ],
        wrap=True,
    )
