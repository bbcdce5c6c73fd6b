"""Start the app: a desktop window where possible, otherwise the web UI.

Web mode is fully offline: the Flutter client, CanvasKit/skwasm, fonts and icons
are served from the ``flet-web`` wheel (``no_cdn=True``); nothing is fetched from
the internet and no browser is opened.

**Table mode** (several phones at one table, see :mod:`companion.access`):
``--web --host ADDR`` with an address other devices can reach (``0.0.0.0``, a
LAN address), or ``--pin NNNNNN`` on any address.  The terminal prints the join
address(es), the PIN (random unless given) and a one-time host link; every
other device sees the PIN screen first.  Flet's own debug logs, which would
show what a device types (its PIN), are kept at INFO or quieter in table mode.
"""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import logging
import os
import platform
import socket
import sys
from collections.abc import Awaitable, Callable, Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.config import ASSETS_DIR, AppConfig, default_data_dir

if TYPE_CHECKING:
    from companion.access import Table
    from companion.hub import TableHub


def _desktop_unavailable_reason() -> str | None:
    """Why the Flet desktop client cannot be used here, or None if it can."""
    if platform.system() == "Linux" and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "no display"
    try:
        import flet_desktop

        flet_desktop.ensure_client_cached()
    except Exception as exc:  # no internet to fetch it, a broken cache, ...
        return f"desktop client unavailable ({type(exc).__name__})"
    return None


def _prepare(config: AppConfig) -> None:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    os.environ["FLET_WEB_NO_CDN"] = "1"  # never reach a CDN, whatever the mode


def _server_class() -> type:
    import uvicorn

    class QuietServer(uvicorn.Server):
        """A uvicorn server whose Ctrl-C / SIGTERM end the program normally (exit 0).

        uvicorn re-raises the captured signal after its graceful shutdown, which
        would kill the process with -15; a table app stopping on request is not
        an error.
        """

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    return QuietServer


def is_loopback(host: str) -> bool:
    """Only this machine can reach ``host`` (127.0.0.1, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: other devices may resolve it
        return False


def _url(address: str, port: int) -> str:
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}/"


def lan_addresses() -> list[str]:
    """This machine's addresses other devices on the network can use (best first).

    The default route's address is found by "connecting" a UDP socket, which
    sends nothing; the host name's addresses follow.  Loopback and link-local
    addresses are left out.
    """
    found: list[str] = []
    for probe in ("192.168.255.255", "10.255.255.255"):
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            found.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    good = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in good:
            good.append(address)
    return good


def join_urls(host: str, port: int) -> list[str]:
    """Where other devices open the app: the given address, or this machine's addresses."""
    if host in ("0.0.0.0", "::", ""):
        return [_url(a, port) for a in lan_addresses()] or [_url("127.0.0.1", port)]
    return [_url(host, port)]


def _quiet_flet_logs() -> None:
    """At a table, never log what devices type (Flet's debug logs show control values)."""
    for name in ("flet", "flet_transport", "flet_object_patch", "flet_controls", "flet_components"):
        log = logging.getLogger(name)
        if log.getEffectiveLevel() < logging.INFO:
            log.setLevel(logging.INFO)


def open_table(
    host: str, port: int, pin: str | None, data_dir: Path | None = None
) -> tuple[Any, list[str]]:
    """The table of this server and its join addresses; prints what the host needs.

    With ``data_dir`` the table is kept there (:meth:`companion.access.Table.open`):
    after a restart the PIN stays (unless ``pin`` is given) and every joined device
    comes back by itself.  A new host link is printed each time (for a new host
    device; the host that opened one before is still the host)."""
    from companion.access import TABLE_FILE, Table

    if data_dir is not None:
        table = Table.open(data_dir / TABLE_FILE, pin=pin)
    else:
        table = Table(pin=pin) if pin else Table()
    urls = join_urls(host, port)
    link = table.host_link()
    print("Table mode: phones on this network join with the PIN.", flush=True)
    for n, url in enumerate(urls):
        print(f"  {'Join address' if n == 0 else '          or'}: {url}", flush=True)
    print(f"  PIN: {table.pin}", flush=True)
    print(
        f"  Host link (open it once, on the device that runs the table): {urls[0]}?host={link}",
        flush=True,
    )
    if not lan_addresses() and host in ("0.0.0.0", "::"):
        print("  (No network address found: is this machine on the network?)", flush=True)
    _quiet_flet_logs()
    return table, urls


#: A browser session left behind by a dropped connection is never resumed (see
#: :func:`fresh_sessions`): it is dropped after this many seconds.
LEFT_SESSION_SECONDS = "120"
#: bytes per piece when the server sends a file: the Flutter client, CanvasKit and the
#: icon font are ~20 MB a cold start, and each piece of Starlette's default 64 KB costs
#: a thread hop and a send -- 1 MB pieces halve the server CPU of that download
FILE_CHUNK = 1024 * 1024

ASGIApp = Callable[[MutableMapping[str, Any], Any, Any], Awaitable[None]]
_REGISTER_CLIENT = 1  # flet.messaging.protocol.MessageAction.REGISTER_CLIENT


def _without_session_id(frame: bytes) -> bytes:
    """A client's "register" frame with its old session id taken out (others unchanged)."""
    import msgpack

    if frame[:1] != b"\x00":
        return frame
    try:
        message = msgpack.unpackb(frame[1:], strict_map_key=False)
    except (ValueError, msgpack.UnpackException):
        return frame
    if (
        isinstance(message, list)
        and len(message) == 2
        and message[0] == _REGISTER_CLIENT
        and isinstance(message[1], dict)
        and message[1].get("session_id")
    ):
        message[1]["session_id"] = None
        return b"\x00" + bytes(msgpack.packb(message))
    return frame


def fresh_sessions(app: ASGIApp) -> ASGIApp:
    """Every connection of the web client starts a fresh Flet session.

    When its connection drops (Wi-Fi, a phone put away), the Flet 1.0.5 web
    client reconnects and asks to resume its old session.  Resumed, that
    session is sent to the client whole, but the client then cannot apply the
    server's later updates: taps reach the server, the screen never changes
    (seen with a bare counter app, too).  So the client's session id is taken
    out of its first message: it gets a new session, drawn from the server's
    state -- the live games are in the hub, the device is recognised by the
    token in its client storage, the address is kept -- and the play screen
    says what it missed (:meth:`companion.services.Services.opened`).

    A connection that closes (a phone put away) is not an error: what Flet
    raises when it sends on it is logged at debug level, not as uvicorn's
    "Exception in ASGI application" with a traceback.
    """

    async def wrapped(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await app(scope, receive, send)
            return
        first = True
        gone = False

        async def first_frame_fresh() -> Any:
            nonlocal first, gone
            message = await receive()
            if message.get("type") == "websocket.disconnect":
                gone = True
            if first and message.get("type") == "websocket.receive" and message.get("bytes"):
                first = False
                message = {**message, "bytes": _without_session_id(message["bytes"])}
            return message

        try:
            await app(scope, first_frame_fresh, send)
        except Exception as exc:
            if not (gone or _is_disconnect(exc)):
                raise
            # a phone put away, a tab closed: Flet's send loop raised on the closed
            # connection; nothing went wrong (no traceback in the log)
            logging.getLogger(__name__).debug("a device's connection closed: %r", exc)

    return wrapped


def _is_disconnect(exc: BaseException) -> bool:
    """Is ``exc`` what sending to a client that went away raises?"""
    from starlette.websockets import WebSocketDisconnect
    from uvicorn.protocols.utils import ClientDisconnected

    return isinstance(exc, WebSocketDisconnect | ClientDisconnected | ConnectionError)


def web_app(
    config: AppConfig,
    hub: TableHub | None = None,
    *,
    table: Table | None = None,
    join_urls: Sequence[str] = (),
    wrap: Callable[[Callable[[Any], None]], Callable[[Any], None]] | None = None,
) -> ASGIApp:
    """The web UI as an ASGI app (what ``serve_web`` serves; tests and benchmarks too).

    ``hub``: the history's live games, when the caller opened the history (default:
    opened here, once, by :func:`companion.app.build_main`).  ``wrap`` wraps the
    per-session entry point (a test may note each page).
    """
    from companion.app import build_main
    from companion.flet_server import flet_asgi
    from companion.web_addresses import one_render_thread, serve_screens, table_only

    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    os.environ.setdefault("FLET_SESSION_TIMEOUT", LEFT_SESSION_SECONDS)
    entry = build_main(config, hub, table=table, join_urls=join_urls)
    from starlette.responses import FileResponse  # what flet_web's static files answer with

    FileResponse.chunk_size = max(FileResponse.chunk_size, FILE_CHUNK)
    # Flet's web app without FastAPI, whose import was a fifth of the start (flet_server)
    asgi = flet_asgi(wrap(entry) if wrap is not None else entry, assets_dir=str(ASSETS_DIR))
    # a reloaded rule address (/rules/umtali/U5.1/) answers 200; reconnects get a fresh
    # session; no docs routes, and no request leaves the table (the Rive runtime's CDN);
    # the renderer draws on the page's own thread (skwasm's second thread crashed)
    return one_render_thread(table_only(serve_screens(fresh_sessions(asgi))))


#: set to 1 to believe proxy headers (X-Forwarded-For) in table mode: only behind a proxy
TRUST_PROXY_ENV = "COMPANION_TRUST_PROXY"


def server_config(asgi: ASGIApp, host: str, port: int, *, at_table: bool) -> Any:
    """uvicorn's settings for the web UI.

    At a table the client address counts wrong PINs, so uvicorn must not take it
    from an ``X-Forwarded-For`` header (its default trusts one sent from this
    machine, which would let a guesser pick a new address per guess): proxy
    headers are off unless ``COMPANION_TRUST_PROXY=1`` asks for them.
    """
    import uvicorn

    trust = not at_table or os.environ.get(TRUST_PROXY_ENV) == "1"
    return uvicorn.Config(
        asgi,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        proxy_headers=trust,
    )


#: allocations between two collections of the youngest objects while serving (CPython's
#: default is 700): drawing a screen for a device allocates thousands of short-lived
#: controls, and at the default the collector ran every few hundred of them
GC_YOUNG_THRESHOLD = 10_000


def tune_gc() -> None:
    """Set the garbage collector for serving screens (issue 20).

    Called once the app is imported, before the first device: what exists then (the
    modules, the rulesets, the hub) lives as long as the server, so it is frozen out of
    every later collection, and the youngest generation is collected every
    :data:`GC_YOUNG_THRESHOLD` allocations.  Most of a redraw's garbage is freed by
    reference counting; the cycles left are few (about a hundred objects a redraw).
    Measured headless with ``benchmarks/table_sync.py --headless-phones 1,3,7``: about a
    fifth of the host's CPU per phone per update was the collector at the defaults.
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def serve_web(config: AppConfig, host: str, port: int, *, pin: str | None = None) -> int:
    """Serve the web UI on host:port until Ctrl-C or SIGTERM (table mode: see above)."""

    at_table = bool(pin) or not is_loopback(host)
    table, urls = open_table(host, port, pin, config.data_dir) if at_table else (None, [])
    from companion.app import open_hub
    from companion.storage import StorageError

    try:  # a history-list line is saved after every screen has redrawn (its worker)
        hub: TableHub | None = open_hub(config, deferred=True)
    except StorageError:
        hub = None  # the app opens it again and says what to do
    asgi = web_app(config, hub, table=table, join_urls=urls)
    url = f"http://{host}:{port}/"
    print(f"Rummy Companion is served at {url} (open it in a browser; Ctrl-C stops)", flush=True)
    server = _server_class()(server_config(asgi, host, port, at_table=at_table))
    tune_gc()  # the app is imported: what is alive now lives as long as the server
    try:
        server.run()  # SIGINT/SIGTERM shut it down gracefully
    finally:
        if hub is not None:
            hub.close()  # every history-list line still waiting is saved
    if not server.started:
        print(f"companion: could not serve on {host}:{port} (port in use?)", file=sys.stderr)
        return 1
    print("Rummy Companion stopped.", flush=True)
    return 0


def serve_desktop(config: AppConfig) -> int:
    import flet as ft

    from companion.app import build_main, open_hub
    from companion.storage import StorageError

    try:  # history-list lines are saved off the tap's path (the hub's listing's worker)
        hub: TableHub | None = open_hub(config, deferred=True)
    except StorageError:
        hub = None  # the app opens it again and says what to do
    try:
        ft.run(build_main(config, hub), assets_dir=str(ASSETS_DIR))
    finally:
        if hub is not None:
            hub.close()  # every history-list line still waiting is saved
    return 0


def serve(
    *,
    web: bool,
    host: str,
    port: int,
    data_dir: Path | None,
    demo: bool = False,
    pin: str | None = None,
) -> int:
    config = AppConfig(data_dir=data_dir or default_data_dir(), web=web)
    _prepare(config)
    if demo:
        from companion.demo import load_demo
        from companion.storage import StorageError, open_repository

        try:
            repo = open_repository(config.data_dir)
        except StorageError as exc:  # the app shows it too, with what to do
            print(f"Demo games not added: {exc}", flush=True)
        else:
            try:
                print(load_demo(repo), flush=True)
            finally:
                repo.close()
    if web or pin:
        return serve_web(config, host, port, pin=pin)
    reason = _desktop_unavailable_reason()
    if reason is not None:
        print(f"No desktop window here ({reason}): serving the web UI instead.", flush=True)
        return serve_web(config, host, port)
    return serve_desktop(config)
