"""What each file of the data folder must hold: every read is checked here, whole.

A file is read with size and nesting limits (:mod:`companion.jsonsafe`), then
its tables are checked against the storage models.  Anything else -- a list
where a table belongs, a line of the index that is not a game, a journal of an
unknown kind -- raises :class:`ShapeError` (a ``ValueError``) with a plain
reason, and the repository sets the file aside.  Nothing here touches the disk
except :func:`read_tables`, which only reads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from companion import jsonsafe
from companion.storage import models
from companion.storage.models import GameListItem, Player, StoredGame

__all__ = [
    "FILE_DEPTH",
    "JOURNAL_BYTES",
    "VALUE_DEPTH",
    "CreateOp",
    "FileSig",
    "ImportOp",
    "IndexOp",
    "JournalOp",
    "RenameOp",
    "ShapeError",
    "Tables",
    "first_error",
    "game_tables",
    "parse_game",
    "parse_index",
    "parse_journal",
    "parse_players",
    "read_tables",
    "table",
]


#: the validators here are built when first used, not at import (the start before the
#: first screen reads few of these files, often none: benchmarks/startup.py)
LAZY = ConfigDict(defer_build=True)

Tables = dict[str, dict[str, Any]]

#: nesting allowed in one stored value (an action, a summary, house rules)
VALUE_DEPTH = 48
#: nesting allowed in a whole file (tables and documents add a few levels)
FILE_DEPTH = jsonsafe.MAX_DEPTH
#: largest game, index month, player list or format file read
FILE_BYTES = 64 * 1024 * 1024
#: a journal may carry a whole imported backup
JOURNAL_BYTES = 512 * 1024 * 1024


class ShapeError(ValueError):
    """A file that is JSON but not what this kind of file holds."""


def first_error(exc: ValidationError) -> str:
    """The first problem pydantic found, in one line: 'games.3.players: Input should be...'."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


class FileSig(NamedTuple):
    """Identity of one version of a file: any rewrite or append changes it.

    A tuple, not a dataclass: every save builds two and compares them (a
    dataclass's frozen ``__init__`` and ``__eq__`` cost several times more)."""

    ino: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileSig:
        return cls(st.st_ino, st.st_size, st.st_mtime_ns)


def read_tables(path: Path, max_bytes: int = FILE_BYTES) -> tuple[Tables, FileSig] | None:
    """The JSON object in ``path`` and the signature of what was read; None if missing.

    Raises :class:`companion.jsonsafe.JsonInputError` if it is not a usable JSON
    object (empty, cut off, garbage, too big, too deep).
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_size > max_bytes:
            raise jsonsafe.JsonInputError(f"too big ({st.st_size:,} bytes)")
        chunks = []
        while chunk := os.read(fd, max(st.st_size, 65536)):
            chunks.append(chunk)
            if sum(map(len, chunks)) > max_bytes:
                raise jsonsafe.JsonInputError("too big")
        raw = b"".join(chunks)
    finally:
        os.close(fd)
    if not raw.strip():
        raise jsonsafe.JsonInputError("the file is empty (probably cut off by a crash)")
    data = jsonsafe.loads(raw, max_bytes=max_bytes, max_depth=FILE_DEPTH)
    if not isinstance(data, dict):
        raise jsonsafe.JsonInputError("does not hold a JSON object")
    return data, FileSig.of(st)


def table(tables: Tables, name: str) -> dict[str, Any]:
    """A TinyDB table: an object whose keys are document numbers; {} if absent."""
    value = tables.get(name, {})
    if not isinstance(value, dict):
        raise ShapeError(f"table {name!r} is not an object")
    for key in value:
        if not key.isdigit():
            raise ShapeError(f"table {name!r} has a document numbered {key!r:.20}")
    return value


def _doc(tables: Tables, name: str) -> dict[str, Any]:
    doc = table(tables, name).get("1")
    if not isinstance(doc, dict):
        raise ShapeError(f"no {name!r} document")
    return doc


def meta_of(tables: Tables) -> dict[str, Any]:
    return _doc(tables, "meta")


def log_token(tables: Tables) -> str:
    """The token naming the action log that belongs to this version of a game file."""
    token = meta_of(tables).get("log", "")
    if not isinstance(token, str):
        raise ShapeError("the action log token is not a string")
    return token


# ---- games ---------------------------------------------------------------------------
class _ActionDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: StrictInt = models.STORAGE_SCHEMA_VERSION
    action: dict[str, Any]


_ACTION_DOCS = TypeAdapter(dict[str, _ActionDoc], config=LAZY)


def game_revision(tables: Tables) -> int:
    """The revision a game file was written at (0 when it does not say: an older file).

    A game's revision counts the changes to its actions (each entry, undo, edit or
    rename); the revision of a game is its file's plus the lines of its action log.
    """
    revision = meta_of(tables).get("rev", 0)
    if type(revision) is not int or revision < 0:
        raise ShapeError("the game's revision is not a whole number")
    return revision


def game_tables(game: StoredGame, token: str, revision: int = 0) -> Tables:
    """The file of ``game`` at ``revision`` whose action log is named ``token``."""
    header = game.model_dump(mode="json", exclude={"actions"})
    version = models.STORAGE_SCHEMA_VERSION
    meta: dict[str, Any] = {"schema_version": version, "kind": "game", "log": token}
    if revision:
        meta["rev"] = revision
    return {
        "meta": {"1": meta},
        "game": {"1": header},
        "actions": {
            str(n): {"schema_version": version, "action": a} for n, a in enumerate(game.actions, 1)
        },
    }


def parse_game(tables: Tables) -> tuple[StoredGame, str]:
    """The game in a game file and the token of its action log; ShapeError if invalid."""
    header = _doc(tables, "game")
    token = log_token(tables)
    try:
        docs = _ACTION_DOCS.validate_python(table(tables, "actions"))
        actions = [docs[k].action for k in sorted(docs, key=int)]
        return StoredGame.model_validate({**header, "actions": actions}), token
    except ValidationError as exc:
        raise ShapeError(first_error(exc)) from None


# ---- index, players ------------------------------------------------------------------
_INDEX_LINES = TypeAdapter(dict[str, GameListItem], config=LAZY)
_PLAYERS = TypeAdapter(dict[str, Player], config=LAZY)


def parse_index(tables: Tables) -> list[GameListItem]:
    try:
        return list(_INDEX_LINES.validate_python(table(tables, "games")).values())
    except ValidationError as exc:
        raise ShapeError(f"a line of the index is not a game: {first_error(exc)}") from None


def parse_players(tables: Tables) -> list[Player]:
    try:
        return list(_PLAYERS.validate_python(table(tables, "players")).values())
    except ValidationError as exc:
        raise ShapeError(f"an entry is not a player: {first_error(exc)}") from None


# ---- the journal: what a multi-file change was doing when it was interrupted ---------
GameId = Annotated[str, Field(pattern=models.GAME_ID_PATTERN)]


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class IndexOp(_Op):
    """Bring the index lines of these games in line with their files."""

    kind: Literal["index"] = "index"
    ids: list[GameId]


class CreateOp(_Op):
    """A new game: its file, its players, its index line."""

    kind: Literal["create"] = "create"
    game: StoredGame


class ImportOp(_Op):
    """A backup going in: every game file, every player, every index line."""

    kind: Literal["import"] = "import"
    games: list[StoredGame]
    trash: list[StoredGame] = []
    players: list[Player] = []


class RenameOp(_Op):
    """A player renamed (or merged into another) in every game that has them."""

    kind: Literal["rename"] = "rename"
    old: str
    new: str
    games: list[GameId]
    trash: list[GameId]


JournalOp = Annotated[IndexOp | CreateOp | ImportOp | RenameOp, Field(discriminator="kind")]
_JOURNAL_OP: TypeAdapter[IndexOp | CreateOp | ImportOp | RenameOp] = TypeAdapter(
    JournalOp, config=LAZY
)


def parse_journal(tables: Tables) -> IndexOp | CreateOp | ImportOp | RenameOp:
    """The interrupted change a journal describes (also the older ``ids`` journals)."""
    try:
        if "op" not in tables and "ids" in tables:  # written by the first versions
            return IndexOp.model_validate(_doc(tables, "ids"))
        return _JOURNAL_OP.validate_python(_doc(tables, "op"))
    except ValidationError as exc:
        raise ShapeError(f"not a journal: {first_error(exc)}") from None
