"""Starting a table: which addresses mean table mode, what the terminal prints, and how a
dropped connection comes back (a fresh Flet session, the device recognised, told what it
missed)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import msgpack
import pytest

from companion.access import Table
from companion.cli import build_parser
from companion.config import AppConfig
from companion.hub import TableHub
from companion.serve import _without_session_id, is_loopback, join_urls
from companion.services import Services
from companion.session import GameSession
from companion.storage import MemoryRepository
from tests.browser.conftest import free_port
from tests.companion.flet_harness import run_async
from tests.companion.tally import PLAYERS, _add, tally  # noqa: F401


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("table.local", False),
    ],
)
def test_only_an_address_other_devices_can_reach_means_table_mode(
    host: str, loopback: bool
) -> None:
    assert is_loopback(host) is loopback


def test_join_addresses() -> None:
    assert join_urls("192.168.1.20", 8550) == ["http://192.168.1.20:8550/"]
    assert join_urls("fe80::1", 8550) == ["http://[fe80::1]:8550/"]
    everywhere = join_urls("0.0.0.0", 8550)
    assert everywhere and all(re.match(r"http://[\d.]+:8550/$", u) for u in everywhere)
    assert not any(u.startswith("http://127.") for u in everywhere[:-1])


def test_a_pin_is_six_digits_on_the_command_line() -> None:
    assert build_parser().parse_args(["--pin", "204 518"]).pin == "204518"
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["--pin", "12345"])
    assert info.value.code == 2


def _register(session_id: str | None) -> bytes:
    body = {"session_id": session_id, "page_name": "", "page": {"route": "/play/x"}}
    return b"\x00" + msgpack.packb([1, body])


def test_a_reconnecting_client_gets_a_fresh_session() -> None:
    """Flet 1.0.5's client cannot apply updates to a resumed session (see serve.py)."""
    fresh = msgpack.unpackb(_without_session_id(_register("Ma3KwoMm"))[1:])
    assert fresh == [1, {"session_id": None, "page_name": "", "page": {"route": "/play/x"}}]
    untouched = [_register(None), b"\x00" + msgpack.packb([3, {"target": 1}]), b"\x01abc", b""]
    for frame in untouched:
        assert _without_session_id(frame) == frame


def test_table_mode_prints_the_join_address_pin_and_a_one_time_host_link(
    tmp_path: Path,
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--pin", "204518", "--port", str(port)]
        + ["--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert f"Join address: http://127.0.0.1:{port}/" in out
    assert "PIN: 204518" in out
    assert re.search(rf"Host link .*: http://127\.0\.0\.1:{port}/\?host=[\w-]{{20,}}", out)


# ---- a device that dropped off -----------------------------------------------------------


@pytest.mark.usefixtures("tally")
def test_a_device_that_was_offline_is_told_what_it_missed_on_its_next_screen() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    table = Table(pin="204518")
    phone = table.join("10.0.0.7", "204518")
    assert phone.device is not None
    gid = repo.create_game("tally", PLAYERS).id

    first = Services.at_table(AppConfig(), hub, table)  # the phone's first browser session
    first.admit(phone.device)
    seen = first.open_game(gid)
    first.opened(seen)
    first.went_offline()  # its Wi-Fi drops

    other = GameSession.open(hub, gid)
    assert other.add(_add("Ann", 3)) is None  # meanwhile, at the table

    again = Services.at_table(AppConfig(), hub, table)  # it reconnects: a fresh session
    device = table.device(phone.token)
    assert device is phone.device
    again.admit(device)
    shown = again.open_game(gid)
    again.opened(shown)
    assert re.match(
        r"You were offline for (\d+ s|a moment)\. Nothing from this device was recorded .*\. "
        r"Meanwhile: Another window: Ann add",
        shown.offline,
    )
    assert shown.summary.totals["Ann"] == 3
    third = again.open_game(gid)
    again.opened(third)
    assert third.offline == ""  # said once


@pytest.mark.usefixtures("tally")
def test_a_screen_that_is_not_showing_catches_up_when_it_shows_again() -> None:
    class Page:
        app_visible = False

    repo = MemoryRepository()
    hub = TableHub(repo)
    services = Services(config=AppConfig(), hub=hub)
    gid = repo.create_game("tally", PLAYERS).id
    asleep = GameSession.open(hub, gid)
    asleep._page = lambda: Page()  # a phone lying face down
    services.opened(asleep)
    writer = GameSession.open(hub, gid)
    writer.add(_add("Bob", 2))
    assert asleep.summary.totals["Bob"] == 0  # not redrawn while it does not show
    services.came_into_view()
    assert asleep.summary.totals["Bob"] == 2 and asleep.notice == "Another window: Bob add"


def test_table_mode_does_not_believe_a_forwarded_address_unless_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn's default trusts X-Forwarded-For from this machine: a guesser on it could
    pick a new address for every PIN (issue 19 item 5)."""
    from companion.serve import TRUST_PROXY_ENV, server_config

    async def app(scope: Any, receive: Any, send: Any) -> None: ...

    monkeypatch.delenv(TRUST_PROXY_ENV, raising=False)
    assert server_config(app, "0.0.0.0", 8550, at_table=True).proxy_headers is False
    assert server_config(app, "127.0.0.1", 8550, at_table=False).proxy_headers is True
    monkeypatch.setenv(TRUST_PROXY_ENV, "1")  # behind a proxy, asked for explicitly
    assert server_config(app, "0.0.0.0", 8550, at_table=True).proxy_headers is True


def test_a_device_that_goes_away_is_not_an_error_but_a_real_one_still_is() -> None:
    """Every client disconnect logged "Exception in ASGI application" with a traceback
    (issue 19 item 6): what sending on a closed connection raises is not an error."""

    from starlette.websockets import WebSocketDisconnect

    from companion.serve import fresh_sessions

    def app_raising(exc: BaseException) -> Any:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            while (await receive())["type"] != "websocket.disconnect":
                pass
            raise exc

        return app

    async def run(exc: BaseException) -> None:
        frames = [{"type": "websocket.connect"}, {"type": "websocket.disconnect", "code": 1001}]

        async def receive() -> Any:
            return frames.pop(0)

        async def send(message: Any) -> None: ...

        await fresh_sessions(app_raising(exc))({"type": "websocket"}, receive, send)

    run_async(run(WebSocketDisconnect(1006)))  # no exception: nothing to log
    run_async(run(RuntimeError('Cannot call "send" once a close message has been sent.')))
    with pytest.raises(ValueError):  # a bug is still a bug, once the client is there

        async def bug(scope: Any, receive: Any, send: Any) -> None:
            raise ValueError("a bug")

        run_async(fresh_sessions(bug)({"type": "websocket"}, None, None))
