"""Right after the deal: the ante and deal sizes, then the widow (swap, auction or nobody).

Choose who takes the widow -- the dealer's blind swap, the auction's highest
bidder and bid, or nobody -- and record it with the button in the bar.  When the
house rules let only a hand without a pay card take the widow, the bar asks
that question and its button answers "No pay card"; "holds a pay card" is a
separate button, well away from it, and a hand can be typed in to let the
referee check it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.card_grid import CompactPicker
from companion.components.kit.common import button, choice, rule_link, said
from companion.components.kit.ui import slug
from companion.components.rummoli.parts import (
    ROW,
    Draft,
    Panel,
    Primary,
    chip_row,
    entry_bar,
    note_row,
    section,
    stepper,
    summary_of,
)
from companion.session import GameSession, Refusal
from rulesets.cards import Card
from rulesets.rummoli import RummoliSummary, Widow, WidowView
from rulesets.rummoli.notes import Note

#: the kit's compact picker, with a ``key`` (Flet components take one)
Picker: Any = CompactPicker

__all__ = ["WidowUi", "widow_panel"]


@ft.observable
@dataclass
class WidowUi(Draft):
    way: str | None = None  #: "dealer" (blind swap), "auction" or "nobody"
    bidder: str | None = None
    bid: int = 0
    refused: str | None = None  #: said to hold a pay card
    check_cards: list[Card] = field(default_factory=list)

    def choose(self, way: str, bidder: str | None = None) -> None:
        self.way, self.refused, self.check_cards = way, None, []
        if bidder is not None:
            self.bidder = bidder


def _taker(ui: WidowUi, view: WidowView) -> tuple[str | None, int]:
    """Who would take the widow, and for how many chips, as chosen now."""
    if ui.way == "dealer":
        return view.dealer, 0
    if ui.way == "auction" and ui.bidder:
        return ui.bidder, ui.bid
    return None, 0


def _action(ui: WidowUi, view: WidowView, stacks: dict[str, int]) -> Widow | None:
    taker, bid = _taker(ui, view)
    if ui.way == "nobody":
        return Widow()
    if taker is None:
        return None
    return Widow(player=taker, bid=min(bid, stacks.get(taker, 0)))


def widow_panel(session: GameSession, draft: WidowUi) -> Panel | None:
    """What was dealt and who takes the widow above the table, the choice in the bar."""
    summary = summary_of(session)
    view = summary.detail.widow
    ui = draft.fresh(len(session.actions))
    if view is None:
        return None
    number = summary.detail.deal.number if summary.detail.deal else summary.hand
    taker, _ = _taker(ui, view)
    asking = taker is not None and view.needs_no_pay_card and ui.refused != taker
    # one column that scrolls as a whole: what was dealt, who takes the widow, the
    # other answer to the pay-card question (a row that is always there), then the
    # board and the stacks -- what opens below a choice never moves it
    board: list[ft.Control] = [
        section(f"Round {number}: {view.dealer} deals", _deal_rows(summary), "widow-panel"),
        section("Who takes the widow?", _choices(summary, view, ui), "widow-choice"),
        ft.Container(_refuse(ui, taker) if asking and taker else None, height=ROW),
    ]
    if asking and taker is not None:
        board.append(_hand_check(session, ui, taker))
    return Panel(above=board, bar=_bar(session, summary, view, ui))


def _deal_rows(summary: RummoliSummary) -> list[ft.Control]:
    d = summary.detail
    return [
        *note_row(d.note("ante-paid"), "ante-paid"),
        *note_row(d.note("deal"), "deal-sizes"),
        *note_row(d.note("gone"), "gone"),
    ]


def _choices(summary: RummoliSummary, view: WidowView, ui: WidowUi) -> list[ft.Control]:
    """The dealer's swap, nobody, or the auction's highest bidder and bid."""
    bidder = ui.bidder if ui.way == "auction" else None
    top = summary.totals.get(bidder, 0) if bidder else 99

    def step(delta: int) -> None:
        limit = summary.totals.get(ui.bidder, 0) if ui.bidder else 99
        ui.bid = max(0, min(limit, ui.bid + delta))
        if ui.bidder:
            ui.choose("auction")

    return [
        chip_row(
            [
                choice(
                    f"{view.dealer} swaps blind",
                    ui.way == "dealer",
                    lambda _: ui.choose("dealer"),
                    "widow-dealer",
                ),
                choice(
                    "Nobody takes it",
                    ui.way == "nobody",
                    lambda _: ui.choose("nobody"),
                    "widow-none",
                    "Nobody takes the widow",
                ),
            ]
        ),
        ft.Text("Or the auction: who bid highest?", size=15, weight=ft.FontWeight.W_500),
        chip_row(
            [
                choice(
                    p,
                    p == bidder,
                    lambda _, p=p: ui.choose("auction", p),
                    f"bidder-{slug(p)}",
                    f"Highest bidder {p}",
                )
                for p in view.bidders
            ]
        ),
        stepper("Bid (chips)", min(ui.bid, top), step, "bid", 0, top),
    ]


def _hint(view: WidowView, ui: WidowUi, taker: str | None, terms: Note | None) -> Note | None:
    """What the bar says before the entry: a refusal, the pay-card question, the terms."""
    if ui.refused:
        return Note(
            key="refused",
            text=f"{ui.refused} holds a pay card, so may not take the widow. "
            "Pick another bidder, or nobody.",
            rule=view.pay_card_rule,
        )
    if taker is not None and view.needs_no_pay_card:
        return Note(
            key="ask",
            text=f"Does {taker}'s hand hold a pay card ({view.pay_cards})? "
            "A hand with one may not take the widow.",
            rule=view.pay_card_rule,
        )
    return terms


def _bar(session: GameSession, summary: RummoliSummary, view: WidowView, ui: WidowUi) -> ft.Control:
    taker, bid = _taker(ui, view)
    action = _action(ui, view, summary.totals)
    verdict = session.judge(action) if action is not None else None
    if ui.way == "nobody":
        text = "Nobody takes the widow"
    elif taker is None:
        text = "Pick the highest bidder" if ui.way == "auction" else "Choose who takes it"
    else:
        what = (
            f"{taker} swaps blind" if ui.way == "dealer" else f"{taker} pays {bid} to {view.dealer}"
        )
        text = f"No pay card: {what}" if view.needs_no_pay_card else what

    def record() -> Refusal | None:
        now = _action(ui, view, summary_of(session).totals)  # as chosen now, not when drawn
        return session.add(now) if now is not None else None

    # while the pay-card question is open (or answered "holds one") the bar says that,
    # not the referee's yes; a refusal by the referee is always said
    asking = ui.refused is not None or (taker is not None and view.needs_no_pay_card)
    shown = verdict if verdict is not None and (not verdict.legal or not asking) else None
    hint = _hint(view, ui, taker, summary.detail.note("swap"))
    return entry_bar(
        session,
        shown,
        Primary(
            text,
            "widow-confirm",
            record,
            enabled=verdict is not None
            and verdict.legal
            and not (taker is not None and ui.refused == taker),
            icon=ft.Icons.CHECK,
        ),
        hint=hint,
        ident="widow-verdict",
    )


def _refuse(ui: WidowUi, taker: str) -> ft.Control:
    """The other answer to the pay-card question (M2.4), away from the bar's button."""

    def refuse(_: object) -> None:
        ui.refused = taker

    return button(f"{taker} holds a pay card", refuse, "widow-refuse", icon=ft.Icons.CLOSE)


def _hand_check(session: GameSession, ui: WidowUi, taker: str) -> ft.Control:
    """Not sure about the pay cards?  Type the hand in and let the referee check it."""
    return ft.ExpansionTile(
        title=ft.Text(f"Not sure? Enter {taker}'s hand to check it"),
        controls=[
            Picker(
                ui.check_cards,
                lambda cards: setattr(ui, "check_cards", list(cards)),
                ident="widow-check",
                label=f"{taker}'s hand",
            ),
            *_hand_verdict(session, ui.check_cards),
        ],
    )


def _hand_verdict(session: GameSession, cards: list[Card]) -> list[ft.Control]:
    """The referee's answer for the hand typed in: may it take the widow (M2.4)?"""
    if not cards:
        return []
    v = session.ruleset.check(cards, rules=session.game.rules)
    icon = ft.Icons.CHECK_CIRCLE if v.legal else ft.Icons.BLOCK
    color = ft.Colors.PRIMARY if v.legal else ft.Colors.ERROR
    return [
        ft.Row(
            [
                ft.Icon(icon, color=color),
                said(ft.Text(v.said, color=color), v.said, "pay-card-verdict", expand=True),
                rule_link(v.rule),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    ]
