"""How the app starts each game: the first recorded action and the opening words.

A thin adapter between the new-game screen and the referees: which action
opens a record, and who deals and plays first, quoting the rule that says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets import load_ruleset

DEFAULT_CHIPS = 50
RUMMOLI_ANTE = 9  # M1.3: one chip into each of the nine pots


@dataclass(frozen=True)
class Opening:
    dealer: str
    first: str
    text: str
    rule: str


def player_range(game: str) -> tuple[int, int]:
    r = load_ruleset(game)
    return r.min_players, r.max_players


def opening(game: str, players: list[str], dealer: str) -> Opening:
    """Who deals and who plays first, per each game's rule."""
    seat = players.index(dealer)
    left = players[(seat + 1) % len(players)]
    if game == "umtali":
        return Opening(dealer, left, f"{dealer} deals 10 each; {left} plays first.", "U3.3")
    if game == "rummy":
        return Opening(
            dealer, left, f"{dealer} deals; {left}, on the dealer's left, plays first.", "R1.4"
        )
    return Opening(
        dealer,
        left,
        f"{dealer} deals; {left}, on the dealer's left, opens the poker betting.",
        "M4.2",
    )


def first_actions(
    game: str, players: list[str], dealer: str, chips: list[int] | None = None
) -> list[dict[str, Any]]:
    """The action(s) that open a new game's record."""
    if game == "rummoli":
        stacks = chips if chips is not None else [DEFAULT_CHIPS] * len(players)
        return [{"type": "start", "chips": stacks, "dealer": players.index(dealer)}]
    return [{"type": "start_hand", "dealer": dealer}]
