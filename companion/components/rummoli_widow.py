"""Right after the deal: the ante and deal sizes, then the widow (swap, auction or nobody).

Before a swap or a winning bid is recorded the table is asked whether that
hand holds a pay card (when the house rules forbid it); a hand can be typed in
to let the referee check it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from companion.components.common import button, choice, rule_link, said, verdict_line
from companion.components.picker import CardPicker
from companion.components.rummoli_parts import (
    Draft,
    chip_row,
    explain,
    note_row,
    section,
    stepper,
    summary_of,
    use_ui,
)
from companion.session import GameSession
from companion.ui import slug
from rulesets.cards import Card
from rulesets.rummoli import RummoliSummary, Widow, WidowView

__all__ = ["WidowPanel"]


@ft.observable
@dataclass
class WidowUi(Draft):
    bidder: str | None = None
    bid: int = 0
    taker: str | None = None  #: asked about pay cards before recording
    taker_bid: int = 0
    refused: str | None = None  #: said to hold a pay card
    check_cards: list[Card] = field(default_factory=list)

    def take(self, who: str, chips: int) -> None:
        self.taker, self.taker_bid, self.refused, self.check_cards = who, chips, None, []


@ft.component
def WidowPanel(session: GameSession) -> ft.Control:
    summary = summary_of(session)
    view = summary.detail.widow
    ui = use_ui(WidowUi).fresh(len(session.actions))
    if view is None:
        return ft.Container()

    def take(who: str, chips: int) -> None:
        if view.needs_no_pay_card:
            ui.take(who, chips)
        else:
            session.add(Widow(player=who, bid=chips))

    number = summary.detail.deal.number if summary.detail.deal else summary.hand
    out: list[ft.Control] = []
    if ui.taker:
        out.append(_pay_card_check(session, ui, view))
    elif ui.refused:
        out.append(
            explain(
                f"{ui.refused} holds a pay card, so may not take the widow. "
                "Pick another bidder, or nobody.",
                view.pay_card_rule,
                "widow-refused",
            )
        )
    rows = _deal_rows(summary) + _choices(summary, view, ui, take)
    rows.append(
        button(
            "Nobody takes the widow",
            lambda _: session.add(Widow()),
            "widow-none",
            icon=ft.Icons.BLOCK,
            disabled=not session.can(Widow()),
        )
    )
    out.append(section(f"Round {number}: {view.dealer} deals", rows, "widow-panel"))
    return ft.Column(out, spacing=10)


def _deal_rows(summary: RummoliSummary) -> list[ft.Control]:
    d = summary.detail
    return [
        *note_row(d.note("ante-paid"), "ante-paid"),
        *note_row(d.note("deal"), "deal-sizes"),
        *note_row(d.note("gone"), "gone"),
        *note_row(d.note("swap"), "widow-terms"),
        *note_row(d.note("pay-card"), "pay-card-rule"),
    ]


def _bidder(ui: WidowUi, p: str) -> ft.Control:
    def pick(_: object) -> None:
        ui.bidder = p

    return choice(p, p == ui.bidder, pick, f"bidder-{slug(p)}", f"Highest bidder {p}")


def _choices(
    summary: RummoliSummary, view: WidowView, ui: WidowUi, take: Callable[[str, int], None]
) -> list[ft.Control]:
    """The dealer's swap, the auction's highest bidder and bid."""
    bidder = ui.bidder
    top = summary.totals.get(bidder, 0) if bidder else 99
    bid = min(ui.bid, top)

    def step(delta: int) -> None:
        limit = summary.totals.get(ui.bidder, 0) if ui.bidder else 99
        ui.bid = max(0, min(limit, ui.bid + delta))

    def auction(_: object) -> None:
        if ui.bidder:
            take(ui.bidder, min(ui.bid, summary.totals.get(ui.bidder, 0)))

    return [
        button(
            f"{view.dealer} swaps blind",
            lambda _: take(view.dealer, 0),
            "widow-dealer",
            icon=ft.Icons.SWAP_HORIZ,
        ),
        ft.Text("Auction: who bid highest?", size=15, weight=ft.FontWeight.W_500),
        chip_row([_bidder(ui, p) for p in view.bidders]),
        stepper("Bid (chips)", bid, step, "bid", 0, top),
        button(
            f"{bidder} pays {bid} to {view.dealer} for the widow"
            if bidder
            else "Pick the highest bidder",
            auction,
            "widow-auction",
            icon=ft.Icons.GAVEL,
            disabled=bidder is None,
        ),
    ]


def _pay_card_check(session: GameSession, ui: WidowUi, view: WidowView) -> ft.Control:
    """Does the taker's hand hold a pay card (M2.4)?  Confirm, refuse, or type it in."""
    taker, chips = ui.taker or "", ui.taker_bid
    action = Widow(player=taker, bid=chips)
    verdict = session.judge(action)
    what = "swaps" if taker == view.dealer else (f"pays {chips}, takes it" if chips else "takes it")

    def refuse(_: object) -> None:
        ui.refused, ui.taker = taker, None

    ask: list[ft.Control] = [
        explain(
            f"Does {taker}'s hand hold a pay card ({view.pay_cards})? A hand with one may not "
            "take the widow.",
            view.pay_card_rule,
            "pay-card-question",
        ),
        *([] if verdict.legal else [verdict_line(verdict, ident="widow-verdict")]),
        button(
            f"No pay card: {taker} {what}",
            lambda _: session.add(action),
            "widow-confirm",
            filled=True,
            icon=ft.Icons.CHECK,
            disabled=not verdict.legal,
        ),
        button(f"{taker} holds a pay card", refuse, "widow-refuse", icon=ft.Icons.CLOSE),
        ft.ExpansionTile(
            title=ft.Text("Not sure? Enter the hand to check it"),
            controls=[
                CardPicker(
                    ui.check_cards,
                    lambda cards: setattr(ui, "check_cards", list(cards)),
                    ident="widow-check",
                    label=f"{taker}'s hand",
                ),
                *_hand_verdict(session, ui.check_cards),
            ],
        ),
    ]
    return section(f"{taker} takes the widow?", ask, "pay-card-check")


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
                said(ft.Text(v.reason, color=color), v.reason, "pay-card-verdict", expand=True),
                rule_link(v.rule),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    ]
