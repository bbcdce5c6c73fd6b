"""Seat order round the table: who sits on whose left, and the turn from there.

Seats are anything in a sequence in seating order (clockwise): player names,
or seat numbers ``range(n)``.

>>> after(["Ann", "Bob", "Cy", "Dee"], "Bob")
['Cy', 'Dee', 'Ann', 'Bob']
>>> after(["Ann", "Bob", "Cy"], None)
['Ann', 'Bob', 'Cy']
>>> starting_at(["Ann", "Bob", "Cy"], "Bob")
['Bob', 'Cy', 'Ann']
>>> left_of(["Ann", "Bob", "Cy"], "Cy")
'Ann'
>>> left_of(["Ann", "Bob"], "Zed")
Traceback (most recent call last):
...
rulesets.errors.RecordError: 'Zed': not one of the players (Ann, Bob)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rulesets.errors import RecordError

__all__ = ["after", "left_of", "starting_at"]

T = TypeVar("T")


def after(seats: Sequence[T], start: T | None) -> list[T]:
    """Every seat once, clockwise from the one on ``start``'s left, ``start`` last.

    When ``start`` is None or not at the table, the seats as they sit.
    """
    order = list(seats)
    if start is None or start not in order:
        return order
    i = order.index(start) + 1
    return order[i:] + order[:i]


def starting_at(seats: Sequence[T], start: T) -> list[T]:
    """Every seat once, clockwise from ``start`` itself.

    >>> starting_at(range(4), 2)
    [2, 3, 0, 1]
    """
    order = after(seats, start)
    return order[-1:] + order[:-1]


def left_of(seats: Sequence[T], who: T) -> T:
    """The seat on ``who``'s left (the next in seating order).

    Raises :class:`RecordError` when ``who`` is not at the table.
    """
    if who not in seats:
        names = ", ".join(map(str, seats))
        raise RecordError(f"{who!r}: not one of the players ({names})")
    return after(seats, who)[0]
