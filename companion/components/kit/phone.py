"""What a phone app is expected to do: keep the screen awake, tick on an entry, share.

Flet 1.0 ships these as services (``ft.Wakelock``, ``ft.HapticFeedback``,
``ft.Share``, ``ft.Clipboard``).  In a web browser or a desktop window some are
no-ops or unsupported, and a client may never answer: every call here runs in
the background, gives up after :data:`ANSWER_S`, and swallows any error, so a
missing service never breaks a tap.

One :class:`Phone` per page, made the first time it is needed (never during a
render: registering a service updates the page).

* :func:`tick` -- a short haptic tick when an entry is accepted (``None``) and a
  different, heavier one when it is refused (a :class:`~companion.session.Refusal`).
* :func:`keep_awake` -- the wakelock on while a game is open, off when it closes.
* :func:`share_text` -- a finished game's result through the share sheet; where
  the platform has none, the text goes to the clipboard instead (and the
  returned words say which).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

__all__ = ["ANSWER_S", "Phone", "keep_awake", "phone", "share_text", "tick"]

log = logging.getLogger(__name__)

#: how long a service call may take before it is given up (the web client may never answer)
ANSWER_S = 3.0
_ATTR = "_companion_phone"


async def _guarded(call: Callable[[], Awaitable[Any]]) -> Any:
    """``await call()``, or None if it fails or takes too long."""
    try:
        return await asyncio.wait_for(call(), timeout=ANSWER_S)
    except Exception as exc:  # a platform without the service: never fail a tap for it
        log.debug("phone service call failed: %r", exc)
        return None


class Phone:
    """The phone services of one page (each made on first use)."""

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        #: what was asked of the wakelock last (so a re-render asks only once)
        self.awake = False

    # the services, made on first use (registering one updates the page)
    @functools.cached_property
    def haptic(self) -> ft.HapticFeedback:
        return ft.HapticFeedback()

    @functools.cached_property
    def wakelock(self) -> ft.Wakelock:
        return ft.Wakelock()

    @functools.cached_property
    def sharer(self) -> ft.Share:
        return ft.Share()

    @functools.cached_property
    def clipboard(self) -> ft.Clipboard:
        return ft.Clipboard()

    def run(self, call: Callable[[], Awaitable[Any]]) -> None:
        """Run ``call`` in the background on the page's event loop; never raises."""

        async def job() -> None:
            await _guarded(call)

        try:
            self.page.session.connection.loop  # noqa: B018 - raises without a client
            self.page.run_task(job)
        except Exception as exc:  # no loop (a test without a client) or a closed page
            log.debug("phone service not run: %r", exc)

    def tick(self, refused: bool) -> None:
        """A light tick for an accepted entry, a heavy one (a buzz) for a refused one."""
        try:
            haptic = self.haptic
        except Exception as exc:
            log.debug("no haptic feedback: %r", exc)
            return
        self.run(haptic.heavy_impact if refused else haptic.light_impact)

    def keep_awake(self, on: bool) -> None:
        if on == self.awake:
            return
        self.awake = on
        try:
            lock = self.wakelock
        except Exception as exc:
            log.debug("no wakelock: %r", exc)
            return
        self.run(lock.enable if on else lock.disable)

    async def share_text(self, text: str, subject: str) -> str:
        """Share ``text``; the words to show afterwards ("Shared" / "Copied ...")."""
        result = await _guarded(lambda: self.sharer.share_text(text, subject=subject))
        status = getattr(result, "status", None)
        if status is not None and status != ft.ShareResultStatus.UNAVAILABLE:
            return "Result shared." if status == ft.ShareResultStatus.SUCCESS else ""
        await _guarded(lambda: self.clipboard.set(text))
        return "Result copied: paste it into a message."


def phone(page: ft.Page | None = None) -> Phone:
    """The :class:`Phone` of ``page`` (the current page by default)."""
    page = page or ft.context.page
    found = getattr(page, _ATTR, None)
    if not isinstance(found, Phone):
        found = Phone(page)
        # a plain attribute, not a control field: never sent to the client
        object.__setattr__(page, _ATTR, found)
    return found


def tick(outcome: object) -> None:
    """The haptic answer to an entry: ``None`` = accepted, anything else = refused."""
    with contextlib.suppress(Exception):
        phone().tick(outcome is not None)


def keep_awake(on: bool) -> None:
    """Keep the screen on (a game is open) or let it sleep again."""
    with contextlib.suppress(Exception):
        phone().keep_awake(on)


async def share_text(text: str, subject: str) -> str:
    """Share ``text`` (see :meth:`Phone.share_text`); never raises."""
    try:
        return await phone().share_text(text, subject)
    except Exception as exc:
        log.debug("share failed: %r", exc)
        return ""
