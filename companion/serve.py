"""Start the app: a desktop window where possible, otherwise the web UI.

Web mode is fully offline: the Flutter client, CanvasKit/skwasm, fonts and icons
are served from the ``flet-web`` wheel (``no_cdn=True``); nothing is fetched from
the internet and no browser is opened.
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.config import ASSETS_DIR, AppConfig, default_data_dir


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


def serve_web(config: AppConfig, host: str, port: int) -> int:
    """Serve the web UI on host:port until Ctrl-C or SIGTERM."""
    import flet as ft
    import uvicorn

    from companion.app import build_main
    from companion.web_addresses import serve_screens

    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    asgi = ft.run(
        build_main(config),
        export_asgi_app=True,
        assets_dir=str(ASSETS_DIR),
        no_cdn=True,
        name="",
    )
    asgi = serve_screens(asgi)  # a reloaded rule address (/rules/umtali/U5.1/) answers 200
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    url = f"http://{host}:{port}/"
    print(f"Rummy Companion is served at {url} (open it in a browser; Ctrl-C stops)", flush=True)
    if shown != "localhost" and host in ("0.0.0.0", "::"):
        print("Other devices on your network can use this machine's address.", flush=True)
    server = _server_class()(
        uvicorn.Config(asgi, host=host, port=port, log_level="warning", ws="websockets-sansio")
    )
    server.run()  # SIGINT/SIGTERM shut it down gracefully
    if not server.started:
        print(f"companion: could not serve on {host}:{port} (port in use?)", file=sys.stderr)
        return 1
    print("Rummy Companion stopped.", flush=True)
    return 0


def serve_desktop(config: AppConfig) -> int:
    import flet as ft

    from companion.app import build_main

    ft.run(build_main(config), assets_dir=str(ASSETS_DIR))
    return 0


def serve(
    *,
    web: bool,
    host: str,
    port: int,
    data_dir: Path | None,
    demo: bool = False,
) -> int:
    config = AppConfig(data_dir=data_dir or default_data_dir(), web=web)
    _prepare(config)
    if demo:
        from companion.demo import load_demo
        from companion.storage import open_repository

        repo = open_repository(config.data_dir)
        try:
            print(load_demo(repo), flush=True)
        finally:
            repo.close()
    if web:
        return serve_web(config, host, port)
    reason = _desktop_unavailable_reason()
    if reason is not None:
        print(f"No desktop window here ({reason}): serving the web UI instead.", flush=True)
        return serve_web(config, host, port)
    return serve_desktop(config)
