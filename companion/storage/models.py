"""Records the repositories hand out (pydantic), and the storage errors.

Records are converted to and from plain JSON dicts only at the repository
boundary; everything the app sees is one of these models.  Each is built (its
validator compiled) when first used, not at import: the server's start to its
first screen uses few or none of them (``benchmarks/startup.py``).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "GAME_ID_PATTERN",
    "STORAGE_SCHEMA_VERSION",
    "GameListItem",
    "GameNotFoundError",
    "GameStatus",
    "ImportReport",
    "NewerVersionError",
    "Player",
    "Problem",
    "StaleGameError",
    "UnknownFormatError",
    "StorageError",
    "StoredGame",
    "new_game_id",
    "now_iso",
]

#: version of the on-disk documents written by this app (see migrations.py).
STORAGE_SCHEMA_VERSION = 1

GameStatus = Literal["in_progress", "finished"]

#: ids become file names, so only these characters are allowed.
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class StorageError(ValueError):
    """Anything the history store refuses or cannot do; the message is for people."""


class GameNotFoundError(StorageError, LookupError):
    """No game with this id (or it is in the trash)."""


class NewerVersionError(StorageError):
    """A file written by a newer Rummy Companion; it is refused and left untouched."""


class StaleGameError(StorageError):
    """A write was refused: the game changed since the writer read it (another window of
    another process wrote to it).  ``revision`` is the game's revision now; nothing
    was written."""

    def __init__(self, message: str, revision: int) -> None:
        super().__init__(message)
        self.revision = revision


class UnknownFormatError(StorageError):
    """A data folder marked with a format no Rummy Companion writes; refused, left untouched."""


def check_summary_shape(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """The parts of a summary the history list reads must have their types.

    ``winners`` a list of names, ``totals`` an object, ``hands`` a list: a
    backup or a file saying otherwise is refused here, before it reaches the
    index (where it once stopped the app from starting).
    """
    if summary is None:
        return None
    winners = summary.get("winners", [])
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise ValueError(f"summary winners must be a list of player names, not {winners!r:.60}")
    if not isinstance(summary.get("totals", {}), dict):
        raise ValueError("summary totals must be an object")
    if not isinstance(summary.get("hands", []), list):
        raise ValueError("summary hands must be a list")
    return summary


def new_game_id() -> str:
    return uuid.uuid4().hex


def now_iso() -> str:
    """UTC time with microseconds, so ISO strings sort in time order."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class StoredGame(BaseModel):
    """One game as stored: who, which rules, every reported action, last summary."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: int = STORAGE_SCHEMA_VERSION
    id: str = Field(default_factory=new_game_id, pattern=GAME_ID_PATTERN)
    game: str
    players: list[str]
    rules: dict[str, Any] = {}
    created: str = Field(default_factory=now_iso)
    updated: str = Field(default_factory=now_iso)
    status: GameStatus = "in_progress"
    actions: list[dict[str, Any]] = []
    summary: dict[str, Any] | None = None

    @field_validator("summary")
    @classmethod
    def _summary_shape(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_summary_shape(value)

    def to_record(self) -> Any:
        """The :class:`rulesets.protocol.GameRecord` the referee replays."""
        from rulesets.protocol import GameRecord

        return GameRecord(
            game=self.game, players=list(self.players), rules=dict(self.rules), actions=self.actions
        )

    def list_item(self) -> GameListItem:
        return GameListItem.from_game(self)


class GameListItem(BaseModel):
    """A line of the history list, read from the compact index (no replay needed)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: int = STORAGE_SCHEMA_VERSION
    id: str
    game: str
    players: list[str]
    created: str
    updated: str
    status: GameStatus
    winners: list[str] = []
    totals: dict[str, Any] = {}
    hands: int = 0
    #: whether a bigger total is better under this game's house rules (None: not known)
    higher_is_better: bool | None = None

    @classmethod
    def from_game(cls, game: StoredGame) -> GameListItem:
        summary = game.summary or {}
        winners = summary.get("winners")
        totals = summary.get("totals")
        hands = summary.get("hands")
        higher = summary.get("higher_is_better")
        return cls(
            id=game.id,
            game=game.game,
            players=list(game.players),
            created=game.created,
            updated=game.updated,
            status=game.status,
            winners=list(winners) if isinstance(winners, list) else [],
            totals=dict(totals) if isinstance(totals, dict) else {},
            hands=len(hands) if isinstance(hands, list) else 0,
            higher_is_better=higher if isinstance(higher, bool) else None,
        )


class Player(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: int = STORAGE_SCHEMA_VERSION
    name: str
    created: str = Field(default_factory=now_iso)


class ImportReport(BaseModel):
    """What :meth:`import_json` did: ids added and skipped, and readable problems."""

    model_config = ConfigDict(defer_build=True)

    added: list[str] = []
    skipped: list[str] = []
    problems: list[str] = []


class Problem(BaseModel):
    """A file of the history that could not be read, set aside with a note (see Settings)."""

    model_config = ConfigDict(defer_build=True)

    id: str  # the kept file's name in the quarantine folder
    note: str  # what happened, in plain words
    file_name: str  # what the kept file was called in the data folder
    when: str  # when it was set aside (ISO, UTC)
