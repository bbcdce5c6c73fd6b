"""Every screen address answers 200 when a browser reloads it, files still 404.

Runs the real ``companion --web`` server and asks it over HTTP, as a browser does on
reload: Flet's static files used to answer a rule's address (``/rules/umtali/U5.1/``)
with the client page but status 404.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.routes import rule_route
from companion.web_addresses import RIVE_CDN, RIVE_HERE, is_screen_address
from tests.browser.conftest import AppServer
from tests.companion.flet_harness import run_async


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    running = AppServer(Path(tmp_path_factory.mktemp("web-data"))).start()
    try:
        yield running
    finally:
        running.stop()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.parametrize(
    "address",
    [
        "/",
        rule_route("U5.1"),  # /rules/umtali/U5.1/
        "/rules/umtali/U5.1",  # the same, typed without the slash
        rule_route("M5.3"),
        "/rules/rummy/R7.jokers/",
        "/rules/umtali",
        "/rules",
        "/history",
        "/new/rummy",
        "/check",
    ],
)
def test_screen_address_answers_200_with_the_client_page(server: AppServer, address: str) -> None:
    status, body = _get(server.url.rstrip("/") + address)
    assert status == 200, address
    assert b"flutter_bootstrap.js" in body, address  # the Flutter client's page


@pytest.mark.parametrize("address", ["/", "/check", "/flutter_bootstrap.js", "/main.dart.mjs"])
def test_pages_are_not_cross_origin_isolated(server: AppServer, address: str) -> None:
    """Issue 18: with Flet's Cross-Origin-Opener/Embedder-Policy headers the page was
    cross-origin isolated, so Chromium ran Flutter's skwasm renderer on a second thread
    over shared memory, and it crashed now and then ("memory access out of bounds" in
    skwasm.wasm), freezing the page: the rules page's Back could not be tapped.  Without
    them the renderer draws on the page's own thread."""
    with urllib.request.urlopen(server.url.rstrip("/") + address, timeout=10) as r:
        names = {k.lower() for k in r.headers}
    assert "cross-origin-opener-policy" not in names, address
    assert "cross-origin-embedder-policy" not in names, address


def test_missing_files_still_answer_404(server: AppServer) -> None:
    status, _ = _get(server.url + "no-such-file.js")
    assert status == 404
    status, _ = _get(server.url + "assets/fonts/no-such-font.ttf")
    assert status == 404


def test_real_files_are_served_as_files(server: AppServer) -> None:
    status, body = _get(server.url + "flutter_bootstrap.js")
    assert status == 200 and b"<html" not in body[:200].lower()


def test_screen_addresses_are_told_from_files() -> None:
    assert is_screen_address("/rules/umtali/U5.1/")
    assert is_screen_address("/rules/rummoli/M5.3.9")
    assert is_screen_address("/rules/rummy/R7.jokers/")
    assert not is_screen_address("/")
    assert not is_screen_address("/canvaskit/skwasm.wasm")
    assert not is_screen_address("/assets/fonts/card-suits.ttf")


# ---- nothing leaves the table (issue 19 item 7) -----------------------------------------


@pytest.mark.parametrize("address", ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"])
def test_fastapis_documentation_routes_are_off(server: AppServer, address: str) -> None:
    status, body = _get(server.url.rstrip("/") + address)
    assert status == 404 and b"swagger" not in body.lower() and b"openapi" not in body.lower()


@pytest.mark.parametrize("name", ["main.dart.js", "main.dart.wasm"])
def test_the_web_client_is_served_without_the_rive_cdn_address(
    server: AppServer, name: str
) -> None:
    import flet_web

    original = (Path(flet_web.__file__).parent / "web" / name).read_bytes()
    assert RIVE_CDN in original  # what Flet's no-CDN mode leaves in the client
    status, served = _get(server.url + name)
    assert status == 200 and RIVE_CDN not in served and b"cdn.jsdelivr" not in served
    assert len(served) == len(original) and served.count(RIVE_HERE) == original.count(RIVE_CDN)
    assert served.replace(RIVE_HERE, RIVE_CDN) == original  # nothing else changed


def test_a_body_cut_anywhere_is_still_rewritten_whole() -> None:

    from companion.web_addresses import table_only

    text = b"var a='" + RIVE_CDN + b"'+'rive_native.js';"

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for i in range(0, len(text), 7):  # the address split across chunks
            await send({"type": "http.response.body", "body": text[i : i + 7], "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/main.dart.js"}
    run_async(table_only(app)(scope, None, send))
    assert b"".join(m.get("body", b"") for m in sent[1:]) == text.replace(RIVE_CDN, RIVE_HERE)
