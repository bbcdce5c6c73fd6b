"""The checker's whole-hand panel says each fact once (issue 18: a verdict box that
repeats itself is read twice to a screen reader and pushes lines out of its box)."""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app import App
from companion.config import AppConfig
from companion.hub import TableHub
from companion.services import Services
from companion.storage import MemoryRepository
from companion.views.checker import evaluate
from rulesets.cards import parse_cards
from rulesets.umtali.ruleset import RULESET as UMTALI
from tests.companion.flet_harness import HeadlessScreen, RecordingConnection, flush, run_async


def test_a_rummoli_hand_says_the_widow_once_and_each_play_once() -> None:
    out = evaluate("rummoli", {}, "hand", parse_cards("2C 3C 4C 5H 6D JD"))
    assert out.verdict is not None
    shown = [out.verdict.said, *out.verdict.said_notes, *out.lines]
    assert sum("widow" in line for line in shown) == 1, shown
    assert sum("Poker hand" in line for line in shown) == 1, shown
    assert any("J♦ pot" in line for line in out.lines), shown


# ------------------- issue 18: the no-breaking rule is said once, beside the hand field


class _Checker(HeadlessScreen):
    async def tap(self, cards: str, ident: str = "checker-cards") -> None:
        for c in cards.split():
            await self.click(f"{ident}-card-{c}")

    def under(self, ident: str | ft.Control) -> list[Any]:
        """Every control under ``ident`` (or the one behind that identifier)."""
        out: list[Any] = []

        def walk(c: Any) -> None:
            out.append(c)
            for name in ("content", "controls"):
                child = getattr(c, name, None)
                for k in child if isinstance(child, list) else [child]:
                    if isinstance(k, ft.Control):
                        walk(k)

        walk(self.semantics(ident) if isinstance(ident, str) else ident)
        return out

    def verdict_words(self) -> list[str]:
        return [str(c.value) for c in self.under("checker-verdict") if isinstance(c, ft.Text)]

    def board_lines(self) -> list[set[str]]:
        """The identifiers on each line of the checker's board, top to bottom (the
        board is a reversed list, anchored at the bottom)."""
        (board,) = [c for c in self.under("checker-board") if isinstance(c, ft.ListView)]
        return [
            {str(c.identifier) for c in self.under(item) if isinstance(c, ft.Semantics)}
            for item in reversed(board.controls)
        ]

    def saying(self, words: str) -> list[str]:
        """Every text and label on the screen that says ``words``."""
        said = self.texts() + [
            str(c.label) for c in self.controls() if isinstance(c, ft.Semantics) and c.label
        ]
        return [t for t in said if words in t]


def _open_checker() -> tuple[Session, _Checker]:
    """The meld checker as the app routes to it (``/check``), on a device alone."""
    conn = RecordingConnection()
    conn.pubsubhub = PubSubHub()
    fs = Session(conn)
    _context_page.set(fs.page)
    fs.page.route = "/check"
    fs.page.render_views(App, Services(config=AppConfig(), hub=TableHub(MemoryRepository())))
    fs.get_page_patch()
    return fs, _Checker(fs, conn)


def test_u7_2_without_a_hand_the_checker_says_so_once_beside_the_hand_not_per_verdict() -> None:
    """Every Umtali extension checked without a hand repeated "The no-breaking rule could
    not be checked: no hand was entered ..." in its verdict (issue 18): it is said once,
    under the switch that enters the hand, and a verdict with the hand says nothing."""

    async def scenario() -> None:
        fs, sc = _open_checker()
        try:
            await flush(50)
            await sc.click("checker-mode-extend")
            await sc.tap("5H 6H 7H", "checker-anchor")
            await sc.click("checker-target-cards")
            assert not sc.has("checker-hand-note")  # nothing checked yet: nothing to say
            for card in ("8H", "4H", "8H"):  # several extensions, no hand entered
                await sc.tap(card)
                assert any("extends" in t for t in sc.verdict_words()), sc.verdict_words()
                assert not [t for t in sc.verdict_words() if "no-breaking" in t]
                assert sc.saying("check the no-breaking rule") == [
                    UMTALI.checker.unchecked_words,  # the text
                    UMTALI.checker.unchecked_words,  # its label (the text is not read twice)
                ]
                lines = sc.board_lines()  # on the line right under the hand's switch
                (at,) = [i for i, line in enumerate(lines) if "checker-use-hand" in line]
                assert "checker-hand-note" in lines[at + 1], lines
                await sc.click("checker-cards-clear")
            # the hand entered: the rule is checked, and nothing is said of it
            switch = sc.semantics("checker-use-hand").content
            await sc.change(switch, True)
            await sc.click("checker-target-hand")
            await sc.tap("2C 9S", "checker-hand")
            await sc.click("checker-target-cards")
            await sc.tap("8H")
            assert any("extends" in t for t in sc.verdict_words()), sc.verdict_words()
            assert not sc.has("checker-hand-note")
            assert not [t for t in sc.verdict_words() if "no-breaking" in t]
            # ... and a card that breaks a meld still held is refused by it
            await sc.click("checker-target-hand")
            await sc.tap("9H 10H", "checker-hand")
            assert sc.verdict_words()[0] == "Not legal", sc.verdict_words()
            assert "meld that first" in sc.verdict_words()[1]
            assert not sc.has("checker-hand-note")
            assert sc.crashes() == []
        finally:
            fs.close()
            await flush()

    run_async(scenario())
