"""The app inside a phone's browser (the entry of ``companion build-phone``).

The same :func:`companion.app.build_main` with the same views: only the
history differs, kept in the browser's own storage
(:func:`companion.platform.open_browser_history`), opened once when the page
starts.  Table mode (several phones on one game) needs a computer running
``companion --web``; on the phone it is one device passed around the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.config import AppConfig
from companion.storage import StorageError

if TYPE_CHECKING:
    from companion.hub import TableHub

__all__ = ["main"]

#: preferences (theme) live here: the Pyodide file system, kept for the page's life
BROWSER_DATA_DIR = Path("/home/pyodide/rummy-companion")

#: the browser's history and its live games, opened once for the page's life
_hub: TableHub | None = None


def _cannot_open(page: ft.Page, error: StorageError) -> None:
    from companion.app import theme
    from companion.views.cannot_open import CannotOpenView

    message = f"{str(error)[:1].upper()}{str(error)[1:]}. Nothing was changed."
    steps = [
        "Close every other tab or window of Rummy Companion in this browser, then reload.",
        "If this browser is in private mode, open the app in a normal tab: private tabs "
        "cannot keep games.",
    ]
    page.title = "Rummy Companion"
    page.theme = theme()
    page.render_views(lambda: CannotOpenView(message, steps))


async def main(page: ft.Page) -> Any:
    from companion.app import build_main
    from companion.hub import TableHub
    from companion.platform import open_browser_history

    global _hub
    if _hub is None:
        try:
            _hub = TableHub(await open_browser_history())
        except StorageError as exc:
            _cannot_open(page, exc)
            return None
    build_main(AppConfig(data_dir=BROWSER_DATA_DIR, web=True), _hub)(page)
    return None
