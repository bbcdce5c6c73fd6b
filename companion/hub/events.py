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
from rulesets.errors import RulesetError
from rulesets.protocol import Action, Ruleset

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
    """Who makes a change: a screen's id (for keys and "was it me?"), words for people, and
    the device behind the screen (a phone's table id outlives its browser sessions, so
    after a reconnect its new screen knows which changes its old one made)."""

    id: str
    name: str
    device: str = ""


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
    line: str  # "Phone 3: Bob melded 5♥ 6♥ 7♥" (an entry told as done)
    news: str  # "Bob just recorded meld 5♥ 6♥ 7♥" (for a refusal's "what changed")


@dataclass(frozen=True)
class Outcome:
    """The result of one write: refused (``refusal``), applied (``event``), or a retry."""

    refusal: Refusal | None = None
    event: TableEvent | None = None
    duplicate: bool = False


# ---- words --------------------------------------------------------------------------------


def describe_action(
    action: ActionIn,
    players: Sequence[str] = (),
    *,
    ruleset: Ruleset | None = None,
    past: bool = False,
) -> str:
    """An entry in words for a "who did what" line: the action's own words
    (:meth:`rulesets.protocol.Action.words`), so the hub never guesses which field
    holds a card.  ``players`` names a player an old record gives by seat.

    A stored entry that no longer replays comes as its JSON: ``ruleset`` reads it
    to word it; unread (or unreadable) it is said by its player and its kind.
    ``past`` tells it as done, for the news of an entry just made.

    >>> from rulesets.umtali import Meld
    >>> describe_action(Meld(player="Bob", cards=("5H", "6H", "7H")))
    'Bob meld 5♥ 6♥ 7♥'
    >>> describe_action(Meld(player="Bob", cards=("5H", "6H", "7H")), past=True)
    'Bob melded 5♥ 6♥ 7♥'
    >>> describe_action({"type": "end_hand_empty_stock"})
    'end hand empty stock'
    >>> describe_action({"type": "meld", "player": "Bob", "cards": ["5H"]})
    'Bob meld'
    """
    if isinstance(action, Action):
        return action.words(players, past=past)
    if ruleset is not None:
        try:
            return ruleset.parse_action(action).words(players, past=past)
        except RulesetError:
            pass
    player = action.get("player")
    what = str(action.get("type", "entry")).replace("_", " ")
    return f"{player} {what}" if isinstance(player, str) else what


def _what(actions: Sequence[Action], players: Sequence[str] = (), *, past: bool = False) -> str:
    if not actions:
        return "nothing"
    if len(actions) <= 3:
        return ", ".join(describe_action(a, players, past=past) for a in actions)
    first = describe_action(actions[0], players, past=past)
    return f"{first} and {len(actions) - 1} more entries"


def _said(exc: StorageError | OSError) -> str:
    return str(write_failed(exc) if isinstance(exc, OSError) else exc)
