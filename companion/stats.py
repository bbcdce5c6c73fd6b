"""Player statistics and score series, computed from the history index (no replay).

Pure functions over :class:`~companion.storage.GameListItem` lines and replay
summaries, so the history screen stays a thin view and the numbers are tested.

What "good" means differs by game: Umtali totals are points (higher is better),
Rummy totals are penalty points (lower is better), Rummoli totals are the chips
in a player's stack at the end (higher is better).

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

__all__ = [
    "HIGHER_IS_BETTER",
    "UNITS",
    "PlayerStats",
    "cumulative_series",
    "hand_table",
    "player_stats",
]

#: whether a bigger total is the better one, per game.
HIGHER_IS_BETTER = {"umtali": True, "rummy": False, "rummoli": True}
#: what a game's totals count.
UNITS = {"umtali": "points", "rummy": "penalty points", "rummoli": "chips"}


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
        higher = HIGHER_IS_BETTER.get(item.game, True)
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


def hand_table(summary: dict[str, Any]) -> tuple[list[str], list[tuple[int, list[Any]]]]:
    """The players and one row of scores per hand, from a replay summary.

    >>> hand_table({"players": ["A", "B"], "hands": [{"number": 1, "scores": {"A": 5, "B": 2}}]})
    (['A', 'B'], [(1, [5, 2])])
    """
    players = [str(p) for p in summary.get("players", [])]
    rows: list[tuple[int, list[Any]]] = []
    hands = summary.get("hands")
    for i, hand in enumerate(hands if isinstance(hands, list) else [], 1):
        if not isinstance(hand, dict):
            continue
        scores = hand.get("scores")
        if not isinstance(scores, dict):
            continue
        number = hand.get("number", i)
        rows.append((number if isinstance(number, int) else i, [scores.get(p) for p in players]))
    return players, rows


def cumulative_series(
    summary: dict[str, Any], start: dict[str, float] | None = None
) -> dict[str, list[float]]:
    """Each player's running total after every hand, beginning with the start value.

    ``start`` is the stack each player began with (Rummoli chips); scores
    default to 0.  Hands without a number for a player count 0 for them.  When
    the summary's final ``totals`` differ from the last hand's running totals
    (Rummoli's final poker moves chips after the last hand), they are added as
    one more point, so every line ends at the player's total.

    >>> cumulative_series({"players": ["A"], "hands": [{"scores": {"A": 3}}], "totals": {"A": 5}})
    {'A': [0, 3, 5]}

    >>> cumulative_series({"players": ["A"], "hands": [{"scores": {"A": 3}}, {"scores": {"A": 4}}]})
    {'A': [0, 3, 7]}
    """
    players, rows = hand_table(summary)
    series: dict[str, list[float]] = {}
    for i, p in enumerate(players):
        value: float = (start or {}).get(p, 0)
        points = [value]
        for _, scores in rows:
            value += _number(scores[i]) or 0
            points.append(value)
        series[p] = points
    totals = summary.get("totals")
    if isinstance(totals, dict) and players:
        final = {p: _number(totals.get(p)) for p in players}
        if all(v is not None for v in final.values()) and any(
            final[p] != series[p][-1] for p in players
        ):
            for p in players:
                series[p].append(final[p] or 0)
    return series


def starting_stacks(
    game: str, actions: list[dict[str, Any]], players: list[str]
) -> dict[str, float]:
    """Rummoli's starting chips (its first ``start`` action); zeros for other games.

    >>> starting_stacks("rummoli", [{"type": "start", "chips": [50, 40]}], ["A", "B"])
    {'A': 50, 'B': 40}
    """
    if game == "rummoli" and actions and actions[0].get("type") == "start":
        chips = actions[0].get("chips")
        if isinstance(chips, list) and len(chips) == len(players):
            return {p: (_number(c) or 0) for p, c in zip(players, chips, strict=True)}
    return {p: 0 for p in players}
