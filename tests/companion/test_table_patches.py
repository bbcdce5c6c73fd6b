"""A tap on one phone: every other phone's session draws again only what changed (issue 20).

Several headless Flet sessions follow one game, as phones at a table do; another
actor's entry comes through the hub.  Each session must draw again only what that
entry changed and send the same small patch whatever the number of phones:

* Rummoli of eight, a chip on Dee's stack: Dee's stack -- not the other seven, not
  the nine pots, not the list of games on Home under the game;
* Rummoli of eight, a deal (between rounds -> the widow, every stack antes into every
  pot): the new phase's panel, and the stacks and the pots patched where they are --
  no stack, no pot and not the board sent anew (the table is kept across phases);
* Umtali, Bob melds 5♥ 6♥ 7♥ on his turn: Bob's side, his total and those three
  cards of the picker -- not Ann's side nor her total, not the other 49 cards, not
  the acting row nor the modes.

(Counts, not times: the CPU this saves is measured by ``benchmarks/table_sync.py``.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session

from companion.components.kit import card_grid
from companion.components.rummoli import board as rummoli_board
from companion.components.umtali import entry as umtali_entry
from companion.components.umtali import sides as umtali_sides
from companion.hub import Actor, TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from companion.views import home
from tests.companion.flet_harness import RecordingConnection, flush, open_play_screen, run_async

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


def _sent_whole(value: Any) -> list[BaseControl]:
    """Every control in a patch operation's value (created anew on the client)."""
    if isinstance(value, BaseControl):
        inner = [c for v in vars(value).values() if not isinstance(v, str) for c in _sent_whole(v)]
        return [value, *inner]
    if isinstance(value, list | tuple):
        return [c for v in value for c in _sent_whole(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in _sent_whole(v)]
    return []


def _patch_size(messages: list[Any]) -> tuple[int, int]:
    """(operations, controls sent whole) in the control patches among ``messages``."""
    ops = controls = 0
    for m in messages:
        if m.action is MessageAction.PATCH_CONTROL:
            for op in m.body.patch[1:]:
                ops += 1
                controls += _controls_in(list(op[2:]))
    return ops, controls


def _phones_follow(
    gid: str,
    hub: TableHub,
    phones: int,
    drawn: list[Counter[str]],
    entry: Callable[[], None],
    shown: str,
) -> list[dict[str, Any]]:
    """``phones`` sessions on the play screen of ``gid``; ``entry`` is made by another
    device; what each session patched, and (last) what was drawn again in all."""

    async def run() -> list[dict[str, Any]]:
        phones_: list[tuple[Session, RecordingConnection]] = []
        for _ in range(phones):
            drawn.append(Counter())
            fs = await open_play_screen(hub, gid)
            conn = fs.connection
            assert isinstance(conn, RecordingConnection)
            phones_.append((fs, conn))
        first = list(drawn)
        seen = [len(conn.messages) for _, conn in phones_]
        drawn.clear()
        drawn.append(Counter())  # every session's redraw counts here
        entry()
        await flush(100)
        out: list[dict[str, Any]] = []
        for (fs, conn), n in zip(phones_, seen, strict=True):
            ops, controls = _patch_size(conn.messages[n:])
            texts = [
                getattr(c, "label", None) or getattr(c, "value", None) for c in fs.index.values()
            ]
            assert shown in texts  # the change reached this phone
            new = {
                str(getattr(c, "identifier", None) or getattr(c, "key", None))
                for m in conn.messages[n:]
                if m.action is MessageAction.PATCH_CONTROL
                for op in m.body.patch[1:]
                for c in _sent_whole(list(op[2:]))
            }
            out.append({"ops": ops, "controls": controls, "new": new})
            fs.close()
        await flush()
        out.append(dict(drawn[0]))
        out.append({"first": first})
        return out

    result: list[dict[str, Any]] = run_async(run())
    return result


def follow(
    phones: int, monkeypatch: pytest.MonkeyPatch, *, deal: bool = False
) -> list[dict[str, Any]]:
    """``phones`` sessions on a Rummoli game of eight between rounds; another player
    adds a chip to Dee's stack (or, with ``deal``, deals the first round)."""
    drawn: list[Counter[str]] = []
    stack_words, pot_words = rummoli_board._stack_words, rummoli_board.pot_words

    def counting_stack(name: str, *a: Any, **kw: Any) -> str:
        drawn[-1][f"stack {name}"] += 1
        return stack_words(name, *a, **kw)

    def counting_pot(label: str, chips: int) -> str:
        drawn[-1]["pot"] += 1
        return pot_words(label, chips)

    in_progress = home._in_progress

    def counting_home(*a: Any, **kw: Any) -> Any:
        drawn[-1]["home list"] += 1
        return in_progress(*a, **kw)

    monkeypatch.setattr(rummoli_board, "_stack_words", counting_stack)
    monkeypatch.setattr(rummoli_board, "pot_words", counting_pot)
    # a chip moves the game's line in the history: Home, under the game on every phone,
    # must not read and draw its list again for it (nobody sees it)
    monkeypatch.setattr(home, "_in_progress", counting_home)
    hub = TableHub(MemoryRepository())
    game = GameSession.start(hub, "rummoli", PLAYERS, {})
    assert game.add({"type": "start", "chips": [60] * 8, "dealer": 0}) is None
    live = GameSession.open(hub, game.game_id).live

    def chip() -> None:
        entry = {"type": "deal"} if deal else {"type": "adjust", "player": 3, "chips": 1}
        live.submit([entry], actor=Actor("elsewhere", "Bob"))

    shown = "Round 1: Ann deals" if deal else "Dee: 61 chips"
    *out, first = _phones_follow(game.game_id, hub, phones, drawn, chip, shown)
    assert all(d["stack Dee"] >= 1 and d["pot"] >= 9 for d in first["first"])  # drawn at first
    assert all(d["home list"] == 1 for d in first["first"])
    return out


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


def test_a_deal_keeps_the_table_and_patches_its_stacks_and_pots_on_every_other_phone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a deal turns the screen from between rounds to the widow, and every stack antes
    # into every pot: each stack and pot is drawn again with its new figures, patched
    # in place -- the board and the stacks are the table's, not the phase's, so none
    # of them is sent anew (they were, with the whole screen, on every phone)
    *sessions, drawn = follow(3, monkeypatch, deal=True)
    assert drawn == {**{f"stack {p}": 3 for p in PLAYERS}, "pot": 27}
    for s in sessions:
        tables = {i for i in s["new"] if i.startswith(("stack", "pot", "board", "chips"))}
        assert not tables, sorted(tables)
        assert "widow-choice" in s["new"]  # the widow's panel is new
    assert len({(s["ops"], s["controls"]) for s in sessions}) == 1  # the same patch for each


def follow_umtali(phones: int, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``phones`` sessions on an Umtali hand in play, Bob to play; another device
    records Bob's meld 5♥ 6♥ 7♥."""
    drawn: list[Counter[str]] = []
    side_line, card_cell = umtali_sides.side_line, card_grid.card_cell
    side_head, acting_row, choice = (
        umtali_sides._side_head,
        umtali_entry.acting_row,
        umtali_entry.choice,
    )

    def counting_side(name: str, *a: Any, **kw: Any) -> Any:
        drawn[-1][f"side {name}"] += 1
        return side_line(name, *a, **kw)

    def counting_card(card: Any, **kw: Any) -> Any:
        drawn[-1][f"card {card}"] += 1
        return card_cell(card, **kw)

    def counting_head(name: str, *a: Any, **kw: Any) -> Any:
        drawn[-1][f"total {name}"] += 1
        return side_head(name, *a, **kw)

    def counting_acting(*a: Any, **kw: Any) -> Any:
        drawn[-1]["acting row"] += 1
        return acting_row(*a, **kw)

    def counting_choice(text: str, *a: Any, **kw: Any) -> Any:
        drawn[-1][f"chip {text}"] += 1
        return choice(text, *a, **kw)

    monkeypatch.setattr(umtali_sides, "side_line", counting_side)
    monkeypatch.setattr(card_grid, "card_cell", counting_card)
    monkeypatch.setattr(umtali_sides, "_side_head", counting_head)
    monkeypatch.setattr(umtali_entry, "acting_row", counting_acting)
    monkeypatch.setattr(umtali_entry, "choice", counting_choice)
    hub = TableHub(MemoryRepository())
    opening = [{"type": "start_hand", "dealer": "Ann"}]
    game = GameSession.start(hub, "umtali", ["Ann", "Bob"], {}, opening)
    assert game.summary.turn == "Bob"
    live = GameSession.open(hub, game.game_id).live

    def meld() -> None:
        entry = {"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]}
        live.submit([entry], actor=Actor("elsewhere", "Ann"))

    *out, first = _phones_follow(game.game_id, hub, phones, drawn, meld, "Bob's side: 3 points")
    assert all(d["side Ann"] and d["card 2C"] and d["acting row"] for d in first["first"])
    return out


def test_a_meld_redraws_only_its_side_its_total_and_its_three_cards_on_every_other_phone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    *sessions, drawn = follow_umtali(3, monkeypatch)
    # per phone: Bob's side, his total, 5♥ 6♥ 7♥ greyed in the picker; not Ann's side nor
    # her total, not the other 49 cards, not the acting row, not the modes
    assert drawn == {"side Bob": 3, "total Bob": 3, "card 5H": 3, "card 6H": 3, "card 7H": 3}
    assert len({(s["ops"], s["controls"]) for s in sessions}) == 1  # the same patch for each


def test_an_umtali_patch_does_not_grow_with_the_number_of_phones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one = follow_umtali(1, monkeypatch)[0]
    four = follow_umtali(4, monkeypatch)
    assert four[-1]["side Bob"] == 4 and "side Ann" not in four[-1]
    assert all(s == one for s in four[:-1])
    assert one["controls"] < 40, one  # a meld chip and the lines that changed, not a screen
