"""One rule of the rulebook, as the rules screen and the rule sheet show it.

The rule sheet (a rule opened over the table from any "Rule U6.2" link) and the
rule's own page in the rules section show the same words, built here once.
"""

from __future__ import annotations

import flet as ft

from companion import rulebook
from companion.components.kit.cards import card_row
from rulesets import RulesetError, load_ruleset


def switch_title(game: str, name: str) -> str:
    """A house-rule switch in the words players use ("Ace high or low")."""
    try:
        return load_ruleset(game).house_rules.title_of(name)
    except RulesetError:
        words = name.replace("_", " ").strip()
        return words[:1].upper() + words[1:]


def rule_heading(sec: rulebook.Section) -> str:
    """``"Rule U5.3 · Umtali"``: the published rule ID and its game; one of our rulings
    is called what it is, ``"Our ruling A-M9 · Rummoli"`` (never "Rule A-M9").

    >>> rule_heading(rulebook.section("U5.3")), rule_heading(rulebook.section("A-M9"))
    ('Rule U5.3 · Umtali', 'Our ruling A-M9 · Rummoli')
    """
    return f"{sec.kind.capitalize()} {sec.shown_id} · {sec.game_title}"


def rule_body(sec: rulebook.Section) -> list[ft.Control]:
    """The rule's title, text, card examples and the house rules that change it."""
    controls: list[ft.Control] = [
        ft.Text(sec.title, size=20, weight=ft.FontWeight.BOLD),
        ft.Markdown(sec.body, selectable=True),
    ]
    for ex in sec.examples:
        controls.append(
            ft.Column([card_row(" ".join(ex.cards)), ft.Text(ex.caption, italic=True)], spacing=4)
        )
    if sec.house_rule_notes:
        controls.append(ft.Text("House rules that change this", weight=ft.FontWeight.BOLD))
        controls.extend(
            ft.Text(f"{switch_title(sec.game, note.name)}: {note.text}", italic=True)
            for note in sec.house_rule_notes
        )
    return controls
