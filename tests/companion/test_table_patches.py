"""A tap on one phone: every other phone's session draws again only what changed (issue 20).

Several headless Flet sessions follow one Rummoli game of eight, as phones at a
table do; another actor's entry comes through the hub.  Each session must draw
again only the stack that changed -- not the other seven, not the nine pots --
and send the same small patch whatever the number of phones.  (Counts, not
times: the CPU this saves is measured by ``benchmarks/table_sync.py``.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app import build_main
from companion.components import rummoli_board
from companion.config import AppConfig
from companion.hub import Actor, TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from tests.companion.flet_harness import RecordingConnection, flush, run_async

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _controls_in(value: Any) -> int:
    """Controls created anew in a patch operation's value (a control and everything in it)."""
    if isinstance(value, BaseControl):
        inner = sum(_controls_in(v) for v in vars(value).values() if not isinstance(v, str))
        return 1 + inner
    if isinstance(value, list | tuple):
        return sum(_controls_in(v) for v in value)
    if isinstance(value, dict):
        return sum(_controls_in(v) for v in value.values())
    return 0


def _patch_size(messages: list[Any]) -> tuple[int, int]:
    """(operations, controls sent whole) in the control patches among ``messages``."""
    ops = controls = 0
    for m in messages:
        if m.action is MessageAction.PATCH_CONTROL:
            for op in m.body.patch[1:]:
                ops += 1
                controls += _controls_in(list(op[2:]))
    return ops, controls


def follow(phones: int, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``phones`` sessions on one game; another player adds a chip to Dee's stack."""
    drawn: list[Counter[str]] = []
    stack_words, pot_words = rummoli_board._stack_words, rummoli_board.pot_words

    def counting_stack(name: str, *a: Any, **kw: Any) -> str:
        drawn[-1][f"stack {name}"] += 1
        return stack_words(name, *a, **kw)

    def counting_pot(label: str, chips: int) -> str:
        drawn[-1]["pot"] += 1
        return pot_words(label, chips)

    monkeypatch.setattr(rummoli_board, "_stack_words", counting_stack)
    monkeypatch.setattr(rummoli_board, "pot_words", counting_pot)
    repo = MemoryRepository()
    hub = TableHub(repo)
    game = GameSession.start(hub, "rummoli", PLAYERS, {})
    assert game.add({"type": "start", "chips": [60] * 8, "dealer": 0}) is None

    async def run() -> list[dict[str, Any]]:
        phones_: list[tuple[Session, RecordingConnection]] = []
        for _ in range(phones):
            conn = RecordingConnection()
            conn.pubsubhub = PubSubHub()
            fs = Session(conn)
            token = _context_page.set(fs.page)
            try:
                fs.page.route = f"/play/{game.game_id}"
                drawn.append(Counter())
                build_main(AppConfig(), hub)(fs.page)
                fs.get_page_patch()
                await flush(100)
            finally:
                _context_page.reset(token)
            phones_.append((fs, conn))
        assert all(d["stack Dee"] >= 1 and d["pot"] >= 9 for d in drawn)  # drawn at first
        seen = [len(conn.messages) for _, conn in phones_]
        drawn.clear()
        drawn.append(Counter())  # every session's redraw counts here
        live = GameSession.open(hub, game.game_id).live
        live.submit([{"type": "adjust", "player": 3, "chips": 1}], actor=Actor("elsewhere", "Bob"))
        await flush(100)
        out = []
        for (fs, conn), n in zip(phones_, seen, strict=True):
            ops, controls = _patch_size(conn.messages[n:])
            texts = [getattr(c, "label", None) for c in fs.index.values()]
            assert "Dee: 61 chips" in texts  # the change reached this phone
            out.append({"ops": ops, "controls": controls})
            fs.close()
        await flush()
        out.append(dict(drawn[0]))
        return out

    result: list[dict[str, Any]] = run_async(run())
    return result


def test_a_chip_on_one_stack_redraws_that_stack_only_on_every_other_phone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    *sessions, drawn = follow(3, monkeypatch)
    assert drawn == {"stack Dee": 3}  # one tile per phone; no other stack, no pot
    assert len({(s["ops"], s["controls"]) for s in sessions}) == 1  # the same patch for each


def test_the_patch_each_phone_gets_does_not_grow_with_the_number_of_phones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one = follow(1, monkeypatch)[0]
    four = follow(4, monkeypatch)
    assert four[-1] == {"stack Dee": 4}
    assert all(s == one for s in four[:-1])
    assert one["controls"] < 40, one  # a tile and the lines that changed, not a screen
