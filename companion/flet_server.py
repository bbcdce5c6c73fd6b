"""Flet's web app on Starlette: the parts ``ft.run(export_asgi_app=True)`` mounts, without FastAPI.

Flet builds the web client's server as a FastAPI app (``flet_web.fastapi.app``).
The app uses nothing FastAPI adds to Starlette: no API routes, no request models,
and its documentation routes answer 404 (:func:`companion.web_addresses.table_only`).
Importing FastAPI built its OpenAPI models (some fifty pydantic classes) and loaded
OpenTelemetry, about a fifth of the server's CPU from the command to the first
screen (``benchmarks/startup.py``).  :func:`flet_asgi` puts the same parts Flet
mounts together on Starlette, which FastAPI is built on:

- ``/ws``: each connection is a :class:`FletApp` (the browser session's messages),
  run on Flet's session manager's threads;
- ``/``: the web client's files (:class:`FletStaticFiles`: ``index.html`` patched
  for this app, the client, the app's assets, the fallback to ``index.html`` for a
  screen's address);
- Flet's response headers (``Access-Control-Allow-Origin`` and the cross-origin
  isolation pair that :func:`~companion.web_addresses.one_render_thread` removes);
- the server's lifespan starts and stops Flet's session manager (``app_manager``),
  which is one per process: it is stopped with the process's last server, as its
  stop deletes every server's patched ``index.html``.

Left out, as the app has no use for them: the OAuth callback route (no sign-in) and
the upload route (Flet mounts it only with an upload folder, which the app never
gives), and Flet's ``FLET_WEB_APP_PATH``/``FLET_ASSETS_DIR``/``FLET_*_ENDPOINT``
settings (the app is served at ``/`` with its own assets).  The settings Flet's
parts read themselves still count (``FLET_SESSION_TIMEOUT``, ``FLET_WEB_NO_CDN``),
and so does ``FLET_LOG_LEVEL``, as ``ft.run`` reads it.

Flet's modules name those Starlette classes through FastAPI's re-exports
(``from fastapi import WebSocket``: it *is* ``starlette.websockets.WebSocket``), and
their package's ``__init__`` builds a FastAPI app.  :func:`flet_parts` loads them with
``fastapi`` standing for a module of just those re-exports and the package standing
without its ``__init__``; both stand-ins are gone once they are loaded, so a later
``import fastapi`` (or ``flet_web.fastapi``) gets the real one, sharing these
modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import logging
import os
import sys
import threading
import types
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["HEADERS", "flet_asgi", "flet_parts"]

ASGIApp = Callable[[MutableMapping[str, Any], Any, Any], Awaitable[None]]

#: what Flet's web app adds to every HTTP response (flet_web.fastapi.app)
HEADERS = (
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-embedder-policy", b"require-corp"),
    (b"access-control-allow-origin", b"*"),
)

_PACKAGE = "flet_web.fastapi"
#: servers of this process between their start and their stop (see flet_asgi's lifespan)
_RUNNING = [0]
_LOCK = threading.Lock()


def _stand_ins() -> dict[str, types.ModuleType]:
    """``fastapi`` as far as Flet's session, static-files and manager modules use it,
    and their package without its ``__init__``."""
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    fastapi = types.ModuleType("fastapi", "FastAPI's re-exports of Starlette (stand-in)")
    staticfiles = types.ModuleType("fastapi.staticfiles")
    fastapi.WebSocket = WebSocket  # type: ignore[attr-defined]
    fastapi.WebSocketDisconnect = WebSocketDisconnect  # type: ignore[attr-defined]
    staticfiles.StaticFiles = StaticFiles  # type: ignore[attr-defined]
    fastapi.staticfiles = staticfiles  # type: ignore[attr-defined]
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{_PACKAGE} is not installed (the flet-web package)")
    package = types.ModuleType(_PACKAGE)
    package.__path__ = list(spec.submodule_search_locations)
    package.__package__ = _PACKAGE
    return {"fastapi": fastapi, "fastapi.staticfiles": staticfiles, _PACKAGE: package}


def flet_parts() -> tuple[Any, Any, Any]:
    """Flet's ``FletApp``, ``FletStaticFiles`` and ``app_manager``, loaded without FastAPI
    (or from FastAPI's Flet package, when something in this process imported it already)."""
    if _PACKAGE in sys.modules or "fastapi" in sys.modules:
        from flet_web.fastapi import FletApp, FletStaticFiles, app_manager

        return FletApp, FletStaticFiles, app_manager
    stand_ins = _stand_ins()
    sys.modules.update(stand_ins)
    try:
        session = importlib.import_module(f"{_PACKAGE}.flet_app")
        static = importlib.import_module(f"{_PACKAGE}.flet_static_files")
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return session.FletApp, static.FletStaticFiles, session.app_manager


def _with_headers(app: ASGIApp) -> ASGIApp:
    """``app`` with :data:`HEADERS` on every HTTP response (what Flet's middleware adds)."""

    async def wrapped(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {k for k, _ in HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await app(scope, receive, sending)

    return wrapped


def flet_asgi(main: Callable[[Any], None], *, assets_dir: str, no_cdn: bool = True) -> ASGIApp:
    """The web app Flet serves for the session entry point ``main``, on Starlette."""
    from starlette.applications import Starlette
    from starlette.routing import Mount, WebSocketRoute

    level = os.environ.get("FLET_LOG_LEVEL", "").strip().upper()  # as ft.run reads it
    if isinstance(logging.getLevelName(level), int) and level:
        logging.basicConfig(level=logging.getLevelName(level))
    fletapp, static_files, manager = flet_parts()

    async def session(websocket: Any) -> None:
        await fletapp(
            loop=asyncio.get_running_loop(),
            executor=manager.executor,
            main=main,
            before_main=None,
        ).handle(websocket)

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        # Flet's manager is one per process, and its shutdown deletes the patched
        # index.html of *every* server in the process: it waits for the last one
        # (tests run several servers in one process, a restarted one among them)
        with _LOCK:
            _RUNNING[0] += 1
            first = _RUNNING[0] == 1
        if first:
            await manager.start()
        try:
            with contextlib.suppress(asyncio.CancelledError):
                yield
        finally:
            with _LOCK:
                _RUNNING[0] -= 1
                last = _RUNNING[0] == 0
            if last:
                await manager.shutdown()

    files = static_files(assets_dir=assets_dir, no_cdn=no_cdn, websocket_endpoint_path="ws")
    app = Starlette(
        routes=[WebSocketRoute("/ws", session), Mount("/", app=files)], lifespan=lifespan
    )
    return _with_headers(app)
