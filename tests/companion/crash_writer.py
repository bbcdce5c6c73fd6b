"""A writer that saves table entries in a loop until it is killed, acknowledging each.

Used by the crash test and ``benchmarks/crash_storm.py``: the parent kills it
with SIGKILL at a random moment, then checks that every acknowledged entry is
on disk and that every file still opens.

Acknowledgements are appended to ``ack_path`` (one ``os.write`` per line, after
the save returned, so each line is whole):

* ``c <game_id>`` -- a game was created;
* ``a <game_id> <seed> <n>`` -- entry ``{"type": "entry", "w": seed, "n": n}`` was saved;
* ``s <game_id> <hands>`` -- a summary with that many hands was saved.

Run as a script: ``python crash_writer.py DATA_DIR ACK_PATH [SEED]``.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

# imported here, not in the functions, so forked children start saving at once
from companion.storage import TinyDbRepository


def write_forever(data_dir: str, ack_path: str, seed: int, limit: int | None = None) -> None:
    rng = random.Random(seed)
    repo = TinyDbRepository(Path(data_dir))
    fd = os.open(ack_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def ack(line: str) -> None:
        os.write(fd, (line + "\n").encode())

    games: dict[str, int] = {}
    for item in repo.list_games(limit=5):
        games[item.id] = len(repo.get_game(item.id).actions)
    done = 0
    while limit is None or done < limit:
        done += 1
        roll = rng.random()
        if not games or roll < 0.04:
            g = repo.create_game(rng.choice(["umtali", "rummy", "rummoli"]), ["Ann", "Bob", "Cy"])
            games[g.id] = 0
            ack(f"c {g.id}")
            continue
        gid = rng.choice(list(games))
        if roll < 0.12:
            hands = games[gid]
            summary = {"winners": [], "totals": {"Ann": hands}, "hands": [{}] * hands}
            repo.set_summary(gid, summary, "finished" if roll < 0.06 else "in_progress")
            ack(f"s {gid} {hands}")
            continue
        n = games[gid]
        entry = {"type": "entry", "w": seed, "n": n, "pad": "x" * rng.randrange(200)}
        repo.append_action(gid, entry)
        games[gid] = n + 1
        ack(f"a {gid} {seed} {n}")


def kill_while_saving(
    data_dir: str, ack_path: str, seeds: list[int], rng: random.Random, max_wait: float = 0.03
) -> list[int | None]:
    """Fork one writer per seed, wait until they are saving, SIGKILL them at a random moment.

    Returns the children's exit codes (-9 when killed as intended).
    """
    import multiprocessing
    import time

    fork = multiprocessing.get_context("fork")
    size = os.path.getsize(ack_path) if os.path.exists(ack_path) else 0
    children = [
        fork.Process(target=write_forever, args=(data_dir, ack_path, seed)) for seed in seeds
    ]
    for child in children:
        child.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # wait for the first acknowledgement
        if os.path.exists(ack_path) and os.path.getsize(ack_path) > size:
            break
        time.sleep(0.001)
    time.sleep(rng.uniform(0, max_wait))
    for child in children:
        child.kill()
    for child in children:
        child.join()
    return [child.exitcode for child in children]


def check_store(data_dir: str, ack_path: str) -> dict[str, int]:
    """Reopen the store and verify it against the acknowledgements; return counts.

    Raises AssertionError with a description of the first loss or damage found.
    """
    acked: dict[str, set[tuple[int, int]]] = {}
    with open(ack_path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if (
                not parts
                or not line.endswith("\n")
                or len(parts) != {"c": 2, "s": 3, "a": 4}.get(parts[0])
            ):
                # a writer killed inside its acknowledgement: that entry was not acknowledged
                continue
            if parts[0] == "c":
                acked.setdefault(parts[1], set())
            elif parts[0] == "a":
                acked.setdefault(parts[1], set()).add((int(parts[2]), int(parts[3])))
    repo = TinyDbRepository(Path(data_dir))
    files = {p.stem for p in (Path(data_dir) / "games").glob("*.json")}
    listed = {i.id: i for i in repo.list_games(limit=10**6)}
    assert not repo.problems, repo.problems
    assert set(listed) == files, f"index {sorted(listed)} != game files {sorted(files)}"
    temps = [p for p in Path(data_dir).rglob("*.tmp")]
    assert not temps, temps
    quarantined = list((Path(data_dir) / "quarantine").iterdir())
    assert not quarantined, f"damaged files were found: {quarantined}"
    entries = 0
    for gid in files:
        game = repo.get_game(gid)
        saved = [(a["w"], a["n"]) for a in game.actions]
        assert len(set(saved)) == len(saved), f"{gid}: an entry was saved twice: {saved}"
        for writer in {w for w, _ in saved}:
            ns = [n for w, n in saved if w == writer]
            # each writer's entries are consecutive: nothing lost in between
            assert ns == list(range(ns[0], ns[0] + len(ns))), f"{gid}: {writer} lost: {ns}"
        # more than acknowledged is fine: a save can complete just before the kill
        lost = acked.get(gid, set()) - set(saved)
        assert not lost, f"{gid}: acknowledged entries missing: {sorted(lost)}"
        item = listed[gid]
        expect = game.list_item()
        assert item.model_dump(exclude={"updated"}) == expect.model_dump(exclude={"updated"}), (
            f"{gid}: index line {item} does not match the game file {expect}"
        )
        entries += len(saved)
    missing = set(acked) - files
    assert not missing, f"acknowledged games missing: {missing}"
    return {"games": len(files), "entries": entries, "acked": sum(map(len, acked.values()))}


if __name__ == "__main__":
    write_forever(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
