"""The in-app rulebook: every rule ID has a section, search finds it, examples parse."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion import rulebook
from companion.rulebook import Section, games, house_rules, search, section, sections
from rulesets import GAMES, load_ruleset
from rulesets.cards import parse_cards

# Every rule ID of RULES.md §1–§4, copied from the spec (R3 is a numbered list: R3.1..R3.4;
# R7 is a table of variants). Hard-coded so CI does not need the shared dossier.
RULE_IDS = [
    "U1.1",
    "U1.2",
    "U2.1",
    "U2.2",
    "U2.3",
    "U2.4",
    "U3.1",
    "U3.2",
    "U3.3",
    "U4.1",
    "U4.2",
    "U4.3",
    "U4.4",
    "U4.5",
    "U4.6",
    "U5.1",
    "U5.2",
    "U5.3",
    "U5.4",
    "U5.5",
    "U6.1",
    "U6.2",
    "U6.3",
    "U7.1",
    "U7.2",
    "U8.1",
    "U8.2",
    "U8.3",
    "U8.4",
    "U8.5",
    "U9.1",
    "U9.2",
    "U9.3",
    "U9.4",
    "R1.1",
    "R1.2",
    "R1.3",
    "R1.4",
    "R2.1",
    "R2.2",
    "R2.3",
    "R3.1",
    "R3.2",
    "R3.3",
    "R3.4",
    "R4.1",
    "R4.2",
    "R5.1",
    "R5.2",
    "R6.1",
    "R6.2",
    "R6.3",
    "R7",
    "M1.1",
    "M1.2",
    "M1.3",
    "M2.1",
    "M2.2",
    "M2.3",
    "M2.4",
    "M3.1",
    "M4.1",
    "M4.2",
    "M4.3",
    "M4.4",
    "M5.1",
    "M5.2",
    "M5.3",
    "M5.4",
    "M5.5",
    "M5.6",
    "M5.7",
    "M6.1",
    "M6.2",
    "M6.3",
    "M7.1",
    "M7.2",
    "M7.3",
]
GROUP_IDS = [
    "U1",
    "U2",
    "U3",
    "U4",
    "U5",
    "U6",
    "U7",
    "U8",
    "U9",
    "R1",
    "R2",
    "R3",
    "R4",
    "R5",
    "R6",
    "R7",
    "M1",
    "M2",
    "M3",
    "M4",
    "M5",
    "M6",
    "M7",
]
RULING_IDS = (
    [f"A-U{i}" for i in range(1, 17)]
    + [f"A-R{i}" for i in range(1, 12)]
    + [f"A-M{i}" for i in range(1, 17)]
)

# The house-rule switches each game's settings expose: the referees' models are the
# source (their own tests pin the names as a public contract).
SWITCHES = {g: list(load_ruleset(g).house_rules.model_fields) for g in GAMES}
GAME_OF_PREFIX = {"U": "umtali", "R": "rummy", "M": "rummoli"}


def _game_of(rule_id: str) -> str:
    return GAME_OF_PREFIX[rule_id.removeprefix("A-")[0]]


# --------------------------------------------------------------------------- coverage


@pytest.mark.parametrize("rule_id", RULE_IDS + GROUP_IDS + RULING_IDS)
def test_every_rules_md_id_has_its_own_section(rule_id: str) -> None:
    found = section(rule_id)
    assert found is not None, rule_id
    assert found.id == rule_id  # its own section, not a parent fallback
    assert found.game == _game_of(rule_id)
    assert found.title
    assert len(found.body) > (10 if rule_id in GROUP_IDS else 20)


@pytest.mark.parametrize("rule_id", RULING_IDS)
def test_a_rows_are_presented_as_our_ruling(rule_id: str) -> None:
    found = section(rule_id)
    assert found is not None
    assert found.title.startswith("Our ruling")


@pytest.mark.parametrize(
    ("game", "overview"), [("umtali", "U0"), ("rummy", "R0"), ("rummoli", "M0")]
)
def test_each_game_opens_with_an_overview(game: str, overview: str) -> None:
    first = sections(game)[0]
    assert first.id == overview
    assert "minute" in first.title
    assert first.examples


def test_section_ids_are_unique_and_games_match_their_prefix() -> None:
    ids = [s.id for s in sections()]
    assert len(ids) == len(set(ids))
    for s in sections():
        assert s.game == GAME_OF_PREFIX[s.id.removeprefix("A-")[0]], s.id


def test_sections_filter_by_game_and_keep_rulebook_order() -> None:
    everything = sections()
    assert [s.game for s in everything] == sorted(
        (s.game for s in everything), key=("umtali", "rummy", "rummoli").index
    )
    for game in ("umtali", "rummy", "rummoli"):
        mine = sections(game)
        assert mine and all(s.game == game for s in mine)
        assert mine == [s for s in everything if s.game == game]
    umtali_ids = [s.id for s in sections("umtali")]
    assert umtali_ids.index("U5.3") < umtali_ids.index("U6.1") < umtali_ids.index("A-U1")
    assert sections("chess") == []


def test_parents_are_the_enclosing_groups() -> None:
    by_id = {s.id: s for s in sections()}
    for s in sections():
        if s.parent is not None:
            assert by_id[s.parent].level == 1
            assert s.level == 2
    assert section("U6.2").parent == "U6"  # type: ignore[union-attr]
    assert section("A-U14").parent == "A-U"  # type: ignore[union-attr]
    assert section("U6").parent is None  # type: ignore[union-attr]


def test_no_metadata_line_ended_up_in_a_body() -> None:
    misplaced = re.compile(r"^(keywords|example|house_rule|refines):", re.M)
    for s in sections():
        assert not misplaced.search(s.body), s.id


def test_sections_are_frozen() -> None:
    s = section("U5.3")
    assert isinstance(s, Section)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.title = "changed"  # type: ignore[misc]


# --------------------------------------------------------------------------- section() lookup


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("U6.2", "U6.2"),
        ("u6.2", "U6.2"),
        (" U6.2 ", "U6.2"),
        ("U6.2.1", "U6.2"),
        ("U6.9", "U6"),
        ("R3.4", "R3.4"),
        ("R3.4.2", "R3.4"),
        ("R7.5", "R7"),
        ("R7.jokers", "R7.jokers"),
        ("M5.3", "M5.3"),
        ("A-U14", "A-U14"),
        ("a-m12", "A-M12"),
        ("A-U14.1", "A-U14"),
        ("U5.1/A-U7", "U5.1"),
        ("rule U9.2", "U9.2"),
    ],
)
def test_section_resolves_cited_ids_and_falls_back_to_parent(asked: str, expected: str) -> None:
    found = section(asked)
    assert found is not None
    assert found.id == expected


@pytest.mark.parametrize("asked", ["", "X9", "U99", "A-Q1", "marriage"])
def test_section_returns_none_for_unknown_ids(asked: str) -> None:
    assert section(asked) is None


# --------------------------------------------------------------------------- search


@pytest.mark.parametrize(
    ("query", "game", "expected"),
    [
        ("marriage", None, "U5.3"),
        ("widow", None, "M2.1"),
        ("kitty", None, "M2.1"),
        ("ace high", "umtali", "U1.2"),
        ("ace high", "rummy", "R7.ace_high_or_low"),
        ("ace high", "rummoli", "M1.1"),
        ("U6", None, "U6"),
        ("u6.2", None, "U6.2"),
        ("A-U14", None, "A-U14"),
        ("jack", None, "U5.4"),
        ("pay card", None, "M2.4"),
        ("going rummy", None, "R4.2"),
        ("joker", None, "R7.jokers"),
        ("impasse", None, "M5.7"),
        ("king queen", None, "U5.3"),
        ("lay off", "rummy", "R3.3"),
        ("empty stock", "umtali", "U4.6"),
        ("reshuffle", "rummy", "R5.1"),
        ("going out", "umtali", "U8.1"),
        ("going out", "rummoli", "M6.1"),
    ],
)
def test_search_lands_on_the_right_section_first(
    query: str, game: str | None, expected: str
) -> None:
    hits = search(query, game=game)
    assert hits, query
    assert hits[0].section.id == expected


def test_ace_high_without_a_game_shows_each_games_ace_rule_first() -> None:
    top = {h.section.id for h in search("ace high")[:3]}
    assert top == {"U1.2", "R7.ace_high_or_low", "M1.1"}


def test_search_is_case_insensitive_and_matches_word_prefixes() -> None:
    assert search("MARRIAGE")[0].section.id == "U5.3"
    assert search("marr")[0].section.id == "U5.3"  # as you type
    assert search("impa")[0].section.id == "M5.7"


def test_multi_word_queries_need_every_word() -> None:
    # (when none has every word, the best partial matches: see test_rules_search)
    for hit in search("widow auction"):
        text = " ".join(
            [hit.section.title, hit.section.body, *hit.section.keywords, *hit.section.house_rules]
        ).lower()
        assert "widow" in text and "auction" in text


def test_title_and_keyword_hits_rank_above_body_only_hits() -> None:
    hits = search("marriage", game="umtali")
    # a house-rule switch a section names counts as one of its keywords: U6.2 names
    # marriage_extendable (and ranks above A-U4, the ruling that refines it)
    head = [
        h
        for h in hits
        if "marriage"
        in " ".join((h.section.title, *h.section.keywords, *h.section.house_rules)).lower()
    ]
    body_only = [h for h in hits if h not in head]
    assert head and body_only
    assert min(h.score for h in head) > max(h.score for h in body_only)
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_search_respects_game_filter_and_limit() -> None:
    assert all(h.section.game == "rummoli" for h in search("ace", game="rummoli"))
    assert len(search("card", limit=3)) == 3
    assert search("") == [] and search("   ") == []


def test_search_snippet_shows_the_match() -> None:
    hit = search("sixteen")[0]  # a word found only in a body
    assert hit.section.id == "U9.4"
    assert "sixteen" in hit.snippet.lower()
    hit = search("widow", game="rummoli")[0]
    assert "widow" in hit.snippet.lower()
    assert all(len(h.snippet) <= 120 for h in search("card"))


# --------------------------------------------------------------------------- examples


def test_every_example_parses_as_cards() -> None:
    count = 0
    for s in sections():
        for example in s.examples:
            assert example.cards, s.id
            assert example.caption, s.id
            parsed = parse_cards(list(example.cards))
            assert [str(c) for c in parsed] == list(example.cards), (s.id, example)
            count += 1
    assert count > 40


def test_u5_3_marriage_example_shows_king_and_queen_of_one_suit() -> None:
    s = section("U5.3")
    assert s is not None
    first = parse_cards(list(s.examples[0].cards))
    assert {c.rank.value for c in first} == {"K", "Q"}
    assert len({c.suit for c in first}) == 1


# --------------------------------------------------------------------------- house rules


@pytest.mark.parametrize(
    ("game", "switch"), [(g, name) for g, names in SWITCHES.items() for name in names]
)
def test_every_house_rule_switch_is_explained(game: str, switch: str) -> None:
    listed = {h.name: h for h in house_rules(game)}
    assert switch in listed, switch
    assert len(listed[switch].text) > 20
    assert listed[switch].sections, f"{switch} is not attached to any rule"
    for rule_id in listed[switch].sections:
        rule = section(rule_id)
        assert rule is not None
        note = next(n for n in rule.house_rule_notes if n.name == switch)
        assert len(note.text) > 15


def test_no_unknown_switch_names_in_the_text() -> None:
    for s in sections():
        for name in s.house_rules:
            assert name in SWITCHES[s.game], (s.id, name)


def test_house_rules_overview_sections_exist() -> None:
    for overview in ("U-HR", "R-HR", "M-HR"):
        s = section(overview)
        assert s is not None and s.house_rules
    assert {h.game for h in house_rules()} == {"umtali", "rummy", "rummoli"}


# --------------------------------------------------------------------------- games()


def test_games_lists_the_three_games_with_player_counts() -> None:
    info = {g.id: g for g in games()}
    assert list(info) == ["umtali", "rummy", "rummoli"]
    assert (info["umtali"].min_players, info["umtali"].max_players) == (2, 2)
    assert (info["rummy"].min_players, info["rummy"].max_players) == (2, 6)
    assert (info["rummoli"].min_players, info["rummoli"].max_players) == (2, 8)
    assert info["umtali"].players == "2" and info["rummy"].players == "2–6"
    assert all(g.title and g.summary for g in games())


# --------------------------------------------------------------------------- writer format


def test_parser_reads_the_writer_format() -> None:
    text = (
        "<!-- comment -->\n# X1 Group\nkeywords: a, b c\n\nIntro.\n\n"
        "## X1.1 Title here\nexample: 5H 6H 7H | a run\nhouse_rule: sw | what sw does\n\n"
        "Para one.\n\n- bullet\n"
        "## A-X1 Our ruling: on it\nrefines: X1.1, X1\n\nRuled.\n"
    )
    parsed = rulebook._parse("umtali", text)
    assert [s.id for s in parsed] == ["X1", "X1.1", "A-X1"]
    group, rule, ruling = parsed
    assert ruling.refines == ("X1.1", "X1") and ruling.body == "Ruled." and not rule.refines
    assert group.keywords == ("a", "b c") and group.body == "Intro."
    assert rule.parent == "X1" and rule.title == "Title here"
    assert rule.examples[0].cards == ("5H", "6H", "7H") and rule.examples[0].caption == "a run"
    assert rule.house_rules == ("sw",) and rule.house_rule_notes[0].text == "what sw does"
    assert rule.body == "Para one.\n\n- bullet"


# --------------------------------------------------------------------------- own words


def _seed_dir() -> Path | None:
    root = Path(__file__).resolve().parents[2]
    for candidate in (
        root / "seeds",
        root.parent / "shared" / "seeds",
        root.parent.parent / "shared" / "seeds",
    ):
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("’", "'"))


def test_rulebook_text_does_not_copy_the_seed_documents() -> None:
    seeds = _seed_dir()
    if seeds is None:
        pytest.skip("seed documents not available next to this checkout")
    windows: set[tuple[str, ...]] = set()
    for path in seeds.glob("*.txt"):
        w = _words(path.read_text(encoding="utf-8", errors="replace"))
        windows |= {tuple(w[i : i + 8]) for i in range(len(w) - 7)}
    assert len(windows) > 1000
    copied = []
    for s in sections():
        text = " ".join(
            [
                s.title,
                s.body,
                *(n.text for n in s.house_rule_notes),
                *(e.caption for e in s.examples),
            ]
        )
        w = _words(text)
        copied += [
            (s.id, " ".join(w[i : i + 8]))
            for i in range(len(w) - 7)
            if tuple(w[i : i + 8]) in windows
        ]
    assert copied == []


def test_api_doctests_pass() -> None:
    """pytest's doctest run covers only rulesets/, so run the rulebook's examples here."""
    import doctest

    result = doctest.testmod(rulebook)
    assert result.attempted >= 8
    assert result.failed == 0


def test_a_snippet_keeps_the_full_stop_where_two_blocks_meet() -> None:
    """A list item without a full stop met the next paragraph: "6 each Turn the…"."""
    from companion.rulebook import _plain, _snippet

    dealt = next(s for s in sections("rummy") if "6 each" in s.body)
    assert "6 each. Turn the next card" in _snippet(dealt, ["turn"])
    for s in sections():  # every item and paragraph ends in its stop, wherever they meet
        text = _plain(s.body)
        assert not re.search(r"[^.!?:;…] •", text), (s.id, text)
        assert re.search(r"[.!?:;…)]$", text) or not text, (s.id, text[-40:])
