"""Each game's plain check (``rulesets/<game>/check.py``, no pydantic) and the app's
verdict agree, and the plain switches it judges by are the house rules' own.

A script's ``companion check`` judges by plain data (:class:`rulesets.judgement.Judgement`,
each game's ``PlainMeldRules`` / ``PlainBoardRules``); the app asks the ruleset, whose
:class:`~rulesets.protocol.Verdict` is built from the same judgement.  These tests hold
the two shapes, and the two sets of defaults, equal.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from rulesets import GAMES, load_check, load_ruleset
from rulesets.cards import parse_cards
from rulesets.judgement import Judgement
from rulesets.protocol import Verdict
from rulesets.rummoli.board import BoardRules, PlainBoardRules
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummy.house_rules import RummyRules
from rulesets.rummy.melds import MeldRules as RummyMeldRules
from rulesets.rummy.melds import PlainMeldRules as RummyPlain
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.melds import MeldRules as UmtaliMeldRules
from rulesets.umtali.melds import PlainMeldRules as UmtaliPlain

ROOT = Path(__file__).resolve().parents[2]

PLAIN = [
    (UmtaliPlain, UmtaliMeldRules, UmtaliRules),
    (RummyPlain, RummyMeldRules, RummyRules),
    (PlainBoardRules, BoardRules, RummoliRules),
]


def _protocol_members(protocol: type) -> set[str]:
    return {n for n, v in vars(protocol).items() if isinstance(v, property)}


@pytest.mark.parametrize("plain, protocol, model", PLAIN, ids=GAMES)
def test_the_plain_switches_are_the_house_rules_defaults(
    plain: type, protocol: type, model: type
) -> None:
    """Every switch the meld rules read is a house rule, with the same default."""
    names = {f.name for f in dataclasses.fields(plain)}
    assert names == _protocol_members(protocol)
    assert names <= set(model.model_fields)
    defaults = model()
    assert {n: getattr(plain(), n) for n in names} == {n: getattr(defaults, n) for n in names}


def test_a_judgement_is_a_verdicts_json_field_for_field() -> None:
    """``companion check --json`` prints a judgement: the verdict's fields, in its order."""
    j = Judgement(legal=True, kind="set", points=3, rule="U5.1", reason="r", cards=("5H",))
    screens = ("words", "note_words", "unchecked")  # a screen's, not printed
    printed = [f for f in Verdict.model_fields if f not in screens]
    assert list(j.to_json()) == printed
    assert Verdict.of(j).to_json() == j.to_json()
    assert set(Judgement._fields) == set(Verdict.model_fields) - {"moves"}


CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("umtali", "5H 6H 7H", {}),
    ("umtali", "9S 9D", {"going_out": True, "hand": "9S 9D 9H"}),
    ("umtali", "5H 6H", {}),  # incomplete: "pick one more card"
    ("umtali", "QH", {"onto": "JC", "rules": UmtaliRules(jack_extends_any_suit=True)}),
    ("umtali", "9C", {"onto": "9S 9D"}),
    ("rummy", "JK 5H 6H", {"rules": RummyRules(jokers=True)}),
    ("rummy", "QH KH AH", {}),
    ("rummy", "10C", {"onto": "10S 10D 10H", "hand": ""}),
    ("rummoli", "10S 2C", {"rules": RummoliRules(widow_needs_no_pay_card=False)}),
    ("rummoli", "2C 5H JD", {"going_out": True}),
]


@pytest.mark.parametrize("game, cards, options", CASES)
def test_the_app_verdict_is_the_plain_judgement(
    game: str, cards: str, options: dict[str, Any]
) -> None:
    kw = {k: parse_cards(v) if k in ("onto", "hand") else v for k, v in options.items()}
    judgement = load_check(game).check(parse_cards(cards), **kw)
    verdict = load_ruleset(game).check(parse_cards(cards), **kw)
    assert verdict == Verdict.of(judgement)
    assert verdict.to_json() == judgement.to_json()
    assert load_ruleset(game).pack_rule == load_check(game).PACK_RULE
    assert load_check(game).house_rules() is load_ruleset(game).house_rules


def test_an_incomplete_meld_stays_incomplete() -> None:
    assert load_check("umtali").check(parse_cards("5H 6H")).incomplete


@pytest.mark.parametrize("game", GAMES)
def test_importing_a_game_builds_no_model(game: str) -> None:
    """The game packages are lazy (rulesets.lazy): importing one, or its plain check,
    imports no pydantic; a name of the package imports its home when first used."""
    script = textwrap.dedent(
        f"""
        import sys
        import rulesets.{game}, rulesets.{game}.check
        before = "pydantic" in sys.modules
        rulesets.{game}.RULESET
        print(before, "pydantic" in sys.modules)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("game", GAMES)
def test_every_name_of_a_lazy_package_is_its_homes(game: str) -> None:
    import importlib

    package = importlib.import_module(f"rulesets.{game}")
    homes: dict[str, tuple[str, ...]] = package._HOMES
    listed = [n for names in homes.values() for n in names]
    assert sorted(listed) == sorted(package.__all__) and len(set(listed)) == len(listed)
    for module, names in homes.items():
        home = importlib.import_module(f"rulesets.{game}.{module}")
        for name in names:
            assert getattr(package, name) is getattr(home, name), name
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        package.nothing  # noqa: B018
