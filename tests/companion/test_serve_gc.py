"""The web server's garbage collector is set for drawing screens before the first device
comes (issue 20): what the app imported is frozen out of later collections, and the
youngest objects are collected less often than CPython's default of every 700.

(Settings, not times: the CPU this saves is measured by ``benchmarks/table_sync.py``.)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import serve
from companion.config import AppConfig


@pytest.fixture
def gc_restored() -> Iterator[None]:
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_tune_gc_freezes_what_is_alive_and_collects_the_young_less_often(
    gc_restored: None,
) -> None:
    gc.unfreeze()
    _, older, oldest = gc.get_threshold()
    serve.tune_gc()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (serve.GC_YOUNG_THRESHOLD, older, oldest)
    assert serve.GC_YOUNG_THRESHOLD > 700  # CPython's default


def test_the_web_server_runs_with_the_tuned_collector(
    gc_restored: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.unfreeze()
    seen: dict[str, Any] = {}

    class Server:
        started = True

        def __init__(self, config: Any) -> None:
            pass

        def run(self) -> None:
            seen["threshold"] = gc.get_threshold()[0]
            seen["frozen"] = gc.get_freeze_count()

    monkeypatch.setattr(serve, "_server_class", lambda: Server)
    assert serve.serve_web(AppConfig(data_dir=tmp_path), "127.0.0.1", 8765) == 0
    assert seen["threshold"] == serve.GC_YOUNG_THRESHOLD
    assert seen["frozen"] > 0
