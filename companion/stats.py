"""Player statistics and score series: from the history index and the referee's ledger.

Pure functions over :class:`~companion.storage.GameListItem` lines and typed
:class:`~rulesets.protocol.Summary` values, so the history screen stays a thin
view and the numbers are tested.  What a total counts and whether more is
better are the ruleset's facts (``units``, ``higher_is_better``), not ours.
The hand-by-hand table and the chart come from the summary's ledger rows, so
they include everything that moved a total (Rummoli's starting stacks, buy-ins
and final poker; Rummy's typed totals) and every row adds up to the total.

>>> from companion.storage import GameListItem
>>> g = GameListItem(id="a", game="rummy", players=["Ann", "Bob"], created="2026-01-01",
...                  updated="2026-01-01", status="finished", winners=["Ann"],
...                  totals={"Ann": 40, "Bob": 120}, hands=4)
>>> [(s.player, s.games, s.wins, s.per_hand, s.best) for s in player_stats([g])["rummy"]]
[('Ann', 1, 1, 10.0, 40), ('Bob', 1, 0, 30.0, 120)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.storage import GameListItem
from rulesets import RulesetError, load_ruleset
from rulesets.protocol import LedgerRow, Summary

__all__ = [
    "PlayerStats",
    "Series",
    "higher_is_better",
    "ledger_table",
    "player_stats",
    "series",
    "units",
]


def higher_is_better(game: str) -> bool:
    """Whether a bigger total is the better one (the game's standard rules)."""
    try:
        return load_ruleset(game).higher_is_better()
    except RulesetError:  # a game this version does not know (an imported backup)
        return True


def units(game: str) -> str:
    """What a game's totals count, in words ("points", "penalty points", "chips")."""
    try:
        return str(load_ruleset(game).units().value)
    except RulesetError:
        return "points"


@dataclass(frozen=True)
class PlayerStats:
    """One player's record at one game (finished games only)."""

    game: str
    player: str
    games: int
    wins: int
    hands: int
    total: float
    best: float | None
    best_game: str | None  # id of the game with the best total

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def per_hand(self) -> float | None:
        """Average total per hand played (Umtali points, Rummy penalty, Rummoli chips)."""
        return round(self.total / self.hands, 2) if self.hands else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def player_stats(items: Iterable[GameListItem]) -> dict[str, list[PlayerStats]]:
    """Per game, each player's games, wins, win rate, average per hand and best game.

    Only finished games count.  A shared win (tie) counts as a win for each winner.
    Players are sorted by win rate, then games played, then name.
    """
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    for item in items:
        if item.status != "finished":
            continue
        higher = (
            item.higher_is_better
            if item.higher_is_better is not None
            else higher_is_better(item.game)
        )
        for player in item.players:
            a = acc.setdefault(
                (item.game, player),
                {"games": 0, "wins": 0, "hands": 0, "total": 0.0, "best": None, "best_game": None},
            )
            a["games"] += 1
            if player in item.winners:
                a["wins"] += 1
            total = _number(item.totals.get(player))
            if total is None:
                continue
            a["hands"] += item.hands
            a["total"] += total
            best = a["best"]
            if best is None or (total > best if higher else total < best):
                a["best"], a["best_game"] = total, item.id
    out: dict[str, list[PlayerStats]] = {}
    for (game, player), a in acc.items():
        out.setdefault(game, []).append(PlayerStats(game=game, player=player, **a))
    for rows in out.values():
        rows.sort(key=lambda s: (-s.win_rate, -s.games, s.player.casefold()))
    return out


def ledger_table(summary: Summary) -> tuple[list[str], list[LedgerRow]]:
    """The players and the history rows of a game: one per hand, plus rows for
    movements outside a hand (start, buy-ins, final poker).  Each row has an
    amount for every player; the rows add up to the totals.
    """
    return list(summary.players), summary.rows()


@dataclass(frozen=True)
class Series:
    """Running totals for a chart: ``labels[i]`` names the point ``values[p][i]``."""

    labels: list[str]
    values: dict[str, list[int]]


def series(summary: Summary) -> Series:
    """Each player's running total after every ledger row, starting from 0.

    A game that opens with a "Start" row (Rummoli's stacks) starts there instead,
    so the first point is the starting stack.  Every line ends at the total.
    """
    players, rows = ledger_table(summary)
    labels = ["0"]
    values = {p: [0] for p in players}
    for i, row in enumerate(rows):
        if i == 0 and row.kind == "start":
            labels = ["Start"]
            values = {p: [row.amounts.get(p, 0)] for p in players}
            continue
        labels.append(str(row.hand) if row.hand is not None else row.title)
        for p in players:
            values[p].append(values[p][-1] + row.amounts.get(p, 0))
    return Series(labels, values)
