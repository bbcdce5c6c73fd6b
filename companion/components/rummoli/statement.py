"""A round's settlement and the earlier rounds, drawn from the referee's ledger.

Every line of a statement is one ledger entry (what moved, how many chips, the
rule); the net is the round's score.  Nothing is parsed from text.  On a phone
the settlement shows every player's net in a row of tabs and one player's
statement at a time (the one who went out first, until another is tapped).

Both grow with the game, and every device draws the screen again on every entry
anyone makes: a statement and an earlier round are memoized components (drawn again
only when their own lines change -- a chip put on a stack between rounds leaves
them as they were), and an earlier round draws its statements only while it is
open (a closed tile shows none of them: at round 5 they were ~900 controls per
device, built and compared on every entry and sent to every phone that joined).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.components.kit.common import choice
from companion.components.kit.ui import slug
from companion.components.rummoli.parts import (
    chip_row,
    note_row,
    section,
    statement_card,
    statement_lines,
)
from rulesets.protocol import LedgerEntry
from rulesets.rummoli import RummoliHand

__all__ = ["history", "settlement"]


def settlement(
    hand: RummoliHand,
    players: Sequence[str],
    totals: dict[str, int],
    *,
    shown: str | None,
    show: Callable[[str], None],
) -> ft.Control:
    """The round just played: how it ended, each player's net (tap one for their
    statement, every line linked to its rule), and what stays on the board."""
    n = hand.number
    moved = [p for p in players if any(e.player == p for e in hand.ledger)]
    who = shown if shown in moved else (hand.out if hand.out in moved else None)
    who = who or (moved[0] if moved else None)
    tabs = chip_row(
        [
            StatementTab(
                p, hand.scores.get(p, 0), totals.get(p, 0), p == who, show, key=f"tab-{slug(p)}"
            )
            for p in moved
        ]
    )
    rows: list[ft.Control] = [*note_row(hand.note("how"), f"round-{n}-how"), tabs]
    if who is not None:
        rows.append(
            Statement(
                who,
                _lines_of(who, hand.ledger),
                f"statement-{slug(who)}",
                totals.get(who),
                key=f"statement-{slug(who)}",
            )
        )
    rows += note_row(hand.note("carried"), f"round-{n}-carried")
    return section(f"Round {n} settled", rows, f"settlement-{n}")


@ft.component
def _tab(name: str, net: int, chips: int, chosen: bool, show: Callable[[str], None]) -> ft.Control:
    return choice(
        f"{name} {net:+d}",
        chosen,
        lambda _: show(name),
        f"statement-tab-{slug(name)}",
        f"{name} {net:+d}, now {chips} chips: show the statement",
    )


#: a player's tab, drawn again only when its words or choice change (a chip put on one
#: stack changes that player's tab, not the seven others); ``show`` must be the same
#: callable from render to render (a bound method), or every tab is drawn each time
StatementTab: Callable[..., ft.Control] = ft.memo(_tab)  # type: ignore[no-untyped-call]


def _lines_of(name: str, ledger: Sequence[LedgerEntry]) -> tuple[LedgerEntry, ...]:
    """``name``'s own ledger entries (what a statement shows): equal from one render to
    the next while they are unchanged, so a memoized statement is not drawn again."""
    return tuple(e for e in ledger if e.player == name)


@ft.component
def _statement(
    name: str, lines: tuple[LedgerEntry, ...], ident: str, chips_now: int | None
) -> ft.Control:
    body = StatementLines(name, lines, ident, key=f"{ident}-lines")
    return statement_card(name, lines, ident, chips_now=chips_now, lines=body)


@ft.component
def _statement_lines(name: str, lines: tuple[LedgerEntry, ...], ident: str) -> ft.Control:
    return statement_lines(name, lines, ident)


#: a statement's lines (~9 controls each), drawn again only when they change -- not when
#: a chip put on the stack between rounds changes the "now N chips" above them
StatementLines: Callable[..., ft.Control] = ft.memo(_statement_lines)  # type: ignore[no-untyped-call]


#: a player's statement, drawn again only when its lines or the chips it shows change
Statement: Callable[..., ft.Control] = ft.memo(_statement)  # type: ignore[no-untyped-call]


@ft.component
def _earlier_round(hand: RummoliHand, players: tuple[str, ...]) -> ft.Control:
    # open or closed on this device; the statements are drawn only while it is open
    # (Flutter builds no child of a closed tile either, so nothing shown changes)
    opened, set_opened = ft.use_state(False)
    nets = ", ".join(f"{p} {hand.scores.get(p, 0):+d}" for p in players)
    cards = [
        Statement(
            p,
            _lines_of(p, hand.ledger),
            f"r{hand.number}-statement-{slug(p)}",
            None,
            key=f"r{hand.number}-statement-{slug(p)}",
        )
        for p in players
        if opened and any(e.player == p for e in hand.ledger)
    ]
    return ft.ExpansionTile(
        title=ft.Text(f"Round {hand.number} ({hand.dealer} dealt)"),
        subtitle=ft.Text(nets, size=13),
        controls=cards,
        expanded=opened,
        on_change=lambda e: set_opened(bool(e.data)),
    )


#: an earlier round, drawn again only when it is opened or closed (it never changes)
EarlierRound: Callable[..., ft.Control] = ft.memo(_earlier_round)  # type: ignore[no-untyped-call]


def history(hands: Sequence[RummoliHand], players: Sequence[str]) -> ft.Control:
    """Earlier rounds, newest first, each opening to its statements."""
    who = tuple(players)
    tiles: list[ft.Control] = [
        EarlierRound(h, who, key=f"earlier-round-{h.number}") for h in reversed(hands)
    ]
    return section("Earlier rounds", tiles, "earlier-rounds")
