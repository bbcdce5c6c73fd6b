"""The poker of a round (for the Poker pot) or the final poker (for the board, or a pot).

Bets and folds when the table bets, then either tap the winner(s) or enter
each player's cards and let the referee judge.  Who may bet, how much, who
folded, the pot and its chips all come from the referee's betting state; the
name and best five of a hand being typed come from the referee's advice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import flet as ft

from companion.components.common import button, choice, said, verdict_line
from companion.components.picker import CardPicker
from companion.components.rummoli_board import mini_cards
from companion.components.rummoli_parts import (
    Draft,
    TableUi,
    chip_row,
    names_and,
    note_row,
    poker_result,
    section,
    stepper,
    summary_of,
    use_ui,
)
from companion.session import GameSession
from companion.ui import slug
from rulesets.cards import Card
from rulesets.rummoli import Bet, BettingView, FinalPoker, Fold, Poker, RummoliSummary

__all__ = ["PokerPanel"]


@ft.observable
@dataclass
class PokerUi(Draft):
    bet: int = 1
    winners: list[str] = field(default_factory=list)
    hands: dict[str, list[Card]] = field(default_factory=dict)
    hand_of: str | None = None

    def toggle(self, player: str) -> None:
        now = list(self.winners)
        self.winners = [p for p in now if p != player] if player in now else [*now, player]

    def set_cards(self, player: str, cards: list[Card]) -> None:
        self.hands = {**self.hands, player: list(cards)}


@ft.component
def PokerPanel(session: GameSession, table: TableUi) -> ft.Control:
    summary = summary_of(session)
    betting = summary.detail.betting
    ui = use_ui(PokerUi).fresh(len(session.actions))
    if betting is None:
        return ft.Container()
    out = [_intro(summary, betting)]
    if betting.betting:
        out.append(_betting(session, summary, betting, ui))
    mode = table.poker_mode
    modes = chip_row(
        [
            choice(
                "Tap the winner(s)", mode == "tap", lambda _: _mode(table, "tap"), "poker-mode-tap"
            ),
            choice(
                "Enter the hands",
                mode == "hands",
                lambda _: _mode(table, "hands"),
                "poker-mode-hands",
            ),
        ]
    )
    if mode == "hands":
        rows = _hands(session, summary, betting, ui)
    else:
        rows = _tap(session, summary, betting, ui)
    out.append(section("Who won the poker?", [modes, *rows], "poker-winner"))
    return ft.Column(out, spacing=10)


def _mode(table: TableUi, mode: str) -> None:
    table.poker_mode = mode


def _intro(summary: RummoliSummary, betting: BettingView) -> ft.Control:
    d = summary.detail
    if betting.final:
        rows = note_row(d.note("final"), "final-what")
        for f in d.final:
            rows += poker_result(f, f"final-{f.pot}")
        return section("Final poker", rows, "poker-intro")
    title = f"Round {summary.hand}: poker for the Poker pot ({betting.chips})"
    return section(title, note_row(d.note("widow"), "widow-result"), "poker-intro")


def _bettor(session: GameSession, ui: PokerUi, who: str, bet: int, limit: int) -> ft.Control:
    def place(_: object) -> None:
        session.add(Bet(player=who, chips=min(ui.bet, limit)))

    return ft.Row(
        [
            ft.Text(f"{who} · bet {bet}", size=15, expand=True),
            button(
                f"Bet {ui.bet}",
                place,
                f"bet-{slug(who)}",
                label=f"{who} bets {ui.bet}",
                disabled=not session.can(Bet(player=who, chips=ui.bet)),
            ),
            button(
                "Fold",
                lambda _: session.add(Fold(player=who)),
                f"fold-{slug(who)}",
                label=f"{who} folds",
                disabled=not session.can(Fold(player=who)),
            ),
        ],
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _betting(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> ft.Control:
    limit = betting.limit or 1

    def step(delta: int) -> None:
        ui.bet = max(1, min(limit, ui.bet + delta))

    rows: list[ft.Control] = [
        *note_row(summary.detail.note("betting"), "betting-rule"),
        stepper("Chips to bet", min(ui.bet, limit), step, "bet-amount", 1, limit),
    ]
    for p in summary.players:
        if p in betting.folded:
            rows.append(
                said(
                    ft.Text(f"{p} folded", size=15, italic=True), f"{p} folded", f"folded-{slug(p)}"
                )
            )
        elif p in betting.in_hand:
            rows.append(_bettor(session, ui, p, betting.bets.get(p, 0), limit))
    return section("Betting", rows, "betting")


def _action(final: bool) -> type[Poker] | type[FinalPoker]:
    return FinalPoker if final else Poker


def _tap(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> list[ft.Control]:
    winners = [p for p in ui.winners if p in betting.in_hand]
    chips = betting.chips

    def record(_: object) -> None:
        now = [p for p in ui.winners if p in betting.in_hand]
        if now:
            session.add(_action(betting.final)(winners=list(now)))

    label = (
        f"{names_and(winners)} win{'s' if len(winners) == 1 else ''} {chips} chips"
        if winners
        else "Tap the winner(s) first"
    )
    verdict = session.judge(_action(betting.final)(winners=list(winners))) if winners else None
    refused = (
        [] if verdict is None or verdict.legal else [verdict_line(verdict, ident="poker-verdict")]
    )
    return [
        *note_row(summary.detail.note("split"), "split-rule"),
        chip_row(
            [
                choice(
                    p, p in winners, lambda _, p=p: ui.toggle(p), f"winner-{slug(p)}", f"Winner {p}"
                )
                for p in betting.in_hand
            ]
        ),
        button(
            label,
            record,
            "record-poker",
            filled=True,
            icon=ft.Icons.EMOJI_EVENTS,
            disabled=verdict is None or not verdict.legal,
        ),
        *refused,
    ]


def _evaluation(session: GameSession, who: str, cards: list[Card]) -> list[ft.Control]:
    """The referee's name and best five for a hand being typed in (M4.1)."""
    if len(cards) < 5:
        return []
    advice = session.ruleset.suggest(cards, rules=session.game.rules)
    best = next((v for v in advice.plays if v.kind == "poker"), None)
    if best is None:
        return []
    words = f"{who}: {best.reason}"
    column = ft.Column(
        [
            ft.Text(words, size=14, weight=ft.FontWeight.W_500),
            mini_cards(" ".join(best.cards), width=28),
        ],
        spacing=2,
        tight=True,
    )
    return [said(column, f"{words} ({' '.join(best.cards)})", f"eval-{slug(who)}")]


def _hands(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> list[ft.Control]:
    players = betting.in_hand
    active = ui.hand_of if ui.hand_of in players else (players[0] if players else "")
    rows: list[ft.Control] = [*note_row(summary.detail.note("cards"), "cards-rule")]
    rows.append(
        chip_row(
            [
                choice(
                    f"{p} ({len(ui.hands.get(p, []))})",
                    p == active,
                    lambda _, p=p: setattr(ui, "hand_of", p),
                    f"hand-of-{slug(p)}",
                    f"Enter {p}'s hand, {len(ui.hands.get(p, []))} cards",
                )
                for p in players
            ]
        )
    )
    for p in players:
        rows += _evaluation(session, p, ui.hands.get(p, []))
    if active:
        others = {c for q, cs in ui.hands.items() if q != active for c in cs}
        rows.append(
            CardPicker(
                ui.hands.get(active, []),
                functools.partial(ui.set_cards, active),
                ident=f"hand-{slug(active)}",
                label=f"{active}'s hand",
                unavailable=others,
                max_cards=betting.max_cards.get(active),
            )
        )
    rows += _judge(session, summary, betting, ui)
    return rows


def _judge(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> list[ft.Control]:
    """Send every hand to the referee, who names the winner(s)."""
    ready = bool(betting.in_hand) and all(len(ui.hands.get(p, [])) >= 5 for p in betting.in_hand)

    def shown() -> list[list[str] | None]:
        return [
            [str(c) for c in ui.hands.get(p, [])] if p in betting.in_hand else None
            for p in summary.players
        ]

    verdict = session.judge(_action(betting.final)(hands=shown())) if ready else None
    out: list[ft.Control] = [*note_row(summary.detail.note("split"), "split-rule")]
    if verdict is not None and not verdict.legal:
        out.append(verdict_line(verdict, ident="poker-verdict"))
    out.append(
        button(
            "Let the referee judge",
            lambda _: session.add(_action(betting.final)(hands=shown())),
            "judge-poker",
            filled=True,
            icon=ft.Icons.GAVEL,
            disabled=verdict is None or not verdict.legal,
        )
    )
    return out
