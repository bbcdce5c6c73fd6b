"""What the process the app runs in can do, chosen once at start-up.

The same views and referee run on a computer (desktop window or ``companion
--web``) and inside a phone's browser (Pyodide, made by ``companion
build-phone``).  What differs is decided here, not in the views:

* background work: a daemon thread on a computer; in a browser, where Python
  has no threads, a callback on the event loop once the first screen is up;
* the history: the data folder with its cross-process file lock on a
  computer; the browser's origin-private file system there
  (:mod:`companion.storage.browser_repo`);
* the table server (several phones on one game) runs only on a computer.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "IN_BROWSER",
    "Abilities",
    "OpfsLog",
    "abilities",
    "in_background",
    "open_browser_history",
]

#: Pyodide: CPython compiled to WebAssembly, in a web worker of the phone's browser
IN_BROWSER = sys.platform == "emscripten"

#: where the browser history lives in the origin-private file system
OPFS_FOLDER = "rummy-companion"


@dataclass(frozen=True)
class Abilities:
    threads: bool
    #: a data folder shared by processes, behind a file lock
    data_folder: bool
    #: ``companion --web`` serving a table to several phones
    table_server: bool


def abilities() -> Abilities:
    if IN_BROWSER:
        return Abilities(threads=False, data_folder=False, table_server=False)
    return Abilities(threads=True, data_folder=True, table_server=True)


def in_background(work: Callable[[], None], name: str, delay_s: float = 1.5) -> Any:
    """Run ``work`` off the path of the first screen: a daemon thread where there are threads.

    In a browser it runs on the event loop ``delay_s`` after the call (the
    first screen is drawn by then); without a running loop it is skipped, and
    whatever it would have prepared is done when first needed.  Returns the
    thread, or None.
    """
    if abilities().threads:
        thread = threading.Thread(target=work, name=name, daemon=True)
        thread.start()
        return thread
    with contextlib.suppress(RuntimeError):  # no running loop
        asyncio.get_running_loop().call_later(delay_s, work)
    return None


# ---- the browser's own storage ---------------------------------------------------------------
class OpfsLog:
    """A log slot in the origin-private file system, through a synchronous access handle.

    ``write`` and ``flush`` on such a handle (web workers only, which is where
    Pyodide runs) return once the bytes are in the browser's storage, so an
    append is durable when it returns.  The handle is exclusive: a second tab
    of the app cannot open it (it is told so instead of losing entries).
    """

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    @staticmethod
    def _at(offset: int) -> Any:
        import js
        from pyodide.ffi import to_js

        return to_js({"at": offset}, dict_converter=js.Object.fromEntries)

    def read(self) -> bytes:
        import js

        size = int(self._handle.getSize())
        buf = js.Uint8Array.new(size)
        self._handle.read(buf, self._at(0))
        data: bytes = buf.to_bytes()
        return data

    def _write(self, data: bytes, offset: int) -> None:
        import js

        buf = js.Uint8Array.new(len(data))
        buf.assign(data)
        written = int(self._handle.write(buf, self._at(offset)))
        if written != len(data):
            raise OSError(f"wrote {written} of {len(data)} bytes")
        self._handle.flush()

    def append(self, data: bytes) -> None:
        self._write(data, int(self._handle.getSize()))

    def reset(self, data: bytes) -> None:
        self._handle.truncate(0)
        self._write(data, 0)

    def close(self) -> None:
        self._handle.close()


async def _opfs_slot(folder: Any, name: str) -> OpfsLog:
    import js
    from pyodide.ffi import to_js

    create = to_js({"create": True}, dict_converter=js.Object.fromEntries)
    file = await folder.getFileHandle(name, create)
    return OpfsLog(await file.createSyncAccessHandle())


async def open_browser_history() -> Any:
    """The phone's history (:class:`~companion.storage.browser_repo.BrowserRepository`)."""
    import js
    from pyodide.ffi import to_js

    from companion.storage import StorageError
    from companion.storage.browser_repo import BrowserRepository

    try:
        root = await js.navigator.storage.getDirectory()
        create = to_js({"create": True}, dict_converter=js.Object.fromEntries)
        folder = await root.getDirectoryHandle(OPFS_FOLDER, create)
        a = await _opfs_slot(folder, "history-a.jsonl")
        try:
            b = await _opfs_slot(folder, "history-b.jsonl")
        except BaseException:
            a.close()  # not kept locked by a tab that cannot use it
            raise
    except Exception as exc:  # JsException: no OPFS, or the app is open in another tab
        words = str(exc)
        if "NoModificationAllowed" in words or "modification" in words.lower():
            raise StorageError(
                "the app is already open in another tab or window of this browser: "
                "close that one and reload this page"
            ) from None
        raise StorageError(f"this browser cannot keep the history ({words})") from None
    return BrowserRepository(a, b, label="this phone's browser storage")
