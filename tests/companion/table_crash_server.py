"""The table's server, with its four devices entering, until it is killed (the crash test).

``python -m tests.companion.table_crash_server DATA_DIR GAME_ID``: opens the history and
the table kept in DATA_DIR (no PIN), recognises each device by the token in
``DATA_DIR/../tokens.json`` (as a reconnecting browser is: host + 3 phones), and has
each device enter tally entries in its own thread through the one live game, each with
the revision its screen showed and its key -- the writes a device's taps make.

Each device first sends again the entry it had in flight when the last server was
killed (same revision, same key: the retry a device makes when its tap got no answer),
then new ones.  Lines appended to ``DATA_DIR/../log`` (one ``os.write`` each, so whole):

* ``in <device> <n> <seen>`` -- entry n is about to be sent, made on revision ``seen``;
* ``ok <device> <n> <how>`` -- acknowledged (``how``: ``new``; ``again``, a retry of an
  entry saved before the kill, answered without applying it again; ``retried``, a retry
  of one the kill stopped before it was saved, applied now);
* ``back <device>`` -- the device was recognised by its token (no PIN).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

from companion.access import TABLE_FILE, Table
from companion.hub import Actor, TableHub, entry_key
from companion.session import GameSession, Who
from companion.storage import open_repository
from tests.companion.tally import tally_or_real


def entry(device: int, n: int) -> dict[str, object]:
    """Device ``device``'s entry ``n``: unique, so a doubled one shows."""
    return {"type": "add", "player": "Ann", "points": 1_000_000 * (device + 1) + n}


def main(data_dir: str, game_id: str) -> int:
    folder = Path(data_dir)
    work = folder.parent
    tokens = json.loads((work / "tokens.json").read_text())
    fd = os.open(work / "log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    log = [line.split() for line in (work / "log").read_text().splitlines()]

    def say(*words: object) -> None:
        os.write(fd, (" ".join(str(w) for w in words) + "\n").encode())

    hub = TableHub(open_repository(folder), ruleset_of=tally_or_real)  # the server's one hub
    table = Table.open(folder / TABLE_FILE)
    devices = []
    for number, token in enumerate(tokens):
        device = table.device(token)
        if device is None:
            say("lost", number)  # the device would be back at the PIN screen
            return 1
        say("back", number)
        devices.append(device)

    def enter(number: int) -> None:
        device = devices[number]
        who = Who(device=device.id, words=device.words, at_table=True)
        live = GameSession.open(hub, game_id, who=who).live
        actor = Actor(device.id, device.words)
        mine = [w for w in log if len(w) >= 3 and w[1] == str(number)]
        sent = [w for w in mine if w[0] == "in"]
        done = {w[2] for w in mine if w[0] == "ok"}
        n = int(sent[-1][2]) if sent else 0
        if sent and sent[-1][2] not in done:  # in flight at the kill: the same tap again
            seen = int(sent[-1][3])
            action = entry(number, n)
            key = entry_key(device.id, seen, "add", [action])
            outcome = live.submit([action], actor=actor, seen=seen, key=key)
            assert outcome.refusal is None, outcome.refusal
            say("ok", number, n, "again" if outcome.duplicate else "retried")
        n += 1
        while True:
            seen = live.revision  # what the device's screen shows now
            say("in", number, n, seen)
            action = entry(number, n)
            key = entry_key(device.id, seen, "add", [action])
            outcome = live.submit([action], actor=actor, seen=seen, key=key)
            assert outcome.refusal is None and not outcome.duplicate, outcome
            say("ok", number, n, "new")
            n += 1

    threads = [threading.Thread(target=enter, args=(n,), daemon=True) for n in range(len(devices))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
