"""The append-only action log beside each game file: one entry, one append, one fsync.

A game is ``games/<id>.json`` (as of its last rewrite) plus the checksummed lines of
``games/<id>.log`` (entries since), tied by a token the rewrite renews; a torn last
line was never acknowledged and is cut off, a bad line followed by good ones is damage.
The line format and why: ``docs/ARCHITECTURE.md``, section 3.3 ("A game's action log").
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import jsonsafe
from companion.storage.files import VALUE_DEPTH

__all__ = [
    "LOG_VERSION",
    "Applied",
    "LogDamagedError",
    "LogOp",
    "LogRead",
    "apply",
    "header",
    "op",
    "op_encoded",
    "op_many_encoded",
    "parse",
    "summary_line",
]

LOG_VERSION = 1
#: lines read between two calls of :func:`parse`'s ``pause`` (a background fold lets saves in)
STEP = 32


class LogDamagedError(ValueError):
    """A log whose middle cannot be read (not a crash: damage)."""


class LogNewerError(ValueError):
    """A log written in a newer format."""


@dataclass(frozen=True)
class LogOp:
    n: int
    t: str
    actions: tuple[dict[str, Any], ...] | None  # None: undo (pop); else appended, in order
    summary: dict[str, Any] | None = None  # with ``finish``: the summary saved (None: none)
    status: str | None = None  # with ``finish``: the status saved (None: unchanged)
    finish: bool = False  # a summary line (actions: empty)

    @property
    def counts(self) -> bool:
        """A change of the game's actions (one step of its revision)."""
        return not self.finish


@dataclass(frozen=True)
class Applied:
    """A game's actions and header fields after its log: what the lines changed."""

    actions: list[dict[str, Any]]
    last: str  # time of the last line ('' if none)
    summary: dict[str, Any] | None = None
    status: str | None = None
    summed: bool = False  # a summary line was among them


@dataclass
class LogRead:
    """What a log holds: its token (None if not even its first line is whole), its ops."""

    token: str | None
    ops: list[LogOp] = field(default_factory=list)
    valid_size: int = 0  # bytes of whole, good lines: a writer truncates to this
    size: int = 0  # bytes read

    @property
    def torn(self) -> bool:
        return self.valid_size != self.size


def encode_line(obj: dict[str, Any]) -> bytes:
    """One checksummed line (also used by the index's logs)."""
    return _line(obj)


def decode_line(line: bytes) -> dict[str, Any] | None:
    """The object of a line written by :func:`encode_line` (no newline), or None if bad."""
    return _decode(line)


#: one encoder for every line (``json.dumps`` with options builds a new one per call)
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def _line(obj: dict[str, Any]) -> bytes:
    return _seal(_ENCODE(obj).encode())


def _seal(body: bytes) -> bytes:
    """``body`` with its checksum and the newline: a whole line."""
    return b"%s\t%08x\n" % (body, zlib.crc32(body))


def header(token: str) -> bytes:
    return _line({"log": token, "v": LOG_VERSION})


def op(n: int, t: str, action: dict[str, Any] | None) -> bytes:
    """The line for an appended action (or, with ``action=None``, an undo)."""
    if action is None:
        return _line({"n": n, "t": t, "pop": 1})
    return _line({"n": n, "t": t, "a": action})


def op_many(n: int, t: str, actions: list[dict[str, Any]]) -> bytes:
    """One line for several actions appended as one entry: all of them or none survive."""
    return _line({"n": n, "t": t, "aa": actions})


def op_encoded(n: int, t: str, action: bytes) -> bytes:
    """:func:`op` for an action already encoded (compact JSON, as
    :func:`~companion.storage.checks.action_json` gives it): the same bytes, not encoded twice.

    ``t`` is a time from :func:`~companion.storage.models.now_iso` (nothing in it to escape)."""
    return _seal(b'{"n":%d,"t":"%s","a":%s}' % (n, t.encode(), action))


def op_many_encoded(n: int, t: str, actions: list[bytes]) -> bytes:
    """:func:`op_many` for actions already encoded (see :func:`op_encoded`)."""
    return _seal(b'{"n":%d,"t":"%s","aa":[%s]}' % (n, t.encode(), b",".join(actions)))


def summary_line(n: int, t: str, summary: dict[str, Any] | None, status: str | None) -> bytes:
    """The line that saves a game's summary (and status) without touching its actions."""
    return _line({"n": n, "t": t, "sum": summary, "st": status})


def _decode(line: bytes) -> dict[str, Any] | None:
    body, tab, crc = line.rpartition(b"\t")
    if not tab or crc != f"{zlib.crc32(body):08x}".encode():
        return None
    try:
        value = jsonsafe.loads(body, max_depth=VALUE_DEPTH + 2)
    except jsonsafe.JsonInputError:
        return None
    return value if isinstance(value, dict) else None


def _op_of(doc: dict[str, Any]) -> LogOp | None:
    n, t = doc.get("n"), doc.get("t")
    if type(n) is not int or not isinstance(t, str):
        return None
    if doc.keys() == {"n", "t", "pop"} and doc["pop"] == 1:
        return LogOp(n, t, None)
    if doc.keys() == {"n", "t", "sum", "st"}:
        summary, status = doc["sum"], doc["st"]
        if (summary is None or isinstance(summary, dict)) and status in (
            None,
            "in_progress",
            "finished",
        ):
            return LogOp(n, t, (), summary, status, finish=True)
        return None
    action, many = doc.get("a"), doc.get("aa")
    if doc.keys() == {"n", "t", "a"} and isinstance(action, dict):
        return LogOp(n, t, (action,))
    if doc.keys() != {"n", "t", "aa"} or not isinstance(many, list) or not many:
        return None
    return LogOp(n, t, tuple(many)) if all(isinstance(a, dict) for a in many) else None


def parse(raw: bytes, pause: Callable[[], object] | None = None) -> LogRead:
    """Read a log: its token and ops up to the first bad line (the torn tail, if any).

    Raises :class:`LogDamagedError` when a good line follows a bad one, and
    :class:`LogNewerError` for a log of a newer format.  ``pause`` is called
    every :data:`STEP` lines (the background fold gives the CPU to saves there).
    """
    lines = raw.split(b"\n")
    lines.pop()  # after the last newline: empty, or a line cut off mid-write
    result = LogRead(token=None, size=len(raw))
    offset = 0
    bad_at: int | None = None
    for number, line in enumerate(lines):
        if pause is not None and number and not number % STEP:
            pause()
        doc = _decode(line)
        entry = None
        if doc is not None and number == 0:
            if isinstance(doc.get("v"), int) and doc["v"] > LOG_VERSION:
                raise LogNewerError(f"action log format {doc['v']}")
            if (
                doc.keys() != {"log", "v"}
                or doc["v"] != LOG_VERSION
                or not isinstance(doc["log"], str)
            ):
                doc = None
        elif doc is not None:
            entry = _op_of(doc)
            doc = doc if entry is not None else None
        if doc is None:
            bad_at = number if bad_at is None else bad_at
            continue
        if bad_at is not None:
            raise LogDamagedError(f"line {bad_at + 1} cannot be read but later lines can")
        if number == 0:
            result.token = doc["log"]
        elif entry is not None:
            result.ops.append(entry)
        offset += len(line) + 1
        result.valid_size = offset
    return result


def apply(actions: list[dict[str, Any]], ops: list[LogOp]) -> Applied:
    """``actions`` with the log's ops applied, the time of the last one, the summary saved."""
    out = list(actions)
    last = ""
    summary: dict[str, Any] | None = None
    status: str | None = None
    summed = False
    for number, entry in enumerate(ops, 2):
        if entry.finish:
            summary, summed = entry.summary, True
            status = entry.status if entry.status is not None else status
        elif entry.actions is None:
            if not out:
                raise LogDamagedError(f"line {number} undoes an entry that is not there")
            out.pop()
        else:
            out.extend(entry.actions)
        if entry.n != len(out):
            raise LogDamagedError(
                f"line {number} says {entry.n} entries where there are {len(out)}"
            )
        last = entry.t
    return Applied(out, last, summary, status, summed)
