"""The poker of a round (for the Poker pot) or the final poker (for the board, or a pot).

Bets and folds when the table bets, then either tap the winner(s) or enter
each player's cards and let the referee judge.  Who may bet, how much, who
folded, the pot and its chips all come from the referee's betting state; the
name and best five of a hand being typed come from the referee's advice.

Nothing moves under a finger: every bettor keeps a row of the same height from
the first bet to the last (a fold leaves its row, greyed), and the referee's
verdict and the button that records the poker sit in the bar at the bottom.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.components.kit.card_grid import CompactPicker
from companion.components.kit.common import choice, said
from companion.components.kit.ui import labelled, one_line, slug
from companion.components.rummoli.parts import (
    ROW,
    Draft,
    Panel,
    Primary,
    TableUi,
    chip_row,
    entry_bar,
    names_and,
    note_row,
    poker_result,
    section,
    stepper,
    summary_of,
)
from companion.session import GameSession, Refusal
from rulesets.cards import Card
from rulesets.rummoli import (
    Bet,
    BettingView,
    FinalPoker,
    FinalResult,
    Fold,
    Poker,
    RummoliSummary,
)
from rulesets.rummoli.notes import Note

#: the kit's compact picker, with a ``key`` (Flet components take one)
Picker: Any = CompactPicker

__all__ = ["PokerUi", "poker_panel"]

#: the bet and fold buttons keep their width whatever the bet ("Bet 1", "Bet 12")
BET_WIDTH = 92
FOLD_WIDTH = 80


@ft.observable
@dataclass
class PokerUi(Draft):
    bet: int = 1
    winners: list[str] = field(default_factory=list)
    hands: dict[str, list[Card]] = field(default_factory=dict)
    hand_of: str | None = None

    def step_bet(self, limit: int, delta: int) -> None:
        self.bet = max(1, min(limit, self.bet + delta))

    def toggle(self, player: str) -> None:
        now = list(self.winners)
        self.winners = [p for p in now if p != player] if player in now else [*now, player]

    def set_cards(self, order: tuple[str, ...], player: str, cards: list[Card]) -> None:
        """``player``'s cards; a whole hand typed in at once moves the entry on to the
        next player (in betting order) whose hand is not in yet."""
        before = len(self.hands.get(player, []))
        self.hands = {**self.hands, player: list(cards)}
        if len(cards) - before > 1:
            waiting = [p for p in order if p != player and not self.hands.get(p)]
            self.hand_of = waiting[0] if waiting else player


def poker_panel(session: GameSession, table: TableUi, draft: PokerUi) -> Panel | None:
    """The bets and who won around the table, the poker's verdict in the bar."""
    summary = summary_of(session)
    betting = summary.detail.betting
    ui = draft.fresh(len(session.actions))
    if betting is None:
        return None
    intro = _intro(summary, betting)
    mode = table.poker_mode
    modes = Modes(mode, table.set_poker_mode, key="poker-modes")
    # the bettors' rows stay from the first bet to the showdown (a closed betting
    # greys its buttons): nothing under the winners moves when the betting ends
    bets = [_betting(session, summary, betting, ui)] if betting.limit is not None else []
    # one column that scrolls as a whole (eight bettors, or a hand's 52 cards, do not
    # fit a box of their own beside the board): what is tapped first, then the table
    if mode == "hands":
        rows, seen, bar = _hands(session, summary, betting, ui)
        # the hands' names appear under the still grid, as each hand is entered
        above = [section("Who won?", rows, "poker-winner", head=modes), *seen, intro]
        return Panel(above=above, bar=bar, below=bets)
    rows, bar = _tap(session, summary, betting, ui)
    winner = section("Who won?", rows, "poker-winner", head=modes)
    return Panel(above=[*bets, winner, intro], bar=bar)


@ft.component
def _modes(mode: str, set_mode: Callable[[str], None]) -> ft.Control:
    return ft.Row(
        [
            choice("Tap winners", mode == "tap", lambda _: set_mode("tap"), "poker-mode-tap"),
            choice("Enter hands", mode == "hands", lambda _: set_mode("hands"), "poker-mode-hands"),
        ],
        spacing=6,
        tight=True,
    )


#: the two modes, drawn again only when the mode changes (``set_mode`` is a bound method:
#: equal from render to render)
Modes: Callable[..., ft.Control] = ft.memo(_modes)  # type: ignore[no-untyped-call]


def _intro(summary: RummoliSummary, betting: BettingView) -> ft.Control:
    d = summary.detail
    if betting.final:
        return FinalIntro(d.note("final"), tuple(d.final), key="poker-intro")
    title = f"Round {summary.hand}: poker for the Poker pot"
    return RoundIntro(title, d.note("widow"), key="poker-intro")


@ft.component
def _final_intro(note: Note | None, final: tuple[FinalResult, ...]) -> ft.Control:
    rows = note_row(note, "final-what")
    for f in final:
        rows += poker_result(f, f"final-{f.pot}")
    return section("Final poker", rows, "poker-intro")


@ft.component
def _round_intro(title: str, note: Note | None) -> ft.Control:
    return section(title, note_row(note, "widow-result"), "poker-intro")


#: what the poker is for, drawn again only when its words change -- not for every bet
FinalIntro: Callable[..., ft.Control] = ft.memo(_final_intro)  # type: ignore[no-untyped-call]
RoundIntro: Callable[..., ft.Control] = ft.memo(_round_intro)  # type: ignore[no-untyped-call]


def _fixed(control: ft.Control, width: int) -> ft.Control:
    return ft.Container(control, width=width, height=ROW, alignment=ft.Alignment.CENTER)


def _small(
    text: str, on_click: Callable[..., object], ident: str, label: str, *, disabled: bool
) -> ft.Control:
    ctl = ft.OutlinedButton(text, on_click=on_click, disabled=disabled, height=44, expand=True)
    return labelled(ctl, label, ident, button=True, key=ident, expand=True)


def _bettor(
    session: GameSession, ui: PokerUi, who: str, betting: BettingView, limit: int
) -> ft.Control:
    """One player's row (see :func:`_bettor_row`), from the betting state and the bet."""
    if who in betting.folded:
        return Bettor(session, who, "", 0, limit, False, False, True, key=f"bettor-{slug(who)}")
    bet = betting.bets.get(who, 0)
    if bet:
        doing = f" · bet {bet}"
    else:
        doing = " · opens" if who == betting.first and not any(betting.bets.values()) else ""
    return Bettor(
        session,
        who,
        doing,
        ui.bet,
        limit,
        session.can(Bet(player=who, chips=ui.bet)),
        session.can(Fold(player=who)),
        False,
        key=f"bettor-{slug(who)}",
    )


@ft.component
def _bettor_row(
    session: GameSession,
    who: str,
    doing: str,
    bet: int,
    limit: int,
    can_bet: bool,
    can_fold: bool,
    folded: bool,
) -> ft.Control:
    """One player's row: what they have bet, Bet and Fold -- or that they folded.  The
    row is the same height either way, so a fold moves nothing below it."""
    if folded:
        words = f"{who} folded"
        return ft.Row(
            [said(ft.Text(words, size=15, italic=True), words, f"folded-{slug(who)}", expand=True)],
            height=ROW,
        )

    def place(_: object) -> None:
        session.add(Bet(player=who, chips=min(bet, limit)))

    return ft.Row(
        [
            one_line(f"{who}{doing}", size=15, expand=True),
            _fixed(
                _small(
                    f"Bet {bet}",
                    place,
                    f"bet-{slug(who)}",
                    f"{who} bets {bet}",
                    disabled=not can_bet,
                ),
                BET_WIDTH,
            ),
            _fixed(
                _small(
                    "Fold",
                    lambda _: session.add(Fold(player=who)),
                    f"fold-{slug(who)}",
                    f"{who} folds",
                    disabled=not can_fold,
                ),
                FOLD_WIDTH,
            ),
        ],
        height=ROW,
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


#: a bettor's row (8 controls), drawn again only when that player's bet, fold or
#: buttons change: a bet on one phone draws one row on the others, not eight
#: (``session`` is the table's handle: the same object at every render)
Bettor: Callable[..., ft.Control] = ft.memo(_bettor_row)  # type: ignore[no-untyped-call]


def _betting_order(summary: RummoliSummary, betting: BettingView) -> list[str]:
    """Everyone in the poker (folded or not) in the order they bet: from the player
    who opens the betting, clockwise.  The order never changes while they bet."""
    seated = set(betting.in_hand) | set(betting.folded)
    players = [p for p in summary.players if p in seated]
    start = players.index(betting.first) if betting.first in players else 0
    return players[start:] + players[:start]


def _betting(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> ft.Control:
    limit = betting.limit or 1
    rows: list[ft.Control] = [
        BetStepper(min(ui.bet, limit), limit, ui.step_bet, key="bet-amount-row")
    ]
    rows += [_bettor(session, ui, p, betting, limit) for p in _betting_order(summary, betting)]
    title = f"Bets for {betting.label} ({betting.chips})"
    return section(title[:1].upper() + title[1:], rows, "betting", spacing=0)


@ft.component
def _bet_stepper(bet: int, limit: int, step: Callable[[int, int], None]) -> ft.Control:
    return stepper("Chips to bet", bet, lambda delta: step(limit, delta), "bet-amount", 1, limit)


#: the chips to bet, drawn again only when the bet or its limit changes (``step`` is a
#: bound method: equal from render to render)
BetStepper: Callable[..., ft.Control] = ft.memo(_bet_stepper)  # type: ignore[no-untyped-call]


def _action(final: bool) -> type[Poker] | type[FinalPoker]:
    return FinalPoker if final else Poker


def _waiting(summary: RummoliSummary, betting: BettingView) -> Note | None:
    """What the bar says before a winner is chosen: the betting, or how a tie splits."""
    d = summary.detail
    return (d.note("betting") if betting.betting else None) or d.note("split")


def _tap(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> tuple[list[ft.Control], ft.Control]:
    winners = [p for p in ui.winners if p in betting.in_hand]
    chips = betting.chips

    def record() -> Refusal | None:
        now = [p for p in ui.winners if p in betting.in_hand]
        return session.add(_action(betting.final)(winners=list(now))) if now else None

    label = (
        f"{names_and(winners)} win{'s' if len(winners) == 1 else ''} {chips} chips"
        if winners
        else "Tap the winner(s) first"
    )
    verdict = session.judge(_action(betting.final)(winners=list(winners))) if winners else None
    rows: list[ft.Control] = [
        Winners(tuple(betting.in_hand), tuple(winners), ui.toggle, key="winner-chips")
    ]
    bar = entry_bar(
        session,
        verdict,
        Primary(
            label,
            "record-poker",
            record,
            enabled=verdict is not None and verdict.legal,
            icon=ft.Icons.EMOJI_EVENTS,
        ),
        hint=_waiting(summary, betting),
        ident="poker-verdict",
    )
    return rows, bar


@ft.component
def _winners(
    in_hand: tuple[str, ...], winners: tuple[str, ...], toggle: Callable[[str], None]
) -> ft.Control:
    return chip_row(
        [
            choice(p, p in winners, lambda _, p=p: toggle(p), f"winner-{slug(p)}", f"Winner {p}")
            for p in in_hand
        ]
    )


#: who may win, drawn again only when a player folds or a winner is tapped -- not for
#: every bet (``toggle`` is a bound method: equal from render to render)
Winners: Callable[..., ft.Control] = ft.memo(_winners)  # type: ignore[no-untyped-call]


def _evaluation(session: GameSession, who: str, cards: list[Card]) -> list[ft.Control]:
    """The referee's name for a hand being typed in, and its best five (M4.1)."""
    if len(cards) < 5:
        return []
    advice = session.ruleset.suggest(cards, rules=session.game.rules)
    best = next((v for v in advice.plays if v.kind == "poker"), None)
    if best is None:
        return []
    words = f"{who}: {best.said}"
    text = ft.Text(
        words,
        size=14,
        weight=ft.FontWeight.W_500,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    return [said(text, words, f"eval-{slug(who)}")]


def _hands(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> tuple[list[ft.Control], list[ft.Control], ft.Control]:
    """The hands being entered: whose (chips), their cards (the picker), and -- with
    the table, above -- the referee's name for each hand entered so far."""
    players = betting.in_hand
    active = ui.hand_of if ui.hand_of in players else (players[0] if players else "")
    rows: list[ft.Control] = [
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
    ]
    seen: list[ft.Control] = []
    for p in players:
        seen += _evaluation(session, p, ui.hands.get(p, []))
    if active:
        others = {c for q, cs in ui.hands.items() if q != active for c in cs}
        rows.append(
            Picker(
                ui.hands.get(active, []),
                functools.partial(ui.set_cards, tuple(players), active),
                ident=f"hand-{slug(active)}",
                label=f"{active}'s hand",
                unavailable=others,
                max_cards=betting.max_cards.get(active),
                key=f"hand-{slug(active)}",  # each hand its own picker (grid, or typing)
            )
        )
    return rows, seen, _judge(session, summary, betting, ui)


def _judge(
    session: GameSession, summary: RummoliSummary, betting: BettingView, ui: PokerUi
) -> ft.Control:
    """Send every hand to the referee, who names the winner(s)."""
    ready = bool(betting.in_hand) and all(len(ui.hands.get(p, [])) >= 5 for p in betting.in_hand)

    def shown() -> list[list[str] | None]:
        return [
            [str(c) for c in ui.hands.get(p, [])] if p in betting.in_hand else None
            for p in summary.players
        ]

    verdict = session.judge(_action(betting.final)(hands=shown())) if ready else None
    return entry_bar(
        session,
        verdict,
        Primary(
            "Let the referee judge",
            "judge-poker",
            lambda: session.add(_action(betting.final)(hands=shown())),
            enabled=verdict is not None and verdict.legal,
            icon=ft.Icons.GAVEL,
        ),
        hint=summary.detail.note("cards"),
        ident="poker-verdict",
    )
