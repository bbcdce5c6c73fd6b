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
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["is_screen_address", "serve_screens"]

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
