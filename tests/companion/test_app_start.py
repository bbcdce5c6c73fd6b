"""The app always starts (issue 13): a history it must not open gets a clear screen, and
pokerkit loads in the background so the first poker judgement is as quick as the rest."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

import companion.app
from companion.app import build_main
from companion.config import AppConfig
from companion.storage import open_repository
from tests.companion.flet_harness import HeadlessScreen, RecordingConnection, flush, run_async

ROOT = Path(__file__).resolve().parents[2]


def start_app(data_dir: Path) -> HeadlessScreen:
    """Build the app as the server does and show its first page, headless."""
    shown: list[HeadlessScreen] = []

    async def main() -> None:
        conn = RecordingConnection()
        conn.pubsubhub = PubSubHub()
        fs = Session(conn)
        token = _context_page.set(fs.page)
        try:
            build_main(AppConfig(data_dir=data_dir))(fs.page)
            fs.get_page_patch()
            await flush()
            screen = HeadlessScreen(fs, conn)
            assert screen.crashes() == []
            shown.append(screen)
        finally:
            fs.close()
            await flush()
            _context_page.reset(token)

    run_async(main())
    return shown[0]


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".lock"
    }


@pytest.mark.parametrize(
    "version, words",
    [(7, ["newer version", "Update Rummy Companion"]), (0, ["format 0", "another data folder"])],
)
def test_a_history_it_must_not_open_shows_what_to_do_and_stays_untouched(
    tmp_path: Path, version: int, words: list[str]
) -> None:
    repo = open_repository(tmp_path)
    repo.create_game("rummy", ["Ann"])
    repo.close()
    marker = {"meta": {"1": {"schema_version": version, "kind": "store"}}}
    (tmp_path / "format.json").write_text(json.dumps(marker))
    before = files(tmp_path)
    screen = start_app(tmp_path)
    text = " ".join(screen.texts())
    for word in words:
        assert word in text, text
    assert str(tmp_path) in text and "Nothing was changed" in text
    assert files(tmp_path) == before
    assert screen.has("cannot-open-message")


def test_a_normal_history_starts_on_the_home_screen(tmp_path: Path) -> None:
    screen = start_app(tmp_path)
    assert "Rummy Companion" in " ".join(screen.texts())
    assert not screen.has("cannot-open-message")


def test_start_up_loads_pokerkit_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    monkeypatch.setattr(companion.app, "preload_in_background", lambda: started.append(True))
    build_main(AppConfig(data_dir=tmp_path))
    assert started == [True]


def test_first_poker_judgement_after_the_preload_is_as_quick_as_the_rest() -> None:
    """In a fresh interpreter: preload as start-up does, then time the first judgement."""
    script = textwrap.dedent(
        """
        import time
        from companion.preload import preload_in_background
        preload_in_background().join(60)
        from rulesets import poker
        t0 = time.perf_counter()
        poker.judge(["AS KS QS JS 10S 2H", "9C 9D 9H 2S 2C 4H"])
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        poker.judge(["AH KH QH JH 9H 2D", "8C 8D 8H 3S 3C 4D"])
        second = time.perf_counter() - t0
        print(first, second)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    first, second = map(float, out.stdout.split())
    # cold, pokerkit's import alone takes 0.23-1.2 s on this machine
    assert first < max(0.05, 20 * second), (first, second)
