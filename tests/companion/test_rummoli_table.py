"""The Rummoli table screen without a browser: a real Flet session, taps as events.

The table is rendered in a headless ``flet`` session (no client); a tap is the
``click`` event the web client would send to the control behind a semantic
identifier.  The rounds are recorded only through these taps, and every chip
count is read back from the rendered semantic labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import flet as ft

from companion.hub import TableHub
from companion.rulebook import section
from companion.session import GameSession
from companion.storage import MemoryRepository
from companion.views.rummoli_table import RummoliTable
from tests.companion.flet_harness import HeadlessScreen, render_headless

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


class Table(HeadlessScreen):
    """The rendered table in a headless Flet session."""

    async def tap(self, ident: str) -> None:
        await self.click(ident)

    def label(self, ident: str) -> str:
        """The semantic label, or -- for the bar's primary action, which names itself --
        the words on the button (what a screen reader says)."""
        node = self.semantics(ident)
        if node.label is None and isinstance(getattr(node.content, "content", None), ft.Text):
            return str(node.content.content.value)
        return str(node.label)

    async def type_cards(self, label: str, text: str) -> None:
        fields = [c for c in self.controls() if isinstance(c, ft.TextField) and c.label == label]
        assert len(fields) == 1, f"{label}: {len(fields)} fields"
        tf = fields[0]
        self.fs.apply_patch(tf._i, {"value": text})
        await self.fs.dispatch_event(tf._i, "change", None)
        await self.fs.dispatch_event(tf._i, "submit", None)
        await self.flush()

    async def to_the_rummoli_phase(self, winner: str) -> None:
        """Deal, nobody takes the widow, ``winner`` takes the poker pot without betting."""
        for ident in ("deal", "widow-none", "widow-confirm", f"winner-{winner}", "record-poker"):
            await self.tap(ident)

    async def step(self, ident: str, times: int) -> None:
        for _ in range(times):
            await self.tap(f"{ident}-plus")


def play(
    scenario: Callable[[Table, GameSession], Coroutine[Any, Any, None]],
    chips: list[int],
    rules: dict[str, Any] | None = None,
    dealer: int = 0,
) -> GameSession:
    repo = MemoryRepository()
    hub = TableHub(repo)
    game = GameSession.start(hub, "rummoli", PLAYERS, rules or {})
    assert game.add({"type": "start", "chips": chips, "dealer": dealer}) is None

    @ft.component
    def Root() -> ft.Control:
        return RummoliTable(game)

    render_headless(Root, scenario=lambda t: scenario(t, game), screen=Table)
    return game


def stack(t: Table, name: str) -> int:
    return int(t.label(f"stack-{name}").split(": ")[1].split(" ")[0])


def pot(t: Table, name: str) -> int:
    return int(t.label(f"pot-{name}").split(": ")[1].split(" ")[0])


def statement_lines(t: Table, who: str) -> list[str]:
    out = []
    while t.has(f"statement-{who}-line-{len(out)}"):
        out.append(t.label(f"statement-{who}-line-{len(out)}"))
    return out


def board(t: Table) -> dict[str, int]:
    names = ("poker", "10S", "JD", "QC", "KH", "AS", "AD+KD", "7-8-9", "rummoli")
    return {p: pot(t, p) for p in names}


# --------------------------------------------------------------------------- taps


def test_m2_3_auction_asks_about_pay_cards_before_recording() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.tap("deal")
        assert game.summary.phase == "widow"
        assert "Bob 11, Cy 11, Dan 10, Ann 10, widow 10" in t.label("deal-sizes")
        await t.tap("bidder-cy")
        await t.step("bid", 2)
        assert game.summary.phase == "widow"  # not yet: pay cards are asked first
        assert "Does Cy's hand hold a pay card" in t.label("widow-verdict")
        assert t.label("widow-confirm") == "No pay card: Cy pays 2 to Ann"
        await t.tap("widow-refuse")
        assert "may not take the widow" in t.label("widow-verdict")
        assert t.semantics("widow-confirm").content.disabled
        await t.tap("bidder-cy")
        assert t.label("bid") == "Bid (chips): 2"  # the bid is kept
        await t.tap("widow-confirm")
        assert game.summary.phase == "poker"
        assert stack(t, "Ann") == 43 and stack(t, "Cy") == 39

    play(scenario, [50, 50, 50, 60])


def test_m2_4_hand_check_explains_the_pay_card() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.tap("deal")
        await t.tap("widow-dealer")
        await t.tap("widow-check-type")
        await t.type_cards("Type Ann's hand", "2c 5h jd")
        assert "J♦" in t.label("pay-card-verdict")
        assert "may not take the widow" in t.label("pay-card-verdict")

    play(scenario, [50, 50, 50, 60])


def test_m4_4_tied_poker_leaves_the_odd_chip_and_a_m8_two_layers_do_not_pay() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.tap("deal")
        await t.tap("widow-none")
        await t.tap("widow-confirm")
        await t.tap("bet-bob")
        await t.tap("fold-dan")
        assert "folded" in t.label("stack-Dan")
        await t.tap("bet-cy")
        await t.tap("bet-ann")
        assert pot(t, "poker") == 7
        await t.tap("winner-bob")
        await t.tap("winner-cy")
        await t.tap("record-poker")
        assert pot(t, "poker") == 1
        assert stack(t, "Bob") == 43 and stack(t, "Cy") == 43
        assert "1 chip left in the Poker pot" in t.label("poker-result-verdict")
        await t.tap("pot-AD+KD")
        assert "Did one player lay all of it?" in t.label("claim-verdict")
        await t.tap("combo-no")
        assert "stay on the board" in t.label("end-verdict")
        assert pot(t, "AD+KD") == 4
        await t.tap("pot-7-8-9")
        await t.tap("combo-yes")
        await t.tap("claim-by-bob")
        assert stack(t, "Bob") == 47 and pot(t, "7-8-9") == 0
        await t.tap("out-cy")
        await t.step("held-ann", 2)
        await t.step("held-bob", 1)
        await t.step("held-dan", 3)
        await t.tap("record-out")
        assert game.summary.phase == "idle"
        assert stack(t, "Cy") == 43 + 4 + 6
        cy = statement_lines(t, "cy")
        assert cy == [
            "Cy: ante -9 (The ante, rule M1.3)",
            "Cy: poker bet -1 (Betting, rule M4.2)",
            "Cy: Poker pot +3 (split 2 ways, 1 left in the pot) (Tied poker hands, rule M4.4)",
            "Cy: Rummoli pot +4 (Going out, rule M6.1)",
            f"Cy: cards owed +6 (Dan 3, Ann 2, Bob 1) ({section('A-M11').name}, our ruling A-M11)",  # type: ignore[union-attr]
        ]
        # every line links to the rule it cites
        assert [t.label(f"statement-cy-line-{i}-rule") for i in range(len(cy))] == [
            "The ante, rule M1.3",
            "Betting, rule M4.2",
            "Tied poker hands, rule M4.4",
            "Going out, rule M6.1",
            f"{section('A-M11').name}, our ruling A-M11",  # type: ignore[union-attr]
        ]
        assert game.summary.detail.chips_total == 210

    play(scenario, [50, 50, 50, 60])


def test_m5_live_log_checks_each_card_and_impasse_pays_the_centre() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.to_the_rummoli_phase(winner="bob")
        await t.tap("rummoli-mode-live")
        await t.tap("lay-by-ann")
        await t.tap("lay-card-3C")
        assert "the poker winner Bob starts" in t.label("lay-verdict")
        await t.tap("lay-by-bob")
        await t.tap("lay-card-KD")
        assert t.label("lay-verdict") == "Lay. Bob may lay K♦ (The opening card, rule M5.1)"
        await t.tap("record-lay")
        await t.tap("lay-by-cy")
        await t.tap("lay-card-AD")
        await t.tap("record-lay")
        assert pot(t, "AD+KD") == 4  # two players laid K♦ and A♦ (A-M8)
        await t.tap("impasse-live")
        await t.tap("record-lay")
        assert game.summary.phase == "idle"
        # Bob 10 cards - 1, Cy 10 - 1 (dealt 11, 11, 10, 10 from Ann's left: Bob, Cy, Dan, Ann)
        assert pot(t, "rummoli") == 4 + 10 + 10 + 10 + 10
        assert game.summary.detail.chips_total == 210

    play(scenario, [50, 50, 50, 60])


def test_a_m17_the_ending_button_says_what_a_short_stack_really_pays() -> None:
    """Bob has 3 chips left and holds 7 cards: he pays 3, not 7 (A-M17), and the button
    that records the ending says so, from the referee's moves."""

    async def scenario(t: Table, game: GameSession) -> None:
        await t.to_the_rummoli_phase(winner="ann")
        assert stack(t, "Bob") == 3
        await t.tap("out-cy")
        await t.step("held-ann", 1)
        await t.step("held-bob", 7)
        await t.step("held-dan", 1)
        assert t.label("record-out") == "Cy went out: 5 chips + the Rummoli pot"
        await t.tap("impasse")
        assert t.label("record-impasse") == "Record the impasse: 5 chips to the centre"
        await t.tap("out-cy")
        await t.tap("record-out")
        assert stack(t, "Bob") == 0

    play(scenario, [50, 12, 50, 60])


def test_m7_1_a_player_who_cannot_ante_is_shown_out() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        assert "Dan cannot pay the full ante" in t.label("short-of-chips")
        await t.tap("deal")
        assert t.label("stack-Dan") == "Dan: 8 chips, out of the game"
        # three players in: 52 cards over 4 hands (M2.1)
        assert "Bob 13, Cy 13, Ann 13, widow 13" in t.label("deal-sizes")
        assert pot(t, "rummoli") == 3

    play(scenario, [50, 50, 50, 8])


def test_m7_2_per_pot_final_poker_plays_the_smallest_pot_first() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.to_the_rummoli_phase(winner="ann")
        await t.tap("pot-10S")
        await t.tap("claim-by-bob")
        await t.tap("out-cy")
        await t.step("held-ann", 1)
        await t.tap("record-out")
        # left on the board: JD QC KH AS AD+KD 7-8-9, 4 chips each
        await t.tap("end-game")
        assert "Final poker for the J♦ pot (4 chips)" in t.label("final-what")
        await t.tap("winner-dan")
        await t.tap("record-poker")
        assert "Final poker for the Q♣ pot (4 chips)" in t.label("final-what")
        assert "Dan wins the J♦ pot: 4 chips." in t.label("final-JD-verdict")
        for _ in range(5):
            await t.tap("winner-dan")
            await t.tap("record-poker")
        assert game.summary.phase == "over"
        assert t.label("rank-dan").startswith("1. Dan: ")
        assert sum(p.chips for p in game.summary.detail.pots) == 0  # every pot was played
        assert game.summary.detail.chips_total == 210

    play(scenario, [50, 50, 50, 60], rules={"final_poker": "per_pot"})


def test_m5_6_strict_claim_in_the_live_log() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.to_the_rummoli_phase(winner="bob")
        await t.tap("rummoli-mode-live")
        await t.tap("lay-by-bob")
        await t.tap("lay-card-10S")
        await t.tap("record-lay")
        assert pot(t, "10S") == 4  # not yet: strict claiming
        assert t.label("pending-10s") == "Bob claims 10♠ (4)"
        await t.tap("pending-10s")
        assert pot(t, "10S") == 0
        assert stack(t, "Bob") == 41 + 4 + 4

    play(scenario, [50, 50, 50, 60], rules={"claim": "strict"})


def test_m7_1_the_deal_is_refused_in_the_referees_words() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        assert t.semantics("deal").content.disabled
        verdict = t.label("deal-verdict")
        assert "fewer than two players can pay the ante" in verdict
        assert t.label("deal-verdict-rule") == "When to stop, rule M7.1"
        await t.tap("end-game")
        assert game.summary.phase == "over"

    play(scenario, [50, 5, 5, 5])


def test_m1_1_new_entries_name_players_by_name() -> None:
    async def scenario(t: Table, game: GameSession) -> None:
        await t.tap("deal")
        await t.tap("bidder-cy")
        await t.step("bid", 1)
        await t.tap("widow-confirm")
        await t.tap("bet-bob")
        await t.tap("fold-dan")
        await t.tap("winner-bob")
        await t.tap("record-poker")
        actions = game.record().actions
        assert actions[0]["dealer"] == 0  # the opening the test recorded by seat still counts
        assert [a.get("player") for a in actions[2:5]] == ["Cy", "Bob", "Dan"]
        assert actions[5]["winners"] == ["Bob"]

    play(scenario, [50, 50, 50, 60])


def test_the_rummoli_screens_hold_no_rule_ids_and_never_replay() -> None:
    # every rule ID and rule sentence on the table comes from the referee
    root = Path(__file__).resolve().parents[2] / "companion"
    files = [root / "views" / "rummoli_table.py", *(root / "components").glob("rummoli_*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"[\"'](A-)?M\d", text), path.name
        assert "replay" not in text and "from_record" not in text, path.name


def test_the_bar_counts_chips_not_points() -> None:
    """The referee's verdict on a lay that wins a pot carries its chips as ``points``;
    the Rummoli bar says them in chips (the verdict's note), never "4 points"."""
    from companion.components.kit.entry_bar import Primary
    from companion.components.rummoli.parts import entry_bar
    from rulesets.protocol import Verdict

    repo = MemoryRepository()
    hub = TableHub(repo)
    game = GameSession.start(hub, "rummoli", PLAYERS, {})
    verdict = Verdict(
        legal=True,
        kind="lay",
        points=4,
        rule="M5.4",
        reason="Cy may lay 10♠",
        notes=("Cy +4 (10♠ pot)",),
    )

    @ft.component
    def Root() -> ft.Control:
        return entry_bar(game, verdict, Primary("Lay", "record-lay", lambda: None), ident="bar")

    async def scenario(t: Table) -> None:
        words = t.label("bar")
        assert words == "Lay. Cy may lay 10♠ (After an ace, rule M5.4) Note: Cy +4 (10♠ pot)."
        assert "point" not in words

    render_headless(Root, scenario=scenario, screen=Table)


def test_the_score_sheet_adds_up_to_the_stacks() -> None:
    """The collapsed scoreboard opens a score sheet: the start, each round (and any
    buy-in or final poker) from the referee's ledger rows, then the stacks now --
    every player's column adds up to their stack."""
    from companion.components.rummoli.parts import score_sheet
    from rulesets.rummoli import RummoliSummary

    game = play(_one_quick_round, [50, 50, 50, 60])
    summary = game.summary
    assert isinstance(summary, RummoliSummary)

    @ft.component
    def Root() -> ft.Control:
        return score_sheet(summary)

    async def scenario(t: Table) -> None:
        rows = []
        while t.has(f"sheet-row-{len(rows)}"):
            rows.append(t.label(f"sheet-row-{len(rows)}"))
        assert rows == [
            "Start: Ann +50, Bob +50, Cy +50, Dan +60",
            "Round 1: Ann -10, Bob -4, Cy +1, Dan -8",
        ]
        assert t.label("sheet-now") == "Now: Ann 40 chips, Bob 46 chips, Cy 51 chips, Dan 52 chips"
        for i, name in enumerate(PLAYERS):
            column = [
                int(r.split(", ")[i].split(" ")[-1]) for r in (x.split(": ", 1)[1] for x in rows)
            ]
            assert sum(column) == summary.totals[name]

    render_headless(Root, scenario=scenario, screen=Table)


async def _one_quick_round(t: Table, game: GameSession) -> None:
    """Round 1 of the browser test: Cy takes the widow for 2, a betting round, Bob
    and Cy split the poker, Dan's 10♠, Bob's 7-8-9, Cy goes out."""
    await t.tap("deal")
    await t.tap("bidder-cy")
    await t.step("bid", 2)
    await t.tap("widow-confirm")
    for ident in ("bet-bob", "bet-cy", "fold-dan", "bet-ann", "winner-bob", "winner-cy"):
        await t.tap(ident)
    await t.tap("record-poker")
    await t.tap("pot-10S")
    await t.tap("claim-by-dan")
    await t.tap("pot-7-8-9")
    await t.tap("combo-yes")
    await t.tap("claim-by-bob")
    await t.tap("out-cy")
    await t.step("held-ann", 2)
    await t.step("held-bob", 1)
    await t.step("held-dan", 3)
    await t.tap("record-out")
    assert game.summary.phase == "idle"


def test_m4_1_a_typed_hand_moves_the_entry_to_the_next_hand_in_betting_order() -> None:
    """Entering the hands for the referee follows the betting order (M4.2: from the
    dealer's left): a whole hand typed in moves the picker on to the next player whose
    hand is not in yet; a tap on a name still picks anyone."""

    def chosen(t: Table) -> list[str]:
        return [p for p in PLAYERS if t.semantics(f"hand-of-{p.lower()}").selected]

    async def scenario(t: Table, game: GameSession) -> None:
        await t.tap("deal")
        await t.tap("widow-none")
        await t.tap("widow-confirm")
        await t.tap("poker-mode-hands")
        assert chosen(t) == ["Bob"]  # Ann deals: Bob, on her left, first
        await t.tap("hand-bob-type")
        await t.type_cards("Type Bob's hand", "ks kc 8s 8c 4c")
        assert chosen(t) == ["Cy"]
        await t.tap("hand-of-ann")
        await t.tap("hand-ann-type")
        await t.type_cards("Type Ann's hand", "9s 9c 9d 5s 2s")
        assert chosen(t) == ["Cy"]  # Cy and Dan still to come: Cy first
        await t.tap("hand-cy-card-AD")  # one card tapped: the entry stays with Cy
        assert chosen(t) == ["Cy"]
        assert "Bob: Poker hand: Two pair" in t.label("eval-bob")

    play(scenario, [50, 50, 50, 60])
