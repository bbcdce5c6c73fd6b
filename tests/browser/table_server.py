"""A table-mode server inside the test process, and helpers to drive several devices.

The server runs in a thread (uvicorn, as ``companion --web`` does), so a test
can reach what a device cannot: the :class:`~companion.access.Table` (its PIN,
a fresh host link, the PIN-try counters), the history, and a device's own
server-side :class:`~companion.services.Services` -- to call a screen's handler
directly, as a forged request would.

All test traffic is loopback; that needs no special setting here, because a
loopback client is not trusted in table mode (the host is whoever opens the
host link).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import flet as ft
from playwright.sync_api import expect

from companion.access import Table
from companion.config import AppConfig
from companion.hub import TableHub
from companion.serve import web_app
from companion.services import Services
from companion.storage import TinyDbRepository, open_repository
from tests.browser.conftest import ARTIFACTS, free_port, open_app

T = 30_000


@dataclass
class TableServer:
    """companion --web --pin, in this process."""

    data_dir: Path
    pin: str = "204518"
    port: int = field(default_factory=free_port)
    pages: list[ft.Page] = field(default_factory=list)
    #: keep the table in the data folder, as ``companion --web`` does (a restart test)
    kept: bool = False

    def start(self) -> TableServer:
        import uvicorn

        os.environ["FLET_WEB_NO_CDN"] = "1"
        self.url = f"http://127.0.0.1:{self.port}/"
        self.repo: TinyDbRepository = open_repository(self.data_dir)
        #: the server's live games: what its services hand every session (a test's own
        #: session on it is one more device at the table)
        self.hub = TableHub(self.repo)
        if self.kept:
            from companion.access import TABLE_FILE

            self.table = Table.open(self.data_dir / TABLE_FILE, pin=self.pin)
        else:
            self.table = Table(pin=self.pin)

        def noted(inner: Callable[[Any], None]) -> Callable[[Any], None]:
            def main(page: ft.Page) -> None:
                self.pages.append(page)
                inner(page)

            return main

        asgi = web_app(
            AppConfig(data_dir=self.data_dir, web=True),
            self.hub,
            table=self.table,
            join_urls=[self.url],
            wrap=noted,
        )
        self.server = uvicorn.Server(
            uvicorn.Config(
                asgi, host="127.0.0.1", port=self.port, log_level="warning", ws="websockets-sansio"
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the table server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.repo.close()

    def host_url(self) -> str:
        return f"{self.url}?host={self.table.host_link()}"

    def services_of(self, words: str, timeout_s: float = 10.0) -> Services:
        """The server-side services of the browser session whose device is ``words``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for page in list(self.pages):
                services = _services(page)
                if services is not None and services.device.words == words:
                    return services
            time.sleep(0.05)
        raise AssertionError(f"no browser session of {words!r}")


def _services(page: ft.Page) -> Services | None:
    for _ in range(5):
        try:
            controls = list(page.session.index.values())
            break
        except RuntimeError:  # the index changed while we looked
            continue
    else:
        return None
    for control in controls:
        args = getattr(control, "args", None)
        if args and isinstance(args[0], Services):
            return args[0]
    return None


def reads(page: Any, ident: str) -> str:
    """What a screen reader reads at the node ``ident`` ('' if it is not there)."""
    text: str = page.evaluate(
        """id => [...document.querySelectorAll(`[flt-semantics-identifier="${id}"]`)]
                .map(e => (e.getAttribute('aria-label') || '') + ' ' + e.textContent)
                .join(' | ')""",
        ident,
    )
    return text


def said(page: Any, ident: str, pattern: str, timeout: int = T) -> None:
    """Wait until the node ``ident`` reads ``pattern`` (a regular expression)."""
    page.wait_for_function(
        """([id, pattern]) => [...document.querySelectorAll(`[flt-semantics-identifier="${id}"]`)]
            .some(e => new RegExp(pattern).test(
                (e.getAttribute('aria-label') || '') + ' ' + e.textContent))""",
        arg=[ident, pattern],
        timeout=timeout,
    )


def arrive(page: Any, url: str) -> None:
    open_app(page, url)


def type_pin(page: Any, pin: str) -> None:
    """Type ``pin`` on the PIN screen and press Join.

    The typing is checked as Flutter took it (a frame sent to the server after the
    fill), since a fill right after a screen appears can be dropped under load; the
    semantic field's own value is not (it lags behind what Flutter holds).
    """
    box = page.get_by_role("textbox", name="PIN")
    expect(box).to_be_visible(timeout=T)
    for _ in range(5):
        box.click()
        box.fill("")  # the last try's PIN may still be there: a change is always sent
        sent = len(page.ws_sent)
        box.fill(pin)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if len(page.ws_sent) > sent:
                break
            page.wait_for_timeout(25)
        else:
            continue
        break
    else:
        raise AssertionError(f"the PIN field did not take {pin!r}")
    join = page.get_by_role("button", name="Join")
    expect(join).to_be_enabled(timeout=T)
    join.click()


def keep_failure(page: Any, name: str) -> None:
    """A device as a test left it: its screenshot and accessibility tree, for people to read
    when the test failed (``artifacts/last_<test>-device<n>.*``)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = ARTIFACTS / f"last_{name}"
    with contextlib.suppress(Exception):
        page.screenshot(path=f"{stem}.png")
        Path(f"{stem}.aria.txt").write_text(page.locator("body").aria_snapshot())


def typing_box(page: Any, picker: str = "meld", label: str = "meld cards") -> Any:
    """The text box of card picker ``picker``, switched to typing if the grid shows
    (the grid's last cell, "Type", swaps it in; it stays until switched back)."""
    box = page.get_by_role("textbox", name=f"Type {label}")
    if box.count() == 0:
        page.get_by_test_id(f"{picker}-type").click()
    expect(box).to_have_count(1, timeout=T)
    return box
