"""A round's settlement and the earlier rounds, drawn from the referee's ledger.

Every line of a statement is one ledger entry (what moved, how many chips, the
rule); the net is the round's score.  Nothing is parsed from text.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from companion.components.rummoli_parts import note_row, section, statement_card
from companion.ui import slug
from rulesets.rummoli import RummoliHand

__all__ = ["history", "settlement"]


def settlement(hand: RummoliHand, players: Sequence[str], totals: dict[str, int]) -> ft.Control:
    """The round just played: how it ended, the pots won, each player's statement,
    and what stays on the board."""
    n = hand.number
    rows: list[ft.Control] = [
        *note_row(hand.note("how"), f"round-{n}-how"),
        *note_row(hand.note("won"), f"round-{n}-won"),
    ]
    for p in players:
        if any(e.player == p for e in hand.ledger):
            rows.append(
                statement_card(p, hand.ledger, f"statement-{slug(p)}", chips_now=totals.get(p))
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
