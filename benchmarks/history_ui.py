"""History with 10,000 stored games: tap "History" on the home screen → first rows visible.

Run: .venv/bin/python benchmarks/history_ui.py [--games 10000] [--taps 15]

Fills a temporary data folder through the repository (one bulk import of
realistic finished games spread over four years, i.e. ~48 monthly index
files), starts `companion --web` on it, opens the home screen in headless
Chromium (phone size) and measures, for each tap, the time from the click to
the first history row appearing in Flutter's semantics tree (painted rows are
in the tree only once laid out).  Goes back home between taps.  Prints the
median (the target is <= 300 ms) and the spread.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from companion.demo import demo_games  # noqa: E402
from companion.storage import STORAGE_SCHEMA_VERSION, TinyDbRepository  # noqa: E402
from companion.storage.base import BACKUP_FORMAT  # noqa: E402
from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    AppServer,
    new_page,
    open_app,
)

FIRST_ROW = "[flt-semantics-identifier^='history-game-']"


def fill(folder: Path, n: int, seed: int = 1) -> float:
    """Store ``n`` finished games (copies of the demo games under new ids and dates)."""
    rng = random.Random(seed)
    templates = demo_games()
    names = ["Thandi", "Farai", "Sam", "Grace", "Tendai", "Rudo", "Kuda", "Nyasha"]
    start = datetime(2022, 12, 1, tzinfo=UTC)
    games: list[dict[str, Any]] = []
    for i in range(n):
        t = templates[i % len(templates)]
        when = start + timedelta(minutes=(4 * 365 * 24 * 60) * i // n + rng.randrange(60))
        stamp = when.isoformat(timespec="microseconds")
        cast = rng.sample(names, len(t.players))
        rename = dict(zip(t.players, cast, strict=True))
        summary = dict(t.summary or {})
        summary["players"] = cast
        summary["winners"] = [rename[w] for w in summary.get("winners", [])]
        summary["totals"] = {rename[p]: v for p, v in summary.get("totals", {}).items()}
        summary["hands"] = [
            {**h, "scores": {rename[p]: v for p, v in h.get("scores", {}).items()}}
            for h in summary.get("hands", [])
        ]
        game = t.model_copy(
            update={
                "id": f"bench{i:06d}",
                "players": cast,
                "created": stamp,
                "updated": stamp,
                "summary": summary,
                "actions": [],  # the list never reads actions; keeps the folder small
            }
        )
        games.append(game.model_dump(mode="json"))
    t0 = time.monotonic()
    repo = TinyDbRepository(folder, durable=False)
    repo.import_json(
        {
            "format": BACKUP_FORMAT,
            "schema_version": STORAGE_SCHEMA_VERSION,
            "players": [],
            "games": games,
            "trash": [],
        }
    )
    repo.close()
    return time.monotonic() - t0


SCREENS = {
    "history": ("History", FIRST_ROW),
    "settings": ("Settings", "[flt-semantics-identifier='settings-data-dir']"),
}


def measure(url: str, taps: int) -> dict[str, list[float]]:
    """Interleaved taps: History, then Settings (a screen that reads no history) as a
    baseline for the navigation itself, so both see the same machine load."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p.selectors.set_test_id_attribute("flt-semantics-identifier")
        page = new_page(browser, PHONE)
        times: dict[str, list[float]] = {k: [] for k in SCREENS}
        try:
            open_app(page, url)
            page.get_by_role("button", name="History", exact=True).wait_for(timeout=60_000)
            for i in range(taps + 1):  # the first round warms up and is dropped
                for key, (name, target) in SCREENS.items():
                    button = page.get_by_role("button", name=name, exact=True)
                    button.wait_for(timeout=30_000)
                    page.wait_for_timeout(300)
                    t0 = time.perf_counter()
                    button.click()
                    page.wait_for_selector(target, state="attached", timeout=30_000)
                    if i:
                        times[key].append(time.perf_counter() - t0)
                    page.get_by_role("button", name="Back", exact=True).click()
                    page.wait_for_selector(target, state="detached", timeout=30_000)
            return times
        finally:
            page.context.close()
            browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--taps", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        took = fill(folder, args.games)
        months = len(list((folder / "index").glob("*.json")))
        print(f"stored {args.games} games in {took:.1f} s ({months} monthly index files)")
        server = AppServer(folder).start()
        try:
            times = measure(server.url, args.taps)
        finally:
            server.stop()
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(f"(load average {load} on {os.cpu_count()} cores)")
    for what, values in (
        ("tap History -> first rows visible", times["history"]),
        ("baseline: tap Settings -> screen visible", times["settings"]),
    ):
        ms = sorted(t * 1000 for t in values)
        print(f"{what}, {len(ms)} taps, phone 390x844, Chromium:")
        print(f"  median {statistics.median(ms):.0f} ms, min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms")
    print("target: history median <= 300 ms")


if __name__ == "__main__":
    main()
