"""Schema versions of stored files and the upgrades between them.

Every file the store writes is a TinyDB document set whose ``meta`` table holds
``{"schema_version": n, "kind": ...}``, and every document in it carries its
own ``schema_version`` too.  When a file written by an older app is opened,
:func:`upgrade` runs the registered steps ``n -> n+1`` until it is current;
a file from a newer app raises :class:`NewerVersionError` and is left alone.

To change the format: bump :data:`STORAGE_SCHEMA_VERSION` and register a step
``MIGRATIONS[(kind, old_version)] = fn`` that rewrites the raw tables dict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.storage import models
from companion.storage.models import NewerVersionError

__all__ = ["MIGRATIONS", "file_version", "make_meta", "upgrade"]

Tables = dict[str, dict[str, Any]]

#: (file kind, version it upgrades from) -> function returning the next version's tables.
MIGRATIONS: dict[tuple[str, int], Callable[[Tables], Tables]] = {}


class _NoMeta(Exception):
    pass


def make_meta(kind: str) -> dict[str, Any]:
    return {"schema_version": models.STORAGE_SCHEMA_VERSION, "kind": kind}


def file_version(tables: Tables) -> int:
    """The schema version recorded in a file's ``meta`` table (ValueError if absent)."""
    meta = tables.get("meta")
    meta = meta.get("1") if isinstance(meta, dict) else None
    version = meta.get("schema_version") if isinstance(meta, dict) else None
    if type(version) is not int:
        raise ValueError("no schema version: not a Rummy Companion file")
    return version


def upgrade(tables: Tables, kind: str, where: str) -> tuple[Tables, bool]:
    """Bring ``tables`` to the current version; return them and whether anything changed."""
    current = models.STORAGE_SCHEMA_VERSION
    version = file_version(tables)
    if version > current:
        raise NewerVersionError(
            f"{where} was saved by a newer version of Rummy Companion (format {version}, "
            f"this app reads up to {current}). Update the app to open it; "
            "the file was left untouched."
        )
    if version < 1:
        raise ValueError(f"it is marked format {version}, which no Rummy Companion writes")
    changed = False
    while version < current:
        step = MIGRATIONS.get((kind, version))
        if step is None:
            raise ValueError(f"no upgrade from format {version} for {kind} files")
        meta = dict(tables["meta"]["1"])  # keeps e.g. the action log token of a game
        tables = step(tables)
        version += 1
        tables["meta"] = {"1": {**meta, "schema_version": version, "kind": kind}}
        changed = True
    return tables, changed
