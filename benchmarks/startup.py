"""Cold start: `companion --web` command → first frame, and → home screen usable, in Chromium.

Run: .venv/bin/python benchmarks/startup.py [--runs 5]
Each run starts a new server process and a new browser context; prints medians.
"""

from __future__ import annotations

import argparse
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
    AppServer,
    new_page,
)


def one_run(browser: object) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as data:
        server = AppServer(Path(data))
        t0 = time.monotonic()
        server.start()
        t_http = time.monotonic() - t0
        page = new_page(browser, PHONE)
        try:
            page.goto(server.url)
            page.wait_for_selector("#loading", state="detached", timeout=90_000)
            t_frame = time.monotonic() - t0
            page.locator("flt-semantics-placeholder").dispatch_event("click")
            page.get_by_test_id("game-rummoli").wait_for(timeout=60_000)
            t_home = time.monotonic() - t0
        finally:
            page.context.close()
            server.stop()
    return {"http_ready_s": t_http, "first_frame_s": t_frame, "home_usable_s": t_home}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p.selectors.set_test_id_attribute("flt-semantics-identifier")
        runs = [one_run(browser) for _ in range(args.runs)]
        browser.close()
    print(f"cold start over {args.runs} runs (browser already running), seconds:")
    for key in ("http_ready_s", "first_frame_s", "home_usable_s"):
        vals = [r[key] for r in runs]
        print(
            f"  {key:15s} median {statistics.median(vals):6.2f}  min {min(vals):6.2f}"
            f"  max {max(vals):6.2f}"
        )


if __name__ == "__main__":
    main()
