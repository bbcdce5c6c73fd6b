"""Screenshots that show the app, not the blank frames Flutter paints while booting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser.conftest import stable_screenshot

#: a painted screen of this app is tens of KB as PNG; a blank or boot frame a few KB
PAINTED_BYTES = 12_000


def painted_screenshot(page: Any, name: str, timeout_s: float = 30.0) -> Path:
    """``stable_screenshot``, taken again until the screen is painted (the semantics
    tree, which the test waited on, can be complete before the first real frame)."""
    deadline = time.monotonic() + timeout_s
    path = stable_screenshot(page, name)
    while path.stat().st_size < PAINTED_BYTES and time.monotonic() < deadline:
        page.wait_for_timeout(300)
        path = stable_screenshot(page, name)
    assert path.stat().st_size >= PAINTED_BYTES, f"{name}: the screen stayed blank"
    return path
