"""Idempotency: the key of a write and the keys kept with the game (see :mod:`companion.hub`)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from companion.hub.events import ActionIn
from rulesets.protocol import Action

log = logging.getLogger(__name__)

#: how many idempotency keys a game remembers (a retry comes within seconds)
KEYS_KEPT = 512


def entry_key(device: str, seen: int, kind: str, actions: Sequence[ActionIn] = ()) -> str:
    """The idempotency key of a write: the same device, the same screen, the same entry.

    ``device`` is the device's own id (kept by the table through reconnects and
    restarts), not a browser session's; ``seen`` is the game's revision the
    device showed -- the stored revision, the same number in every process and
    after a restart.  A device that sends the same tap again (its screen never
    showed the first one's result) sends the same key, whatever happened to the
    network or the server in between; a new entry made after the screen showed the
    result has a new ``seen`` and so a new key.
    """
    body = json.dumps(
        [
            device,
            seen,
            kind,
            [a.to_json() if isinstance(a, Action) else a for a in actions],
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(body.encode()).hexdigest()


KEYS_FOLDER = "table-keys"
#: keys kept on disk after a compaction (a retry after a restart comes within minutes)
KEYS_ON_DISK = 64


class KeyBook:
    """The idempotency keys of one game's writes, kept beside the history.

    In ``<data folder>/table-keys/<game id>.keys``, one line per step, appended:
    ``p <key> <revision>`` before a save (the key of the write about to be saved at
    that revision), ``a <key> <revision>`` once it is saved, ``x <key>`` when it was
    not.  A crash between the save and the answer leaves a key pending; the next
    process to open the game settles it from the game's revision: saved (the
    revision went one past the one expected) or not (it did not move).  So a device
    that retries after a restart is answered "already done" exactly when its entry
    was saved.  Lines are appended, not fsynced (a killed process's writes are in
    the page cache; the entry's own save is the durable step), and the file is
    compacted to the last :data:`KEYS_ON_DISK` keys now and then.  Without a data
    folder (in memory) the keys live in memory.
    """

    def __init__(self, folder: Path | None, game_id: str) -> None:
        self.path = folder / KEYS_FOLDER / f"{game_id}.keys" if folder is not None else None
        self.keys: OrderedDict[str, int] = OrderedDict()
        self._pending: tuple[str, int] | None = None
        self._lines = 0

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def load(self, stored_revision: int) -> None:
        """Read the keys kept for the game, settling a key a crash left pending."""
        if self.path is None:
            return
        try:
            text = self.path.read_text(encoding="ascii", errors="replace")
        except FileNotFoundError:
            return
        except OSError as exc:
            log.warning("the retry keys of %s could not be read: %s", self.path, exc)
            return
        pending: tuple[str, int] | None = None
        for line in text.splitlines(keepends=True):
            words = line.split()
            if not line.endswith("\n") or not words:
                continue  # a line cut off by a kill
            try:
                if words[0] == "p":
                    pending = (words[1], int(words[2]))
                elif words[0] == "a":
                    self._remember(words[1], int(words[2]))
                    pending = None
                elif words[0] == "x":
                    pending = None
            except (IndexError, ValueError):
                continue
        if pending is not None and stored_revision == pending[1] + 1:
            self._remember(pending[0], pending[1] + 1)  # saved; the answer never left
        # else not saved (the revision did not move), or cannot be told: a retry is
        # judged as a new entry
        self._compact()

    def before(self, key: str, expected: int) -> None:
        """``key`` is about to be saved at revision ``expected`` (+1)."""
        self._pending = (key, expected)
        self._append(f"p {key} {expected}\n")

    def applied(self, key: str, revision: int) -> None:
        self._remember(key, revision)
        self._pending = None
        self._append(f"a {key} {revision}\n")
        if self._lines > 4 * KEYS_ON_DISK:
            self._compact()

    def settled(self) -> None:
        """The write with a pending key was not saved (refused, or the save failed)."""
        if self._pending is not None:
            key, self._pending = self._pending[0], None
            self._append(f"x {key}\n")

    def _remember(self, key: str, revision: int) -> None:
        self.keys[key] = revision
        self.keys.move_to_end(key)
        while len(self.keys) > KEYS_KEPT:
            self.keys.popitem(last=False)

    def _append(self, line: str) -> None:
        if self.path is None:
            return
        try:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            except FileNotFoundError:
                self.path.parent.mkdir(exist_ok=True)
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line.encode("ascii"))
            finally:
                os.close(fd)
            self._lines += 1
        except OSError as exc:  # the keys go on in memory; a retry may count twice
            log.warning("the retry keys of %s could not be kept: %s", self.path, exc)

    def _compact(self) -> None:
        """Rewrite the file with the last keys only (by rename: old or new after a kill)."""
        if self.path is None:
            return
        kept = list(self.keys.items())[-KEYS_ON_DISK:]
        text = "".join(f"a {key} {revision}\n" for key, revision in kept)
        if self._pending is not None:
            text += f"p {self._pending[0]} {self._pending[1]}\n"
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            tmp.write_text(text, encoding="ascii")
            os.replace(tmp, self.path)
            self._lines = len(kept)
        except OSError as exc:
            log.warning("the retry keys of %s could not be kept: %s", self.path, exc)
