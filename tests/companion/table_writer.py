"""A second process writing to one game (run by test_session's two-process test).

``python -m tests.companion.table_writer DATA_DIR GAME_ID NAME N`` makes N tally entries
through its own hub (its own repository on the same data folder), every third one a
two-action entry, and prints each acknowledged entry as a JSON line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.hub import TableHub
from companion.session import GameSession, Who
from companion.storage import open_repository
from tests.companion.tally import tally_or_real


def main(data_dir: str, game_id: str, name: str, count: int) -> int:
    repo = open_repository(Path(data_dir))
    try:
        hub = TableHub(repo, ruleset_of=tally_or_real)  # this process's own hub
        session = GameSession.open(hub, game_id, who=Who(device=name, words=name))
        base = 1000 * (1 + "AB".index(name[-1]))
        for n in range(count):
            entry = [{"type": "add", "player": "Ann", "points": base + 2 * n}]
            if n % 3 == 0:
                entry.append({"type": "add", "player": "Bob", "points": base + 2 * n + 1})
            refusal = session.add_many(entry) if len(entry) > 1 else session.add(entry[0])
            if refusal is None:
                print(json.dumps(entry), flush=True)
            else:
                print(json.dumps({"refused": refusal.message}), flush=True)
    finally:
        repo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
