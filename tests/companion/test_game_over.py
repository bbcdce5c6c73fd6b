"""The one ending every game shows, without a browser: each game's table, once its game
is over, draws the shared ``GameOver`` -- the result in words, every player's place,
the score sheet, Undo, "New game, same players", Home and Share -- and the new game
starts with the same players and house rules, dealt first as the referee says."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.components.kit.game_over import result_message
from companion.components.kit.scoreline import ScoreboardContext, use_scoreboard
from companion.components.kit.ui import slug
from companion.hub import TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from companion.views.play import table_component
from rulesets import load_ruleset
from tests.companion.flet_harness import HeadlessScreen, render_headless

GAMES = ["umtali", "rummy", "rummoli"]


def finished(game: str, seed: int = 1) -> GameSession:
    """A whole random game of ``game``, recorded through a session on a memory history."""
    record = load_ruleset(game).random_record(seed)
    session = GameSession.start(
        TableHub(MemoryRepository()), game, record.players, dict(record.rules), record.actions
    )
    assert session.summary.finished and session.summary.ending is not None
    return session


@ft.component
def Host(session: GameSession) -> ft.Control:
    """The play frame, in short: subscribe to the session and draw its game's table."""
    ft.use_state(session)
    board = use_scoreboard()
    table = table_component(session.meta.game)
    return ScoreboardContext(board, lambda: table(session))


class Screen(HeadlessScreen):
    pass


def drive(session: GameSession, scenario: Any) -> None:
    render_headless(Host, session, scenario=scenario, screen=Screen)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ends_on_the_one_ending_with_winner_places_and_three_actions(
    game: str,
) -> None:
    session = finished(game)
    summary = session.summary
    ending = summary.ending
    assert ending is not None

    async def scenario(sc: Screen) -> None:
        assert sc.label("result") == f"Result: {ending.text}"
        for r in summary.ranking():
            label = sc.label(f"rank-{slug(r.player)}")
            assert label.startswith(f"{r.place}. {r.player}: {summary.units.of(r.total)}")
            assert label.endswith(", winner") == (r.player in summary.winners)
        # the next game's deal in the bar, with its rule
        assert f"Next game: {ending.next_deal}." in sc.label("game-over")
        assert sc.has("game-over-rule")
        for ident in ("play-again", "go-home", "share-result", "undo"):
            assert sc.has(ident), ident
        assert not sc.semantics("undo").content.disabled  # the last entry can be taken back
        assert "New game, same players" in sc.texts()
        assert sc.label("share-result").startswith("Share the result")
        assert any("Score sheet" in t for t in sc.texts())

    drive(session, scenario)


@pytest.mark.parametrize("game", GAMES)
def test_new_game_same_players_starts_with_the_same_table_and_the_next_dealer(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    routes: list[str] = []  # where the screen went (no client here to navigate)
    monkeypatch.setattr("companion.components.kit.game_over.go", routes.append)
    session = finished(game, seed=2)
    ending = session.summary.ending
    assert ending is not None
    repo = session.repo
    before = {g.id for g in repo.list_games()}

    async def scenario(sc: Screen) -> None:
        await sc.click("play-again")
        new = [g for g in repo.list_games() if g.id not in before]
        assert len(new) == 1
        stored = repo.get_game(new[0].id)
        assert stored.game == game
        assert stored.players == list(session.meta.players)
        assert stored.rules == dict(session.meta.rules)
        first = stored.actions[0]
        assert first["dealer"] == ending.next_dealer
        if ending.chips is not None:  # Rummoli: the same starting chips
            assert tuple(first["chips"]) == ending.chips
        assert len(stored.actions) == 1  # nothing played yet
        assert session.summary.finished  # the finished game is as it was
        assert routes == [f"/play/{stored.id}"]

    drive(session, scenario)


@pytest.mark.parametrize("game", GAMES)
def test_two_devices_asking_for_a_new_game_get_the_same_one(game: str) -> None:
    session = finished(game, seed=3)
    other = GameSession.open(session._hub, session.game_id)  # a second device at the table
    first = session.play_again()
    second = other.play_again()
    assert isinstance(first, GameSession) and isinstance(second, GameSession)
    assert second.game_id == first.game_id
    assert len(session.repo.list_games()) == 2
    first.close()
    second.close()


def test_undo_at_the_end_takes_back_the_last_entry_and_the_game_goes_on() -> None:
    session = finished("umtali")
    n = len(session.actions)

    async def scenario(sc: Screen) -> None:
        await sc.click("undo")
        assert len(session.actions) == n - 1
        assert not session.summary.finished
        assert not sc.has("play-again")

    drive(session, scenario)


def test_share_without_a_browser_goes_through_the_phone_and_never_fails() -> None:
    session = finished("rummy")

    async def scenario(sc: Screen) -> None:
        await sc.click("share-result")  # no share sheet nor clipboard here: nothing breaks
        assert sc.has("result")

    drive(session, scenario)


def test_result_message_says_the_result_every_place_and_the_hands() -> None:
    session = finished("rummoli")
    summary = session.summary
    text = result_message("Rummoli", "3 Dec 2026", summary)
    lines = text.splitlines()
    assert summary.ending is not None
    assert lines[0] == f"Rummoli, 3 Dec 2026: {summary.ending.text}"
    assert len(lines) == len(summary.players) + 2
    assert lines[-1] == f"{len(summary.hands)} rounds played."
    assert lines[1].startswith("1. ") and lines[1].endswith(" chips")
