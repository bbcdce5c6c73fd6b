"""Damaged files are moved to ``<data_dir>/quarantine/`` with a note: kept, never deleted.

``quarantine/<UTC stamp>-<path with / as _>`` is the file as it was found;
``<that name>.txt`` the note shown to people (Settings > Problems);
``<that name>.dismissed`` marks a problem someone dismissed (the file stays).
Call with the data folder's writer lock held.
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from companion.storage.atomic import atomic_write_bytes, fsync_dir
from companion.storage.models import Problem, StorageError

__all__ = ["dismiss", "kept_file", "notes", "problems", "set_aside", "write_note"]

FOLDER = "quarantine"
_STAMP = "%Y%m%dT%H%M%S%fZ"
_NAME_RE = re.compile(r"^(\d{8}T\d{12}Z)-(.+)$")
_IDENT_RE = re.compile(r"^[\w.+-]{1,255}$")


def set_aside(data_dir: Path, path: Path, *, durable: bool = True) -> Path:
    """Move ``path`` (inside ``data_dir``) to the quarantine folder; return where it went."""
    folder = data_dir / FOLDER
    folder.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime(_STAMP)
    rel = path.relative_to(data_dir).as_posix().replace("/", "_")
    dest = folder / f"{stamp}-{rel}"
    os.replace(path, dest)
    if durable:
        fsync_dir(path.parent)
        fsync_dir(folder)
    return dest


def write_note(dest: Path, message: str) -> None:
    """The note for a kept file, for this and later sessions (best effort)."""
    with contextlib.suppress(OSError):
        atomic_write_bytes(dest.with_name(dest.name + ".txt"), message.encode(), durable=False)


def notes(data_dir: Path) -> list[str]:
    """Every note ever written, oldest first."""
    found = sorted((data_dir / FOLDER).glob("*.txt"))
    return [n.read_text(encoding="utf-8", errors="replace") for n in found]


def problems(data_dir: Path) -> list[Problem]:
    """The notes not dismissed, newest first, as :class:`Problem` records."""
    out = []
    for note in sorted((data_dir / FOLDER).glob("*.txt"), reverse=True):
        kept = note.with_suffix("")
        if kept.with_name(kept.name + ".dismissed").exists():
            continue
        match = _NAME_RE.match(kept.name)
        when, original = (match.group(1), match.group(2)) if match else ("", kept.name)
        with contextlib.suppress(ValueError):
            when = datetime.strptime(when, _STAMP).replace(tzinfo=UTC).isoformat()
        out.append(
            Problem(
                id=kept.name,
                note=note.read_text(encoding="utf-8", errors="replace"),
                file_name=original,
                when=when,
            )
        )
    return out


def kept_file(data_dir: Path, ident: str) -> Path:
    """The kept file a problem is about (StorageError if there is no such problem)."""
    path = data_dir / FOLDER / ident
    if not _IDENT_RE.match(ident) or not path.with_name(ident + ".txt").is_file():
        raise StorageError(f"{ident!r:.80}: no such problem")
    return path


def dismiss(data_dir: Path, ident: str) -> None:
    path = kept_file(data_dir, ident)
    atomic_write_bytes(path.with_name(path.name + ".dismissed"), b"", durable=False)
