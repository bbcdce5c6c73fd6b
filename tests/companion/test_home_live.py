"""Home follows the table (issue 18): a phone sitting on Home sees "Continue" appear when
the host starts a game, and the tile goes when the host abandons it, without a reload;
and a Rummoli round is not counted twice ("Round 3" while round 2 is played)."""

from __future__ import annotations

from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.access import Table
from companion.app import App
from companion.config import AppConfig
from companion.demo import load_demo
from companion.hub import TableHub
from companion.services import Services
from companion.storage import GameListItem, MemoryRepository
from companion.views.home import progress
from rulesets import load_ruleset
from tests.companion.flet_harness import HeadlessScreen, RecordingConnection, flush, run_async


def test_a_rummoli_round_is_counted_once_from_its_deal_to_its_settling() -> None:
    repo = MemoryRepository()
    load_demo(repo)
    stored = next(repo.get_game(g.id) for g in repo.list_games(limit=50) if g.game == "rummoli")
    ruleset = load_ruleset("rummoli")
    game = ruleset.new_game(stored.players, stored.rules)
    checked = 0
    for action in stored.actions:
        game.push(action)
        summary = game.summary()
        partial = stored.model_copy(
            update={"summary": summary.to_json(), "status": "in_progress", "actions": []}
        )
        if summary.phase in ("widow", "poker", "play"):  # a round being played
            words = progress(GameListItem.from_game(partial), partial)
            assert words == f"Round {summary.hand}", (summary.phase, words)
            checked += 1
    assert checked > 6


class Stored:
    """The phone's client storage, holding its device token."""

    def __init__(self, token: str) -> None:
        self.token = token

    async def get(self) -> str | None:
        return self.token

    async def set(self, token: str) -> None:
        self.token = token

    async def remove(self) -> None:
        self.token = ""


def _home(services: Services, token: str) -> HeadlessScreen:
    conn = RecordingConnection()
    conn.pubsubhub = PubSubHub()
    fs = Session(conn)
    _context_page.set(fs.page)
    fs.page.route = "/"
    services.watch(fs.page)
    fs.page.render_views(App, services, Stored(token))
    fs.get_page_patch()
    return HeadlessScreen(fs, conn)


def test_a_phone_on_home_sees_continue_when_the_host_starts_a_game_and_not_after() -> None:
    repo = MemoryRepository()
    hub = TableHub(repo)
    table = Table(pin="204518")
    host = table.claim_host(table.host_link()).device
    joined = table.join("10.0.0.7", "204518")
    phone = joined.device
    assert host is not None and phone is not None
    host_services = Services.at_table(AppConfig(), hub, table)
    host_services.admit(host)
    phone_services = Services.at_table(AppConfig(), hub, table)
    phone_services.admit(phone)

    async def scenario() -> None:
        screen = _home(phone_services, joined.token)
        try:
            await flush()
            assert not [c for c in screen.texts() if "Games in progress" in c]
            game = host_services.start_game("umtali", ["Ann", "Bob"], {})
            await flush()
            assert screen.has(f"continue-{game.game_id}"), screen.texts()
            host_services.repo.delete_game(game.game_id)  # the host abandons it on Home
            host_services.history_changed()
            await flush()
            assert not screen.has(f"continue-{game.game_id}")
            # and a phone is not offered host-only controls
            assert not screen.has(f"abandon-{game.game_id}")
            assert "Settings" not in screen.texts()
        finally:
            screen.fs.close()
            await flush()

    run_async(scenario())


def test_two_histories_in_one_process_do_not_wake_each_others_home() -> None:
    """Each hub has its own listing: a game started, moved on or abandoned in one history
    wakes Home on that history's devices only -- a second server (or test) in the same
    process does not redraw, and its Home never shows the other's game."""
    ours, theirs = TableHub(MemoryRepository()), TableHub(MemoryRepository())
    table = Table(pin="204518")
    host = table.claim_host(table.host_link()).device
    joined = table.join("10.0.0.7", "204518")
    assert host is not None and joined.device is not None
    phone = Services.at_table(AppConfig(), ours, table)
    phone.admit(joined.device)
    elsewhere = Services(config=AppConfig(), hub=theirs)

    async def scenario() -> None:
        screen = _home(phone, joined.token)
        try:
            await flush()
            heard = phone.news.revision
            game = elsewhere.start_game("umtali", ["Ann", "Bob"], {})
            await flush()
            elsewhere.repo.delete_game(game.game_id)
            elsewhere.history_changed()
            await flush()
            assert phone.news.revision == heard  # the other history's changes: not heard
            assert not screen.has(f"continue-{game.game_id}")
            mine = Services.at_table(AppConfig(), ours, table)
            mine.admit(host)
            started = mine.start_game("umtali", ["Ann", "Bob"], {})
            await flush()
            assert phone.news.revision > heard  # its own history's: heard
            assert screen.has(f"continue-{started.game_id}"), screen.texts()
        finally:
            screen.fs.close()
            await flush()

    run_async(scenario())
