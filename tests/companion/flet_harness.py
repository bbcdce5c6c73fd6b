"""A headless Flet session for testing screens without a browser (no client at all).

The component is rendered into a real ``flet`` session whose connection only
records what would be sent; a tap is the ``click`` event the web client sends to
the control behind a semantic identifier.  See ../shared/flet-testing.md §7.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import flet as ft
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub


class RecordingConnection(Connection):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[Any] = []

    def send_message(self, message: Any) -> None:
        self.messages.append(message)


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run in a worker thread (Playwright's sync API may own this thread's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, coro).result()


async def flush(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


class HeadlessScreen:
    """The rendered controls, found by their semantic identifiers."""

    def __init__(self, fs: Session, conn: RecordingConnection) -> None:
        self.fs = fs
        self.conn = conn

    def controls(self) -> list[Any]:
        for _ in range(5):
            try:
                return list(self.fs.index.values())
            except RuntimeError:  # the index changed while we looked
                continue
        return list(self.fs.index.values())

    def semantics(self, ident: str) -> Any:
        found = [
            c
            for c in self.controls()
            if isinstance(c, ft.Semantics) and getattr(c, "identifier", None) == ident
        ]
        assert len(found) == 1, f"{ident}: {len(found)} controls"
        return found[0]

    def has(self, ident: str) -> bool:
        return any(
            isinstance(c, ft.Semantics) and getattr(c, "identifier", None) == ident
            for c in self.controls()
        )

    def label(self, ident: str) -> str:
        return str(self.semantics(ident).label)

    def texts(self) -> list[str]:
        return [str(c.value) for c in self.controls() if isinstance(c, ft.Text) and c.value]

    async def flush(self, n: int = 20) -> None:
        await flush(n)

    async def click(self, ident: str) -> None:
        """Tap the control behind ``ident`` (refused if it is disabled)."""
        target = self.semantics(ident).content
        assert not getattr(target, "disabled", False), f"{ident} is disabled"
        await self.fs.dispatch_event(target._i, "click", None)
        await flush()

    async def change(self, control: Any, value: Any) -> None:
        self.fs.apply_patch(control._i, {"value": value})
        await self.fs.dispatch_event(control._i, "change", None)
        await flush()

    def crashes(self) -> list[Any]:
        return [m for m in self.conn.messages if m.action == MessageAction.SESSION_CRASHED]


S = TypeVar("S", bound=HeadlessScreen)


def render_headless(
    component: Callable[..., Any],
    *args: Any,
    scenario: Callable[[S], Coroutine[Any, Any, None]],
    screen: type[S],
) -> None:
    """Render ``component(*args)``, run ``scenario`` on it, and fail on a session crash."""

    async def main() -> None:
        conn = RecordingConnection()
        conn.pubsubhub = PubSubHub()
        fs = Session(conn)
        token = _context_page.set(fs.page)
        try:
            fs.page.render(component, *args)
            fs.get_page_patch()
            await flush()
            shown = screen(fs, conn)
            await scenario(shown)
            assert shown.crashes() == []
        finally:
            fs.close()
            await flush()
            _context_page.reset(token)

    run_async(main())


async def open_play_screen(hub: Any, gid: str) -> Session:
    """One more device's session with the play screen of game ``gid`` drawn, as the
    web app's main builds it for a phone that opens ``/play/<gid>``."""
    from companion.app import build_main
    from companion.config import AppConfig

    conn = RecordingConnection()
    conn.pubsubhub = PubSubHub()
    fs = Session(conn)
    token = _context_page.set(fs.page)
    try:
        fs.page.route = f"/play/{gid}"
        build_main(AppConfig(), hub)(fs.page)
        fs.get_page_patch()
        await flush(100)
    finally:
        _context_page.reset(token)
    return fs
