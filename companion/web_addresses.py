"""Screen addresses answer 200 when a browser reloads them.

Flet serves the web client with a static-files app (``flet_web.fastapi.FletStaticFiles``):
an address that is no file falls back to ``index.html`` -- the Flutter client then
draws the screen of that address -- but only when the address looks like a screen,
i.e. its last part has no extension.  A rule's address such as
``/rules/umtali/U5.1/`` ends in ``U5.1`` once Starlette has normalised away the
trailing slash, and ``.1`` looks like a file extension: the lookup fails, and
Starlette's "404.html" fallback is again answered with ``index.html`` -- so the page
draws, but with status 404 (which a browser may not keep in its history or cache,
and which monitoring reads as a broken link).

:func:`serve_screens` wraps the ASGI app: a GET for an address that names a screen
(a trailing slash, or a last part whose "extension" is only digits, as in a rule ID)
is answered as ``/`` -- the same ``index.html`` -- with 200.  Files (``main.dart.js``,
``assets/fonts/x.ttf``) are untouched, so a missing file still answers 404.

:func:`table_only` keeps every request at the table: FastAPI's documentation
routes (``/docs``, ``/redoc``, ``/openapi.json``) answer 404, and the web client
is served without the one outside address Flet's no-CDN mode leaves in it -- the
Rive runtime (``rive_native.js`` from cdn.jsdelivr.net, fetched by every page
load, though the app draws no Rive animation): that address is replaced, at the
same length, by one on this server, which answers 404 as the CDN does offline.

:func:`one_render_thread` keeps the page out of cross-origin isolation: Flet sends
``Cross-Origin-Opener-Policy``/``-Embedder-Policy`` with every response, which lets
Chromium run Flutter's skwasm renderer on a second thread over shared memory -- and
that renderer crashed now and then (``RuntimeError: memory access out of bounds``
and ``operation does not support unaligned accesses`` in ``skwasm.wasm``, about one
page in ten under load, always just after a frame).  The page then froze: a button
already in the accessibility tree could not be tapped (issue 18, the rules page's
Back after a search).  Without the isolation, the Flutter loader runs the same
skwasm single-threaded (``skwasmSingleThreaded`` in ``flutter_bootstrap.js``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["RIVE_CDN", "is_screen_address", "one_render_thread", "serve_screens", "table_only"]

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

#: ``U5.1``, ``M5.3.9``: a dot followed by digits only is part of a rule ID, no file type.
_RULE_ID_TAIL = re.compile(r"\.\d+$")


def is_screen_address(path: str) -> bool:
    """Whether ``path`` names a screen that Flet's static files would take for a file.

    >>> is_screen_address("/rules/umtali/U5.1/"), is_screen_address("/rules/rummy/M5.3.9")
    (True, True)
    >>> is_screen_address("/"), is_screen_address("/history")  # Flet already serves these
    (False, False)
    >>> is_screen_address("/main.dart.js"), is_screen_address("/assets/fonts/card-suits.ttf")
    (False, False)
    """
    if path in ("", "/"):
        return False
    if path.endswith("/"):
        return True
    last = path.rsplit("/", 1)[-1]
    return bool(_RULE_ID_TAIL.search(last))


def serve_screens(app: ASGIApp) -> ASGIApp:
    """``app``, with every screen address answered by the client's page (200)."""

    async def wrapped(scope: Scope, receive: Any, send: Any) -> None:
        if (
            scope.get("type") == "http"
            and scope.get("method") in ("GET", "HEAD")
            and is_screen_address(str(scope.get("path", "")))
        ):
            root = str(scope.get("root_path", ""))
            scope = {**scope, "path": root + "/", "raw_path": (root + "/").encode()}
        await app(scope, receive, send)

    return wrapped


#: where Flet's web client fetches the Rive runtime from (compiled into main.dart.js/.wasm)
RIVE_CDN = b"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
#: ... and where it fetches it from here instead: the same length (a string in the wasm
#: binary is length-prefixed), on this server, where nothing answers it
RIVE_HERE = b"/no-outside-requests/rive/".ljust(len(RIVE_CDN) - 1, b"-") + b"/"
_CLIENT_FILES = ("/main.dart.js", "/main.dart.wasm")
_DOCS = ("/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")


def table_only(app: ASGIApp) -> ASGIApp:
    """``app`` without FastAPI's docs routes and without requests that leave the table."""

    async def not_found(send: Any) -> None:
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
        await send({"type": "http.response.start", "status": 404, "headers": headers})
        await send({"type": "http.response.body", "body": b"Not found"})

    async def wrapped(scope: Scope, receive: Any, send: Any) -> None:
        path = str(scope.get("path", ""))
        if scope.get("type") != "http":
            await app(scope, receive, send)
        elif path.rstrip("/") in _DOCS:
            await not_found(send)
        elif path.endswith(_CLIENT_FILES) and scope.get("method") == "GET":
            await app(scope, receive, _without_cdn(send))
        else:
            await app(scope, receive, send)

    return wrapped


def _without_cdn(send: Any) -> Any:
    """A ``send`` that passes a whole (uncompressed) response body on with the Rive CDN
    address replaced; other responses (304, compressed) pass unchanged."""
    start: dict[str, Any] | None = None
    body: list[bytes] = []

    async def sending(message: dict[str, Any]) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers", []))
            if message.get("status") == 200 and b"content-encoding" not in headers:
                start = message
                return
        elif message["type"] == "http.response.body" and start is not None:
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            await send(start)
            whole = b"".join(body).replace(RIVE_CDN, RIVE_HERE)
            await send({"type": "http.response.body", "body": whole})
            return
        await send(message)

    return sending


#: the headers that make a page cross-origin isolated (and skwasm multi-threaded)
_ISOLATION = (b"cross-origin-opener-policy", b"cross-origin-embedder-policy")


def one_render_thread(app: ASGIApp) -> ASGIApp:
    """``app``, its pages not cross-origin isolated: Flutter's renderer then draws on
    the page's own thread (see the module's docstring)."""

    async def wrapped(scope: Scope, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in _ISOLATION
                ]
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, sending)

    return wrapped
