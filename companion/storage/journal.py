"""The journal: a change that spans several files, finished after a crash.

Creating, finishing, deleting or restoring a game, an import, a rename or a
merge first writes ``journal.json`` naming the change (:data:`Op`), then does
it, then removes the journal.  Every step may be done twice, so the next
writer that finds a journal simply does the change again (:meth:`Journal.recover`).
A journal that cannot be finished is set aside in ``quarantine/`` with a note,
and the index is rebuilt from the game files.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

from companion.storage import quarantine
from companion.storage.atomic import fsync_dir
from companion.storage.files import (
    JOURNAL_BYTES,
    CreateOp,
    ImportOp,
    IndexOp,
    RenameOp,
    parse_journal,
    read_tables,
)
from companion.storage.folder import DataFolder, reason
from companion.storage.migrations import make_meta

__all__ = ["Journal", "Op"]

#: a journaled change
Op = IndexOp | CreateOp | ImportOp | RenameOp

_WORDS: dict[type, str] = {
    IndexOp: "saving a game",
    CreateOp: "starting a game",
    ImportOp: "importing a backup",
    RenameOp: "renaming a player",
}


class Journal:
    """``journal.json`` of one data folder."""

    def __init__(self, folder: DataFolder) -> None:
        self._folder = folder
        self._path = folder.journal_path
        self._text = str(self._path)

    def pending(self) -> bool:
        """Is a change left unfinished?  (Asked by every writer hold: one stat.)"""
        return os.path.exists(self._text)

    def begin(self, op: Op) -> None:
        """Say what is about to change (writer lock held; :meth:`clear` when done)."""
        self._folder.write(
            self._path,
            {"meta": {"1": make_meta("journal")}, "op": {"1": op.model_dump(mode="json")}},
        )

    def run(self, op: Op, apply: Callable[[Op], None]) -> None:
        """Write the journal, do the change, remove the journal (writer lock held)."""
        self.begin(op)
        apply(op)
        self.clear()

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._path)
            if self._folder.durable:
                fsync_dir(self._folder.dir)

    def recover(self, apply: Callable[[Op], None], rebuild_index: Callable[[], None]) -> None:
        """Finish the change the journal describes; if it cannot be, set the journal aside."""
        op: Op | None = None
        try:
            found = read_tables(self._path, JOURNAL_BYTES)
            if found is None:
                return
            op = parse_journal(found[0])
            apply(op)
        except Exception as exc:  # whatever stops it, the store must still open
            what = _WORDS.get(type(op), "a change")
            dest = quarantine.set_aside(self._folder.dir, self._path, durable=self._folder.durable)
            self._folder.set_aside_note(
                dest,
                f"An interrupted change ({what}) could not be finished ({reason(exc)}). Its "
                f"record was kept as {dest}; the history index was checked and the rest opens "
                "normally.",
            )
            rebuild_index()
            return
        self.clear()
