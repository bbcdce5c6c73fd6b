"""Does the history add up?  Read a game's hand-by-hand table from the screen.

The history table names every cell (``hands-<row>-<player>``, ``hands-total-<player>``,
see ``companion/views/history.py``), so a test reads what the screen shows -- not the
data behind it -- and checks that every player's rows sum to the total shown.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from companion.components.kit.ui import slug

__all__ = ["assert_history_adds_up", "shown_table"]


def _label(page: Any, ident: str) -> str | None:
    loc = page.get_by_test_id(ident)
    if loc.count() != 1:
        return None
    return loc.get_attribute("aria-label") or loc.inner_text()


def _number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def shown_table(
    page: Any, players: Sequence[str], timeout_s: float = 20.0
) -> tuple[list[str], dict[str, list[int]], dict[str, int]]:
    """(row titles, each player's amount per row, each player's total) as shown."""
    deadline = time.monotonic() + timeout_s
    while page.get_by_test_id("hands-total-title").count() != 1:
        if time.monotonic() > deadline:
            raise AssertionError("the history shows no hand-by-hand table")
        page.mouse.wheel(0, 600)  # the table may be below the chart
        page.wait_for_timeout(200)
    titles: list[str] = []
    rows: dict[str, list[int]] = {p: [] for p in players}
    while (title := _label(page, f"hands-{len(titles)}-title")) is not None:
        for p in players:
            cell = _label(page, f"hands-{len(titles)}-{slug(p)}")
            assert cell is not None, f"row {title!r}: no amount for {p}"
            rows[p].append(_number(cell))
        titles.append(title)
    totals = {}
    for p in players:
        cell = _label(page, f"hands-total-{slug(p)}")
        assert cell is not None, f"no total for {p}"
        totals[p] = _number(cell)
    return titles, rows, totals


def assert_history_adds_up(
    page: Any, players: Sequence[str], totals: Mapping[str, int], where: str = ""
) -> list[str]:
    """Every player's rows sum to the total shown, which is the referee's total; the
    titles of the rows are returned (e.g. to check a Start or a Final poker row)."""
    titles, rows, shown = shown_table(page, players)
    assert titles, f"{where}: the table has no rows"
    for p in players:
        assert sum(rows[p]) == shown[p], (
            f"{where}: {p}'s rows {list(zip(titles, rows[p], strict=True))} add up to "
            f"{sum(rows[p])}, the total shown is {shown[p]}"
        )
        assert shown[p] == totals[p], f"{where}: {p}'s total shows {shown[p]}, not {totals[p]}"
    return titles
