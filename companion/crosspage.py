"""Run code for another browser session: on its event loop, with its page current.

A change made by one device (an entry, the table ending) must re-render other
devices' screens.  Flet schedules a component's re-render on the session of
the *current* page (a context variable), so a callback for device B that runs
inside device A's event handler must first make B's page current, in a
context of its own (never A's: A's later updates would go to B).  Flet's own
``page.run_task`` sets the variable in the caller's context, which is why it
is not used here.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from flet.controls.context import _context_page

__all__ = ["call_in_page"]


def call_in_page(page: Any, fn: Callable[[], None]) -> bool:
    """Run ``fn`` soon on ``page``'s event loop with ``page`` current.

    Returns False when the page is offline (no connection): nothing runs, and
    the page catches up when it reconnects (``page.on_connect``).
    """
    try:
        connection = page.session.connection
    except RuntimeError:  # the page's session is gone
        return False
    if connection is None:
        return False
    ctx = contextvars.Context()
    ctx.run(_context_page.set, page)
    try:
        loop = connection.loop
    except RuntimeError:  # a connection without a loop (headless tests): run here and now
        ctx.run(fn)
        return True
    loop.call_soon_threadsafe(fn, context=ctx)
    return True
