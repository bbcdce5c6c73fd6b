"""The phone build's start against the served web mode's, and a verdict's time in the browser.

Run: .venv/bin/python benchmarks/phone_start.py [--runs 3] [--verdicts 15]

Builds the static folder (``companion build-phone``) once and prints its size
and each wheel's.  Then, per run and interleaved in one run of this script:

* ``web``    -- ``companion --web`` started, page opened, home screen usable
  (the computer does the Python: the served web mode);
* ``first``  -- the static folder from a plain static server, a fresh browser
  profile: home screen usable (Pyodide boots, micropip installs the wheels);
* ``cached`` -- the same profile opened again: the service worker answers.

Each is wall time from the start (server start for ``web``) to a usable home
screen, beside the CPU time of the browser's processes (plus the app server's,
for ``web``; the browser's whole process tree).  Last, a meld typed on the
Umtali screen until its verdict shows, ``--verdicts`` times, in the phone build
and in web mode in turn (medians and their ratio; target in the phone build
<= 100 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from companion.phone_build import build_phone  # noqa: E402
from tests.browser.conftest import AppServer  # noqa: E402
from tests.browser.test_phone_build import (  # noqa: E402
    Phone,
    StaticServer,
    add_players,
    app_up,
    home,
)
from tests.browser.test_rummoli_game import press  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _cpu_s(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def _browser_pids(profile: Path) -> list[int]:
    flag = f"--user-data-dir={profile}".encode()
    out = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if flag in (proc / "cmdline").read_bytes().split(b"\0"):
                    out.append(int(proc.name))
            except OSError:
                pass
    return out


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    kids: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                ppid = int(Path(proc, "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            kids.setdefault(ppid, []).append(int(proc.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def _load(phone: Phone, url: str, t0: float, extra: Sequence[int] = ()) -> tuple[float, float]:
    page = phone.page
    page.goto(url)
    app_up(page)
    home(page)
    wall = time.monotonic() - t0
    browser = [kid for pid in _browser_pids(phone.profile) for kid in _tree(pid)]
    cpu = _cpu_s(sorted(set(browser)) + list(extra))
    return wall, cpu


def web_start(pw: Any, tmp: Path) -> tuple[float, float]:
    server = AppServer(tmp / "data")
    t0 = time.monotonic()
    server.start()
    phone = Phone(pw, tmp / "web-profile", "http://127.0.0.1")
    try:
        phone.open()
        return _load(phone, server.url, t0, _tree(server.proc.pid))
    finally:
        phone.close()
        server.stop()


def static_starts(pw: Any, tmp: Path, url: str) -> tuple[tuple[float, float], tuple[float, float]]:
    phone = Phone(pw, tmp / "static-profile", url)
    try:
        t0 = time.monotonic()
        phone.open()
        first = _load(phone, url, t0)
        phone.close()
        t0 = time.monotonic()
        phone.open()
        cached = _load(phone, url, t0)
        assert phone.outside == [], phone.outside
        return first, cached
    finally:
        phone.close()


def _umtali_table(page: Any, url: str) -> Any:
    """A new Umtali game on ``page``; its typed-meld box."""
    page.goto(url)
    app_up(page)
    home(page)
    press(page.get_by_role("button", name="New Umtali game"))
    add_players(page, ["Ann", "Bob"])
    press(page.get_by_role("radio", name="Ann"))
    press(page.get_by_role("button", name="Start Umtali"))
    page.get_by_role("button", name="Undo").wait_for(timeout=60_000)
    box = page.get_by_role("textbox", name="Type meld cards")
    if box.count() == 0:
        press(page.get_by_test_id("meld-type"))
    box.wait_for(timeout=60_000)
    return box


_MELDS = [("5H 6H 7H", "Sequence: 3 points"), ("KS QS", "Marriage")]


def _one_verdict(page: Any, box: Any, i: int) -> float:
    cards, words = _MELDS[i % 2]
    box.click()
    t0 = time.perf_counter()
    box.fill(cards)
    page.keyboard.press("Enter")
    page.wait_for_function(
        """w => (document.querySelector('[flt-semantics-identifier="verdict"]')
                ?.getAttribute('aria-label') || '').includes(w)""",
        arg=words,
        timeout=60_000,
        polling="raf",
    )
    return time.perf_counter() - t0


def verdict_times(pw: Any, tmp: Path, url: str, n: int) -> dict[str, list[float]]:
    """Typed meld to verdict shown, in the phone build and in web mode, one after the other."""
    server = AppServer(tmp / "data")
    server.start()
    phones = {
        "phone": Phone(pw, tmp / "verdict-phone", url),
        "web": Phone(pw, tmp / "verdict-web", "http://127.0.0.1"),
    }
    try:
        boxes = {}
        for key, phone in phones.items():
            page = phone.open()
            boxes[key] = (page, _umtali_table(page, url if key == "phone" else server.url))
        times: dict[str, list[float]] = {k: [] for k in phones}
        for i in range(n + 1):
            for key, (page, box) in boxes.items():
                took = _one_verdict(page, box, i)
                if i:  # the first one warms the page up
                    times[key].append(took)
        return times
    finally:
        for phone in phones.values():
            phone.close()
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--verdicts", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        t0, c0 = time.monotonic(), time.process_time()
        report = build_phone(tmp / "site")
        print(report.describe())
        print(
            f"build: {time.monotonic() - t0:.1f} s wall, {time.process_time() - c0:.1f} s CPU "
            "(wheels from the cache)\n"
        )
        server = StaticServer(report.folder)
        rows: dict[str, list[tuple[float, float]]] = {"web": [], "first": [], "cached": []}
        try:
            with sync_playwright() as pw:
                pw.selectors.set_test_id_attribute("flt-semantics-identifier")
                for run in range(args.runs):
                    rows["web"].append(web_start(pw, tmp / f"w{run}"))
                    first, cached = static_starts(pw, tmp / f"s{run}", server.url)
                    rows["first"].append(first)
                    rows["cached"].append(cached)
                    print(
                        f"run {run + 1}: "
                        + ", ".join(f"{k} {v[-1][0]:.1f} s" for k, v in rows.items())
                    )
                verdicts = verdict_times(pw, tmp / "v", server.url, args.verdicts)
        finally:
            server.stop()
    print(f"start to a usable home screen, {args.runs} runs interleaved (median):")
    med = {}
    for key, vals in rows.items():
        wall = statistics.median(v[0] for v in vals)
        cpu = statistics.median(v[1] for v in vals)
        med[key] = wall
        print(
            f"  {key:7s} {wall:6.2f} s wall  {cpu:6.2f} s CPU   "
            f"(runs: {', '.join(f'{v[0]:.1f}' for v in vals)})"
        )
    print(
        f"  ratio   first/web {med['first'] / med['web']:.1f}x   "
        f"cached/web {med['cached'] / med['web']:.1f}x"
    )
    print("typed meld -> verdict shown, alternating (target in the phone build <= 100 ms):")
    medians = {}
    for key, took in verdicts.items():
        ms = [t * 1000 for t in took]
        medians[key] = statistics.median(ms)
        print(
            f"  {key:6s} median {medians[key]:6.0f} ms, min {min(ms):.0f}, max {max(ms):.0f} "
            f"({len(ms)} times)"
        )
    print(f"  ratio  phone/web {medians['phone'] / medians['web']:.1f}x")
    print(f"machine load: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
