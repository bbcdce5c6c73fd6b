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

import pytest

from companion.routes import rule_route
from companion.web_addresses import is_screen_address
from tests.browser.conftest import AppServer


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
