"""Small helpers shared by the views: semantic labels, colours, navigation.

Every interactive control gets a semantic label (screen readers, and the
browser tests, find controls by it) and a stable identifier.
"""

from __future__ import annotations

import re
from typing import Any

import flet as ft

TABLE_GREEN = "#1B5E20"
RED_SUIT = "#C62828"
BLACK_SUIT = "#212121"


def one_line(text: str, **kw: Any) -> ft.Text:
    """``text`` on one line: cut with "…" where it does not fit, never mid-word, and
    read whole by a screen reader (its label is all of it).

    Not a tooltip: Flutter web gives a tooltip's text a node of its own in the
    accessibility tree, apart from the tap target holding it and placed off its
    box (seen on Rummy's hand-over chips at 360x640 and on a desktop: the layout
    audit found the name drawn over the next chip)."""
    return ft.Text(text, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, semantics_label=text, **kw)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def labelled(control: ft.Control, label: str, ident: str | None = None, **kw: Any) -> ft.Semantics:
    """Wrap ``control`` so assistive technology (and tests) know it by ``label``."""
    return ft.Semantics(
        content=control, label=label, identifier=ident or slug(label), container=True, **kw
    )


def tap_target(
    box: ft.Container, label: str, ident: str, *, selected: bool | None = None, **kw: Any
) -> ft.Semantics:
    """``box`` (a tappable container) as one named button for screen readers and tests.

    The words inside are hidden from assistive technology (read once, by ``label``);
    the tap is not: a wrapper that excludes its content's semantics hides the tap too.
    """
    if box.content is not None:
        box.content = ft.Semantics(content=box.content, exclude_semantics=True)
    return ft.Semantics(
        content=box,
        label=label,
        identifier=ident,
        key=ident,
        button=True,
        selected=selected,
        container=True,
        **kw,
    )


def icon_button(
    icon: ft.IconData, label: str, on_click: Any, ident: str | None = None, **kw: Any
) -> ft.Semantics:
    """An icon-only button whose own node is named ``label``.

    The name goes on the icon (``semantics_label``), so the button node that
    assistive technology activates is the named one; a label on a wrapper would
    name a node that cannot be pressed.  The wrapper only carries the test id.
    """
    ident = ident or slug(label)
    return ft.Semantics(
        identifier=ident,
        key=ident,  # a new node when the id changes (see kit.common's KEYS)
        content=ft.IconButton(icon=ft.Icon(icon, semantics_label=label), on_click=on_click, **kw),
    )


def go(route: str) -> None:
    """Navigate to ``route`` (the Router re-renders)."""
    ft.context.page.navigate(route)


def heading(text: str, size: int = 20) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD, semantics_label=text)
