"""Turn order drives the screen: who the next entry is for, changeable with one tap.

After each entry the acting player follows the game's turn order as the
referee reports it (``summary.turn``, or the game's detail, e.g. Umtali's
final turn after a player went out); a tap on another name overrides it for
the entry being made, and the next recorded entry hands it back to the
referee.  :class:`TurnFollow` is that state; :func:`acting_row` draws the
names (the one whose turn it is marked), each a thumb-sized one-tap chip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.kit.common import choice
from companion.components.kit.ui import slug

__all__ = ["TurnFollow", "acting_row"]


@ft.observable
@dataclass
class TurnFollow:
    """Who the entry is for: a tapped name, else whoever the referee says is on turn."""

    #: a name tapped for the entry being made; None follows the turn order
    picked: str | None = None

    def acting(self, players: Sequence[str], turn: str | None) -> str:
        if self.picked is not None and self.picked in players:
            return self.picked
        return turn if turn in players and turn else players[0]

    def pick(self, name: str | None) -> None:
        self.picked = name

    def follow(self) -> None:
        """An entry was recorded: the next one follows the turn order again."""
        self.picked = None


def acting_row(
    players: Sequence[str],
    acting: str,
    turn: str | None,
    on_pick: Callable[[str], Any],
    *,
    ident: str = "acting",
    title: str = "Acting:",
) -> ft.Control:
    """The players as one-tap chips, the acting one chosen; the one on turn says so."""

    def pick(name: str) -> Callable[[Any], None]:
        return lambda _: on_pick(name)

    chips: list[ft.Control] = []
    for p in players:
        label = f"{p} (to play)" if p == turn else p
        chips.append(choice(p, p == acting, pick(p), f"{ident}-{slug(p)}", label=label))
    return ft.Row(
        [ft.Text(title, weight=ft.FontWeight.W_500, size=14), *chips],
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        scroll=ft.ScrollMode.HIDDEN,
    )
