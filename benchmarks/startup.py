"""Cold start: `companion --web` command -> first frame -> home screen usable, in Chromium.

Run: .venv/bin/python benchmarks/startup.py [--runs 5] [--tree DIR ...] [--source]

Each run starts a new server process and a new browser context.  Beside each
wall time it prints the server process's CPU time (user + system, from
``/proc/<pid>/stat``) spent from the command up to that moment: that is what
issue 20 bounds ("server CPU from command to first screen <= 1.2 s"), and it
reads the same on a loaded machine, where wall times do not.  The browser
renders on the same cores, so the load (``os.getloadavg``) is printed too.
The pokerkit preload starts after the first screen is built; the CPU three
seconds after the home screen shows what it adds.

``--tree DIR`` (repeatable) serves the app from another source tree with this
environment's Python (e.g. ``git archive main | tar -x -C /tmp/main``, then
``--tree . --tree /tmp/main``): the trees take turns, run by run, so a change
in the machine's load falls on each alike.

Bytecode: an installed app runs from bytecode compiled at install (pip does it)
or at its first start; a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` (as on
the development machines here) compiles the app's ~70 modules at *every* start,
about a quarter of a second of CPU.  So by default each tree's ``companion``
and ``rulesets`` are compiled (``compileall``) before measuring, and the figures
are those of a start, not of an install.  ``--source`` measures the other case:
the trees' bytecode folders are removed and the server writes none.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    ROOT,
    AppServer,
    new_page,
)

TICK = os.sysconf("SC_CLK_TCK")
PACKAGES = ("companion", "rulesets")
MOMENTS = ("http_ready", "first_frame", "home_usable")


def cpu_of(pid: int) -> float:
    """Seconds of CPU (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def prepare_bytecode(tree: Path, *, source: bool) -> None:
    """Compile the tree's own packages, or (``source``) remove their bytecode."""
    for package in PACKAGES:
        if source:
            for cache in (tree / package).rglob("__pycache__"):
                shutil.rmtree(cache)
        else:
            compileall.compile_dir(tree / package, quiet=1)


def one_run(browser: object, tree: Path, *, source: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as data:
        server = AppServer(Path(data), root=tree)
        if source:
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # the server inherits it
        t0 = time.monotonic()
        server.start()
        assert server.proc is not None
        pid = server.proc.pid
        out = {"http_ready_s": time.monotonic() - t0, "http_ready_cpu": cpu_of(pid)}
        page = new_page(browser, PHONE)
        try:
            page.goto(server.url)
            page.wait_for_selector("#loading", state="detached", timeout=90_000)
            out |= {"first_frame_s": time.monotonic() - t0, "first_frame_cpu": cpu_of(pid)}
            page.locator("flt-semantics-placeholder").dispatch_event("click")
            page.get_by_test_id("game-rummoli").wait_for(timeout=60_000)
            out |= {"home_usable_s": time.monotonic() - t0, "home_usable_cpu": cpu_of(pid)}
            time.sleep(3)
            out["after_3s_cpu"] = cpu_of(pid)
        finally:
            page.context.close()
            server.stop()
    return out


def report(tree: Path, runs: list[dict[str, float]]) -> None:
    print(f"{tree}:")
    print(f"  {'moment':15s} {'wall s (median, min, max)':>28s}   server CPU s (median, min, max)")
    for key in MOMENTS:
        walls = [r[f"{key}_s"] for r in runs]
        cpus = [r[f"{key}_cpu"] for r in runs]
        print(
            f"  {key:15s} {statistics.median(walls):8.2f} {min(walls):8.2f} {max(walls):8.2f}"
            f"   {statistics.median(cpus):8.2f} {min(cpus):8.2f} {max(cpus):8.2f}"
        )
    later = statistics.median(r["after_3s_cpu"] for r in runs)
    print(f"  3 s after the home screen (the pokerkit preload done): CPU {later:.2f} s")
    home = statistics.median(r["home_usable_cpu"] for r in runs)
    verdict = "met" if home <= 1.2 else "MISSED"
    print(f"  target (server CPU, command to first screen <= 1.2 s): {verdict} ({home:.2f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tree", type=Path, action="append", help="source tree to serve (repeatable)")
    ap.add_argument(
        "--source", action="store_true", help="no cached bytecode: every start compiles the app"
    )
    args = ap.parse_args()
    trees = [t.resolve() for t in args.tree] if args.tree else [ROOT]
    for tree in trees:
        prepare_bytecode(tree, source=args.source)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p.selectors.set_test_id_attribute("flt-semantics-identifier")
        for _ in range(args.runs):
            for tree in trees:  # taking turns: the load falls on each tree alike
                results[tree].append(one_run(browser, tree, source=args.source))
        browser.close()
    code = "compiled from source at every start" if args.source else "bytecode compiled beforehand"
    print(f"cold start over {args.runs} runs per tree (browser already running), app {code},")
    print(f"load {load} (shared):")
    for tree in trees:
        report(tree, results[tree])
    print(f"load at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
