"""The phone build (``companion build-phone``) in a real browser: no computer, no network.

The folder is built once per session (its wheels downloaded from the package
registry the first time) and served by a plain static server on 127.0.0.1.  A
390x844 Android phone (persistent profile: its storage outlives the browser)
loads the app -- Python runs in the page (Pyodide), there is no app server --
and every request to anything but that static server is blocked and counted:
there must be none.  Then the history must survive a reload, a browser restart
and a killed browser, and the app must start from its cache with the static
server stopped.  Last, the history backend alone on the browser's real OPFS:
reopened and compacted, nothing lost.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ANDROID_UA, ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.browser.test_rummoli_game import label_of, press, says, tap

#: Pyodide's first boot (runtime, wheels, app) on a busy 2-core machine
BOOT_MS = 240_000
T = 30_000


@pytest.fixture(scope="session")
def phone_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``companion build-phone`` into a fresh folder (the wheels cached between runs)."""
    folder = tmp_path_factory.mktemp("phone") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "build-phone", str(folder)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert (folder / "sw.js").exists() and (folder / "app.tar.gz").exists()
    return folder


class StaticServer:
    """``python -m http.server`` on a loopback port (stoppable: "the computer is gone")."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(folder)]
            + [str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "static server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def static_server(phone_build: Path) -> Iterator[StaticServer]:
    server = StaticServer(phone_build)
    yield server
    server.stop()


class Phone:
    """A phone's browser with its own profile; every outside request blocked and counted."""

    def __init__(self, pw: Any, profile: Path, origin: str) -> None:
        self.pw, self.profile, self.origin = pw, profile, origin
        self.outside: list[str] = []
        self.ctx: Any = None
        self.page: Any = None

    def _count(self, url: str) -> bool:
        local = url.startswith((self.origin, "blob:", "data:"))
        if not local:
            self.outside.append(url)
        return local

    def open(self) -> Any:
        self.ctx = self.pw.chromium.launch_persistent_context(
            str(self.profile),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
            user_agent=ANDROID_UA,
            is_mobile=True,
            has_touch=True,
        )

        def guard(route: Any) -> None:
            if self._count(route.request.url):
                route.continue_()
            else:
                route.abort()

        self.ctx.route("**/*", guard)
        # requests a route may not see (the service worker's, a worker's) still count
        self.ctx.on("request", lambda req: self._count(req.url))
        self.page = self.ctx.pages[0] if self.ctx.pages else self.ctx.new_page()
        return self.page

    def close(self, failed: bool = False) -> None:
        if failed and self.ctx is not None:  # what the phone showed, for the failure
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            stem = ARTIFACTS / f"fail_phone_{self.profile.parent.name}"
            try:
                self.page.screenshot(path=f"{stem}.png")
                Path(f"{stem}.aria.txt").write_text(self.page.locator("body").aria_snapshot())
            except Exception as exc:  # never mask the real failure
                print("failure artifacts not saved:", exc)
        if self.ctx is not None:
            self.ctx.close()
            self.ctx = None

    def kill(self) -> None:
        """SIGKILL the browser (no shutdown, no flush): a phone whose tab was killed."""
        flag = f"--user-data-dir={self.profile}".encode()
        pids = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                argv = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if flag in argv and not any(a.startswith(b"--type=") for a in argv):
                pids.append(int(proc.name))
        assert pids, "the browser process was not found"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        self.ctx = None


@pytest.fixture
def pw(playwright_driver: Any) -> Any:
    """The process's one Playwright (conftest): a second sync_playwright() beside the
    other browser tests' would be refused."""
    return playwright_driver


def app_up(page: Any) -> None:
    """Flutter's first frame, its accessibility tree, and the app's first screen from Python."""
    page.wait_for_selector("#loading", state="detached", timeout=BOOT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    deadline = time.monotonic() + BOOT_MS / 1000
    nodes = page.locator("flt-semantics-host flt-semantics")
    while nodes.count() == 0:
        if placeholder.count():
            box = placeholder.bounding_box()
            if box:
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            else:
                placeholder.dispatch_event("click")
        page.wait_for_timeout(250)
        assert time.monotonic() < deadline, "the accessibility tree never came on"


def home(page: Any) -> None:
    expect(page.get_by_role("button", name="New Umtali game")).to_have_count(1, timeout=BOOT_MS)


def fill(page: Any, box: Any, text: str, then: Any) -> None:
    """Type ``text`` and Enter until ``then()`` holds (Flutter can drop the first typing)."""
    for _ in range(4):
        box.click()
        box.fill(text)
        page.keyboard.press("Enter")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if then():
                return
            page.wait_for_timeout(100)
    raise AssertionError(f"{text!r} was not taken")


def add_players(page: Any, names: list[str]) -> None:
    box = page.get_by_role("textbox", name="Player name")
    expect(box).to_be_visible(timeout=T)
    for seat, name in enumerate(names, start=1):
        shown = page.get_by_text(f"{seat}. {name}", exact=True)
        fill(page, box, name, lambda shown=shown: shown.count() == 1)


def side(page: Any, name: str, points: int) -> None:
    text = f"{name}'s side: {points} point{'s' if points != 1 else ''}"
    expect(page.get_by_text(text, exact=True)).to_have_count(1, timeout=BOOT_MS)


def umtali_entry(page: Any) -> str:
    """A new Umtali game (Ann deals) and Bob's first meld; the game's address."""
    press(page.get_by_role("button", name="New Umtali game"))
    add_players(page, ["Ann", "Bob"])
    press(page.get_by_role("radio", name="Ann"))
    press(page.get_by_role("button", name="Start Umtali"))
    expect(page.get_by_role("button", name="Undo")).to_be_visible(timeout=T)
    meld(page, "5H 6H 7H", "Sequence: 3 points")
    side(page, "Bob", 3)  # on screen = acknowledged = saved
    assert "/play/" in page.url
    return str(page.url)


def meld(page: Any, cards: str, verdict: str) -> None:
    box = page.get_by_role("textbox", name="Type meld cards")
    if box.count() == 0:
        tap(page, "meld-type")
    expect(box).to_have_count(1, timeout=T)

    def judged() -> bool:
        return verdict in (page.get_by_test_id("verdict").get_attribute("aria-label") or "")

    fill(page, box, cards, judged)
    add = page.get_by_test_id("add-meld")
    expect(add.get_by_role("button")).to_be_enabled(timeout=T)
    press(add)


def rummoli_poker(page: Any) -> None:
    """A Rummoli deal and its poker pot judged from the hands: pokerkit, in the browser."""
    press(page.get_by_role("button", name="New Rummoli game"))
    add_players(page, ["Ann", "Bob", "Cy", "Dan"])
    press(page.get_by_role("radio", name="Ann"))
    press(page.get_by_role("button", name="Start Rummoli"))
    expect(page.get_by_test_id("deal")).to_be_visible(timeout=T)
    tap(page, "deal")
    says(page, "deal-sizes", "Bob 11, Cy 11, Dan 10, Ann 10, widow 10")
    tap(page, "widow-dealer")
    tap(page, "widow-confirm")
    says(page, "widow-result", "Ann took the widow.")
    tap(page, "poker-mode-hands")
    for who, cards, name in (
        ("Ann", "ks kc 8s 8c 4c", "Two pair, Kings and 8s"),
        ("Bob", "9s 9c 9d 5s 2s", "Three of a kind, 9s"),
        ("Cy", "ad ac qs qh 10s", "Two pair, Aces and Queens"),
        ("Dan", "3c 6c 7c 10c jc", "Flush, jack high"),
    ):
        tap(page, f"hand-of-{who.lower()}")
        tap(page, f"hand-{who.lower()}-type")
        box = page.get_by_role("textbox", name=f"Type {who}'s hand")
        expect(box).to_have_count(1, timeout=T)
        ident = f"eval-{who.lower()}"
        fill(page, box, cards, lambda i=ident, n=name: n in label_of(page, i))
    tap(page, "judge-poker")
    says(page, "poker-result-verdict", "Dan wins the Poker pot: 4 chips. Dan starts")


def rule_with_a_typo(page: Any) -> None:
    press(page.get_by_role("button", name="Rules").first)
    box = page.get_by_role("textbox", name="Search rules")
    expect(box).to_be_visible(timeout=T)
    result = page.get_by_role("button", name="Umtali rule U5.3: Marriage")
    fill(page, box, "marrige", lambda: result.count() >= 1)  # a typo: rapidfuzz's fallback


@pytest.mark.slow
@pytest.mark.timeout(900)  # four Pyodide boots, slow on a busy 2-core machine
def test_phone_build_runs_offline_and_keeps_the_game(
    static_server: StaticServer, pw: Any, tmp_path: Path
) -> None:
    phone = Phone(pw, tmp_path / "profile", static_server.url)
    try:
        page = phone.open()
        page.goto(static_server.url)
        app_up(page)
        home(page)
        game = umtali_entry(page)

        page.reload()  # the game is in the browser's storage, not in a server
        app_up(page)
        side(page, "Bob", 3)

        phone.close()  # the browser closed and opened again, same profile
        page = phone.open()
        page.goto(game)
        app_up(page)
        side(page, "Bob", 3)

        page.goto(static_server.url)  # the same page (only the #route changes) ...
        app_up(page)  # ... but Flutter may switch its accessibility tree off again
        home(page)
        rummoli_poker(page)

        page.goto(static_server.url)
        app_up(page)
        home(page)
        rule_with_a_typo(page)

        # no computer any more: the browser starts again and the app from its cache
        phone.close()
        static_server.stop()
        page = phone.open()
        page.goto(game)
        app_up(page)
        side(page, "Bob", 3)
        assert static_server.proc.poll() is not None  # it really was the cache
        page.goto(static_server.url + "#/history")  # the same page: the router follows
        app_up(page)
        expect(page.get_by_text(re.compile("Umtali")).first).to_be_visible(timeout=T)
        assert phone.outside == [], phone.outside
    except BaseException:
        phone.close(failed=True)
        raise
    finally:
        phone.close()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_killed_right_after_an_entry_loses_nothing(
    static_server: StaticServer, pw: Any, tmp_path: Path
) -> None:
    phone = Phone(pw, tmp_path / "profile", static_server.url)
    try:
        page = phone.open()
        page.goto(static_server.url)
        app_up(page)
        home(page)
        game = umtali_entry(page)
        phone.kill()  # the instant the screen showed the entry
        page = phone.open()
        page.goto(game)
        app_up(page)
        side(page, "Bob", 3)
        assert phone.outside == [], phone.outside
    except BaseException:
        phone.close(failed=True)
        raise
    finally:
        phone.close()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_second_tab_is_refused_and_the_first_keeps_the_history(
    static_server: StaticServer, pw: Any, tmp_path: Path
) -> None:
    """The app open in two tabs of one browser: the second says so and writes nothing; the
    first goes on saving; once the first is closed the second, reloaded, has every entry."""
    phone = Phone(pw, tmp_path / "profile", static_server.url)
    try:
        first = phone.open()
        first.goto(static_server.url)
        app_up(first)
        home(first)
        game = umtali_entry(first)

        second = phone.ctx.new_page()
        second.goto(game)
        app_up(second)
        expect(second.get_by_text("Your game history cannot be opened")).to_be_visible(
            timeout=BOOT_MS
        )
        said = second.locator("body").aria_snapshot()
        assert "already open in another tab" in said, said

        first.bring_to_front()  # the first tab still saves
        meld(first, "8C 8D 8S", "Set: 3 points")
        side(first, "Bob", 6)

        first.close()  # its storage is free now
        second.reload()
        app_up(second)
        side(second, "Bob", 6)
        assert phone.outside == [], phone.outside
    except BaseException:
        phone.close(failed=True)
        raise
    finally:
        phone.close()


def _settings(page: Any) -> None:
    press(page.get_by_role("button", name="Settings", exact=True))
    expect(page.get_by_test_id("settings-import")).to_be_visible(timeout=T)


def _result(page: Any, pattern: str) -> None:
    expect(page.get_by_test_id("settings-last-result")).to_contain_text(
        re.compile(pattern), timeout=T
    )


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_backup_is_a_file_picked_in_and_a_download_out_on_the_phone(
    static_server: StaticServer, pw: Any, tmp_path: Path
) -> None:
    """Import: a backup file picked on the phone; export: the phone downloads a file."""
    from companion.demo import load_demo
    from companion.storage.memory import MemoryRepository

    computer = MemoryRepository()  # a backup made on a computer
    load_demo(computer)
    exported = computer.export_json()
    games = exported["games"]
    picked = tmp_path / "from-the-computer.json"
    picked.write_text(json.dumps(exported))
    phone = Phone(pw, tmp_path / "profile", static_server.url)
    try:
        page = phone.open()
        page.goto(static_server.url)
        app_up(page)
        home(page)
        _settings(page)
        with page.expect_file_chooser(timeout=T) as chooser:
            tap(page, "settings-import")
        chooser.value.set_files(str(picked))
        _result(page, rf"Imported {len(games)} games, 0 already here\.")

        with page.expect_download(timeout=T) as info:
            tap(page, "settings-export-json")
        assert re.fullmatch(
            r"rummy-companion-\d{4}-\d{2}-\d{2}\.json", info.value.suggested_filename
        )
        saved = tmp_path / "from-the-phone.json"
        info.value.save_as(saved)
        backup = json.loads(saved.read_text(encoding="utf-8"))
        _result(page, r"^Downloaded rummy-companion-")
        assert {g["id"] for g in backup["games"]} == {g["id"] for g in games}
        assert sorted(backup["games"], key=lambda g: g["id"]) == sorted(
            games, key=lambda g: g["id"]
        )

        page.reload()  # the imported games were saved in the phone's storage
        app_up(page)
        expect(page.get_by_test_id("settings-import")).to_be_visible(timeout=BOOT_MS)
        page.goto(static_server.url + "#/history")  # the same page: the router follows
        app_up(page)
        expect(page.locator("[flt-semantics-identifier^='history-game-']")).to_have_count(
            len(games), timeout=T
        )
        assert phone.outside == [], phone.outside
    except BaseException:
        phone.close(failed=True)
        raise
    finally:
        phone.close()


#: a module worker that boots the build's own Pyodide with the build's packages and app
#: code, then runs the Python it is sent (no Flet: the storage alone, on the real OPFS)
_CHECK_WORKER = """
import { loadPyodide } from "./pyodide/pyodide.mjs";
self.onmessage = async (event) => {
  try {
    const py = await loadPyodide();
    self.postMessage({ ok: true, out: String(await py.runPythonAsync(event.data)) });
  } catch (error) {
    self.postMessage({ ok: false, out: String(error) });
  }
};
"""

_OPFS_CHECK = """
import json, os, sys
from pyodide.http import pyfetch
await (await pyfetch("app.tar.gz")).unpack_archive(format="gztar")
sys.path.insert(0, os.path.abspath("__pypackages__"))  # as the app's worker does
from companion.platform import open_browser_history

repo = await open_browser_history()
g = repo.create_game("rummy", ["Ann", "Bob"])
for n in range(260):  # past the slack: the next open compacts into the other slot
    repo.append_action(g.id, {"type": "hand", "n": n})
repo.close()
seen = []
for _ in range(3):  # reopen (compacts), append one more, reopen again
    repo = await open_browser_history()
    game = repo.get_game(g.id)
    seen.append([len(game.actions), repo.game_revision(g.id), repo._gen, repo.problems])
    repo.append_action(g.id, {"type": "hand", "n": len(game.actions)})
    repo.close()

# another tab holds the second slot: refused, and the first slot not kept locked
import js
from companion.platform import OPFS_FOLDER, _opfs_slot
from companion.storage import StorageError
folder = await (await js.navigator.storage.getDirectory()).getDirectoryHandle(OPFS_FOLDER)
other = await _opfs_slot(folder, "history-b.jsonl")
try:
    await open_browser_history()
    refused = "opened"
except StorageError as exc:
    refused = str(exc)
other.close()
repo = await open_browser_history()  # both slots free again
after = len(repo.get_game(g.id).actions)
repo.close()
json.dumps({"seen": seen, "refused": refused, "after": after})
"""


@pytest.mark.timeout(600)
def test_browser_history_on_the_real_opfs_reopens_and_compacts(
    static_server: StaticServer, phone_build: Path, pw: Any, tmp_path: Path
) -> None:
    """BrowserRepository over the browser's own OPFS slots: reopened, compacted, nothing lost;
    refused while another tab holds a slot, and usable again once that tab lets go."""
    (phone_build / "opfs-check.mjs").write_text(_CHECK_WORKER)
    phone = Phone(pw, tmp_path / "profile", static_server.url)
    try:
        page = phone.open()
        page.goto(static_server.url + "opfs-check.mjs")  # any page of the origin
        result = page.evaluate(
            """code => new Promise((resolve) => {
                const w = new Worker("opfs-check.mjs", { type: "module" });
                w.onmessage = (e) => resolve(e.data);
                w.postMessage(code);
            })""",
            _OPFS_CHECK,
        )
        assert result["ok"], result["out"]
        out = json.loads(result["out"])
        # 260 entries, then +1 per reopen; the first reopen compacted (generation 1)
        seen = out["seen"]
        assert seen == [[260, 260, 1, []], [261, 261, 1, []], [262, 262, 1, []]], seen
        assert "already open in another tab" in out["refused"], out["refused"]
        assert out["after"] == 263, out
        assert phone.outside == [], phone.outside
    finally:
        phone.close()
