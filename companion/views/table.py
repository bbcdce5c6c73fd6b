"""The host's table screen, route ``/table``: the join QR code with the PIN beside it,
the devices at the table, and "End the table".

The QR code is made by ``segno`` (a kept QR library) from the join address the
terminal printed; a phone's camera opens it, and the PIN screen asks for the
PIN shown here.  Only the host reaches this screen (the route is host-only,
and ending the table checks the role again).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

import flet as ft
import segno

from companion.access import Capability, Device, NotAllowed, Role
from companion.components.kit.common import said, tag
from companion.components.kit.ui import go, heading, labelled
from companion.services import Services, use_services

__all__ = ["TableView", "host_only_view", "qr_png"]


@functools.lru_cache(maxsize=8)
def qr_png(url: str) -> bytes:
    """The QR code of ``url`` as a PNG (error correction M, quiet zone of 2 modules)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=10, border=2)
    return out.getvalue()


def host_only_view(route: str, title: str, need: Capability) -> ft.View:
    """What a phone sees at a host-only address."""
    words = f"Only the host can {need.value}."
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text(title)),
        padding=16,
        controls=[
            said(ft.Text(words, size=16), words, "host-only"),
            ft.Button("Home", icon=ft.Icons.HOME, on_click=lambda _: go("/")),
        ],
    )


def _device_line(device: Device, me: Device, free: Callable[[str], None]) -> ft.Control:
    """ "The host (this device)", "Phone 2", "Ann (phone 1)" -- and, for a seated
    device, "Free Ann's seat" (the phone left, or sits in the wrong place)."""
    if device.role is Role.HOST:
        words = f"{device.seat}, the host" if device.seat else "The host"
        icon = ft.Icons.COMPUTER
    else:
        words = f"{device.seat} (phone {device.number})" if device.seat else device.words
        icon = ft.Icons.SMARTPHONE
    words += " (this device)" if device is me else ""
    line = said(
        ft.Row([ft.Icon(icon), ft.Text(words, size=15)], tight=True), words, f"device-{device.id}"
    )
    if not device.seat:
        return line
    seat = device.seat
    button = tag(
        ft.TextButton(f"Free {seat}'s seat", on_click=lambda _: free(device.id)),
        f"free-seat-{seat}",
    )
    # the line in a box of its own: drawn straight into the wrapping row, a seated device's
    # line was a grey error box with no words (the host could not read who sat where);
    # probably ``said``'s ``expand=False``, which the client does not read as "no expand"
    # (see ``tag``) and a wrapping row's child may not have
    return ft.Row([ft.Container(line), button], wrap=True, spacing=8)


def _join_panel(services: Services, pin: str) -> ft.Control:
    url = services.join_urls[0] if services.join_urls else ""
    pin_spaced = f"{pin[:3]} {pin[3:]}"
    facts = ft.Column(
        [
            ft.Text("PIN", size=16),
            said(
                ft.Text(pin_spaced, size=44, weight=ft.FontWeight.BOLD, selectable=True),
                f"PIN {pin}",
                "table-pin",
            ),
            ft.Text("Scan the code, or open", size=14),
            said(ft.Text(url, size=16, selectable=True), f"Join address {url}", "join-url"),
            *[ft.Text(f"or {other}", size=13, selectable=True) for other in services.join_urls[1:]],
        ],
        spacing=4,
    )
    parts: list[ft.Control] = []
    if url:
        parts.append(
            labelled(
                ft.Image(src=qr_png(url), width=220, height=220),
                f"QR code of {url}",
                "join-qr",
                image=True,
            )
        )
    parts.append(facts)
    return ft.Row(parts, wrap=True, spacing=24, vertical_alignment=ft.CrossAxisAlignment.CENTER)


@ft.component
def TableView() -> ft.View:
    services = use_services()
    gate, _ = ft.use_state(services.gate)  # re-render when devices join, leave or sit down
    asking, set_asking = ft.use_state(False)
    message, set_message = ft.use_state("")
    table = services.table
    if table is None or not services.can(Capability.RUN_TABLE):
        return host_only_view("/table", "Table", Capability.RUN_TABLE)
    _ = gate.revision

    def end(_: Any) -> None:
        try:
            pin = table.end(services.device)
        except NotAllowed as exc:
            set_message(str(exc))
            return
        set_asking(False)
        set_message(f"The table was ended: every phone left. The new PIN is {pin}.")

    def free(device_id: str) -> None:
        try:
            table.free_seat(services.device, device_id)
        except NotAllowed as exc:
            set_message(str(exc))

    devices = table.devices()
    phones = sum(d.role is Role.PHONE for d in devices)
    controls: list[ft.BaseControl] = [
        heading("Join this table"),
        _join_panel(services, table.pin),
        heading(f"At the table: {phones} phone{'' if phones == 1 else 's'}", 18),
        *[_device_line(d, services.device, free) for d in devices],
    ]
    if table.locked:

        def let_try(_: Any) -> None:
            try:
                table.let_phones_try(services.device)
            except NotAllowed as exc:
                set_message(str(exc))
                return
            set_message("New phones may try the PIN again.")

        words = (
            f"{table.table_misses} wrong PINs were typed at this table: no new phone may try "
            "until you allow it. If nobody here is guessing, let them try again."
        )
        controls.append(said(ft.Text(words, size=15, color=ft.Colors.ERROR), words, "table-locked"))
        controls.append(
            tag(
                ft.FilledButton("Let new phones try", icon=ft.Icons.LOCK_OPEN, on_click=let_try),
                "table-unlock",
            )
        )
    if message:
        controls.append(said(ft.Text(message, size=15), message, "table-message"))
    if asking:
        controls.append(
            ft.Row(
                [
                    ft.Text("Every phone leaves and needs the new PIN.", size=15),
                    tag(
                        ft.FilledButton("End it", icon=ft.Icons.LOGOUT, on_click=end),
                        "table-end-confirm",
                    ),
                    ft.TextButton("Keep playing", on_click=lambda _: set_asking(False)),
                ],
                wrap=True,
            )
        )
    else:
        controls.append(
            tag(
                ft.OutlinedButton(
                    "End the table", icon=ft.Icons.LOGOUT, on_click=lambda _: set_asking(True)
                ),
                "table-end",
            )
        )
    return ft.View(
        route="/table",
        appbar=ft.AppBar(title=ft.Text("Table")),
        scroll=ft.ScrollMode.AUTO,
        padding=16,
        spacing=12,
        controls=controls,
    )
