"""A round's settlement and the earlier rounds, drawn from the referee's ledger.

Every line of a statement is one ledger entry (what moved, how many chips, the
rule); the net is the round's score.  Nothing is parsed from text.  On a phone
the settlement shows every player's net in a row of tabs and one player's
statement at a time (the one who went out first, until another is tapped).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.components.kit.common import choice
from companion.components.kit.ui import slug
from companion.components.rummoli.parts import chip_row, note_row, section, statement_card
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
            choice(
                f"{p} {hand.scores.get(p, 0):+d}",
                p == who,
                lambda _, p=p: show(p),
                f"statement-tab-{slug(p)}",
                f"{p} {hand.scores.get(p, 0):+d}, now {totals.get(p, 0)} chips: show the statement",
            )
            for p in moved
        ]
    )
    rows: list[ft.Control] = [*note_row(hand.note("how"), f"round-{n}-how"), tabs]
    if who is not None:
        rows.append(
            statement_card(who, hand.ledger, f"statement-{slug(who)}", chips_now=totals.get(who))
        )
    rows += note_row(hand.note("carried"), f"round-{n}-carried")
    return section(f"Round {n} settled", rows, f"settlement-{n}")


def history(hands: Sequence[RummoliHand], players: Sequence[str]) -> ft.Control:
    """Earlier rounds, newest first, each opening to its statements."""
    tiles: list[ft.Control] = []
    for h in reversed(hands):
        nets = ", ".join(f"{p} {h.scores.get(p, 0):+d}" for p in players)
        tiles.append(
            ft.ExpansionTile(
                title=ft.Text(f"Round {h.number} ({h.dealer} dealt)"),
                subtitle=ft.Text(nets, size=13),
                controls=[
                    statement_card(p, h.ledger, f"r{h.number}-statement-{slug(p)}")
                    for p in players
                    if any(e.player == p for e in h.ledger)
                ],
            )
        )
    return section("Earlier rounds", tiles, "earlier-rounds")
