"""Flet's web app served on Starlette without FastAPI (companion/flet_server.py, issue 20).

The real ``companion --web`` serves the client and a session over its WebSocket; Flet's
parts are loaded with FastAPI's re-exports standing in, which must be FastAPI's very
classes, and leave no stand-in behind.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.sync.client import connect

from companion.flet_server import HEADERS
from tests.browser.conftest import AppServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    running = AppServer(Path(tmp_path_factory.mktemp("web-data"))).start()
    try:
        yield running
    finally:
        running.stop()


def test_a_browser_session_is_served_home_over_the_websocket(server: AppServer) -> None:
    """What the web client does first: register on ``/ws``; the session's first page
    patch is the home screen."""
    register = {"session_id": None, "page_name": "", "page": {"route": "/", "width": 390}}
    received = b""
    ws_url = server.url.replace("http://", "ws://") + "ws"
    with connect(ws_url, open_timeout=30) as ws:
        ws.send(b"\x00" + msgpack.packb([1, register]))
        deadline = time.monotonic() + 60
        while b"game-rummoli" not in received and time.monotonic() < deadline:
            received += ws.recv(timeout=60)
    assert b"game-rummoli" in received and b"Rummy Companion" in received


def test_responses_carry_flets_headers_but_the_isolation_pair(server: AppServer) -> None:
    """Flet's web app adds Access-Control-Allow-Origin and the cross-origin isolation
    pair; the pair is taken off again (web_addresses.one_render_thread, issue 18)."""
    with urllib.request.urlopen(server.url, timeout=10) as r:
        headers = {k.lower(): v for k, v in r.headers.items()}
    assert headers["access-control-allow-origin"] == "*"
    assert {k.decode() for k, _ in HEADERS} - set(headers) == {
        "cross-origin-opener-policy",
        "cross-origin-embedder-policy",
    }


def _fresh(script: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_flets_parts_load_without_fastapi_and_leave_no_stand_in() -> None:
    """In a fresh interpreter: loading Flet's session and static-files parts imports no
    FastAPI; afterwards ``fastapi`` and ``flet_web.fastapi`` are the real packages, and
    the classes that stood in are FastAPI's own (its re-exports of Starlette)."""
    printed = _fresh(
        """
        import sys
        from companion.flet_server import flet_parts
        FletApp, FletStaticFiles, manager = flet_parts()
        print("fastapi" in sys.modules, "flet_web.fastapi" in sys.modules)
        import fastapi, fastapi.staticfiles, flet_web.fastapi
        session = sys.modules[FletApp.__module__]
        static = sys.modules[FletStaticFiles.__module__]
        print(
            hasattr(fastapi, "FastAPI"),
            flet_web.fastapi.FletApp is FletApp,
            flet_web.fastapi.FletStaticFiles is FletStaticFiles,
            flet_web.fastapi.app_manager is manager,
            session.WebSocket is fastapi.WebSocket,
            session.WebSocketDisconnect is fastapi.WebSocketDisconnect,
            FletStaticFiles.__mro__[1] is fastapi.staticfiles.StaticFiles,
        )
        """
    )
    assert printed == ["False", "False"] + ["True"] * 7


def test_flets_parts_come_from_fastapi_when_it_is_imported_already() -> None:
    printed = _fresh(
        """
        import flet_web.fastapi
        from companion.flet_server import flet_parts
        FletApp, FletStaticFiles, manager = flet_parts()
        print(FletApp is flet_web.fastapi.FletApp, manager is flet_web.fastapi.app_manager)
        """
    )
    assert printed == ["True", "True"]


def test_a_server_stopping_leaves_another_in_the_process_its_client_page(
    tmp_path: Path,
) -> None:
    """Flet's session manager is one per process and its stop deletes every server's
    patched index.html; a server stopping (a restart in a test process) left the other
    servers serving Flet's unpatched page, on which the client never got past loading."""
    from starlette.testclient import TestClient

    from companion.config import ASSETS_DIR
    from companion.flet_server import flet_asgi

    def pages() -> Any:
        return flet_asgi(lambda page: None, assets_dir=str(ASSETS_DIR))

    with TestClient(pages()) as staying:
        assert b"flet.noCdn=true" in staying.get("/").content
        with TestClient(pages()) as leaving:
            assert b"flet.noCdn=true" in leaving.get("/").content
        assert b"flet.noCdn=true" in staying.get("/").content
