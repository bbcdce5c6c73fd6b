"""Settings > Problems and Home's marks (issue 13 item 10): damage is reported at once,
kept across restarts, and can be saved elsewhere or dismissed -- headless, no browser."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app import build_main
from companion.config import AppConfig
from companion.storage import open_repository
from tests.companion.flet_harness import HeadlessScreen, RecordingConnection, flush, run_async

Scenario = Callable[[HeadlessScreen], Awaitable[None]]


def run_app(data_dir: Path, scenario: Scenario, route: str = "/") -> None:
    """Start the app as the server does, go to ``route``, run ``scenario``; no crash allowed."""

    async def main() -> None:
        conn = RecordingConnection()
        conn.pubsubhub = PubSubHub()
        conn.page_url = "http://127.0.0.1"
        fs = Session(conn)
        token = _context_page.set(fs.page)
        try:
            build_main(AppConfig(data_dir=data_dir))(fs.page)
            fs.get_page_patch()
            await flush()
            if route != "/":
                fs.page.route = route
                await fs.dispatch_event(fs.page._i, "route_change", {"route": route})
                await flush(50)
            screen = HeadlessScreen(fs, conn)
            await scenario(screen)
            assert screen.crashes() == []
        finally:
            fs.close()
            await flush()
            _context_page.reset(token)

    run_async(main())


def damaged_game_in_progress(folder: Path) -> str:
    repo = open_repository(folder)
    ok = repo.create_game("rummoli", ["Cy", "Dee"])
    bad = repo.create_game("rummy", ["Ann", "Bob"])
    repo.close()
    (folder / "games" / f"{bad.id}.json").write_text('{"meta": []}')
    assert ok.id
    return bad.id


def test_home_marks_a_damaged_game_at_once(tmp_path: Path) -> None:
    bad = damaged_game_in_progress(tmp_path)

    async def scenario(screen: HeadlessScreen) -> None:
        assert screen.has(f"damaged-{bad}")  # not a "Continue" tile that fails when tapped
        assert not screen.has(f"continue-{bad}")
        assert "could not be read" in screen.label(f"damaged-{bad}")
        assert "1 file of your history could not be read" in screen.label("home-problems")
        assert screen.label("home-see-problems") == "See the problems in Settings"

    run_app(tmp_path, scenario)


def test_problems_are_listed_kept_across_restarts_and_dismissed(tmp_path: Path) -> None:
    bad = damaged_game_in_progress(tmp_path)
    run_app(tmp_path, lambda screen: flush())  # Home finds the damage (and sets it aside)

    async def after_restart(screen: HeadlessScreen) -> None:
        note = screen.label("settings-problem-0")
        assert note.startswith("Problem: A game could not be read. The rummy game of")
        assert "Ann, Bob" in note
        assert "kept as" in note
        assert screen.label("settings-problem-save-0").startswith(
            "Save a copy of the damaged file games_"
        )
        assert "kept" in screen.label("settings-problem-dismiss-0")
        await screen.click("settings-problem-dismiss-0")
        assert not screen.has("settings-problem-0")
        assert screen.has("settings-problems-none")
        assert "stays" in screen.label("settings-problems-result")

    run_app(tmp_path, after_restart, "/settings")
    kept = list((tmp_path / "quarantine").glob(f"*{bad}.json"))
    assert len(kept) == 1 and kept[0].read_text() == '{"meta": []}'  # dismissed, still kept

    async def later(screen: HeadlessScreen) -> None:
        assert screen.has("settings-problems-none") and not screen.has("home-problems")

    run_app(tmp_path, later, "/settings")


def test_no_problems_says_so(tmp_path: Path) -> None:
    async def scenario(screen: HeadlessScreen) -> None:
        assert screen.label("settings-problems-none").startswith("No problems")
        assert not screen.has("home-problems")

    run_app(tmp_path, scenario, "/settings")


def test_a_saved_copy_is_the_damaged_file(tmp_path: Path) -> None:
    damaged_game_in_progress(tmp_path)
    repo = open_repository(tmp_path)
    repo.check_all()
    [problem] = repo.problem_reports()
    name, data = repo.problem_file(problem.id)
    assert data == b'{"meta": []}' and name == problem.id
    assert open_repository(tmp_path).problem_reports() == [problem]
