"""JSON from files and uploads, read with limits: never a RecursionError, never a traceback.

``json.loads`` raises ``RecursionError`` on deeply nested input, ``ValueError``
on a 5,000-digit number and accepts ``NaN``; code that walks the result
recursively (pydantic, ``json.dumps``, a rename) can hit the recursion limit
on values the parser still accepted.  :func:`loads` turns all of that into one
:class:`JsonInputError` with a plain reason, and refuses values nested deeper
than ``max_depth`` or larger than ``max_bytes``.  Standard library only, so the
command line can use it without loading the app.

>>> loads(b'{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads(b"[" * 100 + b"]" * 100, max_depth=64)
Traceback (most recent call last):
...
companion.jsonsafe.JsonInputError: nested more than 64 levels deep
>>> loads(b"\\xff")
Traceback (most recent call last):
...
companion.jsonsafe.JsonInputError: not UTF-8 text (byte 0xff at position 0)
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "JsonInputError", "check_depth", "depth_of", "loads"]

#: deepest nesting accepted in any stored or imported JSON (real data nests < 10 levels)
MAX_DEPTH = 64
#: largest JSON text read in one go unless the caller says otherwise
MAX_BYTES = 64 * 1024 * 1024


class JsonInputError(ValueError):
    """JSON that cannot be used: undecodable, malformed, too deep or too big."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a number JSON allows")


_CONTAINERS = (dict, list, tuple)
#: one decoder for every read (``json.loads`` with an argument builds a new one per call)
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def depth_of(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a plain value), at most limit+1.

    Level by level, without recursion, so it works on values too deep for it
    (and visits each container once: cheap enough for every read).

    >>> depth_of({"a": [1, {"b": 2}]}), depth_of(3)
    (3, 0)
    """
    level = [value] if value.__class__ in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return depth
        below: list[Any] = []
        for item in level:
            children = item.values() if item.__class__ is dict else item
            below += [c for c in children if c.__class__ in _CONTAINERS]
        level = below
    return depth


def check_depth(value: Any, max_depth: int = MAX_DEPTH) -> None:
    if depth_of(value, max_depth) > max_depth:
        raise JsonInputError(f"nested more than {max_depth} levels deep")


def loads(raw: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``raw`` (UTF-8, a BOM allowed) or raise :class:`JsonInputError` saying why."""
    if len(raw) > max_bytes:
        raise JsonInputError(f"too big ({len(raw):,} bytes; at most {max_bytes:,})")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.start + 1].hex()
            raise JsonInputError(f"not UTF-8 text (byte 0x{bad} at position {exc.start})") from None
    else:
        text = raw
    try:
        if text.startswith("\ufeff"):  # as json.loads says
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except RecursionError:
        raise JsonInputError(f"nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except JsonInputError:
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise JsonInputError(f"not usable JSON ({exc})") from None
    check_depth(value, max_depth)
    return value
