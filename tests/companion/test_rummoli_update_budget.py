"""Rummoli of eight: how many controls each other phone builds for one entry (issue 20).

Every phone at the table draws its screen again for every entry anyone makes, and
Flet spends ~0.1 ms of the host's CPU per control a session builds and compares, per
phone.  Several headless sessions follow one game; another device makes the entry;
the controls each phone built for it (Flet's control ids handed out, per phone) must
stay within a budget -- the parts that did not change are not built again:

* a deal (between rounds -> the widow: every stack antes into every pot, a new panel);
* a chip put on a stack late in the game (the settlement and four rounds on screen);
* a bet in the poker of eight (one bettor's row, not all eight, nor the winners).

Budgets, not times (the CPU is measured by ``benchmarks/table_sync.py
--headless-phones``); each sits under what the screen built before (deal 265, late
chip 140, bet 208 controls per phone for these entries).
"""

from __future__ import annotations

import random
from typing import Any

from flet.controls import id_counter

from companion.hub import Actor, TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from rulesets.rummoli import Phase, RummoliGame, RummoliRules
from rulesets.rummoli.actions import Deal, Start
from rulesets.rummoli.simulate import _random_round, _Table
from tests.companion.flet_harness import flush, open_play_screen, run_async

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _played(rounds: int) -> list[dict[str, Any]]:
    """A game of eight after ``rounds`` random legal rounds (between rounds)."""
    table = _Table(RummoliGame(PLAYERS, RummoliRules()), random.Random(3), by_name=True)
    table.game.push(Start(chips=[200] * 8, dealer="Ann"))
    for _ in range(rounds):
        table.game.push(Deal())
        _random_round(table)
    return list(table.game.to_record().actions)


def built_per_phone(
    opening: list[dict[str, Any]], entry: dict[str, Any], arrived: str, phones: int = 2
) -> float:
    """Controls each of ``phones`` sessions on the game built for ``entry``, made by
    another device (accepted, and ``arrived`` -- a label or text -- on every phone)."""
    hub = TableHub(MemoryRepository())
    game = GameSession.start(hub, "rummoli", PLAYERS, {}, opening)
    live = GameSession.open(hub, game.game_id).live

    async def run() -> float:
        sessions = [await open_play_screen(hub, game.game_id) for _ in range(phones)]
        await flush(60)
        first = id_counter.ControlId.next()
        assert live.submit([entry], actor=Actor("elsewhere", "Bob")).refusal is None
        await flush(100)
        built = (id_counter.ControlId.next() - first - 1) / phones
        for fs in sessions:
            said = [
                str(getattr(c, "label", None) or getattr(c, "value", "")) for c in fs.index.values()
            ]
            assert any(x.startswith(arrived) for x in said), arrived
        for fs in sessions:
            fs.close()
        await flush()
        return built

    result: float = run_async(run())
    return result


def test_a_deal_builds_the_new_panel_and_the_changed_figures_only() -> None:
    opening = [{"type": "start", "chips": [60] * 8, "dealer": 0}]
    built = built_per_phone(opening, {"type": "deal"}, "Round 1: Ann deals")
    # the widow's panel (~75 controls), nine pots and eight stacks with their new
    # figures (~5 and ~7 controls each), the bar and the play frame's figures: 239 (265 before)
    assert built <= 250, built


def test_a_chip_late_in_the_game_builds_its_stack_and_tab_not_the_sections() -> None:
    opening = _played(4)
    hub = TableHub(MemoryRepository())
    dee = GameSession.start(hub, "rummoli", PLAYERS, {}, opening).summary.totals["Dee"]
    entry = {"type": "adjust", "player": 3, "chips": 1}
    built = built_per_phone(opening, entry, f"Dee: {dee + 1} chips")
    # Dee's stack, her tab and (if shown) her statement's "now N chips" -- not the
    # statement's lines, not the end-game and earlier-rounds sections: 83 (140 before)
    assert built <= 95, built


def test_a_bet_builds_one_bettor_row_not_the_whole_poker() -> None:
    opening = [*_played(4), {"type": "deal"}, {"type": "widow"}]
    hub = TableHub(MemoryRepository())
    summary = GameSession.start(hub, "rummoli", PLAYERS, {}, opening).summary
    betting = summary.detail.betting
    assert summary.phase is Phase.POKER and betting is not None and betting.first
    first = betting.first
    built = built_per_phone(
        opening, {"type": "bet", "player": first, "chips": 1}, f"{first} · bet 1"
    )
    # the bettor's row and the rows whose buttons changed, their stack, the pot and the
    # bar -- not eight rows, the winners and the poker's intro again: 106 (208 before)
    assert built <= 120, built
