"""Crash storm: SIGKILL the history during every kind of operation, check the exact state.

Run: ``.venv/bin/python benchmarks/crash_storm.py [--trials 1000] [--seed 2026]``

Each trial picks an operation that fits the history as it is -- save an entry
(of one action or several), undo, edit a hand (replace), finish a game
(summary), start, delete, restore, rename or merge players, import a backup,
add a player, save preferences, or just open the store -- runs it in a forked
child and kills it with SIGKILL a
random moment after the operation began (the window follows how long that
operation takes, so most kills land mid-way; "open" is killed while opening).
When the kill left an unfinished change (a journal), a second child opens the
store -- which finishes the change -- and is killed too, mid-recovery.  Then
the store is reopened and compared with the state before the operation and
the state after it (the operation run to completion on a copy): it must equal
one of them exactly (``tests/companion/crash_model.py``) and open cleanly -- no
problem, nothing quarantined, no temp file, the index equal to the game files.

Counted: corrupt (the store did not open cleanly), lost (the child finished but
the state is not "after"), half-done (neither before nor after).  Target: 0 of
each in 1,000 kills.  ``--writers 2`` runs the older storm instead: two writers
saving entries at once, both killed, every acknowledged entry checked.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.storage import StoredGame  # noqa: E402
from tests.companion import crash_model, crash_writer  # noqa: E402

POOL = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
WEIGHTS = {
    "append": 18,
    "append_many": 4,
    "undo": 8,
    "replace": 6,
    "summary": 10,
    "create": 6,
    "delete": 6,
    "restore": 5,
    "rename": 8,
    "merge": 6,
    "import": 8,
    "add_player": 3,
    "preferences": 8,
    "open": 6,
}
MAX_GAMES = 30


def seed_history(folder: Path) -> None:
    from companion.storage import TinyDbRepository

    repo = TinyDbRepository(folder, durable=False)
    rng = random.Random(1)
    for n in range(12):
        g = repo.create_game(rng.choice(["umtali", "rummy", "rummoli"]), rng.sample(POOL[:6], 2))
        for i in range(rng.randint(0, 6)):
            repo.append_action(g.id, {"type": "entry", "n": i, "player": g.players[i % 2]})
        if n % 3 == 0:
            repo.set_summary(g.id, {"winners": [g.players[0]], "hands": [{}]}, "finished")
        if n % 5 == 4:
            repo.delete_game(g.id)
    repo.close()


def _fresh_name(state: dict[str, Any], trial: int) -> str:
    return f"P{trial}"


def _merge_args(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    games = list(state["games"].values()) + list(state["trash"].values())
    names = list(state["players"])
    rng.shuffle(names)
    for src in names:
        for dst in names:
            if src != dst and not any(src in g["players"] and dst in g["players"] for g in games):
                return {"source": src, "target": dst}
    return None


def _import_args(state: dict[str, Any], rng: random.Random, trial: int) -> dict[str, Any]:
    games = []
    for i in range(rng.randint(1, 3)):
        players = rng.sample(POOL, 2) if rng.random() < 0.7 else [POOL[0], f"New{trial}"]
        games.append(
            StoredGame(
                id=f"imp-{trial}-{i}",
                game=rng.choice(["umtali", "rummy", "rummoli"]),
                players=players,
                actions=[{"type": "entry", "n": k} for k in range(rng.randint(0, 4))],
            ).model_dump(mode="json")
        )
    trash = [StoredGame(id=f"imp-{trial}-t", game="rummy", players=["Kim"]).model_dump(mode="json")]
    return {"backup": {"games": games, "trash": trash if rng.random() < 0.3 else [],
                       "players": [{"name": f"Guest{trial}"}]}}  # fmt: skip


def _game_op(
    name: str, gid: str, game: dict[str, Any], rng: random.Random, trial: int
) -> dict[str, Any] | None:
    """Arguments of an operation on one game (None: it does not fit this game)."""
    n = len(game["actions"])
    if name == "append":
        return {"id": gid, "action": {"type": "entry", "n": n, "by": game["players"][0]}}
    if name == "append_many":
        return {"id": gid, "actions": [{"type": "entry", "n": n + k} for k in range(2, 5)]}
    if name == "undo":
        return {"id": gid} if n else None
    if name == "replace":
        return {"id": gid, "actions": [*game["actions"][: n // 2], {"type": "edit", "t": trial}]}
    if name == "summary":
        who = rng.choice(game["players"])
        summary = {"winners": [who], "totals": {who: trial}, "hands": [{}] * (trial % 4)}
        return {"id": gid, "summary": summary, "status": rng.choice(["finished", "in_progress"])}
    return {"id": gid}  # delete


def _other_op(
    name: str, state: dict[str, Any], rng: random.Random, trial: int
) -> dict[str, Any] | None:
    """Arguments of an operation on the history as a whole (None: it does not fit now)."""
    if name == "restore":
        return {"id": rng.choice(sorted(state["trash"]))} if state["trash"] else None
    if name == "create":
        players = rng.sample(POOL, rng.randint(2, 3))
        return {"game": rng.choice(["umtali", "rummy", "rummoli"]), "players": players}
    if name == "rename":
        if not state["players"]:
            return None
        return {"old": rng.choice(state["players"]), "new": _fresh_name(state, trial)}
    if name == "merge":
        return _merge_args(state, rng)
    if name == "import":
        return _import_args(state, rng, trial)
    if name == "add_player":
        return {"name": f"Solo{trial}"}
    if name == "preferences":
        if rng.random() < 0.5:
            return {"dark": rng.choice([True, False, None])}
        return {"game": "rummy", "rules": {"jokers": rng.random() < 0.5}}
    return {}  # open


GAME_OPS = ("append", "append_many", "undo", "replace", "summary", "delete")


def pick(state: dict[str, Any], rng: random.Random, trial: int) -> tuple[str, dict[str, Any]]:
    """An operation that fits the history as it is now, with its arguments."""
    games = state["games"]
    while True:
        name = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        if name in ("create", "import") and len(games) >= MAX_GAMES:
            continue
        if name == "delete" and len(games) <= 4:
            continue
        if name in GAME_OPS:
            if not games:
                continue
            gid = rng.choice(sorted(games))
            args = _game_op(name, gid, games[gid], rng, trial)
        else:
            args = _other_op(name, state, rng, trial)
        if args is not None:
            return name, args


def storm(trials: int, seed: int, recovery_share: float) -> int:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    by_op: Counter[str] = Counter()
    window: dict[str, float] = dict.fromkeys([*WEIGHTS, "recovery"], 0.02)
    bad = {"corrupt": 0, "lost": 0, "half-done": 0}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        data, work = Path(tmp) / "data", Path(tmp) / "work"
        seed_history(data)
        state = crash_model.snapshot(data)
        for trial in range(1, trials + 1):
            name, args = pick(state, rng, trial)
            after = crash_model.expected_after(data, name, args, work)
            finished, took = crash_model.kill_at_random(
                data, name, args, rng, within=1.3 * window[name]
            )
            if took is not None:
                window[name] = 0.8 * window[name] + 0.2 * took
            by_op[f"{name}, {'finished' if finished else 'killed before it finished'}"] += 1
            if (data / "journal.json").exists() and rng.random() < recovery_share:
                done, took = crash_model.kill_at_random(
                    data, "open", {}, rng, within=1.3 * window["recovery"]
                )
                if took is not None:
                    window["recovery"] = 0.8 * window["recovery"] + 0.2 * took
                counts["kills while finishing an interrupted change"] += 1
                counts[f"recovery {'finished' if done else 'killed before it finished'}"] += 1
            try:
                actual = crash_model.snapshot(data)
            except AssertionError as exc:
                bad["corrupt"] += 1
                print(f"trial {trial} ({name} {args}): CORRUPT: {exc}")
                return 1
            found = crash_model.verdict(actual, state, after)
            if finished and not crash_model.same(actual, after):
                bad["lost"] += 1
                print(f"trial {trial} ({name}): finished but the store shows {found}")
                return 1
            if found not in ("before", "after"):
                bad["half-done"] += 1
                print(f"trial {trial} ({name} {args}): HALF-DONE: {found}")
                return 1
            counts[found] += 1
            state = actual
            if trial % 100 == 0:
                print(
                    f"{trial:>5} kills: {counts['before']} before, {counts['after']} after, "
                    f"{counts['kills while finishing an interrupted change']} mid-recovery; "
                    f"{len(state['games'])} games ({time.monotonic() - started:.0f} s)",
                    flush=True,
                )
    mid = sum(v for k, v in by_op.items() if k.endswith("before it finished"))
    print(f"\n{trials} operations killed ({mid} mid-way, {trials - mid} just after finishing)")
    print(
        f"plus {counts['kills while finishing an interrupted change']} kills of the open that "
        f"finishes an interrupted change ({counts['recovery killed before it finished']} "
        "before it finished)"
    )
    for key in sorted(by_op):
        print(f"  {key:<36} {by_op[key]:>5}")
    print(
        f"result: {bad['corrupt']} corrupt, {bad['lost']} lost, {bad['half-done']} half-done "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 0


def entries_storm(trials: int, seed: int, writers: int, check_every: int) -> int:
    """The older storm: writers saving entries at once, every acknowledged entry checked."""
    rng = random.Random(seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        data, acks = Path(tmp) / "data", Path(tmp) / "acks.txt"
        for trial in range(1, trials + 1):
            seeds = [trial * 10 + w for w in range(writers)]
            codes = crash_writer.kill_while_saving(str(data), str(acks), seeds, rng)
            if codes != [-9] * writers:
                print(f"trial {trial}: writers exited with {codes} before the kill")
                return 1
            if trial % check_every == 0 or trial == trials:
                try:
                    counts = crash_writer.check_store(str(data), str(acks))
                except AssertionError as exc:
                    print(f"after {trial} kills: LOSS OR DAMAGE: {exc}")
                    return 1
                print(
                    f"after {trial:>4} kills: {counts['games']} games, {counts['entries']} "
                    f"entries on disk, {counts['acked']} acknowledged -- all present"
                )
    print(
        f"{trials} SIGKILLs with {writers} writer(s): no loss, no damaged file "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--recovery-share", type=float, default=1.0)
    parser.add_argument("--writers", type=int, default=0, help="run the older entries storm")
    parser.add_argument("--check-every", type=int, default=50)
    args = parser.parse_args(argv)
    if args.writers:
        return entries_storm(args.trials, args.seed, args.writers, args.check_every)
    return storm(args.trials, args.seed, args.recovery_share)


if __name__ == "__main__":
    raise SystemExit(main())
