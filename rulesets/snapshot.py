"""One snapshot rule for a referee's mutable state (python-chess's ``_BoardState`` idea).

A game keeps its state as plain mutable dataclasses and applies each action
to a :func:`capture` of it, so a refused action never touches the live state
and ``pop`` returns to the state kept before the push.  :func:`capture` copies
by one rule, field by field, so a field added to a state class is copied too
(no hand-written ``clone()`` to forget it in):

* a mutable dataclass (a state) is captured field by field; a field whose
  annotation is immutable (numbers, text, tuples, enums, frozen dataclasses or
  pydantic models, and unions of them) is shared without looking;
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
import enum
import types
import typing
from collections.abc import Callable
from typing import Any, Final, TypeVar

__all__ = ["HISTORY", "capture"]

T = TypeVar("T")

#: field metadata of an append-only list whose earlier elements never change again.
HISTORY: Final = {"snapshot": "history"}

_CONTAINERS: Final = (list, dict, set)
_SCALARS: Final = (int, float, str, bool, bytes, type(None))
_Copier = Callable[[Any], Any]
#: per class: its copier (None: not a mutable dataclass, shared as it is).
_COPIERS: dict[type, _Copier | None] = {}


def _immutable(hint: Any) -> bool:
    """Whether a field's annotation says its value can never change in place."""
    if hint in _SCALARS or hint is Any:
        return hint is not Any
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return all(_immutable(h) for h in typing.get_args(hint))
    if origin in (tuple, frozenset, typing.Literal):
        return True
    if not isinstance(hint, type):
        return False
    if issubclass(hint, enum.Enum):
        return True
    params = getattr(hint, "__dataclass_params__", None)
    if params is not None:
        return bool(params.frozen)
    config = getattr(hint, "model_config", None)  # a frozen pydantic model
    return isinstance(config, dict) and bool(config.get("frozen"))


def _copier_of(cls: type) -> _Copier | None:
    """The copier of a mutable dataclass: one line per field, written once per class.
    A field whose annotation is immutable is shared; the others are captured."""
    try:
        return _COPIERS[cls]
    except KeyError:
        pass
    copier: _Copier | None = None
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError):  # an annotation that cannot be resolved: check values
            hints = {}
        lines = ["def copy(v):", "    t = new(cls)"]
        for f in dataclasses.fields(cls):
            if f.metadata.get("snapshot") == "history":
                lines.append(f"    x = v.{f.name}")
                lines.append(f"    t.{f.name} = [*x[:-1], capture(x[-1])] if x else []")
            elif f.name in hints and _immutable(hints[f.name]):
                lines.append(f"    t.{f.name} = v.{f.name}")
            else:
                lines.append(f"    t.{f.name} = capture(v.{f.name})")
        lines.append("    return t")
        scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "capture": capture}
        exec("\n".join(lines), scope)  # noqa: S102 - code written from the class's own fields
        copier = scope["copy"]
    _COPIERS[cls] = copier
    return copier


def _mutable(value: object) -> bool:
    cls = type(value)
    return cls in _CONTAINERS or _copier_of(cls) is not None


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
    copier = _COPIERS.get(cls) or _copier_of(cls)
    return value if copier is None else copier(value)
