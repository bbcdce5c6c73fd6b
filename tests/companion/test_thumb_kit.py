"""The thumb kit without a browser: the compact picker, the entry bar, the collapsed
scoreboard, turn order, the one-thumb layout and the phone services, each drawn in a
real Flet session with a recording connection (no client)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import flet as ft
import pytest

from companion.components.kit.card_grid import CELL, STRIP_HEIGHT, CompactPicker, in_sentence
from companion.components.kit.entry_bar import (
    VERDICT_HEIGHT,
    EntryBar,
    Primary,
    verdict_label,
    verdict_slot,
)
from companion.components.kit.phone import Phone, keep_awake, share_text, tick
from companion.components.kit.scoreline import (
    Scoreboard,
    scoreline_label,
    scoreline_title,
    totals_words,
)
from companion.components.kit.thumb_screen import (
    fills_screen,
    is_full_screen,
    scoreline_of,
    thumb_screen,
)
from companion.components.kit.turn_order import TurnFollow, acting_row
from companion.hub import TableHub
from companion.session import GameSession, Refusal
from companion.storage import MemoryRepository
from rulesets.cards import Card, parse_cards
from rulesets.protocol import Verdict
from tests.companion.flet_harness import HeadlessScreen, flush, render_headless, run_async


class Screen(HeadlessScreen):
    async def tap(self, ident: str) -> None:
        await self.click(ident)

    def card(self, ident: str) -> Any:
        return self.semantics(ident).content


def _cards(text: str) -> list[Card]:
    return list(parse_cards(text))


# ---------------------------------------------------------------- the compact picker


@ft.component
def PickerHost(state: dict[str, Any]) -> ft.Control:
    chosen, set_chosen = ft.use_state(list(state["start"]))

    def change(new: list[Card]) -> None:
        state["changes"].append(list(new))
        set_chosen(new)

    return CompactPicker(chosen, change, ident="p", label="Meld cards", **state["kw"])


def _picker(scenario: Callable[[Screen, dict[str, Any]], Any], **kw: Any) -> None:
    state: dict[str, Any] = {"start": kw.pop("start", []), "changes": [], "kw": kw}

    async def run(sc: Screen) -> None:
        await scenario(sc, state)

    render_headless(PickerHost, state, scenario=run, screen=Screen)


def test_two_taps_before_the_picker_is_drawn_again_both_count() -> None:
    """Taps on 7♥ and 8♥ that reach the server before it draws the picker again (a
    quick thumb, a busy host): the second builds on the first, none is dropped."""

    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        for ident in ("p-card-7H", "p-card-8H", "p-card-9H"):
            await sc.fs.dispatch_event(sc.semantics(ident).content._i, "click", None)
        await sc.flush()
        assert state["changes"][-1] == _cards("7H 8H 9H")
        assert sc.semantics("p-card-7H").selected is True
        await sc.fs.dispatch_event(sc.semantics("p-card-9H").content._i, "click", None)
        await sc.fs.dispatch_event(sc.semantics("p-card-10H").content._i, "click", None)
        await sc.flush()
        assert state["changes"][-1] == _cards("7H 8H 10H")

    _picker(scenario)


def test_picker_tap_adds_then_removes_and_every_card_is_a_44px_target() -> None:
    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        cells = [
            c
            for c in sc.controls()
            if isinstance(c, ft.Semantics) and "-card-" in str(c.identifier)
        ]
        assert len(cells) == 52
        assert all(c.content.width == CELL and c.content.height == CELL for c in cells)
        await sc.tap("p-card-7H")
        await sc.tap("p-card-8H")
        assert sc.semantics("p-card-7H").selected is True
        await sc.tap("p-card-7H")
        assert state["changes"] == [_cards("7H"), _cards("7H 8H"), _cards("8H")]

    _picker(scenario)


def test_picker_draws_again_only_the_cards_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each suit row and each card in it is memoized: a tap on 7♥ draws 7♥ again, not
    its 13 hearts nor all 52 cards (with several phones at a table, every device redraws
    on every entry).  The cards not drawn again still call this render's tap: 8♠ after
    7♥ keeps both."""
    from companion.components.kit import card_grid

    drawn: list[str] = []
    real = card_grid.card_cell

    def counting(card: Card, **kw: Any) -> Any:
        drawn.append(str(card))
        return real(card, **kw)

    monkeypatch.setattr(card_grid, "card_cell", counting)

    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        assert len(drawn) == 52
        drawn.clear()
        await sc.tap("p-card-7H")
        assert drawn == ["7H"]
        drawn.clear()
        await sc.tap("p-card-8S")
        assert drawn == ["8S"]
        assert state["changes"] == [_cards("7H"), _cards("7H 8S")]
        assert sc.semantics("p-card-7H").selected and sc.semantics("p-card-8S").selected

    _picker(scenario)


def test_picker_greys_cards_on_the_table_but_keeps_them_in_place() -> None:
    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        on_table = sc.card("p-card-5H")
        assert on_table.on_click is None and on_table.width == CELL  # greyed, same size
        assert "on the table" in str(on_table.content.semantics_label)

    _picker(scenario, unavailable=frozenset(_cards("5H")))


def test_picker_one_card_replaces_and_a_full_picker_refuses_with_words() -> None:
    async def one(sc: Screen, state: dict[str, Any]) -> None:
        await sc.tap("p-card-2C")
        await sc.tap("p-card-3C")
        assert state["changes"][-1] == _cards("3C")

    _picker(one, max_cards=1)

    async def two(sc: Screen, state: dict[str, Any]) -> None:
        await sc.tap("p-card-2C")
        await sc.tap("p-card-3C")
        await sc.tap("p-card-4C")
        assert state["changes"][-1] == _cards("2C 3C")
        assert "At most 2 cards here." in sc.texts()

    _picker(two, max_cards=2)


def test_picker_strip_has_a_reserved_height_and_says_the_cards() -> None:
    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        strips = [
            c
            for c in sc.controls()
            if isinstance(c, ft.Container) and c.height == STRIP_HEIGHT and c.width is None
        ]
        assert len(strips) == 1
        labels = [str(c.semantics_label) for c in sc.controls() if isinstance(c, ft.Text)]
        assert "Meld cards: K♠ Q♠" in labels

    _picker(scenario, start=_cards("KS QS"))


def test_picker_typing_is_one_tap_away_and_checks_the_text() -> None:
    async def scenario(sc: Screen, state: dict[str, Any]) -> None:
        await sc.tap("p-type")
        field = next(c for c in sc.controls() if isinstance(c, ft.TextField))
        assert field.label == "Type meld cards"
        await sc.change(field, "5h 6h 7h")
        await sc.click("p-use-typed")
        assert state["changes"][-1] == _cards("5H 6H 7H")
        await sc.change(field, "5h zz")
        await sc.click("p-use-typed")
        assert any("zz" in t for t in sc.texts())
        await sc.tap("p-type")  # back to the grid
        assert sc.has("p-card-AS")

    _picker(scenario)


def test_in_sentence_keeps_names_as_typed() -> None:
    assert in_sentence("Meld cards") == "meld cards"
    assert in_sentence("ann's hand") == "ann's hand"


# ---------------------------------------------------------------- the entry bar


def _session() -> GameSession:
    s = GameSession.start(TableHub(MemoryRepository()), "umtali", ["Ann", "Bob"], {})
    assert s.add({"type": "start_hand", "dealer": "Ann"}) is None
    return s


@ft.component
def BarHost(session: GameSession, verdict: Verdict | None, primary: Primary | None) -> ft.Control:
    ft.use_state(session)
    return EntryBar(session, verdict, primary, hint="Pick cards.")


def test_bar_primary_is_live_only_when_allowed_and_a_press_records() -> None:
    session = _session()
    presses: list[str] = []

    def press() -> Refusal | None:
        presses.append("x")
        return session.add({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]})

    ok = Verdict(legal=True, kind="sequence", points=3, rule="U5.2", reason="5H 6H 7H")

    async def scenario(sc: Screen) -> None:
        assert sc.label("verdict") == "Sequence: 3 points. 5♥ 6♥ 7♥ (Sequences (runs), rule U5.2)"
        await sc.click("add")
        assert presses == ["x"] and len(session.actions) == 2
        await sc.click("undo")
        assert len(session.actions) == 1

    render_headless(
        BarHost, session, ok, Primary("Add", "add", press), scenario=scenario, screen=Screen
    )

    async def closed(sc: Screen) -> None:
        assert sc.semantics("add").content.disabled
        assert sc.label("verdict") == "Pick cards."

    render_headless(
        BarHost,
        _session(),
        None,
        Primary("Add", "add", press, enabled=False),
        scenario=closed,
        screen=Screen,
    )


def test_bar_shows_a_refusal_in_the_same_slot_until_dismissed() -> None:
    session = _session()
    assert session.add({"type": "meld", "player": "Bob", "cards": ["JH", "JD", "JS"]}) is not None

    async def scenario(sc: Screen) -> None:
        label = sc.label("verdict")
        assert label.startswith("Refused: ") and label.endswith("(Sets, rule U5.1)")
        slot = sc.semantics("verdict").content
        assert slot.height == VERDICT_HEIGHT
        await sc.click("verdict-dismiss")
        assert session.error is None and sc.label("verdict") == "Pick cards."

    render_headless(BarHost, session, None, None, scenario=scenario, screen=Screen)


def test_three_lines_of_verdict_fit_its_reserved_height() -> None:
    """Flutter's default line height for 13 px text is about 19 px: three lines took 57 px
    and the third was cut by the 52 px slot; the verdict's text fixes its line height."""
    slot = verdict_slot(Verdict(legal=False, rule="U5.2", reason="a long reason " * 20))
    # (the rule link beside it is a title with its ID small, texts of its own)
    link = next(c for c in _walk(slot) if isinstance(c, ft.TextButton))
    inside = {id(c) for c in _walk(link)}
    texts = [c for c in _walk(slot) if isinstance(c, ft.Text) and id(c) not in inside]
    assert len(texts) == 1 and texts[0].max_lines == 3
    text = texts[0]
    assert text.size is not None and text.style is not None and text.style.height is not None
    assert 3 * text.size * text.style.height <= VERDICT_HEIGHT
    # one plain string, so the cut ends in "…" (Flet drops the ellipsis of styled spans)
    assert not text.spans and text.overflow == ft.TextOverflow.ELLIPSIS
    assert text.value.startswith("Not allowed. A long reason")


def _walk(control: Any) -> list[Any]:
    found = [control]
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        for c in child if isinstance(child, list) else [child] if child is not None else []:
            if isinstance(c, ft.Control):
                found += _walk(c)
    return found


def test_verdict_label_words_notes_and_plurals() -> None:
    v = Verdict(
        legal=True, kind="lay_off", points=1, rule="R7.joker_swap", reason="ok", notes=("n",)
    )
    assert verdict_label(v) == "Lay off: 1 point. Ok (Swapping out a joker, rule R7) Note: n."
    assert (
        verdict_label(Verdict(legal=False, rule="U5.1", reason="no"))
        == "Not allowed. No (Sets, rule U5.1)"
    )


# ---------------------------------------------------------------- scoreboard and layout


def test_scoreline_label_of_a_finished_game_has_one_full_stop() -> None:
    # the referee's game-over line ends its sentence; the label must not add a second stop
    label = scoreline_label(("Ann 46 · Bob 49", "Bob wins, 49 to 46."), True)
    assert label == "Ann 46 · Bob 49. Bob wins, 49 to 46. Hide the score sheet"
    assert ".." not in label


def test_scoreline_words_and_the_tap_that_opens_the_board() -> None:
    assert totals_words(("Ann", "Bob"), {"Ann": 12, "Bob": 7}) == "Ann 12 · Bob 7"
    assert scoreline_label(("Ann 1 · Bob 2", "Hand 1"), False).endswith("Show the score sheet")
    board = Scoreboard()

    @ft.component
    def Host() -> ft.Control:
        ft.use_state(board)
        return scoreline_title(("Ann 1 · Bob 2", "Hand 1 of 4 · Bob to play"), board)

    async def scenario(sc: Screen) -> None:
        assert sc.semantics("scoreline").expanded is False
        await sc.click("scoreline")
        assert board.open and sc.semantics("scoreline").expanded is True

    render_headless(Host, scenario=scenario, screen=Screen)


def test_a_table_that_fills_the_screen_says_so_with_its_scoreline() -> None:
    def words(summary: Any) -> tuple[str, str]:
        return ("a", "b")

    @fills_screen(words)
    @ft.component
    def Table() -> ft.Control:
        return thumb_screen(board=[ft.Text("board")], entry=[ft.Text("entry")])

    def Other() -> ft.Control:
        return ft.Text("x")

    assert is_full_screen(Table) and scoreline_of(Table) is words
    assert not is_full_screen(Other) and scoreline_of(Other) is None

    async def scenario(sc: Screen) -> None:
        assert any(isinstance(c, ft.Row) and c.expand for c in sc.controls())
        assert {"board", "entry"} <= set(sc.texts())

    render_headless(Table, scenario=scenario, screen=Screen)


def _in_scrolling_board(control: Any) -> bool:
    node = control.parent
    while node is not None:
        if isinstance(node, ft.ListView) or (isinstance(node, ft.Column) and node.scroll):
            return True
        node = node.parent
    return False


@pytest.mark.parametrize("layout", ["thumb_screen", "thumb_board_screen"])
@pytest.mark.parametrize("reserve", [True, False], ids=["at-a-table", "alone"])
@pytest.mark.parametrize("noted", [True, False], ids=["a-note", "no-note"])
def test_the_frame_note_has_a_slot_of_its_own_above_the_table(
    layout: str, reserve: bool, noted: bool
) -> None:
    """A note from the play frame ("you were offline") sits in a slot of fixed height in
    the fixed part, never in the scrolling board (where it pushed the board's contents
    down); at a table the slot is there before any note comes and after it went, so a
    note that comes or goes moves nothing (issue 18; the browser proof is
    tests/browser/test_note_slot.py)."""
    from companion.components.kit.common import thumb_board_screen
    from companion.components.kit.thumb_screen import NOTE_SLOT, FrameNotesContext, NoteSlotContext

    lay = thumb_screen if layout == "thumb_screen" else thumb_board_screen
    notes: tuple[ft.Control, ...] = (ft.Text("You were offline"),) if noted else ()

    @ft.component
    def Table() -> ft.Control:
        return lay(board=[ft.Text("board")], entry=[ft.Text("entry")])

    @ft.component
    def Framed() -> ft.Control:
        return FrameNotesContext(notes, lambda: NoteSlotContext(reserve, lambda: Table()))

    async def scenario(sc: Screen) -> None:
        (slot,) = [
            c for c in sc.controls() if isinstance(c, ft.Container) and c.height == NOTE_SLOT
        ]
        assert bool(slot.visible) is (noted or reserve)
        assert not _in_scrolling_board(slot)
        (board,) = [c for c in sc.controls() if isinstance(c, ft.Text) and c.value == "board"]
        assert _in_scrolling_board(board)
        if noted:
            (note,) = [
                c for c in sc.controls() if isinstance(c, ft.Text) and c.value == "You were offline"
            ]
            assert not _in_scrolling_board(note)

    render_headless(Framed, scenario=scenario, screen=Screen)


# ---------------------------------------------------------------- turn order


def test_turn_follow_tracks_the_referee_until_a_name_is_tapped() -> None:
    follow = TurnFollow()
    players = ("Ann", "Bob", "Cy")
    assert follow.acting(players, "Bob") == "Bob"
    follow.pick("Cy")
    assert follow.acting(players, "Bob") == "Cy"
    follow.follow()
    assert follow.acting(players, "Ann") == "Ann"
    assert follow.acting(players, None) == "Ann"


def test_acting_row_marks_who_is_on_turn() -> None:
    picked: list[str] = []

    @ft.component
    def Host() -> ft.Control:
        return acting_row(("Ann", "Bob"), "Ann", "Bob", picked.append)

    async def scenario(sc: Screen) -> None:
        assert sc.label("acting-bob") == "Bob (to play)"
        assert sc.semantics("acting-ann").selected is True
        await sc.click("acting-bob")
        assert picked == ["Bob"]

    render_headless(Host, scenario=scenario, screen=Screen)


# ---------------------------------------------------------------- phone services


def test_phone_services_never_fail_without_a_client() -> None:
    @ft.component
    def Host() -> ft.Control:
        return ft.Semantics(
            identifier="b",
            content=ft.Button(
                "b", on_click=lambda _: (tick(None), tick(Refusal("no")), keep_awake(True))
            ),
        )

    async def scenario(sc: Screen) -> None:
        await sc.click("b")
        words = await asyncio.wait_for(share_text("Ann 1, Bob 2", "Result"), timeout=20)
        assert words in ("", "Result copied: paste it into a message.", "Result shared.")

    render_headless(Host, scenario=scenario, screen=Screen)


def test_phone_keep_awake_asks_once_per_change() -> None:
    class Page:
        def run_task(self, job: Any) -> None:
            raise AssertionError("no client")

    p = Phone(Page())  # type: ignore[arg-type]
    p.keep_awake(True)
    p.keep_awake(True)
    assert p.awake
    p.keep_awake(False)
    assert not p.awake
    run_async(flush())
