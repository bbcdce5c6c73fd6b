"""Storage benchmark: our TinyDB layout against stdlib sqlite3 doing the same work.

Run: ``.venv/bin/python benchmarks/storage.py [--sizes 100,1000,10000] [--repeat 40]``

For each history size N (games already stored, ~2 KB each, three games a day
spread over the years) it times, as medians in milliseconds:

* save one entry   -- ``append_action`` (durable on return: one appended log line,
                      one fsync) vs an INSERT + UPDATE commit
* finish a game    -- ``set_summary(..., "finished")`` vs an UPDATE commit
* open + last 20   -- open the store and list the 20 newest games vs connect + SELECT
* player, last 20  -- the 20 newest games of one player
* player, all      -- every game of one player

sqlite3 runs with ``synchronous=FULL`` in its default rollback-journal mode
(``sqlite``) and in WAL mode (``wal``); ratios are ours / sqlite WAL and ours /
sqlite rollback.  Then "save one entry" is timed in games 10, 200 and 2,000
entries long (flat: the save appends, it does not rewrite the game).
Targets (issues #6, #13): save-an-entry within 2x of sqlite WAL at 10,000 games
(and of sqlite rollback at every size), flat in the game's length (longest /
shortest <= 1.5), and open + last 20 at most 50 ms at 10,000 games.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.storage import StoredGame, TinyDbRepository  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]
START = datetime(2017, 1, 1, 19, tzinfo=UTC)


def make_games(n: int, seed: int = 1) -> list[StoredGame]:
    """``n`` finished games of about 2 KB each, one every 8 hours ending now-ish."""
    rng = random.Random(seed)
    games = []
    for i in range(n):
        players = rng.sample(NAMES, rng.randint(2, 4))
        created = (START + timedelta(hours=8 * i)).isoformat(timespec="microseconds")
        actions = [
            {"type": "meld", "player": rng.choice(players), "cards": ["QH", "KH", "AH"]}
            for _ in range(rng.randint(14, 22))
        ]
        hands = [
            {"number": h, "scores": {p: rng.randint(-20, 60) for p in players}}
            for h in range(1, rng.randint(3, 5))
        ]
        totals = {p: sum(h["scores"][p] for h in hands) for p in players}
        summary = {
            "game": "umtali",
            "players": players,
            "finished": True,
            "winners": [max(totals, key=lambda p: totals[p])],
            "totals": totals,
            "hands": hands,
        }
        games.append(
            StoredGame(
                game=rng.choice(["umtali", "rummy", "rummoli"]),
                players=players,
                created=created,
                updated=created,
                status="finished",
                actions=actions,
                summary=summary,
            )
        )
    return games


def fill_ours(folder: Path, games: list[StoredGame]) -> None:
    TinyDbRepository(folder, durable=False)._bulk_insert(games, [], [])
    os.sync()
    time.sleep(1)  # let the disk finish writing back before anything is timed


SCHEMA = """
create table games (id text primary key, game text, players text, created text, updated text,
                    status text, rules text, summary text);
create index games_created on games(created);
create table actions (game_id text, seq integer, action text, primary key (game_id, seq));
create table game_players (game_id text, player text);
create index game_players_player on game_players(player);
"""


def sqlite_connect(path: Path, wal: bool) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("pragma synchronous=FULL")
    if wal:
        con.execute("pragma journal_mode=WAL")
    return con


def fill_sqlite(path: Path, games: list[StoredGame], wal: bool) -> None:
    con = sqlite_connect(path, wal)
    con.executescript(SCHEMA)
    con.execute("begin")
    con.executemany(
        "insert into games values (?,?,?,?,?,?,?,?)",
        [
            (
                g.id,
                g.game,
                json.dumps(g.players),
                g.created,
                g.updated,
                g.status,
                json.dumps(g.rules),
                json.dumps(g.summary),
            )
            for g in games
        ],
    )
    con.executemany(
        "insert into actions values (?,?,?)",
        [(g.id, n, json.dumps(a)) for g in games for n, a in enumerate(g.actions)],
    )
    con.executemany(
        "insert into game_players values (?,?)", [(g.id, p) for g in games for p in g.players]
    )
    con.execute("commit")
    con.close()


def interleaved_medians(contenders: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Median ms of each contender, run in turn so all see the same machine load."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():  # warm up: caches, and the disk settles after filling
        for _ in range(3):
            fn()
    for _ in range(repeat):
        for name, fn in contenders.items():
            t = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - t) * 1000)
    return {name: statistics.median(ts) for name, ts in times.items()}


def ours_ops(folder: Path, gid: str) -> dict[str, Callable[[], Any]]:
    repo = TinyDbRepository(folder)
    entry = {"type": "meld", "player": "Ann", "cards": ["10H", "JH", "QH"]}
    summary = {"winners": ["Ann"], "totals": {"Ann": 12}, "hands": [{"number": 1}]}

    def open_list() -> None:
        r = TinyDbRepository(folder)
        assert len(r.list_games(limit=20)) == 20

    return {
        "save one entry": lambda: repo.append_action(gid, entry),
        "finish a game": lambda: repo.set_summary(gid, summary, "finished"),
        "open + last 20": open_list,
        "player, last 20": lambda: repo.list_games(limit=20, player="Ann"),
        "player, all": lambda: repo.list_games(limit=10**9, player="Ann"),
    }


def sqlite_ops(path: Path, gid: str, wal: bool) -> dict[str, Callable[[], Any]]:
    con = sqlite_connect(path, wal)
    seq = [1000]
    entry = json.dumps({"type": "meld", "player": "Ann", "cards": ["10H", "JH", "QH"]})
    summary = json.dumps({"winners": ["Ann"], "totals": {"Ann": 12}, "hands": [{"number": 1}]})

    def save() -> None:
        seq[0] += 1
        con.execute("begin")
        con.execute("insert into actions values (?,?,?)", (gid, seq[0], entry))
        con.execute("update games set updated=? where id=?", (datetime.now(UTC).isoformat(), gid))
        con.execute("commit")

    def finish() -> None:
        con.execute(
            "update games set summary=?, status='finished', updated=? where id=?",
            (summary, datetime.now(UTC).isoformat(), gid),
        )

    def open_list() -> None:
        c = sqlite_connect(path, wal)
        rows = c.execute(
            "select id, game, players, created, updated, status, summary from games "
            "order by created desc limit 20"
        ).fetchall()
        assert len(rows) == 20
        c.close()

    def by_player(limit: int) -> list[Any]:
        return con.execute(
            "select g.id, g.game, g.players, g.created, g.status, g.summary from games g "
            "join game_players p on p.game_id = g.id where p.player = ? "
            "order by g.created desc limit ?",
            ("Ann", limit),
        ).fetchall()

    return {
        "save one entry": save,
        "finish a game": finish,
        "open + last 20": open_list,
        "player, last 20": lambda: by_player(20),
        "player, all": lambda: by_player(10**9),
    }


def by_game_length(folder: Path, games: list[StoredGame], repeat: int) -> list[str]:
    """Save one entry in games of 10, 200 and 2,000 entries: the cost must not grow."""
    repo = TinyDbRepository(folder)
    entry = {"type": "meld", "player": "Ann", "cards": ["10H", "JH", "QH"]}
    contenders = {}
    for length, game in zip((10, 200, 2000), games[:3], strict=True):
        filler = [dict(entry, n=i) for i in range(length)]
        repo.replace_actions(game.id, filler)  # the game file now holds `length` entries
        contenders[f"{length} entries"] = functools.partial(repo.append_action, game.id, entry)
    m = interleaved_medians(contenders, repeat)
    print("\nsave one entry by the game's length (ms):")
    for name, ms in m.items():
        print(f"  in a game of {name:<12} {ms:>8.3f}")
    ratio = max(m.values()) / min(m.values())
    print(f"  longest / shortest: {ratio:.2f}x")
    return [f"save one entry grows with the game: {ratio:.2f}x"] if ratio > 1.5 else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None, help="work folder (default: a temp dir)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"storage benchmark: medians in ms, repeat={args.repeat}, cpus={os.cpu_count()}")
    header = (
        f"{'N':>6}  {'operation':<16} {'ours':>9} {'sqlite':>9} {'wal':>9} "
        f"{'/wal':>7} {'/sqlite':>7}"
    )
    failures = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in sizes:
            root = Path(tmp) / f"{n}-{len(list(Path(tmp).iterdir()))}"
            t = time.perf_counter()
            games = make_games(n)
            fill_ours(root / "ours", games)
            fill_sqlite(root / "rollback.db", games, wal=False)
            fill_sqlite(root / "wal.db", games, wal=True)
            size = sum(p.stat().st_size for p in (root / "ours" / "games").iterdir()) / n
            print(
                f"\nN={n}: generated in {time.perf_counter() - t:.1f} s, "
                f"{size / 1024:.1f} KB per game file"
            )
            print(header)
            gid = games[n // 2].id
            mine = ours_ops(root / "ours", gid)
            rollback_ops = sqlite_ops(root / "rollback.db", gid, wal=False)
            wal_ops = sqlite_ops(root / "wal.db", gid, wal=True)
            ours, rollback, wal = {}, {}, {}
            for op in mine:
                reps = args.repeat if op != "player, all" else max(5, args.repeat // 4)
                m = interleaved_medians(
                    {"ours": mine[op], "sqlite": rollback_ops[op], "wal": wal_ops[op]}, reps
                )
                ours[op], rollback[op], wal[op] = m["ours"], m["sqlite"], m["wal"]
                print(
                    f"{n:>6}  {op:<16} {m['ours']:>9.3f} {m['sqlite']:>9.3f} {m['wal']:>9.3f} "
                    f"{m['ours'] / m['wal']:>6.2f}x {m['ours'] / m['sqlite']:>6.2f}x"
                )
            if ours["save one entry"] > 2 * rollback["save one entry"]:
                failures.append(
                    f"N={n}: save one entry is {ours['save one entry']:.2f} ms, "
                    f"more than 2x sqlite ({rollback['save one entry']:.2f} ms)"
                )
            if n >= 10000 and ours["save one entry"] > 2 * wal["save one entry"]:
                failures.append(
                    f"N={n}: save one entry is {ours['save one entry']:.2f} ms, "
                    f"more than 2x sqlite WAL ({wal['save one entry']:.2f} ms)"
                )
            if n == sizes[-1]:
                failures += by_game_length(root / "ours", games, args.repeat)
            if n >= 10000 and ours["open + last 20"] > 50:
                failures.append(f"N={n}: open + last 20 takes {ours['open + last 20']:.1f} ms")
    print()
    for f in failures:
        print("TARGET MISSED:", f)
    if not failures:
        print(
            "targets met: save-an-entry within 2x of sqlite3 (and of its WAL at 10,000 games), "
            "flat in the game's length; open + last 20 <= 50 ms"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
