"""Kill the store in the middle of any operation and check the exact state afterwards.

Used by ``test_storage_crash.py`` (a kill at every step of a few operations)
and ``benchmarks/crash_storm.py`` (1,000 random kills).  The idea:

* :func:`snapshot` reads everything a person could see -- games, deleted games,
  players, the index, the preferences -- as plain data (timestamps left out),
  after checking that the store opened cleanly: no problem noted, nothing
  quarantined, no temp file left, the index equal to the game files.
* An operation (:data:`OPS`) is run once to completion on a copy of the data
  folder: that is the *after* state; the state before it is the *before* state.
* A child process runs the same operation on the real folder and is killed with
  SIGKILL -- at the n-th file step (:func:`kill_at_step`), or at a random
  moment (:func:`kill_at_random`).  Reopened, the store must equal *before* or
  *after*, exactly: nothing lost, nothing corrupt, nothing half-done.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.preferences import load_preferences, save_default_rules, save_theme
from companion.storage import StoredGame, TinyDbRepository
from companion.storage.base import BACKUP_FORMAT

FORK = multiprocessing.get_context("fork")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
Op = Callable[[TinyDbRepository, dict[str, Any]], Any]


# ---- the operations ---------------------------------------------------------------------
def _import(repo: TinyDbRepository, args: dict[str, Any]) -> Any:
    return repo.import_json({"format": BACKUP_FORMAT, "schema_version": 1, **args["backup"]})


def _prefs(repo: TinyDbRepository, args: dict[str, Any]) -> Any:
    if "dark" in args:
        save_theme(repo.data_dir, args["dark"])
    else:
        save_default_rules(repo.data_dir, args["game"], args["rules"])


OPS: dict[str, Op] = {
    "open": lambda repo, args: None,
    "create": lambda repo, a: repo.create_game(a["game"], a["players"], a.get("rules")),
    "append": lambda repo, a: repo.append_action(a["id"], a["action"]),
    "append_many": lambda repo, a: repo.append_actions(a["id"], a["actions"]),
    "undo": lambda repo, a: repo.pop_action(a["id"]),
    "replace": lambda repo, a: repo.replace_actions(a["id"], a["actions"]),
    "summary": lambda repo, a: repo.set_summary(a["id"], a["summary"], a["status"]),
    "delete": lambda repo, a: repo.delete_game(a["id"]),
    "restore": lambda repo, a: repo.restore_game(a["id"]),
    "rename": lambda repo, a: repo.rename_player(a["old"], a["new"]),
    "merge": lambda repo, a: repo.merge_players(a["source"], a["target"]),
    "import": _import,
    "add_player": lambda repo, a: repo.add_player(a["name"]),
    "preferences": _prefs,
}


def run_op(data_dir: Path, name: str, args: dict[str, Any], *, durable: bool = True) -> Any:
    repo = TinyDbRepository(data_dir, durable=durable)
    try:
        return OPS[name](repo, args)
    finally:
        repo.close()


# ---- what a person could see ---------------------------------------------------------------
def _game(g: StoredGame) -> dict[str, Any]:
    return g.model_dump(mode="json", exclude={"created", "updated"})


def snapshot(data_dir: Path) -> dict[str, Any]:
    """Open the store, check it is clean, and return everything it shows (no timestamps)."""
    repo = TinyDbRepository(data_dir, durable=False)
    try:
        games = {g.id: g for g in repo._iter_games()}
        trash = {g.id: g for g in repo._iter_games(trash=True)}
        listed = repo.list_games(limit=10**6)
        assert not repo.problems, repo.problems
    finally:
        repo.close()
    quarantined = list((data_dir / "quarantine").iterdir())
    assert not quarantined, f"damaged files were found: {quarantined}"
    temps = [p for p in data_dir.rglob("*.tmp")]
    assert not temps, f"temp files left: {temps}"
    assert not (data_dir / "journal.json").exists(), "a journal was left unfinished"
    assert [i.id for i in listed] == [
        g.id for g in sorted(games.values(), key=lambda g: (g.created, g.id), reverse=True)
    ], "the index is not in order or does not list every game"
    for item in listed:
        expect = games[item.id].list_item()
        assert item.model_dump(exclude={"updated"}) == expect.model_dump(exclude={"updated"}), (
            f"index line {item} does not match the game file {expect}"
        )
    players = sorted(p.name for p in TinyDbRepository(data_dir, durable=False).list_players())
    return {
        "games": {gid: _game(g) for gid, g in games.items()},
        "trash": {gid: _game(g) for gid, g in trash.items()},
        "players": players,
        "preferences": load_preferences(data_dir),
    }


def _match_new_ids(actual: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """``expected`` with the ids of games it has and ``actual`` lacks (a create's random id)
    replaced by the id of an otherwise identical game in ``actual``."""
    out = json.loads(json.dumps(expected))
    for folder in ("games", "trash"):
        mine, theirs = actual[folder], out[folder]
        extra = [gid for gid in theirs if gid not in mine]
        spare = [gid for gid in mine if gid not in theirs]
        for gid in extra:
            body = {k: v for k, v in theirs[gid].items() if k != "id"}
            twin = next(
                (s for s in spare if {k: v for k, v in mine[s].items() if k != "id"} == body),
                None,
            )
            if twin is not None:
                spare.remove(twin)
                theirs[twin] = {**theirs.pop(gid), "id": twin}
    return out


def same(actual: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Equal, once a game created with a random id is matched to its twin."""
    return actual == expected or actual == _match_new_ids(actual, expected)


def verdict(actual: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str:
    """'before', 'after', or a description of what is neither (half-done, lost, extra)."""
    if actual == before:
        return "before"
    if actual == _match_new_ids(actual, after):
        return "after"
    diffs = []
    for key in actual:
        if actual[key] != before[key]:
            diffs.append(f"{key}: {_diff(actual[key], before[key])} vs before")
    return "neither before nor after: " + "; ".join(diffs)[:600]


def _diff(a: Any, b: Any) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b), key=str)
        changed = [k for k in keys if a.get(k) != b.get(k)]
        return f"{len(changed)} of {len(keys)} differ (e.g. {changed[:3]})"
    return f"{a!r:.120}"


def expected_after(data_dir: Path, name: str, args: dict[str, Any], work: Path) -> dict[str, Any]:
    """The state once ``name`` has run to completion, computed on a copy of the folder."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(data_dir, work, ignore=shutil.ignore_patterns(".lock"))
    run_op(work, name, args, durable=False)
    return snapshot(work)


# ---- killing ---------------------------------------------------------------------------------
def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _count_steps(kill_at: int | None, counter: list[int]) -> None:
    """Make every step that changes a file count; at step ``kill_at`` die instead of it
    (a write dies half-way through, leaving a torn line)."""
    real_replace, real_unlink, real_write, real_truncate = (
        os.replace,
        os.unlink,
        os.write,
        os.truncate,
    )

    def step() -> bool:
        counter[0] += 1
        return counter[0] == kill_at

    def replace(src: Any, dst: Any, **kw: Any) -> None:
        if step():
            _die()
        real_replace(src, dst, **kw)

    def unlink(path: Any, **kw: Any) -> None:
        if step():
            _die()
        real_unlink(path, **kw)

    def truncate(path: Any, length: int) -> None:
        if step():
            _die()
        real_truncate(path, length)

    def write(fd: int, data: Any) -> int:
        if fd > 2 and step():
            real_write(fd, bytes(data)[: max(1, len(data) // 2)])
            _die()
        return real_write(fd, data)

    os.replace, os.unlink, os.write, os.truncate = replace, unlink, write, truncate  # type: ignore[assignment]


def _child(data_dir: str, name: str, args: dict[str, Any], kill_at: int | None, out: Any) -> None:
    counter = [0]
    _count_steps(kill_at, counter)
    try:
        run_op(Path(data_dir), name, args)
    except BaseException as exc:  # an op refused: report, do not hide
        out.send(("error", repr(exc)))
        raise
    out.send(("done", counter[0]))


def steps_of(data_dir: Path, name: str, args: dict[str, Any], work: Path) -> int:
    """How many file steps ``name`` takes from this state (run on a copy)."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(data_dir, work, ignore=shutil.ignore_patterns(".lock"))
    return _run_child(work, name, args, None)[1]


def _run_child(data_dir: Path, name: str, args: dict[str, Any], kill_at: int | None) -> Any:
    parent, child_end = FORK.Pipe(duplex=False)
    proc = FORK.Process(target=_child, args=(str(data_dir), name, args, kill_at, child_end))
    proc.start()
    child_end.close()
    proc.join(60)
    try:
        result = parent.recv() if parent.poll() else ("killed", proc.exitcode)
    except EOFError:  # died without a word: killed
        result = ("killed", proc.exitcode)
    if result[0] == "error":
        raise AssertionError(f"{name} {args} failed in the child: {result[1]}")
    return result


def kill_at_step(data_dir: Path, name: str, args: dict[str, Any], step: int) -> bool:
    """Run ``name`` in a child killed at file step ``step``; True if it was killed."""
    result = _run_child(data_dir, name, args, step)
    return bool(result[0] == "killed")


def _timed_child(data_dir: str, name: str, args: dict[str, Any], ack: Any) -> None:
    """Open the store, say "start", run the operation, say how long it took.

    For "open" the opening is the operation: "start" comes before it.
    """
    if name == "open":
        ack.send("start")
    t = time.perf_counter()
    repo = TinyDbRepository(Path(data_dir))
    if name != "open":
        ack.send("start")
        t = time.perf_counter()
        OPS[name](repo, args)
    repo.close()
    ack.send(f"done {time.perf_counter() - t}")


def kill_at_random(
    data_dir: Path, name: str, args: dict[str, Any], rng: random.Random, within: float
) -> tuple[bool, float | None]:
    """Run ``name`` in a child, SIGKILL it a random 0..``within`` s after the operation began.

    Returns (finished before the kill?, how long the operation took if it finished).
    """
    parent, child_end = FORK.Pipe(duplex=False)
    proc = FORK.Process(target=_timed_child, args=(str(data_dir), name, args, child_end))
    proc.start()
    child_end.close()
    parent.poll(10)  # "start": the child is running
    time.sleep(rng.uniform(0, within))
    proc.kill()
    proc.join()
    took = None
    try:
        while parent.poll():
            msg = parent.recv()
            if isinstance(msg, str) and msg.startswith("done"):
                took = float(msg.split()[1])
    except EOFError:
        pass
    return took is not None, took
