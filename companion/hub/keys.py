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


class KeyBook:
    """The idempotency keys of one game's writes, kept beside the history.

    In ``<data folder>/table-keys/<game id>.json``: the keys applied lately, and
    the one being applied now (written before the save, under the writer lock).
    A crash between the save and the answer leaves that key pending; the next
    process to open the game settles it from the game's revision: saved (the
    revision went one past the one expected) or not (it did not move).  So a
    device that retries after a restart is answered "already done" exactly when
    its entry was saved.  The file is rewritten atomically (rename) but not
    fsynced: it outlives a killed process, and the entry's own save is the
    durable step.  Without a data folder (in memory) the keys live in memory.
    """

    def __init__(self, folder: Path | None, game_id: str) -> None:
        self.path = folder / KEYS_FOLDER / f"{game_id}.json" if folder is not None else None
        self.keys: OrderedDict[str, int] = OrderedDict()
        self._pending: tuple[str, int] | None = None

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def load(self, stored_revision: int) -> None:
        """Read the keys kept for the game, settling a key a crash left pending."""
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_bytes())
            kept = [(str(k), int(r)) for k, r in data.get("keys", [])]
            pending = data.get("pending")
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("the retry keys of %s could not be read: %s", self.path, exc)
            return
        self.keys = OrderedDict(kept)
        if isinstance(pending, list) and len(pending) == 2:
            key, expected = str(pending[0]), int(pending[1])
            if stored_revision == expected + 1:  # saved; the answer never left
                self.keys[key] = expected + 1
            # else not saved (the revision did not move), or cannot be told: a retry is
            # judged as a new entry
        self._write()

    def before(self, key: str, expected: int) -> None:
        """``key`` is about to be saved at revision ``expected`` (+1)."""
        self._pending = (key, expected)
        self._write()

    def applied(self, key: str, revision: int) -> None:
        self.keys[key] = revision
        self.keys.move_to_end(key)
        while len(self.keys) > KEYS_KEPT:
            self.keys.popitem(last=False)
        self._pending = None
        self._write()

    def settled(self) -> None:
        """The write with a pending key was not saved (refused, or the save failed)."""
        if self._pending is not None:
            self._pending = None
            self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        data = json.dumps({"keys": list(self.keys.items()), "pending": self._pending})
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            tmp.write_text(data)
            os.replace(tmp, self.path)
        except OSError as exc:  # the keys go on in memory; a retry may count twice
            log.warning("the retry keys of %s could not be kept: %s", self.path, exc)
