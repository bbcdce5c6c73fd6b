"""The phone build's start against the served web mode's, and a verdict's time in the browser.

Run: .venv/bin/python benchmarks/phone_start.py [--runs 3] [--verdicts 15] [--against DIR]

Builds the static folder (``companion build-phone``) once and prints its size
and each wheel's.  Then, per run and interleaved in one run of this script:

* ``web``    -- ``companion --web`` started, page opened, home screen usable
  (the computer does the Python: the served web mode);
* ``first``  -- the static folder from a plain static server, a fresh browser
  profile: home screen usable (Pyodide boots, the app archive is unpacked);
* ``cached`` -- the same profile opened again: the service worker answers;
* with ``--against DIR``, ``first*`` and ``cached*``: the same two for another
  build folder (say, one made by an earlier commit), served the same way.

Each is wall time from the start (server start for ``web``) to a usable home
screen, beside the CPU time of the browser's processes (plus the app server's,
for ``web``; the browser's whole process tree).  Last, a tap to its verdict on
the Umtali screen, ``--verdicts`` times, in the phone build and in web mode in
turn: with 5♥ 6♥ chosen, a tap on 7♥ until "Sequence" shows, and a tap
taking it back until it goes.  The time is taken in the page, from the tap's
pointerdown to the verdict's new words in the accessibility tree, so
Playwright's own steps are not in it.  For the phone build it also gives the
time the worker's Python spent on the tap (its event-loop callbacks) and the
tap's way: page to the worker, in the worker (its first message in to its last
out), and the worker's last message to the verdict on screen (Flutter in the
page); beside them the CPU of each browser over the tap.  With ``--against``
the other build is tapped too, interleaved (``phone*``); ``--runs 0`` skips
the starts.
Target in the phone build: <= 100 ms median.
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


def _phone_tree(phone: Phone) -> list[int]:
    return sorted({kid for pid in _browser_pids(phone.profile) for kid in _tree(pid)})


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


def _umtali_table(page: Any, url: str) -> None:
    """A new Umtali game on ``page`` with 5♥ 6♥ chosen for a meld."""
    page.goto(url)
    app_up(page)
    home(page)
    press(page.get_by_role("button", name="New Umtali game"))
    add_players(page, ["Ann", "Bob"])
    press(page.get_by_role("radio", name="Ann"))
    press(page.get_by_role("button", name="Start Umtali"))
    page.get_by_role("button", name="Undo").wait_for(timeout=60_000)
    for card, shown in (("5H", "5♥"), ("6H", "5♥ 6♥")):
        press(page.get_by_test_id(f"meld-card-{card}"))
        page.wait_for_function(
            """w => { const n = document.querySelector('[flt-semantics-identifier="meld-chosen"]');
                      return n && ((n.getAttribute('aria-label') || '') + n.textContent)
                                  .includes(w); }""",
            arg=shown,
            timeout=60_000,
        )


#: a tap's way in the phone build: page -> worker, in the worker, worker -> verdict seen
LEGS = ("to worker", "in worker", "to screen")

#: in the page: the time of the last pointerdown, and of each verdict seen after it
_WATCH = """() => {
  window.__tap = 0; window.__seen = {};
  addEventListener("pointerdown", () => { window.__tap = performance.now(); window.__seen = {}; },
                   true);
  window.__epoch = () => performance.timeOrigin + window.__tap;
  const check = () => {
    const v = document.querySelector('[flt-semantics-identifier="verdict"]');
    const words = v ? (v.getAttribute("aria-label") || v.textContent || "") : "";
    if (window.__tap && !(words in window.__seen)) {
      window.__seen[words] = performance.now() - window.__tap;
    }
  };
  new MutationObserver(check).observe(
    document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

#: in the worker: the time Python spends in event-loop callbacks, summed
_PY_CLOCK = """() => self.pyodide.runPython(`
import asyncio.events as _events, time as _time
_bench_run, _bench_spent = _events.Handle._run, [0.0]
def _timed_run(self):
    t = _time.perf_counter()
    try:
        return _bench_run(self)
    finally:
        _bench_spent[0] += _time.perf_counter() - t
_events.Handle._run = _timed_run
`)"""
_PY_SPENT = "() => self.pyodide.runPython('s = _bench_spent[0]; _bench_spent[0] = 0.0; s')"

#: in the worker: when each message from the page arrived and each one to it left (epoch ms)
_POSTS = """() => {
  self.__posts = [];
  const now = () => performance.timeOrigin + performance.now();
  const handle = self.onmessage, post = self.postMessage.bind(self);
  self.onmessage = (e) => { self.__posts.push(["in", now()]); return handle(e); };
  self.postMessage = (m, t) => { self.__posts.push(["out", now()]); return post(m, t); };
}"""
_TAKE_POSTS = "() => { const p = self.__posts; self.__posts = []; return p; }"


def _legs(page: Any, worker: Any, took: float) -> tuple[float, float, float]:
    """The tap's way in ms: page to the worker, in the worker, worker back to the verdict."""
    tap = page.evaluate("window.__epoch()")
    posts = [(k, t - tap) for k, t in worker.evaluate(_TAKE_POSTS) if 0 <= t - tap <= took]
    ins = [t for k, t in posts if k == "in"]
    outs = [t for k, t in posts if k == "out"]
    if not ins or not outs:
        return float("nan"), float("nan"), float("nan")
    return ins[0], outs[-1] - ins[0], took - outs[-1]


def _one_verdict(
    page: Any, worker: Any, shown: bool
) -> tuple[float, float, tuple[float, float, float]]:
    """Tap 7♥; wait until the verdict says (or stops saying) "Sequence"; ms in the page."""
    if worker is not None:
        worker.evaluate(_PY_SPENT)
        worker.evaluate(_TAKE_POSTS)
    page.get_by_test_id("meld-card-7H").click()
    test = "w => Object.keys(window.__seen).some(l => l && (l.includes(w) === %s))" % (
        "true" if shown else "false"
    )
    page.wait_for_function(test, arg="Sequence", timeout=60_000)
    seen = page.evaluate("window.__seen")
    took = min(t for w, t in seen.items() if w and ("Sequence" in w) == shown)
    python = worker.evaluate(_PY_SPENT) * 1000 if worker is not None else 0.0
    legs = _legs(page, worker, float(took)) if worker is not None else (0.0, 0.0, 0.0)
    return float(took), python, legs


def verdict_times(
    pw: Any, tmp: Path, url: str, n: int, other: str | None = None
) -> dict[str, list[float]]:
    """Tap to verdict shown, in the phone build(s) and in web mode, one after the other."""
    server = AppServer(tmp / "data")
    server.start()
    urls = {"phone": url, "web": server.url}
    if other is not None:
        urls["phone*"] = other
    try:
        phones = {
            key: Phone(pw, tmp / f"verdict-{key.strip('*')}{len(key)}", where)
            for key, where in urls.items()
        }
        pages, workers = {}, {}
        for key, phone in phones.items():
            page = phone.open()
            _umtali_table(page, urls[key])
            page.evaluate(_WATCH)
            pages[key] = page
            workers[key] = None
            if key != "web":
                workers[key] = page.workers[0]
                workers[key].evaluate(_PY_CLOCK)
                workers[key].evaluate(_POSTS)
        times: dict[str, list[float]] = {key: [] for key in urls}
        times.update({key.replace("phone", "python"): [] for key in urls if key != "web"})
        times.update({f"cpu {key}": [] for key in urls})
        for key in urls:
            if key != "web":
                for leg in LEGS:
                    times[f"{leg} {key}"] = []
        trees = {key: _phone_tree(phone) for key, phone in phones.items()}
        trees["web"] += _tree(server.proc.pid)
        for i in range(2 * n + 2):
            for key, page in pages.items():
                cpu = _cpu_s(trees[key])
                took, python, legs = _one_verdict(page, workers[key], shown=i % 2 == 0)
                cpu = _cpu_s(trees[key]) - cpu
                if i >= 2:  # the first two warm the page up
                    times[key].append(took / 1000)
                    times[f"cpu {key}"].append(cpu)
                    if key != "web":
                        times[key.replace("phone", "python")].append(python / 1000)
                        for leg, ms in zip(LEGS, legs, strict=True):
                            times[f"{leg} {key}"].append(ms / 1000)
        return times
    finally:
        for phone in locals().get("phones", {}).values():
            phone.close()
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3, help="0: the verdicts only")
    ap.add_argument("--verdicts", type=int, default=15)
    ap.add_argument(
        "--against", type=Path, help="another build folder to start, interleaved (e.g. older)"
    )
    args = ap.parse_args()
    print(f"machine load: {os.getloadavg()[0]:.2f} (1 min), at the start")
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
        other = StaticServer(args.against) if args.against else None
        rows: dict[str, list[tuple[float, float]]] = {"web": [], "first": [], "cached": []}
        if other is not None:
            rows.update({"first*": [], "cached*": []})
        try:
            with sync_playwright() as pw:
                pw.selectors.set_test_id_attribute("flt-semantics-identifier")
                for run in range(args.runs):
                    rows["web"].append(web_start(pw, tmp / f"w{run}"))
                    first, cached = static_starts(pw, tmp / f"s{run}", server.url)
                    rows["first"].append(first)
                    rows["cached"].append(cached)
                    if other is not None:
                        first, cached = static_starts(pw, tmp / f"a{run}", other.url)
                        rows["first*"].append(first)
                        rows["cached*"].append(cached)
                    print(
                        f"run {run + 1}: "
                        + ", ".join(f"{k} {v[-1][0]:.1f} s" for k, v in rows.items())
                    )
                verdicts = verdict_times(
                    pw, tmp / "v", server.url, args.verdicts, other.url if other else None
                )
        finally:
            server.stop()
            if other is not None:
                other.stop()
    if other is not None:
        print(f"* = the build in {args.against}")
    if args.runs:
        _print_starts(args.runs, rows)
    _print_verdicts(verdicts)
    print(f"machine load: {os.getloadavg()[0]:.2f} (1 min), at the end")


def _print_starts(runs: int, rows: dict[str, list[tuple[float, float]]]) -> None:
    print(f"start to a usable home screen, {runs} runs interleaved (median):")
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


def _print_verdicts(verdicts: dict[str, list[float]]) -> None:
    print("tap -> verdict shown, in the page, alternating (target in the phone build <= 100 ms):")
    medians = {}
    for key, took in verdicts.items():
        ms = [t * 1000 for t in took]
        ms = [m for m in ms if m == m] or [float("nan")]  # a tap without its posts: left out
        medians[key] = statistics.median(ms)
        what = "of it, the worker's Python" if key.startswith("python") else ""
        if key.startswith(LEGS):
            what = "of it: tap to worker, worker's first message in to last out, out to screen"
        if key.startswith("cpu"):
            what = "CPU of the browser (+ server for web) over the tap and its wait"
        print(
            f"  {key:18s} median {medians[key]:6.0f} ms, min {min(ms):.0f}, max {max(ms):.0f} "
            f"({len(ms)} taps) {what}"
        )
    print(f"  ratio  phone/web {medians['phone'] / medians['web']:.1f}x")


if __name__ == "__main__":
    main()
