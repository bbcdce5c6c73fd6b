"""Rummoli of eight late in a game: what a chip between rounds draws again on the other
phones (issue 20).

Between rounds the screen shows the last round's settlement and every earlier round,
and every phone at the table draws its screen again on every entry anyone makes.
Built anew each time, the earlier rounds made the cost of an entry grow with the game
(round 5: ~950 controls per phone for one chip, ~1,200 on the screen).  Several
headless sessions follow one game; another device puts a chip on Dee's stack:

* no earlier round's statement is drawn (a closed round draws none; an open one is
  memoized), nor the settlement's statement unless it is Dee's;
* the controls each phone builds for the chip, and its screen, stay the same size from
  round 2 to round 5 (a closed earlier round is its title and its nets).

And mid-round, card by card after a poker where seven hands were shown: a card laid
draws none of those hands (they fold away under the poker's verdict, and are drawn
only while unfolded on that device) -- they were ~200 controls per phone per card.

(Counts, not times: the CPU is measured by ``benchmarks/table_sync.py``.)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flet.controls import id_counter
from flet.messaging.session import Session

from companion.components.rummoli import parts, statement
from companion.hub import Actor, TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from rulesets.rummoli import Phase, RummoliGame, RummoliRules
from rulesets.rummoli.actions import Deal, Lay, Start
from rulesets.rummoli.simulate import (
    _deal_hands,
    _random_poker,
    _random_round,
    _random_widow,
    _Table,
    simulate_play,
)
from tests.companion.flet_harness import flush, open_play_screen, run_async

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _played(rounds: int) -> list[dict[str, Any]]:
    """The entries of a game of eight after ``rounds`` random legal rounds (between rounds)."""
    table = _Table(RummoliGame(PLAYERS, RummoliRules()), random.Random(3), by_name=True)
    game = table.game
    game.push(Start(chips=[200] * 8, dealer="Ann"))
    for _ in range(rounds):
        game.push(Deal())
        _random_round(table)
    return list(game.to_record().actions)


def _chip_late(rounds: int, phones: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``phones`` sessions on the game after ``rounds`` rounds; another device adds a chip
    to Dee's stack: the statements drawn again, the controls each phone built, its
    screen's size."""
    drawn: Counter[str] = Counter()
    card = statement.statement_card

    def counting_card(name: str, entries: Any, ident: str, **kw: Any) -> Any:
        drawn[ident] += 1
        return card(name, entries, ident, **kw)

    monkeypatch.setattr(statement, "statement_card", counting_card)
    hub = TableHub(MemoryRepository())
    game = GameSession.start(hub, "rummoli", PLAYERS, {}, _played(rounds))
    summary = game.summary
    assert summary.phase is Phase.IDLE and len(summary.hands) == rounds
    dee = summary.totals["Dee"] + 1
    live = GameSession.open(hub, game.game_id).live

    async def run() -> dict[str, Any]:
        sessions: list[Session] = []
        for _ in range(phones):
            sessions.append(await open_play_screen(hub, game.game_id))
        drawn.clear()
        first = id_counter.ControlId.next()
        live.submit([{"type": "adjust", "player": 3, "chips": 1}], actor=Actor("elsewhere", "Bob"))
        await flush(100)
        built = (id_counter.ControlId.next() - first - 1) / phones
        for fs in sessions:
            labels = [getattr(c, "label", None) for c in fs.index.values()]
            assert any(str(x).startswith(f"Dee: {dee} chips") for x in labels)  # it arrived
        size = [len(fs.index) for fs in sessions]
        for fs in sessions:
            fs.close()
        await flush()
        return {"drawn": dict(drawn), "built": built, "size": size}

    result: dict[str, Any] = run_async(run())
    return result


def test_a_chip_late_in_the_game_draws_no_earlier_round_and_no_other_statement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    late = _chip_late(4, 3, monkeypatch)
    # each phone: at most the settlement's statement, and only if it is Dee's (its "now
    # N chips" changed); no statement of the three earlier rounds
    assert set(late["drawn"]) <= {"statement-dee"}, late["drawn"]


def test_what_a_phone_builds_for_a_chip_does_not_grow_with_the_rounds_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    early, late = _chip_late(2, 2, monkeypatch), _chip_late(5, 2, monkeypatch)
    # three more earlier rounds: a closed tile each (its title and nets, ~7 controls; its
    # eight statements were ~250), built once and not again for a chip
    assert late["built"] <= early["built"] + 3, (early["built"], late["built"])
    assert max(late["size"]) <= min(early["size"]) + 3 * 8, (early["size"], late["size"])


def _mid_round() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A game of eight in its third round, card by card, six cards laid after a poker
    where seven hands were shown; and the next card to lay."""
    table = _Table(RummoliGame(PLAYERS, RummoliRules()), random.Random(0), by_name=True)
    game = table.game
    game.push(Start(chips=[200] * 8, dealer="Ann"))
    for _ in range(2):
        game.push(Deal())
        _random_round(table)
    game.push(Deal())
    hands, widow = _deal_hands(table)
    _random_widow(table, hands, widow)
    _random_poker(table, hands, final=False)
    state = game._state.round
    assert state is not None and state.starter is not None
    lays = simulate_play(hands, state.starter, 8, table.rng).lays
    for seat, card in lays[:6]:
        game.push(Lay(player=PLAYERS[seat], card=str(card)))
    poker = game.summary().hands[-1].poker
    assert game.summary().phase is Phase.PLAY and poker is not None and len(poker.hands) == 7
    seat, card = lays[6]
    return list(game.to_record().actions), {
        "type": "lay",
        "player": PLAYERS[seat],
        "card": str(card),
    }


def test_a_card_laid_draws_none_of_the_hands_shown_at_the_poker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: Counter[str] = Counter()
    cards = parts.mini_cards

    def counting_cards(text: Any, **kw: Any) -> Any:
        shown["hand"] += 1
        return cards(text, **kw)

    monkeypatch.setattr(parts, "mini_cards", counting_cards)
    actions, lay = _mid_round()
    hub = TableHub(MemoryRepository())
    game = GameSession.start(hub, "rummoli", PLAYERS, {}, actions)
    live = GameSession.open(hub, game.game_id).live

    async def run() -> int:
        sessions: list[Session] = []
        for _ in range(2):
            sessions.append(await open_play_screen(hub, game.game_id))
        # the hands fold away under the verdict: not drawn, not on the screen
        drawn_first = shown["hand"]
        assert live.submit([lay], actor=Actor("elsewhere", "Bob")).refusal is None
        await flush(100)
        for fs in sessions:
            laid = [str(getattr(c, "label", "")) for c in fs.index.values()]
            assert any(x.startswith("Laid: ") and x.count(" by ") == 7 for x in laid)  # arrived
            fs.close()
        await flush()
        return drawn_first

    drawn_first = run_async(run())
    assert drawn_first == 0
    assert shown["hand"] == 0  # the card laid drew none of the seven hands on either phone
