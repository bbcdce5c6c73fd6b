"""No text is cut mid-word without its ellipsis and a way to read the rest (issue 18),
checked on the control tree (``tests/companion/text_cut.py``) of every state of a
scripted game of each game at its largest table -- Umtali, Rummy with six players,
Rummoli with eight -- and of each entry mode the table offers (opened in every third
state).

The check is not vacuous: texts built to be cut (one line clipped, one ending in an
ellipsis nobody can open) are named, and the same texts done right are not.

The same states check that the primary action's words fit its button at a 360 px
phone in its two lines (and so at 390 px and on a desktop); an action built too
long is named.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import flet as ft
import pytest

from companion import rulebook
from companion.components.kit.common import rule_link
from companion.components.kit.entry_bar import EntryBar, Primary
from companion.hub import TableHub
from companion.session import GameSession
from companion.storage import MemoryRepository
from companion.views.checker import evaluate, verdict_box
from rulesets import load_ruleset
from rulesets.cards import parse_card
from rulesets.protocol import GameRecord
from tests.companion.flet_harness import HeadlessScreen, render_headless
from tests.companion.test_game_over import Host, Screen
from tests.companion.text_cut import bar_actions, cut_spans, cut_texts, unfit_actions
from tests.companion.text_width import FONT, FONT_SHA256, lines_needed

#: (game, seed of ``random_record``, players): a long game at the game's largest table
SCRIPTS = [("umtali", 33, 2), ("rummy", 35, 6), ("rummoli", 2, 8)]
#: what a player taps to open each entry the table offers (those present are tapped,
#: one after the other, in every state)
OPENERS = {
    "umtali": ["mode-extend", "mode-discard", "mode-go_out", "mode-leftovers", "mode-hand"],
    "rummy": ["table-log-switch", "hand-over"],
    "rummoli": ["rummoli-mode-live", "rummoli-mode-quick"],
}

#: what a player picks in an open entry (the first and the last of each kind are
#: tapped): the action's words name who and what ("Hal went out: 12 chips + the
#: Rummoli pot"), so its longest words come only once something is picked
PICKS = {
    "umtali": [r"-card-[0-9AJQK]"],
    "rummy": [r"^log-player-", r"^log-card-", r"^log-target-", r"^went-out-", r"^going-rummy$"],
    "rummoli": [r"^out-", r"^impasse$", r"^lay-by-", r"^lay-card-", r"^winner-", r"^bidder-"],
}


#: the entries are opened in every third state (and the last): each opening draws the
#: table again, and a whole game of them is minutes of drawing on a busy machine
OPEN_EVERY = 3


#: the names at the table: long ones, as people's names are ("Maximilian went out: 12
#: chips + the Rummoli pot" must still read whole at 360 px)
LONG_NAMES = [
    "Christopher", "Maximilian", "Alexandra", "Gwendolyn",
    "Sebastian", "Francesca", "Jonathan", "Josephine",
]  # fmt: skip


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


@cache
def script(game: str, seed: int) -> GameRecord:
    """The game's long scripted record, its players given long names."""
    record = load_ruleset(game).random_record(seed)
    names = dict(zip(record.players, LONG_NAMES, strict=False))
    return GameRecord.from_json(_renamed(record.model_dump(), names))


def _render(build: Callable[[], ft.Control], check: Callable[[HeadlessScreen], Any]) -> None:
    @ft.component
    def Shown() -> ft.Control:
        return build()

    async def scenario(sc: HeadlessScreen) -> None:
        check(sc)

    render_headless(Shown, scenario=scenario, screen=HeadlessScreen)


def _cut_one_line() -> ft.Control:
    return ft.Container(
        ft.Text("Note: the no-breaking rule could not be checked", no_wrap=True), width=120
    )


def test_a_text_clipped_mid_word_is_named() -> None:
    found: list[str] = []
    _render(_cut_one_line, lambda sc: found.extend(cut_texts(sc.controls(), "built")))
    assert found == [
        "built: 'Note: the no-breaking rule could not be checked' (no_wrap) is cut "
        "without an ellipsis"
    ]


def test_an_ellipsis_nobody_can_open_is_named_and_a_tooltip_tap_or_label_is_a_way() -> None:
    words = "Pick who went out and the card they laid"

    def texts() -> ft.Control:
        def line(**kw: Any) -> ft.Text:
            return ft.Text(words, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, **kw)

        return ft.Column(
            [
                line(),  # cut well, but nothing opens the rest
                line(tooltip=words),
                line(semantics_label=f"The hint: {words.lower()}"),
                ft.Semantics(content=line(), label=f"Hint: {words}."),
                ft.Container(line(), on_click=lambda _: None),
                ft.Container(line(), on_click=lambda _: None, disabled=True),
                ft.Row([ft.Text(words, no_wrap=True)], scroll=ft.ScrollMode.AUTO),  # a swipe
                ft.Text(words),  # wraps
            ]
        )

    found: list[str] = []
    _render(texts, lambda sc: found.extend(cut_texts(sc.controls(), "built")))
    why = "ends in an ellipsis with no way to read the rest"
    assert len(found) == 1 and why in found[0], found  # the same line twice: one sentence
    # and each of the two alone: the bare line, the one in a disabled box
    for pick in (0, 5):
        alone: list[str] = []
        _render(
            lambda pick=pick: texts().controls[pick],  # type: ignore[attr-defined]
            lambda sc, alone=alone: alone.extend(cut_texts(sc.controls(), "built")),
        )
        assert len(alone) == 1 and why in alone[0], (pick, alone)


def test_a_text_of_spans_held_short_is_named_its_ellipsis_is_dropped() -> None:
    def texts() -> ft.Control:
        return ft.Column(
            [
                ft.Text(
                    spans=[ft.TextSpan("Deal every card, plus the widow"), ft.TextSpan("  M2")],
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,  # not read: Flet drops it
                ),
                ft.Text(spans=[ft.TextSpan("5♥ 6♥ 7♥")]),  # wraps
            ]
        )

    found: list[str] = []
    _render(texts, lambda sc: found.extend(cut_spans(sc.controls(), "built")))
    assert found == [
        "built: 'Deal every card, plus the widow M2' (max_lines=2) is made of spans: "
        "cut, its ellipsis is dropped"
    ]


def test_every_rule_link_cut_short_ends_in_an_ellipsis_and_reads_whole() -> None:
    """A rule link in a narrow slot ("Lay off onto any" beside a verdict) cuts its
    title with "…", and its label says the whole title."""
    rules = [s.id for s in rulebook.sections()]

    def links() -> ft.Control:
        return ft.Column([ft.Container(rule_link(r), width=130) for r in rules])

    found: list[str] = []
    titles: list[str] = []

    def check(sc: HeadlessScreen) -> None:
        found.extend(cut_spans(sc.controls(), "rule link"))
        found.extend(cut_texts(sc.controls(), "rule link"))
        titles.extend(str(c.value) for c in sc.controls() if isinstance(c, ft.Text) and c.max_lines)

    _render(links, check)
    assert found == []
    assert len(rules) > 20 and {s.title for s in rulebook.sections()} <= set(titles)


@pytest.mark.parametrize("query", ["marriage", "same side", "how many cards to deal"])
def test_no_rules_search_snippet_is_cut_without_its_ellipsis(query: str) -> None:
    """A snippet longer than its two lines ended mid-phrase ("…on the same side as")."""
    from companion.views.rules import _results

    found: list[str] = []
    _render(
        lambda: ft.Column(_results(query)),
        lambda sc: found.extend(
            [
                *cut_texts(sc.controls(), f"rules search {query!r}"),
                *cut_spans(sc.controls(), f"rules search {query!r}"),
            ]
        ),
    )
    assert found == []


def _bar(words: str) -> Callable[[], ft.Control]:
    session = GameSession.start(TableHub(MemoryRepository()), "rummy", ["Ann", "Bob"], {})
    return lambda: EntryBar(session, None, Primary(words, "act", lambda: None))


@pytest.mark.parametrize(
    ("words", "fits"),
    [
        ("Deal", True),
        ("Cy went out: collects 4 + the Rummoli pot", True),  # two lines at 360 px
        ("Christopher went out: 12 chips + the Rummoli pot", True),
        ("Christopher went out: collects 12 + the Rummoli pot", False),  # the old words
        ("Record the whole hand of everybody at the table, then deal", False),  # 3 lines
        ("Unquestionablyextraordinarylongword", False),  # one word wider than the button
    ],
)
def test_an_action_too_long_for_its_button_is_named(words: str, fits: bool) -> None:
    found: list[str] = []
    actions: list[Any] = []

    def check(sc: HeadlessScreen) -> None:
        actions.extend(bar_actions(sc.controls(), 360))
        found.extend(unfit_actions(sc.controls(), "built"))

    _render(_bar(words), check)
    assert [a.words for a in actions] == [words]
    # the room the browser gives the words at 360 px: a 225 px action less its padding
    # (12 + 12) and icon (18 + 8); measured, with Undo 99 px wide (a 360x640 Rummoli page)
    assert actions[0].room == pytest.approx(224.9 - 50, abs=0.2)
    assert actions[0].max_lines == 2
    assert (found == []) == fits, found
    if not fits:
        assert found[0].startswith(f"built: the action {words!r} needs "), found


@pytest.mark.timeout(900)  # (a safety net only: at a load of 28 the Umtali game took > 300 s)
@pytest.mark.parametrize(("game", "seed", "players"), SCRIPTS, ids=[g for g, *_ in SCRIPTS])
def test_no_text_is_cut_at_the_largest_table_in_any_state_or_entry(
    game: str, seed: int, players: int
) -> None:
    """One table on screen, the script's entries recorded one by one as at the table;
    after each, the screen is read (and in every third, each entry the table offers
    is opened and read)."""
    record = script(game, seed)
    assert len(record.players) == players, record.players  # the largest table
    session = GameSession.start(
        TableHub(MemoryRepository()), game, record.players, dict(record.rules)
    )
    found: dict[str, str] = {}
    opened: set[str] = set()
    picked: set[str] = set()
    actions: set[str] = set()

    async def scenario(sc: Screen) -> None:
        def look(k: int, where: str, texts: bool = True) -> None:
            controls = sc.controls()
            for problem in [
                *(cut_texts(controls, f"{game}, entry {k}, {where}") if texts else []),
                *cut_spans(controls, f"{game}, entry {k}, {where}"),
                *unfit_actions(controls, f"{game}, entry {k}, {where}", screen_width=360),
            ]:
                found.setdefault(problem.split(": ", 1)[1], problem)
            actions.update(a.words for a in bar_actions(controls))

        async def pick(k: int) -> None:
            """Tap the first and the last of each kind of pick, reading the action."""
            for kind in PICKS[game]:
                idents = [
                    str(c.identifier)
                    for c in sc.controls()
                    if isinstance(c, ft.Semantics)
                    and re.search(kind, str(c.identifier or ""))
                    and isinstance(c.content, ft.Control)
                    and not c.content.disabled
                    and not isinstance(c.content, ft.Switch)
                ]
                for ident in dict.fromkeys(idents[:1] + idents[-1:]):
                    if sc.has(ident) and not getattr(sc.semantics(ident).content, "disabled", 0):
                        await sc.click(ident)
                        picked.add(kind)
                        look(k, f"after picking {ident}", texts=False)

        for k, action in enumerate([None, *record.actions]):
            if action is not None:
                assert session.add(action) is None, (k, action)
                await sc.flush()
            look(k, "as it is")
            if k % OPEN_EVERY and k < len(record.actions):
                continue
            for ident in OPENERS[game]:
                if not sc.has(ident):
                    continue
                target = sc.semantics(ident).content
                if getattr(target, "disabled", False):
                    continue
                if isinstance(target, ft.Switch):
                    await sc.change(target, not target.value)
                else:
                    await sc.click(ident)
                opened.add(ident)
                look(k, f"after tapping {ident}")
                await pick(k)

    render_headless(Host, session, scenario=scenario, screen=Screen)
    assert session.summary.finished  # the script reached the ending
    assert opened >= set(OPENERS[game]) - {"mode-leftovers"}, opened
    assert picked, picked  # something was picked
    assert len(actions) >= 3, actions  # the actions were read (each fits at 360 px)
    assert not found, f"{len(found)} texts cut:\n  " + "\n  ".join(found.values())


#: the meld checker's states, as a player reaches them: (mode, cards, anchor, going out)
CHECKER_STATES: list[tuple[str, str, str, bool]] = [
    ("meld", "", "", False),  # nothing picked yet
    ("meld", "5H", "", False),
    ("meld", "5H 6H", "", False),  # one card short: keep picking
    ("meld", "5H 6H 7H", "", False),
    ("meld", "7H 7S 7D 7C", "", False),
    ("meld", "5H 6H 7H", "", True),
    ("meld", "5H 6H 9C", "", False),  # not a meld
    ("meld", "5H 5H 5H 5H 5H", "", False),  # more copies than the decks hold
    ("extend", "5C", "", False),  # the anchor not picked yet
    ("extend", "5C", "2C 3C 4C", False),  # the docs' "Legal: extension, 1 card"
    ("extend", "5C 6C 7C", "2C 3C 4C", False),
    ("extend", "9D", "2C 3C 4C", False),
    ("hand", "", "", False),
    ("hand", "5H 6H 7H 9S 9D 9C KC", "", False),
    ("hand", "2S 5D 8C JH KS AD 3C", "", False),
]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_no_text_is_cut_in_any_state_of_the_meld_checker(game: str, dark: bool) -> None:
    """Each verdict (or advice) the checker shows for each game, drawn as the screen
    draws it: the headline, the reason, the notes and the rule link.  (The headline
    squeezed beside a link of fixed width read "Legal: extension, 1 …" at 360 px, an
    ellipsis with nothing to open.)"""
    facts = load_ruleset(game).checker
    rules: dict[str, Any] = {}  # the game's own rules
    found: list[str] = []
    shown = 0
    for mode, cards, anchor, going_out in CHECKER_STATES:
        if mode not in facts.modes or (going_out and not facts.going_out):
            continue
        picked = [parse_card(c) for c in cards.split()]
        outcome = evaluate(
            game,
            rules,
            mode,  # type: ignore[arg-type]
            picked,
            anchor=[parse_card(c) for c in anchor.split()],
            going_out=going_out,
        )
        advice_only = mode == "hand" and not facts.hand_verdict and bool(picked)
        where = f"checker, {game}, {mode} {cards or 'nothing'}" + (
            f" onto {anchor}" if anchor else ""
        )

        def box(o: Any = outcome, a: bool = advice_only) -> ft.Control:
            return verdict_box(o, advice_only=a, dark=dark)

        _render(
            box,
            lambda sc, w=where: found.extend(
                [*cut_texts(sc.controls(), w), *cut_spans(sc.controls(), w)]
            ),
        )
        shown += 1
    # the states reached, not skipped (Rummoli's checker has the whole hand only)
    assert shown >= (3 if facts.modes == ("hand",) else 13), (facts.modes, shown)
    assert not found, f"{len(found)} texts cut:\n  " + "\n  ".join(found)


def test_the_widths_are_of_the_font_the_app_draws_with() -> None:
    """The advances were measured from Flet's bundled Roboto: a Flet that ships
    another font must be measured again (``python -m tests.companion.text_width``)."""
    assert hashlib.sha256(FONT.read_bytes()).hexdigest() == FONT_SHA256
    assert lines_needed("Deal round 4: Maximilian deals", 15, 174.9, 0.1) == 2
    assert lines_needed("Deal", 15, 174.9) == 1
    assert lines_needed("Unquestionablyextraordinarylongword", 15, 174.9) is None
