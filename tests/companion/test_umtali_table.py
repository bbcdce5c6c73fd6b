"""The Umtali table screen without a browser: its helpers, and the component driven
through a real Flet session with a recording connection (no client).

Points are hand-computed with U9 (10/J/Q/K = 5, A-9 = 1, marriage = 20).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import flet as ft

from companion.components.kit.common import verdict_line
from companion.components.kit.scoreline import ScoreboardContext, scoreline_title, use_scoreboard
from companion.components.kit.thumb_screen import scoreline_of
from companion.components.umtali.sheet import action_text
from companion.components.umtali.sides import meld_caption, side_total_text
from companion.hub import TableHub
from companion.session import GameSession, Who
from companion.storage import MemoryRepository
from companion.views.umtali_table import UmtaliTable
from rulesets.protocol import Verdict
from rulesets.umtali import MeldKind, UmtaliMeld, UmtaliSummary, parse_action
from tests.companion.flet_harness import HeadlessScreen, flush, render_headless

PLAYERS = ["Ann", "Bob"]


def new_session(rules: dict[str, Any] | None = None, dealer: str = "Ann") -> GameSession:
    s = GameSession.start(TableHub(MemoryRepository()), "umtali", PLAYERS, rules or {})
    assert s.add({"type": "start_hand", "dealer": dealer}) is None
    return s


# ---------------------------------------------------------------- helpers -------------


def test_u9_1_side_total_and_u9_2_marriage_caption() -> None:
    assert side_total_text("Ann", 1) == "Ann's side: 1 point"
    assert side_total_text("Bob", 21) == "Bob's side: 21 points"
    marriage = UmtaliMeld(kind=MeldKind.MARRIAGE, cards=("KS", "QS"), points=20, by="Ann")
    assert meld_caption(marriage, 1) == "#2 Marriage · 20"
    single = UmtaliMeld(kind=MeldKind.SINGLE, cards=("8H",), points=1, by="Ann", anchor=("Bob", 0))
    assert meld_caption(single, 0) == "#1 Single · 1 (on Bob #1)"
    left = UmtaliMeld(kind=MeldKind.LEFTOVER, cards=("KD",), points=5, by="Ann")
    assert meld_caption(left, 4) == "#5 Leftover · 5 (from Ann)"


def test_u5_1_verdict_line_names_the_rule() -> None:
    v = Verdict(legal=False, rule="U5.1", reason='"JH JD JS": jacks never form a set')
    line = verdict_line(v)
    assert isinstance(line, ft.Semantics)
    assert line.label == "Not allowed. J♥ J♦ J♠: jacks never form a set (Sets, rule U5.1)"
    ok = verdict_line(Verdict(legal=True, kind="marriage", points=20, rule="U5.3", reason="x"))
    assert isinstance(ok, ft.Semantics) and str(ok.label).startswith("Marriage: 20 points.")


def test_u2_1_hand_spans_come_from_the_referee_and_action_text() -> None:
    actions: list[dict[str, Any]] = [
        {"type": "start_hand", "dealer": "Ann"},
        {"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]},
        {
            "type": "go_out",
            "player": "Bob",
            "pair": ["4C", "4D"],
            "discard": "2C",
            "face_down": True,
        },
        {"type": "leftovers", "player": "Ann", "cards": ["3S"]},
        {"type": "start_hand", "dealer": None},
        {"type": "extend", "player": "Ann", "card": "8H", "anchor": ["Bob", 0]},
    ]
    game = GameSession.start(TableHub(MemoryRepository()), "umtali", PLAYERS, {})
    legal = [*actions[:5], {"type": "meld", "player": "Ann", "cards": ["9C", "9D", "9H"]}]
    assert game.add_many(legal) is None
    summary = game.summary
    assert isinstance(summary, UmtaliSummary) and summary.detail.current is not None
    assert [h.actions for h in summary.hands] == [(0, 3)]
    assert summary.detail.current.first_action == 4
    typed = [parse_action(a) for a in actions]
    assert action_text(typed[2]) == "Bob goes out with pair 4♣ 4♦, discards 2♣ face down"
    assert action_text(typed[3]) == "Ann's leftovers: 3♠"
    assert action_text(typed[5]) == "Ann plays 8♥ on Bob #1"


# ---------------------------------------------------------------- component ----------


@ft.component
def Host(session: GameSession) -> ft.Control:
    """What the play frame does: subscribe to the session, show the table's collapsed
    scoreboard (its title slot) and render the table under it."""
    ft.use_state(session)
    board = use_scoreboard()
    words = scoreline_of(UmtaliTable)
    assert words is not None
    return ft.Column(
        [
            scoreline_title(words(session.summary), board),
            ScoreboardContext(board, lambda: UmtaliTable(session)),
        ]
    )


class Screen(HeadlessScreen):
    def sem(self, ident: str) -> Any:
        return self.semantics(ident)

    async def click(self, ident: str) -> None:
        await self.fs.dispatch_event(self.sem(ident).content._i, "click", None)
        await flush()

    async def tap_cards(self, picker: str, cards: str) -> None:
        for c in cards.split():
            await self.click(f"{picker}-card-{c}")


def drive(game: GameSession, scenario: Callable[[Screen], Coroutine[Any, Any, None]]) -> None:
    render_headless(Host, game, scenario=scenario, screen=Screen)


def test_u5_1_illegal_meld_refused_live_then_u6_2_extension_on_opponent_side() -> None:
    game = new_session()

    async def scenario(sc: Screen) -> None:
        assert sc.label("scoreline").startswith("Ann 0 · Bob 0. Hand 1 of 4 · Bob to play.")
        await sc.tap_cards("meld", "JH JD JS")
        assert str(sc.sem("verdict").label).endswith("(Sets, rule U5.1)")
        assert sc.sem("add-meld").content.disabled
        await sc.click("meld-clear")
        await sc.tap_cards("meld", "5H 6H 7H")
        assert str(sc.sem("verdict").label).startswith("Sequence: 3 points.")
        await sc.click("add-meld")
        assert game.summary.to_json()["current"]["scores"] == {"Ann": 0, "Bob": 3}
        assert "Bob's side: 3 points" in sc.texts()
        # the cards on the table are no longer offered
        assert sc.sem("meld-card-5H").content.on_click is None
        # Ann extends Bob's sequence: the single goes on Ann's side
        await sc.click("acting-ann")
        await sc.click("mode-extend")
        await sc.click("meld-bob-0")
        await sc.tap_cards("extend", "8H")
        assert str(sc.sem("verdict").label).startswith("Extension: 1 point.")
        await sc.click("add-extend")
        assert game.summary.to_json()["current"]["scores"] == {"Ann": 1, "Bob": 3}
        assert game.actions[-1].to_json() == {
            "type": "extend",
            "player": "Ann",
            "card": "8H",
            "anchor": ["Bob", 0],
        }

    drive(game, scenario)


def test_u5_2_a_meld_still_being_picked_is_neutral_not_refused() -> None:
    """Issue 18: two cards of a run are one card short, not "Not allowed"."""
    game = new_session()

    async def scenario(sc: Screen) -> None:
        await sc.tap_cards("meld", "5H")
        assert str(sc.sem("verdict").label).startswith("Keep picking. ")
        await sc.tap_cards("meld", "6H")
        label = str(sc.sem("verdict").label)
        assert label.startswith("Keep picking. ") and "4♥ or 7♥" in label, label
        assert sc.sem("add-meld").content.disabled
        await sc.tap_cards("meld", "9C")  # no card mends 5H 6H 9C: refused
        assert str(sc.sem("verdict").label).startswith("Not allowed. ")
        await sc.tap_cards("meld", "9C")  # a second tap takes 9C back
        await sc.tap_cards("meld", "7H")
        assert str(sc.sem("verdict").label).startswith("Sequence: 3 points.")

    drive(game, scenario)
    keep = verdict_line(Verdict(legal=False, rule="U5.2", reason="x", incomplete=True))
    assert isinstance(keep, ft.Semantics) and str(keep.label).startswith("Keep picking. X")


def test_u8_going_out_final_turn_leftovers_then_edit_and_next_dealer() -> None:
    game = new_session()
    assert game.add({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]}) is None
    assert game.add({"type": "meld", "player": "Ann", "cards": ["KS", "QS"]}) is None

    async def scenario(sc: Screen) -> None:
        await sc.click("acting-bob")
        await sc.click("mode-go_out")
        await sc.tap_cards("pair", "4C 4D")
        await sc.click("part-discard")
        await sc.tap_cards("out-discard", "2C")
        await sc.click("face-down")
        assert sc.label("part-discard") == "Discard: 2♣ (face down)"
        await sc.click("add-go-out")
        assert game.actions[-1].to_json() == {
            "type": "go_out",
            "player": "Bob",
            "pair": ["4C", "4D"],
            "discard": "2C",
            "face_down": True,
        }
        assert game.summary.to_json()["phase"] == "final"
        # turn order drives the screen (U8.2): Ann's final turn, melding first -- no tap
        assert sc.sem("acting-ann").selected and not sc.sem("acting-bob").selected
        assert sc.sem("mode-meld").selected and not sc.sem("mode-go_out").selected
        assert sc.label("scoreline").startswith("Ann 0 · Bob 0. Bob went out: Ann's final turn")
        # Ann's final turn: a 4 on Bob's pair (U8.3) -- a tap on the meld extends it --
        # then her leftovers go to Bob
        await sc.click("meld-bob-1")
        assert sc.sem("mode-extend").selected
        await sc.tap_cards("extend", "4H")
        await sc.click("add-extend")
        # after the final turn's entry the likely next one is the leftovers
        assert sc.sem("mode-leftovers").selected and sc.sem("acting-ann").selected
        await sc.tap_cards("leftovers", "3S KD")
        assert "6 points" in str(sc.sem("verdict").label)
        await sc.click("add-leftovers")
        # Ann: 20 + 1 = 21; Bob: 3 + 2 + 1 + 5 = 11
        assert game.summary.to_json()["hands"][0]["scores"] == {"Ann": 21, "Bob": 11}
        assert (
            sc.label("next-hand")
            == "Hand 2 of 4: Bob deals (the deal alternates). (Who deals next, rule U2.3)"
        )
        # edit hand 1: KD was not a leftover after all -> Bob 3 + 2 + 1 = 6
        await sc.click("edit-hand-1")
        await sc.click("fix-leftovers-card-KD")
        await sc.click("save-leftovers")
        assert game.summary.to_json()["hands"][0]["scores"] == {"Ann": 21, "Bob": 6}
        await sc.click("next-hand-start")
        assert game.actions[-1].to_json() == {"type": "start_hand", "dealer": None}
        assert game.summary.to_json()["current"]["turn"] == "Ann"  # Bob deals, Ann plays first

    drive(game, scenario)


def test_u4_6_empty_stock_needs_a_second_tap() -> None:
    game = new_session()
    assert game.add({"type": "meld", "player": "Bob", "cards": ["QH", "KH"]}) is None

    async def scenario(sc: Screen) -> None:
        assert not sc.has("empty-stock")  # a rare action: on the opened board, not in the bar
        await sc.click("scoreline")
        await sc.click("empty-stock")
        assert game.summary.to_json()["phase"] == "play"
        await sc.click("empty-stock")
        assert game.summary.to_json()["hands"][0]["scores"] == {"Ann": 0, "Bob": 20}
        assert game.summary.to_json()["hands"][0]["ended"] == "empty_stock"

    drive(game, scenario)


def test_u7_2_private_hand_checks_no_breaking_and_suggests_best_line() -> None:
    game = new_session()
    assert game.add({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]}) is None

    async def scenario(sc: Screen) -> None:
        await sc.click("acting-ann")
        await sc.click("mode-hand")
        await sc.tap_cards("hand", "8H 9H 10H 2C")
        shown = str(sc.sem("suggestion").label or "") + " ".join(sc.texts())
        # 8H 9H 10H as a sequence: 1 + 1 + 5 = 7; going out discarding 2C
        assert "Best melding this turn: 7 points" in shown
        await sc.click("mode-extend")
        await sc.click("meld-bob-0")
        await sc.tap_cards("extend", "8H")
        label = str(sc.sem("verdict").label)
        assert label.startswith("Not allowed.") and label.endswith(", rule U7.2)")
        assert "Checked against Ann's private hand (4 cards)." in sc.texts()
        # Bob acting: Ann's hand is not his, so nothing is checked against it
        await sc.click("acting-bob")
        await sc.click("meld-bob-0")
        await sc.tap_cards("extend", "8H")
        assert str(sc.sem("verdict").label).startswith("Extension: 1 point.")
        assert game.actions[-1].type == "meld"  # nothing recorded by checking

    drive(game, scenario)


def test_my_hand_only_on_the_device_of_the_acting_players_seat() -> None:
    """At a table of devices, "My hand" (a private hand, never saved) shows only on the
    device whose seat is the acting player's; a screen alone shows it for everyone."""
    repo = MemoryRepository()
    hub = TableHub(repo)
    ann_phone = Who(device="phone-1", words="Ann", seat="Ann", at_table=True)
    game = GameSession.start(hub, "umtali", PLAYERS, {}, who=ann_phone)
    assert game.add({"type": "start_hand", "dealer": "Ann"}) is None  # Bob plays first

    async def scenario(sc: Screen) -> None:
        assert sc.label("scoreline").startswith("Ann 0 · Bob 0. Hand 1 of 4 · Bob to play.")
        assert not sc.has("mode-hand")  # Bob's turn: his hand is not on Ann's phone
        await sc.click("acting-ann")
        assert sc.has("mode-hand")
        await sc.click("mode-hand")
        await sc.tap_cards("hand", "QH KH 9S")
        assert sc.has("suggestion")
        await sc.click("acting-bob")  # back to Bob: Ann's hand and its advice go away
        assert not sc.has("mode-hand") and not sc.has("suggestion")
        assert sc.has("meld-card-QH")

    drive(game, scenario)
    alone = new_session()

    async def alone_scenario(sc: Screen) -> None:
        assert sc.has("mode-hand")  # one screen: Bob may enter his hand

    drive(alone, alone_scenario)


def test_u5_2_the_checker_says_keep_picking_for_a_meld_one_card_short() -> None:
    from companion.views.checker import evaluate
    from rulesets.cards import parse_cards

    short = evaluate("umtali", {}, "meld", parse_cards("5H 6H"))
    assert short.headline == "Keep picking" and short.verdict is not None
    assert short.verdict.incomplete and "4H or 7H" in short.verdict.reason
    wrong = evaluate("umtali", {}, "meld", parse_cards("5H 9C"))
    assert wrong.headline == "Not legal"


def test_u7_2_play_screen_verdicts_without_a_hand_do_not_repeat_the_no_breaking_caveat() -> None:
    """Issue 18: the no-breaking rule cannot be checked without the hand; that is said
    once, in the game's opening words on the new-game screen, never on a verdict of
    the play screen (every extension said it)."""
    from companion.components.new_game_form import NewGameForm
    from companion.components.new_game_parts import DealerPanel
    from rulesets.umtali import U7_OPENING
    from rulesets.umtali.ruleset import RULESET

    async def opening(sc: HeadlessScreen) -> None:
        assert sc.label("opening").count(U7_OPENING) == 1, sc.label("opening")

    form = NewGameForm(game="umtali", players=list(PLAYERS), dealer="Ann")
    render_headless(DealerPanel, form, RULESET, scenario=opening, screen=HeadlessScreen)

    game = new_session()
    assert game.add({"type": "meld", "player": "Bob", "cards": ["5H", "6H", "7H"]}) is None

    async def scenario(sc: Screen) -> None:
        await sc.click("acting-ann")
        await sc.click("mode-extend")
        for anchor, card in (("bob-0", "8H"), ("bob-0", "4H"), ("ann-0", "9H")):
            await sc.click(f"meld-{anchor}")  # (9♥ goes on 8♥, Ann's single)
            await sc.tap_cards("extend", card)
            label = str(sc.sem("verdict").label)
            assert label.startswith("Extension: 1 point."), label
            assert "Note" not in label and "no-breaking" not in label, label
            said = sc.texts() + [
                str(c.label) for c in sc.controls() if isinstance(c, ft.Semantics) and c.label
            ]
            assert not [t for t in said if "could not be checked" in t or "no-breaking" in t]
            await sc.click("add-extend")
        assert [a.to_json().get("card") for a in game.actions[-3:]] == ["8H", "4H", "9H"]

    drive(game, scenario)


def test_u4_4_play_screen_discards_without_a_hand_do_not_repeat_the_compulsory_caveat() -> None:
    """Issue 18: under compulsory melding, every discard entered without a hand said
    "compulsory melding could be checked only against the discarded card: no hand was
    entered"; that is said once, in the opening words on the new-game screen, when the
    house rule is chosen there, and never on a verdict of the play screen."""
    from companion.components.new_game_form import NewGameForm
    from companion.components.new_game_parts import DealerPanel
    from rulesets.umtali import U4_4_OPENING, U7_OPENING
    from rulesets.umtali.ruleset import RULESET

    form = NewGameForm(
        game="umtali", rules={"compulsory_melding": True}, players=list(PLAYERS), dealer="Ann"
    )

    async def opening(sc: HeadlessScreen) -> None:
        said = sc.label("opening")
        assert said.count(U4_4_OPENING) == 1 and said.count(U7_OPENING) == 1, said
        form.rules = {}  # the house rule switched off in the editor: the sentence goes
        await sc.flush()
        assert U4_4_OPENING not in sc.label("opening"), sc.label("opening")
        assert sc.label("opening").count(U7_OPENING) == 1

    render_headless(DealerPanel, form, RULESET, scenario=opening, screen=HeadlessScreen)

    game = new_session({"compulsory_melding": True})

    async def scenario(sc: Screen) -> None:
        for who, card in (("bob", "2C"), ("ann", "3D")):
            await sc.click(f"acting-{who}")
            await sc.click("mode-discard")
            await sc.tap_cards("discard", card)
            label = str(sc.sem("verdict").label)
            assert "Note" not in label and "compulsory" not in label, label
            said = sc.texts() + [
                str(c.label) for c in sc.controls() if isinstance(c, ft.Semantics) and c.label
            ]
            assert not [t for t in said if "no hand was entered" in t or "compulsory" in t]
            await sc.click("add-discard")
        assert [a.to_json().get("card") for a in game.actions[-2:]] == ["2C", "3D"]
        # the discarded card itself is still checked: a jack could have gone down alone
        await sc.click("acting-bob")
        await sc.click("mode-discard")
        await sc.tap_cards("discard", "JC")
        refused = str(sc.sem("verdict").label)
        assert refused.startswith("Not allowed.") and "melding is compulsory" in refused, refused

    drive(game, scenario)
