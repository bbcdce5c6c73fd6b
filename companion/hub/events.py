"""Events and their words: who did what, why an entry was refused, a write error said
in words (see :mod:`companion.hub`)."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.storage import (
    StorageError,
)
from rulesets.cards import Card
from rulesets.protocol import Action

ActionIn = Action | dict[str, Any]
EventKind = Literal["add", "undo", "redo", "replace", "reload"]


NOT_UNDONE = "nothing was undone"
BUSY_ELSEWHERE = (
    "Another copy of the app using this data folder keeps changing this game; your entry "
    "was not added. Close the other copy, or try again in a moment."
)


class WriteFailed(StorageError):
    """The data folder could not be written (disk full, no permission, read-only):
    an OSError at the repository's edge, in words, in the storage error family."""


_OS_WORDS = {
    errno.ENOSPC: "the disk of the machine running the table is full",
    errno.EDQUOT: "the disk quota of the machine running the table is used up",
    errno.EROFS: "the data folder is on a read-only disk",
    errno.EACCES: "the app may not write to its data folder (permission denied)",
    errno.EPERM: "the app may not write to its data folder (not permitted)",
    errno.EIO: "the disk of the machine running the table reported an error",
}


def write_failed(exc: OSError, kept: str = "the game is as it was before") -> WriteFailed:
    """``exc`` in words: what happened, and that nothing was lost (``kept``)."""
    what = _OS_WORDS.get(exc.errno or 0) or (
        f"the data folder could not be written ({exc.strerror or type(exc).__name__})"
    )
    return WriteFailed(f"{what[:1].upper()}{what[1:]}. Nothing was lost: {kept}.")


@dataclass(frozen=True)
class Refusal:
    """Why an entry was not accepted: the referee's words and the rule they cite.

    ``changed`` lists what other devices did since the refused device last
    looked, when that is why (or part of why) it was refused.
    """

    message: str
    rule: str | None = None
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a device id (for keys and "was it me?") and words for people."""

    id: str
    name: str


SOLO = Actor("solo", "This device")
#: who changed a game when another process did (a second server on the same data folder)
ELSEWHERE = Actor("elsewhere", "Another copy of the app")


@dataclass(frozen=True)
class TableEvent:
    """One change of a live game, as every device hears of it."""

    revision: int
    kind: EventKind
    actor: Actor
    actions: tuple[Action, ...]
    line: str  # "Bob: meld 5♥ 6♥ 7♥"
    news: str  # "Bob just recorded meld 5♥ 6♥ 7♥" (for a refusal's "what changed")


@dataclass(frozen=True)
class Outcome:
    """The result of one write: refused (``refusal``), applied (``event``), or a retry."""

    refusal: Refusal | None = None
    event: TableEvent | None = None
    duplicate: bool = False


# ---- words --------------------------------------------------------------------------------


def _card_words(value: Any) -> list[str]:
    """Card symbols found in an action field (a card, or a list of cards), else []."""
    items = value if isinstance(value, list | tuple) else [value]
    if not items or not all(isinstance(v, str) for v in items):
        return []
    try:
        return [Card.parse(v).symbol for v in items]
    except (ValueError, KeyError):
        return []


def describe_action(action: ActionIn) -> str:
    """Plain words for any game's action: its player, its kind and its cards.

    >>> describe_action({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]})
    'Bob meld 5♥ 6♥ 7♥'
    >>> describe_action({"type": "end_hand_empty_stock"})
    'end hand empty stock'
    """
    data = action.to_json() if isinstance(action, Action) else dict(action)
    words: list[str] = []
    player = data.get("player")
    if isinstance(player, str):
        words.append(player)
    words.append(str(data.get("type", "entry")).replace("_", " "))
    for name, value in data.items():
        if name not in ("type", "player"):
            words += _card_words(value)
    return " ".join(words)


def _what(actions: Sequence[Action]) -> str:
    if not actions:
        return "nothing"
    if len(actions) <= 3:
        return ", ".join(describe_action(a) for a in actions)
    return f"{describe_action(actions[0])} and {len(actions) - 1} more entries"


def _said(exc: StorageError | OSError) -> str:
    return str(write_failed(exc) if isinstance(exc, OSError) else exc)
