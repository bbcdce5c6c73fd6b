"""One snapshot rule for a referee's mutable state (python-chess's ``_BoardState`` idea).

A game keeps its state as plain mutable dataclasses and applies each action
to a :func:`capture` of it, so a refused action never touches the live state
and ``pop`` returns to the state kept before the push.  :func:`capture` copies
by one rule, field by field, so a field added to a state class is copied too
(no hand-written ``clone()`` to forget it in):

* a mutable dataclass (a state) is captured field by field;
* a list, dict or set is copied, and so are its elements (dict values) when
  they are mutable: containers hold one kind of element, so the first one
  decides;
* anything else (numbers, text, cards, tuples, frozen dataclasses, pydantic
  models) is immutable and shared;
* a list field declared ``field(..., metadata=HISTORY)`` is a history: only its
  last element can still change, so only that one is captured (the earlier
  ones stay the same objects, and what was built from them stays valid).

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Hand:
...     seen: set[str] = field(default_factory=set)
...     void: dict[int, set[str]] = field(default_factory=dict)
>>> h = Hand({"QS"}, {0: {"red"}})
>>> twin = capture(h)
>>> twin.seen.add("KS"); twin.void[0].add("black")
>>> h
Hand(seen={'QS'}, void={0: {'red'}})
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, TypeVar

__all__ = ["HISTORY", "capture"]

T = TypeVar("T")

#: field metadata of an append-only list whose earlier elements never change again.
HISTORY: Final = {"snapshot": "history"}

_CONTAINERS: Final = (list, dict, set)
#: per class: (field name, is a history) for each field; None: not a mutable dataclass.
_FIELDS: dict[type, tuple[tuple[str, bool], ...] | None] = {}


def _fields_of(cls: type) -> tuple[tuple[str, bool], ...] | None:
    try:
        return _FIELDS[cls]
    except KeyError:
        pass
    names: tuple[tuple[str, bool], ...] | None = None
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        names = tuple(
            (f.name, f.metadata.get("snapshot") == "history") for f in dataclasses.fields(cls)
        )
    _FIELDS[cls] = names
    return names


def _mutable(value: object) -> bool:
    cls = type(value)
    return cls in _CONTAINERS or _fields_of(cls) is not None


def _copy_list(items: list[Any]) -> list[Any]:
    return [capture(v) for v in items] if items and _mutable(items[0]) else items[:]


def _copy_dict(table: dict[Any, Any]) -> dict[Any, Any]:
    if table and _mutable(next(iter(table.values()))):
        return {k: capture(v) for k, v in table.items()}
    return table.copy()


def capture(value: T) -> T:
    """A copy of ``value`` that can be changed without changing ``value`` (see above)."""
    cls = type(value)
    if cls is list:
        return _copy_list(value)  # type: ignore[arg-type, return-value]
    if cls is dict:
        return _copy_dict(value)  # type: ignore[arg-type, return-value]
    if cls is set:
        return value.copy()  # type: ignore[attr-defined, no-any-return]
    names = _fields_of(cls)
    if names is None:
        return value
    twin = object.__new__(cls)
    for name, history in names:
        inner = getattr(value, name)
        kind = type(inner)
        if kind is list:
            inner = [*inner[:-1], capture(inner[-1])] if history and inner else _copy_list(inner)
        elif kind is dict:
            inner = _copy_dict(inner)
        elif kind is set:
            inner = inner.copy()
        elif _fields_of(kind) is not None:
            inner = capture(inner)
        object.__setattr__(twin, name, inner)
    return twin
