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


def test_start_up_loads_pokerkit_in_the_background_once_the_first_screen_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    monkeypatch.setattr(companion.app, "preload_in_background", lambda: started.append(True))
    build_main(AppConfig(data_dir=tmp_path))
    assert started == []  # not while the server comes up
    start_app(tmp_path)
    assert started == [True]


#: what the server must not import before its first screen is up: the poker evaluator
#: (the preload loads it after), History's charts, the rules search's fuzzy matching,
#: the table screen's QR code, FastAPI and the OpenTelemetry it loads (flet_server)
NOT_AT_START = ("pokerkit", "flet_charts", "rapidfuzz", "segno", "fastapi", "opentelemetry")


def test_the_server_up_to_its_first_screen_imports_nothing_it_does_not_need() -> None:
    """In a fresh interpreter, as ``companion --web`` starts: the web app is built (the
    history opened, Flet's web app) and a session shows the home screen -- and none of
    :data:`NOT_AT_START` nor any screen a first start does not show is imported."""
    script = textwrap.dedent(
        """
        import sys, tempfile
        from pathlib import Path
        import companion.app
        companion.app.preload_in_background = lambda: None
        from companion import serve
        from companion.config import AppConfig
        from tests.companion.test_app_start import NOT_AT_START, start_app
        data = Path(tempfile.mkdtemp())
        serve.web_app(AppConfig(data_dir=data))
        start_app(data)
        later = sorted({f"companion.views.{m}" for m in companion.app.LATER.values()})
        loaded = {m.partition(".")[0] for m in sys.modules} | set(sys.modules)
        print(" ".join(m for m in [*NOT_AT_START, *later] if m in loaded) or "none")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["none"]


def test_a_first_start_builds_no_storage_validator_it_does_not_use() -> None:
    """In a fresh interpreter: the server's start up to the home screen of an empty
    history validates no stored record, so it builds none of the storage models'
    validators (pydantic ``defer_build``); each is built when first used."""
    script = textwrap.dedent(
        """
        import tempfile
        from pathlib import Path
        import companion.app
        companion.app.preload_in_background = lambda: None
        from companion import serve
        from companion.config import AppConfig
        from companion.storage import files, models
        from tests.companion.test_app_start import start_app
        data = Path(tempfile.mkdtemp())
        serve.web_app(AppConfig(data_dir=data))
        start_app(data)
        kinds = [models.StoredGame, models.GameListItem, models.Player, models.ImportReport,
                 models.Problem, files.IndexOp, files.CreateOp, files.ImportOp, files.RenameOp]
        built = [k.__name__ for k in kinds if k.__pydantic_complete__]
        adapters = {"actions": files._ACTION_DOCS, "index": files._INDEX_LINES,
                    "players": files._PLAYERS, "journal": files._JOURNAL_OP}
        built += [name for name, adapter in adapters.items() if adapter.pydantic_complete]
        print(" ".join(built) or "none")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["none"]


def test_the_preload_leaves_nothing_for_the_first_poker_judgement_to_load() -> None:
    """In a fresh interpreter: pokerkit is not loaded at first, the preload loads it and fills
    the hand cache, so the first judgement at the table pays no import (its time is measured
    in benchmarks/bench_poker.py, not asserted here)."""
    script = textwrap.dedent(
        """
        import sys
        from companion.preload import preload_in_background
        from rulesets import poker
        before = "pokerkit" in sys.modules
        preload_in_background().join(60)
        print(before, "pokerkit" in sys.modules, poker._pk_hand.cache_info().currsize)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    before, after, cached = out.stdout.split()
    assert (before, after) == ("False", "True")
    assert int(cached) >= 1


@pytest.mark.parametrize("name", sorted(companion.app.LATER))
def test_a_screen_imported_later_is_the_real_component(name: str) -> None:
    """What the Router calls for a deferred route renders the view's own component."""
    import importlib

    screen = companion.app.later(name)
    real = getattr(importlib.import_module(f"companion.views.{companion.app.LATER[name]}"), name)
    assert getattr(real, "__is_component__", False), name
    rendered: list[object] = []

    class Renderer:
        def render_component(self, fn: object, args: object, kwargs: object, key: object) -> str:
            rendered.append(fn)
            return "node"

    from flet.components import utils

    token = utils._CURRENT_RENDERER.set(Renderer())  # type: ignore[arg-type]
    try:
        assert screen() == "node"
    finally:
        utils._CURRENT_RENDERER.reset(token)
    assert rendered == [real.__component_impl__]


def test_the_web_server_sends_files_in_big_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold start downloads ~20 MB (Flutter client, CanvasKit, icon font); Starlette's
    64 KB pieces cost a thread hop and a send each, so the server sends 1 MB pieces."""
    from starlette.responses import FileResponse

    from companion import serve

    monkeypatch.setattr(FileResponse, "chunk_size", 64 * 1024)
    monkeypatch.setenv("FLET_FORCE_WEB_SERVER", "1")  # web_app sets both: put back after
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", serve.LEFT_SESSION_SECONDS)
    serve.web_app(AppConfig(data_dir=tmp_path))
    assert FileResponse.chunk_size >= serve.FILE_CHUNK >= 1024 * 1024
