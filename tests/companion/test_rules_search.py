"""Rules search reads people, not keywords: typos, questions, and which game answers.

Each case names the section a player asking it should land on; the sections come
from the rulebook files, the ranking from :func:`companion.rulebook.search`.
"""

from __future__ import annotations

import pytest

from companion.rulebook import STOP_WORDS, Section, games, search, section, sections


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("marrige", "U5.3"),  # the example
        ("mariage", "U5.3"),
        ("marrig", "U5.3"),  # a typo while still typing
        ("jakc", "U5.4"),  # two letters swapped
        ("widdow", "M2.1"),
        ("impase", "M5.7"),
        ("sequnce", "U5.2"),
    ],
)
def test_a_typo_still_finds_the_rule(typed: str, expected: str) -> None:
    assert search(typed)[0].section.id == expected


@pytest.mark.parametrize(
    ("typed", "game", "expected"),
    [("reshufle", "rummy", "R5.1"), ("discrad pile", "umtali", "U4.2")],
)
def test_a_typo_with_a_game_chosen(typed: str, game: str, expected: str) -> None:
    assert search(typed, game=game)[0].section.id == expected


def test_a_real_word_is_not_read_as_a_typo_of_another() -> None:
    """ "poker" is a word of the rulebook: it must not also find jokers."""
    hits = search("poker")
    assert hits and all(h.section.game == "rummoli" for h in hits)


def test_how_many_cards_to_deal_answers_for_each_game() -> None:
    hits = search("how many cards to deal")
    assert {h.section.id for h in hits[:3]} == {"U3.1", "R1.3", "M2.1"}


@pytest.mark.parametrize(
    ("question", "game", "expected"),
    [
        ("how many cards to deal", "umtali", "U3.1"),
        ("how many cards to deal", "rummy", "R1.3"),
        ("how many cards to deal", "rummoli", "M2.1"),
        ("who deals first?", "umtali", "U2.2"),
        ("who deals first?", "rummy", "R1.2"),
        ("what happens when the stock runs out", "rummy", "R5"),
        ("what happens when the stock runs out", "umtali", "U4.6"),
        ("what is a marriage worth", "umtali", "U5.3 U9.2"),  # our ruling A-U14 after them
        ("can I lay off onto another player's meld", "rummy", "R3.3"),
    ],
)
def test_a_question_lands_on_its_answer(question: str, game: str, expected: str) -> None:
    assert search(question, game=game)[0].section.id in expected.split()


def test_a_question_needs_its_meaningful_words_not_its_filler() -> None:
    # filler words alone would match everything; they are ignored
    assert {"how", "many", "to", "the", "what"} <= STOP_WORDS
    assert search("how many cards do we deal with zebras") != []  # most words of a question
    # every word of a short query, when any section has them all; else the best partial
    # matches (issue 18: "who deals nxt" found nothing)
    assert all(
        "widow" in h.snippet.lower() or "widow" in h.section.title.lower()
        for h in search("widow auction")[:1]
    )
    partial = search("marriage zebra")
    assert partial and partial[0].section.title == "Marriage"
    assert search("who deals nxt", game="rummy")[0].section.id == "R1.2"


def test_each_result_names_its_game() -> None:
    titles = {g.id: g.title for g in games()}
    for hit in search("ace high"):
        assert hit.section.game_title == titles[hit.section.game]
    assert {h.section.game_title for h in search("how many cards to deal")[:3]} == {
        "Umtali",
        "Rummy",
        "Rummoli",
    }


def test_a_game_filter_keeps_score_order() -> None:
    hits = search("deal", game="rummy")
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_variant_sections_are_shown_by_their_published_rule() -> None:
    shown = {s.id: s.shown_id for s in sections("rummy")}
    assert shown["R7.joker_swap"] == "R7"
    assert shown["R1.3"] == "R1.3"
    assert all("_" not in s.shown_id for s in sections())


# --------------------------------------------------------------------------- our rulings
#
# Issue 18: "our ruling" notes rank below the plain rule they refine.  A ruling names
# the rules it refines (``refines:`` in the rulebook files); for every such pair, and
# every query a player could type to reach either -- the rule's title and its words,
# the ruling's name and its words, both keyword lists, and this file's own queries --
# whenever both are found, the plain rule comes first.

#: rulings that refine no rule of the game (a note on a source text)
REFINE_NOTHING = {"A-R1"}

#: queries the tests above and test_rulebook.py already ask
ASKED = [
    "marrige", "mariage", "marrig", "jakc", "widdow", "impase", "sequnce", "reshufle",
    "discrad pile", "poker", "how many cards to deal", "who deals first?",
    "what happens when the stock runs out", "what is a marriage worth",
    "can I lay off onto another player's meld", "who deals nxt", "marriage zebra",
    "widow auction", "ace high", "deal", "marriage", "widow", "kitty", "jack", "pay card",
    "going rummy", "joker", "impasse", "king queen", "lay off", "empty stock", "reshuffle",
    "going out", "marriage worth", "sixteen", "card",
]  # fmt: skip

RULINGS = [s for s in sections() if s.is_ruling and s.level == 2]


def _queries(ruling: Section) -> list[str]:
    found: set[str] = set(ASKED)
    for plain in (section(r) for r in ruling.refines):
        assert plain is not None
        for text in (plain.title, ruling.name, *plain.keywords, *ruling.keywords):
            found.add(text)
            found.update(text.split())
    return sorted(found)


def test_every_ruling_names_the_plain_rules_it_refines() -> None:
    for ruling in RULINGS:
        if ruling.id in REFINE_NOTHING:
            assert not ruling.refines, ruling.id
            continue
        assert ruling.refines, f"{ruling.id} refines which rule?"
        for rule_id in ruling.refines:
            plain = section(rule_id)
            assert plain is not None and plain.id == rule_id, (ruling.id, rule_id)
            assert not plain.is_ruling and plain.game == ruling.game, (ruling.id, rule_id)
    assert section("A-U4").refines == ("U6.2",)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "ruling", [r for r in RULINGS if r.refines], ids=lambda r: r.id
)  # fmt: skip
def test_a_ruling_ranks_below_the_rule_it_refines(ruling: Section) -> None:
    wrong = []
    for query in _queries(ruling):
        for game in (None, ruling.game):
            ids = [h.section.id for h in search(query, game=game)]
            if ruling.id not in ids:
                continue
            wrong += [
                (query, game, rule_id)
                for rule_id in ruling.refines
                if rule_id in ids and ids.index(rule_id) > ids.index(ruling.id)
            ]
    assert not wrong, f"{ruling.id} above the rule it refines for (query, game, rule): {wrong}"


def test_a_ruling_asked_for_by_its_id_still_comes_first() -> None:
    assert search("A-U4")[0].section.id == "A-U4"
    assert search("a-m9", game="rummoli")[0].section.id == "A-M9"


def test_a_ruling_is_labelled_in_players_words() -> None:
    hit = next(h for h in search("no playing off a marriage") if h.section.id == "A-U4")
    assert (hit.section.name, hit.section.cited) == (
        "No playing off a marriage",
        "our ruling A-U4",
    )
    for ruling in RULINGS:
        assert not ruling.name.lower().startswith("our ruling"), ruling.id
        assert "_" not in ruling.name and ruling.cited.startswith("our ruling "), ruling.id


# --------------------------------------------------------------------------- one word wrong


def _title_queries() -> list[tuple[str, str, list[str], int]]:
    """(rule, game, title words, index of one meaningful word) for every plain rule whose
    title has two meaningful words or more."""
    out = []
    for s in sections():
        words = [w.strip(",:()\"'") for w in s.title.lower().split()]
        meaningful = [i for i, w in enumerate(words) if w not in STOP_WORDS and len(w) > 1]
        if s.is_ruling or len(meaningful) < 2:
            continue
        out += [(s.id, s.game, words, i) for i in meaningful]
    return out


def test_one_unknown_or_misspelt_word_still_finds_the_rule() -> None:
    """Issue 18 ("who deals nxt"), for every rule title: one word the rulebook does not
    know leaves the best partial matches, and one dropped letter still finds the rule."""
    cases = _title_queries()
    assert len(cases) > 150
    lost = []
    for rule_id, game, words, i in cases:
        unknown = " ".join([*words[:i], "zzqx", *words[i + 1 :]])
        if rule_id not in [h.section.id for h in search(unknown, game=game)]:
            lost.append(unknown)
        if len(words[i]) >= 4:
            typo = " ".join([*words[:i], words[i][0] + words[i][2:], *words[i + 1 :]])
            if rule_id not in [h.section.id for h in search(typo, game=game)[:5]]:
                lost.append(typo)
    assert not lost, lost
