"""Real-browser fixtures: `companion --web` on a free loopback port, driven by
Playwright in Debian's headless Chromium through Flutter's accessibility tree.

* Never downloads a browser: the executable is /usr/bin/chromium (or $CHROMIUM).
* Every request that leaves 127.0.0.1 is aborted and recorded.
* Screenshots go to ``artifacts/screenshots`` (git-ignored) for people to look at.
* In CI (CI=true) a missing browser is a failure, elsewhere a skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
SHOTS = ARTIFACTS / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# The Flet 1.0.5 web client asks for the Rive runtime on a CDN at start-up even
# offline (no_cdn=True); it is harmless, aborted, and the only one allowed.
KNOWN_EXTERNAL = ("https://cdn.jsdelivr.net/npm/@rive-app/",)
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "blob:", "data:")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_http_ok(url: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"companion --web exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} not up after {timeout}s")
        time.sleep(0.05)


class AppServer:
    """A running `companion --web` process on its own data folder."""

    def __init__(self, data_dir: Path, root: Path = ROOT) -> None:
        self.data_dir = data_dir
        self.root = root  # the source tree served (benchmarks/startup.py compares two)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = ARTIFACTS / f"server-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> AppServer:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "PYTHONUNBUFFERED": "1"}
        env.pop("DISPLAY", None)
        self.t0 = time.monotonic()
        self._log = self.log.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "--web",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            cwd=self.root,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_http_ok(self.url, self.proc)
        return self

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._log.close()
        return self.proc.returncode


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("data")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[AppServer]:
    """A server of its own, on an empty data folder (a test that changes the history)."""
    server = AppServer(tmp_path / "data").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """The one Playwright of a test process: its sync API runs an event loop in this
    thread for as long as it lives, so a second ``sync_playwright()`` in the same
    process is refused ("Sync API inside the asyncio loop") -- every browser test
    launches from this one."""
    if not Path(CHROMIUM).exists():
        msg = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if _in_ci():
            pytest.fail(msg)
        pytest.skip(msg)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        p.selectors.set_test_id_attribute("flt-semantics-identifier")
        yield p


@pytest.fixture(scope="session")
def browser(playwright_driver: Any) -> Iterator[Any]:
    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


#: an Android phone's user agent: Flutter sizes some controls by platform (a desktop
#: Linux one draws a 390 px wide screen's buttons ~32 px tall, an Android one ~40 px)
ANDROID_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def new_page(
    browser: Any, viewport: dict[str, int], *, dark: bool = False, android: bool = False
) -> Any:
    """A page in a fresh context (``android``: the phone's user agent, touch, mobile)."""
    phone: dict[str, Any] = (
        {"user_agent": ANDROID_UA, "is_mobile": True, "has_touch": True} if android else {}
    )
    ctx = browser.new_context(viewport=viewport, color_scheme="dark" if dark else "light", **phone)
    pg = ctx.new_page()
    pg.external_requests = []
    pg.ws_sent = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(LOCAL):
            route.continue_()
        else:
            pg.external_requests.append(url)
            route.abort()

    pg.route("**/*", guard)
    pg.on("websocket", lambda ws: ws.on("framesent", lambda f: pg.ws_sent.append(1)))
    return pg


#: a test that needs one size only (the suite still covers both sizes: each file
#: alternates them over its tests, so a flow is not driven twice for the same check)
AT_PHONE = pytest.mark.parametrize("page", [PHONE], ids=["phone"], indirect=True)
AT_DESKTOP = pytest.mark.parametrize("page", [DESKTOP], ids=["desktop"], indirect=True)


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    pg = new_page(browser, request.param)
    pg.size_name = request.node.callspec.id
    yield pg
    pg.context.close()


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    pg = new_page(browser, PHONE)
    pg.size_name = "phone"
    yield pg
    pg.context.close()


def open_app(page: Any, url: str, timeout_ms: int = 90_000) -> None:
    """Load the app, wait for Flutter's first frame and switch on its semantics tree."""
    page.goto(url)
    page.wait_for_selector("#loading", state="detached", timeout=timeout_ms)
    page.wait_for_selector("flt-glass-pane", state="attached", timeout=timeout_ms)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    page.wait_for_selector("flt-semantics-host flt-semantics", state="attached", timeout=20_000)


def stable_screenshot(page: Any, name: str, timeout_s: float = 20.0) -> Path:
    """Save a screenshot once two consecutive frames are identical (boot screen gone)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    with contextlib.suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=10_000)
    prev = page.screenshot()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        cur = page.screenshot()
        if cur == prev:
            path.write_bytes(cur)
            return path
        prev = cur
    path.write_bytes(prev)
    return path


def flutter_fill(page: Any, locator: Any, text: str, attempts: int = 4) -> None:
    """Type into a Flutter text field and make sure Flutter really took it."""
    for _ in range(attempts):
        locator.click()
        n = len(page.ws_sent)
        locator.fill(text)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if len(page.ws_sent) > n and locator.input_value() == text:
                return
            page.wait_for_timeout(25)
    raise AssertionError(f"Flutter did not accept text {text!r}")


def snack(page: Any, words: Any) -> Any:
    """A snack bar's words: Flutter gives them as text, or (mid-animation) as the
    label of a group -- either way, the first such node."""
    return page.get_by_text(words).or_(page.get_by_label(words)).first


def unexpected_external(page: Any) -> list[str]:
    return [u for u in page.external_requests if not u.startswith(KNOWN_EXTERNAL)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """On failure: keep a screenshot and the accessibility tree of the page under test."""
    outcome = yield
    rep = outcome.get_result()  # type: ignore[attr-defined]
    if rep.when == "call" and rep.failed:
        for name in ("page", "phone_page"):
            pg = getattr(item, "funcargs", {}).get(name)
            if pg is None:
                continue
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            stem = ARTIFACTS / f"fail_{item.name}"
            with contextlib.suppress(Exception):
                pg.screenshot(path=f"{stem}.png")
                Path(f"{stem}.aria.txt").write_text(pg.locator("body").aria_snapshot())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is marked ``browser``.  None is ever run again on failure: a
    browser test must pass the first time (a flaky one is a bug in the test -- wait on
    a condition, never a fixed sleep -- or in the app, such as a lost tap)."""
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
    # The long browser tests (whole games) start first: run on two workers
    # (``-n 2``), they then run side by side, and the short ones fill in after them
    # instead of one long game finishing alone at the end.
    items.sort(key=lambda it: 0 if it.get_closest_marker("slow") and _is_browser(it) else 1)


def _is_browser(item: pytest.Item) -> bool:
    return item.get_closest_marker("browser") is not None


def pytest_sessionstart(session: pytest.Session) -> None:
    if shutil.which("chromium") is None and _in_ci():
        # Fail fast and clearly rather than at the first browser test.
        print("CI: chromium is not installed; browser tests will fail.")
