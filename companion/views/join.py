"""Joining a table: the PIN screen a phone sees first, and how a device is recognised again.

A device arrives in one of three ways (see :mod:`companion.access`):

* with the one-time **host link** (``/?host=<secret>``): it becomes the host;
* with a **device token** in its client storage (it joined before, on this
  table): it is let in without a question, also after a reload;
* otherwise it sees the **PIN screen**.

The token is kept with Flet's :class:`~flet.SharedPreferences` (the browser's
local storage on the web); :class:`TokenStore` is the small seam tests replace.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.components.kit.common import said, tag
from companion.components.kit.ui import heading, labelled
from companion.services import Services

__all__ = ["TOKEN_KEY", "ClientTokens", "JoinView", "TokenStore", "arrive", "host_link_in"]

TOKEN_KEY = "rummy-companion.table-device"
#: how long to wait for the browser to answer a client-storage call
CLIENT_TIMEOUT = 5.0
#: how many times a device's stored token is asked for before the PIN screen shows
GET_TRIES = 4


class TokenStore(Protocol):
    """Where a device keeps its table token (its own client storage)."""

    async def get(self) -> str | None: ...

    async def set(self, token: str) -> None: ...

    async def remove(self) -> None: ...


class ClientTokens:
    """The token in the browser's storage, through Flet's SharedPreferences service."""

    def __init__(self) -> None:
        self._prefs: ft.SharedPreferences | None = None

    def _service(self) -> ft.SharedPreferences:
        if self._prefs is None:  # made in the page's context: it registers with that page
            self._prefs = ft.SharedPreferences()
        return self._prefs

    async def get(self) -> str | None:
        # asked again when the browser is slow to answer (a busy host, a phone waking up
        # after a restart): a timeout is not "no token", and would show the PIN screen
        for _ in range(GET_TRIES):
            try:
                value = await asyncio.wait_for(self._service().get(TOKEN_KEY), CLIENT_TIMEOUT)
            except TimeoutError:
                continue
            except RuntimeError:
                return None
            return value if isinstance(value, str) else None
        return None

    async def set(self, token: str) -> None:
        with contextlib.suppress(TimeoutError, RuntimeError):
            await asyncio.wait_for(self._service().set(TOKEN_KEY, token), CLIENT_TIMEOUT)

    async def remove(self) -> None:
        with contextlib.suppress(TimeoutError, RuntimeError):
            await asyncio.wait_for(self._service().remove(TOKEN_KEY), CLIENT_TIMEOUT)


def host_link_in(route: str | None) -> str | None:
    """The host-link secret in a route such as ``/?host=abc`` (None if there is none)."""
    if not route or "?" not in route:
        return None
    values = parse_qs(urlsplit(route).query).get("host")
    return values[0] if values else None


async def arrive(services: Services, tokens: TokenStore, route: str | None) -> str | None:
    """Let this browser session in if it may be: host link, stored token, or the PIN screen.

    Returns the route to show next (the host goes to the table screen), or None.
    """
    table = services.table
    if table is None:
        return None
    link = host_link_in(route)
    if link is not None:
        result = table.claim_host(link)
        if result.device is not None:
            await tokens.set(result.token)  # kept first: a reload right after still knows it
            services.admit(result.device)
            return "/table"
        services.gate.message = result.refusal
    device = table.device(await tokens.get())
    if device is not None:
        services.admit(device)
        return "/table" if link is not None else None
    services.gate.state = "pin"
    return "/" if link is not None else None


async def join_with_pin(services: Services, tokens: TokenStore, pin: str) -> str:
    """A PIN typed on the PIN screen: joins (returns "") or says why not."""
    table = services.table
    if table is None:
        return ""
    result = table.join(services.client, pin)
    if result.device is None:
        return result.refusal
    # the token is kept before the screen changes: a reload the moment Home shows (a
    # phone's browser restoring its tab) must still find it
    await tokens.set(result.token)
    services.admit(result.device)
    return ""


@ft.component
def JoinView(services: Services, tokens: TokenStore) -> ft.View:
    gate, _ = ft.use_state(services.gate)
    typed = ft.use_ref("")
    message, set_message = ft.use_state("")
    busy, set_busy = ft.use_state(False)

    if gate.state == "checking":
        return ft.View(
            route="/",
            padding=24,
            controls=[
                said(
                    ft.Row([ft.ProgressRing(), ft.Text("Joining the table…", size=18)]),
                    "Joining the table",
                    "joining",
                )
            ],
        )

    def on_pin(e: ft.Event[ft.TextField]) -> None:
        typed.current = e.control.value or ""

    async def join(_: Any = None) -> None:
        if busy:
            return
        set_busy(True)
        try:
            refusal = await join_with_pin(services, tokens, typed.current or "")
        finally:
            set_busy(False)
        set_message(refusal)

    shown = message or gate.message
    controls: list[ft.BaseControl] = [
        heading("Join the table", 24),
        ft.Text("Type the PIN shown on the host's screen.", size=16),
        labelled(
            ft.TextField(
                label="PIN",
                keyboard_type=ft.KeyboardType.NUMBER,
                max_length=6,
                autofocus=True,
                width=220,
                text_size=24,
                on_change=on_pin,
                on_submit=join,
            ),
            "PIN",
            "pin-field",
        ),
        tag(ft.FilledButton("Join", icon=ft.Icons.LOGIN, on_click=join, disabled=busy), "pin-join"),
    ]
    if shown:
        controls.append(said(ft.Text(shown, color=ft.Colors.ERROR, size=15), shown, "pin-message"))
    return ft.View(route="/", padding=24, spacing=16, controls=controls)
