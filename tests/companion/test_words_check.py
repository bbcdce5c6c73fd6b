"""The words check the browser tests run on every screen catches what the issue saw."""

from __future__ import annotations

import importlib
import random

import flet as ft
import pytest

from companion.components.kit.common import rule_link
from companion.components.kit.entry_bar import verdict_label
from companion.rulebook import house_rules, section, sections
from companion.views.rules import _section_tile
from rulesets import load_ruleset
from rulesets.cards import parse_cards
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummy import LayOff, Meld, RummyGame, StartHand
from rulesets.rummy.house_rules import RummyRules
from rulesets.rummy.ruleset import RULESET as RUMMY
from rulesets.umtali.ruleset import RULESET as UMTALI
from tests.browser.words import (
    house_rule_problems,
    link_problems,
    penalty_problems,
    prose_problems,
    word_problems,
)


@pytest.mark.parametrize(
    "text",
    [
        "(house rule ace_high_or_low allows it)",
        "one_round: one betting round with a limit",
        "per_pot: one per pot",
        "See R7.joker_swap",
        "Ann: 1 points",
        "Bob pays 1 chips",
        "Room for 1 more players.",
        "Bet: 3 chip",
        "-1 points",
        "Refused.. try again",
        "Hand end: 21 penalty points. hand 1: Bob went out; this hand scores Ann 21, Bob 0",
        "Not allowed. lay 5♥: the table broke the sequence (Laying cards, rule M3.2)",
    ],
)
def test_the_issues_examples_are_caught(text: str) -> None:
    assert word_problems([text]), text


@pytest.mark.parametrize(
    "text",
    [
        "House rules: Ace high or low",
        "Rule R7 · Rummy",
        "Rule U5.1 · Umtali",
        "A-U14 Our ruling: a marriage is worth 20",
        "Sequence: 1 point",
        "Ann 12 · Bob 7",
        "Total 21 points, 11 chips",
        "Q-K-A is not a run; ace-2-3 is",
        "Rummy: 2 to 6 players, in seating order (clockwise).",
        "10 points for a 10-point card",
        "Started today 09:05",
        "Hand end: 21 penalty points. Hand 1: Bob went out",
        "1. Ann: 12 points",
        "Nothing matches “who dels”. Try other words, e.g. meld or pot.",
        "The next hand starts at 9 p.m. sharp",
        "Ann vs. Bob",
    ],
)
def test_words_people_use_pass(text: str) -> None:
    assert word_problems([text]) == []


@pytest.mark.parametrize(
    "text",
    [
        "Marriage scores double (A-U17)",
        "Take two from the pile (U4.2 variant, PGC)",
        "a player who cannot start pays 1 chip to the centre (M5.5)",
        "8-9-10 (regional, A-M19)",
        "only a hand without pay cards (M2.2-M2.4)",
        "lay off 5H 6H 7H",
        "record it with go_out",
    ],
)
def test_house_rule_words_catch_the_issues_examples(text: str) -> None:
    assert house_rule_problems(text), text


@pytest.mark.parametrize(
    "text",
    ["Ace high or low", "a 10-point card", "lay off 5♥ 6♥ 7♥", "Q-K-A is a run (ace high)"],
)
def test_house_rule_words_pass(text: str) -> None:
    assert house_rule_problems(text) == []


@pytest.mark.parametrize("rules", [RummyRules, RummoliRules], ids=["rummy", "rummoli"])
def test_every_house_rule_is_worded_for_players(rules: type) -> None:
    """Every switch's title, explanation and value names, as the new-game screen shows
    them (issue 18: no "(A-U17)", no "(U4.2 variant, PGC)")."""
    texts = [*rules.TITLES.values(), *rules.EXPLAIN.values()]
    texts += list(getattr(rules, "VALUE_TITLES", {}).values())
    problems = [p for t in texts for p in house_rule_problems(t)]
    assert problems == []


@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_the_rulebooks_house_rule_notes_are_worded_for_players(game: str) -> None:
    """The rules screen's notes on each house rule: no "(R7)", "(A-R15)" tags (the
    rule they touch is linked beside them)."""
    notes = house_rules(game)
    assert notes
    assert [p for h in notes for p in house_rule_problems(h.text)] == []


# ------------------------------------------------- issue 18: a player's words everywhere


@pytest.mark.parametrize(
    ("labels", "caught"),
    [
        (["Rule U8.1"], True),  # a bare ID: the link showed no title
        (["Rule A-R14"], True),
        (["Umtali rule A-U14: Our ruling: a marriage is worth 20"], True),  # a ruling as a rule
        (["Going out, rule U8.1"], False),
        (["A marriage is worth 20, our ruling A-U14"], False),
        (["Umtali rule U5.3: Marriage"], False),
    ],
)
def test_link_words(labels: list[str], caught: bool) -> None:
    assert bool(link_problems(labels)) is caught


@pytest.mark.parametrize("rule", ["U8.1", "A-U14", "R7.joker_swap", "M5.6", "A-R11"])
def test_a_rule_link_shows_the_rules_title_with_its_id_small(rule: str) -> None:
    """The link every verdict carries: the rule's title, its ID small, named for a
    screen reader in players' words (it was "Rule U8.1")."""
    link = rule_link(rule)
    sec = section(rule)
    assert sec is not None
    assert link_problems([link.label]) == [], link.label
    assert link.label.startswith(sec.name) and link.label.endswith(sec.shown_id)
    title, ident = link.content.content.controls
    assert title.value == sec.title and ident.value == sec.shown_id
    assert ident.size < 14  # the ID small
    # the title a plain text (not spans, whose "…" Flet drops): cut, it ends in "…"
    assert not title.spans and title.overflow == ft.TextOverflow.ELLIPSIS


@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_every_rules_search_result_is_labelled_in_players_words(game: str) -> None:
    """A search result for one of our rulings read "Umtali rule A-U14: Our ruling: ..."."""
    tiles = [_section_tile(s, "/rules", with_game=True) for s in sections(game)]
    tiles += [_section_tile(s, "/rules") for s in sections(game)]
    assert link_problems([t.label for t in tiles]) == []
    assert any("our ruling" in t.label for t in tiles)


def test_the_umtali_marriage_note_has_no_ruling_number() -> None:
    """The score note said "K+Q of one suit melded as one marriage: 20 (A-U14)"."""
    notes = UMTALI.score(parse_cards("KH QH")).notes
    assert notes and [p for n in notes for p in prose_problems(n)] == []
    assert "K♥ Q♥" in notes[0]
    mixed = UMTALI.score(parse_cards("KH QH 5D")).notes
    assert mixed and [p for n in mixed for p in prose_problems(n)] == []


def _rummy_table() -> tuple[RummyGame, tuple[str, ...]]:
    game = RUMMY.new_game(["Ann", "Bob", "Cy"], {})
    game.push(StartHand(dealer="Ann"))
    game.push(Meld(player="Bob", cards=["7H", "8H", "9H"]))
    return game, ("QH KH AH", "7S 7D 7C", "AH 2H 3H", "QH KH 2C")


def test_rummy_referee_prose_writes_cards_as_players_do() -> None:
    """Rummy's reasons wrote cards in letters ("QH KH AH": ..., "JS" onto "7H 8H 9H")."""
    game, melds = _rummy_table()
    reasons = [RUMMY.check(parse_cards(m)).reason for m in melds]
    for card in ("10H", "JS"):
        reasons.append(game.judge(LayOff(player="Cy", cards=[card], meld=0)).reason)
    assert all(reasons)
    problems = [p for r in reasons for p in prose_problems(r)]
    assert problems == [], problems
    assert any("7♥ 8♥ 9♥" in r for r in reasons)


def test_a_rummy_meld_is_not_worth_points_under_penalty_scoring() -> None:
    """Rummy is scored in penalty points: "Run: 24 points" called a meld worth points.
    ``points`` stays the card value of the meld (``check --json``), worded as what
    melding takes out of the hand."""
    v = RUMMY.check(parse_cards("7H 8H 9H"))
    assert v.points == 24  # the public contract is unchanged
    units = RUMMY.units()
    shown = [verdict_label(v, units), RUMMY.checker.headline(v, units)]
    assert penalty_problems(shown) == [], shown
    assert "24 penalty points out of the hand" in shown[0]
    # Umtali scores points: a meld there is worth them
    assert "20 points" in verdict_label(UMTALI.check(parse_cards("KH QH")), UMTALI.units())


# ------------------------------------- issue 18: the last leftovers (Umtali and Rummoli)


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("Cy: cards owed +6 (Dan 3, Ann 2, Bob 1), rule A-M11", True),  # a ruling as a rule
        ("Hand 5 (tie-break, U2.4)", True),  # a rule ID in a heading
        ("Drawing by Ann: the stock is empty; take the discard (U4.2) or end the hand", True),
        ("Refused: 5H 6H: pick one more card", True),  # cards in letters
        ("Ann: Two pair (KS KD 5H 5C 2S)", True),
        ("Cy: cards owed +6 (Dan 3) (Who gets the per-card chips, our ruling A-M11)", False),
        ("Refused: J♥ J♦ J♠: jacks never form a set (Sets, rule U5.1)", False),
        ("Hand 5 (tie-break)", False),
        ("the A♦+K♦ pot", False),
        ("Rule A-M9 · Rummoli", True),  # a ruling's sheet, headed as a rule
        ("Our ruling A-M9 · Rummoli", False),
    ],
)
def test_screen_words_catch_rulings_ids_in_sentences_and_cards_in_letters(
    text: str, caught: bool
) -> None:
    """What the old screens said: a statement line's label "rule A-M11", a rule ID in
    a refusal or heading, cards in letters (every Umtali verdict, the poker hands)."""
    assert bool(prose_problems(text)) is caught, prose_problems(text)


def _labels(control: object) -> list[str]:
    """Every semantic label in a control tree (what a screen reader reads)."""
    out: list[str] = []
    label = getattr(control, "label", None)
    if isinstance(label, str):
        out.append(label)
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        for c in child if isinstance(child, list) else [child]:
            if c is not None and hasattr(c, "__dict__"):
                out += _labels(c)
    return out


def test_a_rummoli_statement_line_cites_a_ruling_as_ours() -> None:
    """A statement line's label said "…, rule A-M11": it cites the rule as its link
    does, "Who gets the per-card chips, our ruling A-M11"."""
    from companion.components.rummoli.parts import statement_card
    from rulesets.protocol import LedgerEntry

    owed = LedgerEntry(player="Cy", amount=6, kind="owed", rule="A-M11", label="cards owed")
    ante = LedgerEntry(player="Cy", amount=-9, kind="ante", rule="M1.3", label="ante")
    labels = _labels(statement_card("Cy", [ante, owed], "statement-cy"))
    lines = [t for t in labels if t.startswith("Cy: ")]
    assert len(lines) == 2, labels
    assert word_problems(labels) + link_problems(labels) == [], labels
    assert lines[1].endswith("our ruling A-M11)") and "The ante, rule M1.3" in lines[0]


def _slip(action: dict[str, object], rng: random.Random) -> dict[str, object]:
    """The action with a card changed: mostly refused, as a slip at the table would be."""
    out = dict(action)
    for key, value in action.items():
        if key == "card":
            out[key] = rng.choice(["5H", "KS", "JD", "2C", "AH", "10D", "QH"])
        elif key == "cards" and isinstance(value, list) and value:
            out[key] = value[:-1] if len(value) > 1 else [*value, rng.choice(["5H", "JD"])]
    return out


@pytest.mark.parametrize("game", ["umtali", "rummoli"])
def test_every_referee_text_of_played_games_is_in_players_words(game: str) -> None:
    """Real games (the simulators) pushed entry by entry: the verdict on each entry and
    on a slip of it (a card changed), and the summary's words, as a screen shows them
    (``said``, ``said_notes``): no rule ID in a sentence, no card in letters.  The
    referee's own ``reason`` (what ``companion check`` prints) still writes "5H" --
    the check catches that, so it is not vacuous."""
    simulate = importlib.import_module(f"rulesets.{game}.simulate")
    rng = random.Random(7)
    shown: list[str] = []
    raw: list[str] = []
    for seed in (1, 2):
        record = simulate.random_record(seed)
        live = load_ruleset(game).new_game(record.players, record.rules)
        for action in record.actions[:150]:
            for v in (live.judge(action), live.judge(_slip(action, rng))):
                shown += [v.said, *v.said_notes]
                raw.append(v.reason)
            live.push(action)
        detail = live.summary().detail.model_dump(mode="json")
        shown += [t for t in detail.values() if isinstance(t, str)]
    problems = [p for t in shown for p in prose_problems(t)]
    assert problems == [], problems[:10]
    assert [p for t in raw for p in word_problems([t])], "the check saw no card in letters"


def test_an_error_names_its_rule_and_shows_players_words() -> None:
    """An error's message names the rule (a contract, what ``check`` prints); its
    ``words``, what a screen shows beside the rule's link, do not."""
    from rulesets.cards import parse_card
    from rulesets.errors import IllegalActionError
    from rulesets.umtali.house_rules import UmtaliRules
    from rulesets.umtali.melds import compulsory_discard

    with pytest.raises(IllegalActionError) as caught:
        compulsory_discard(parse_card("JH"), (), (), UmtaliRules(compulsory_melding=True), "JH")
    exc = caught.value
    assert (
        str(exc)
        == "JH: JH can go down alone, as every jack can (U5.4); melding is compulsory (U4.4)"
    )
    assert exc.rule == "U4.4" and word_problems([exc.words]) == [], exc.words
    assert exc.words == "J♥: J♥ can go down alone, as every jack can; melding is compulsory"


@pytest.mark.parametrize("game", ["umtali", "rummy", "rummoli"])
def test_a_verdicts_label_starts_its_reason_as_a_sentence(game: str) -> None:
    """A verdict's label is its headline, a full stop, then its reason: "Hand end: 21
    penalty points. hand 1: Bob went out" (issue 18).  The referee's reason stays as
    ``companion check`` and a refusal ("Refused: hand 1: ...") print it; what a
    screen says of it (``Verdict.said``) starts with a capital.  Real games (the
    simulators) entry by entry, and a slip of each."""
    from companion.components.kit.common import verdict_line

    simulate = importlib.import_module(f"rulesets.{game}.simulate")
    ruleset = load_ruleset(game)
    rng = random.Random(11)
    labels: list[str] = []
    for seed in (1, 2):
        record = simulate.random_record(seed)
        live = ruleset.new_game(record.players, record.rules)
        units = ruleset.units(live.rules)
        for action in record.actions[:200]:
            for v in (live.judge(action), live.judge(_slip(action, rng))):
                labels += [verdict_label(v, units), str(verdict_line(v, units=units).label)]
            live.push(action)
    problems = [p for p in word_problems(labels) if p.startswith("'. ")]
    assert problems == [], problems[:10]
    if game == "rummy":  # the hand's end, as the issue read it
        ends = [t for t in labels if t.startswith("Hand end: ")]
        assert ends and all(". Hand " in t for t in ends), ends[:3]
