"""Words people use: a check any browser test can run on the screen it is showing.

``assert_words_people_use(page)`` reads every name and text of the accessibility tree
(what a screen reader says, and what the tests find controls by) and fails on:

* a snake_case word (a switch or value name from the code: ``ace_high_or_low``,
  ``per_pot``) -- screens say ``Ace high or low``, ``One per pot``;
* a dotted internal ID beyond the rule IDs we publish (``R7.joker_swap``, cite ``R7``);
* a plural that does not agree with its number: ``1 points``, ``1 more players``,
  ``2 point``;
* a double full stop (``Refused..``);
* a sentence that starts in lower case after a full stop (``Hand end: 21 penalty
  points. hand 1: Bob went out``: a verdict's label puts its reason after its
  headline) -- not after a number (``1. Ann``) or an abbreviation (``e.g. meld``);
* a button named by a bare rule ID (``Rule U8.1``: a rule link shows the rule's
  title, its ID small) or any text calling one of our rulings a rule (``rule A-M11``,
  a Rummoli statement line's label: it is "our ruling A-M11");
* a card in letters (``5H 6H 7H``): cards are 5♥ 6♥ 7♥.

``house_rule_problems(text)`` is stricter, for a house rule's title and explanation
(issue 18): also no source code or ruling number in brackets (``(A-U17)``,
``(U4.2 variant, PGC)``, ``(M5.6)``) -- a house rule says what it changes, in
players' words -- and no card written in letters (``5H 6H 7H``; ``5♥ 6♥ 7♥``).  The referee's own
prose on screen (reasons and notes) is held to the same: :func:`prose_problems` --
no rule ID in brackets inside a sentence (``take the discard (U4.2) or end the hand``,
``Hand 5 (tie-break, U2.4)``: the rule is linked beside it); a label may cite it as a
link does (``(Sets, rule U5.1)``).  (The rulebook's own text cites rules: the
whole-screen check does not look for IDs.)

``penalty_problems(texts)`` is for a game scored in penalty points (Rummy): a meld
is never "worth" points there (``Run: 24 points``); its points come out of the hand.

Typed text (the values of text fields) is not read: it is the players' own.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "assert_words_people_use",
    "house_rule_problems",
    "link_problems",
    "penalty_problems",
    "prose_problems",
    "word_problems",
]

SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
INTERNAL_ID = re.compile(r"\b(?:A-)?[URM]\d+(?:\.\d+)*\.[a-z_][a-z0-9_]*\b")
_NOUNS = "points|chips|players|cards|hands|rounds|games|pots|melds|turns|entries|bets"
ONE_PLURAL = re.compile(rf"(?<![\d.,])[-+−]?\b1 (?:more )?(?:{_NOUNS})\b")
MANY_SINGULAR = re.compile(
    r"(?<![\d.,\-−])\b(?:0|[2-9]|\d{2,}) (?:more )?(?:point|chip)\b(?![-\w])"
)

DOUBLE_STOP = re.compile(r"(?<![.])\.\.(?![.])")
#: a full stop, then a sentence in lower case; not "1. Ann" (a list's number), nor an
#: abbreviation of single letters ("e.g. meld", "5 p.m. sharp") or "vs."/"etc."
LOWER_SENTENCE = re.compile(r"(?<![\d.])(?<!\b[A-Za-z])(?<!\bvs)(?<!\betc)\. +[a-z]")
_ID = r"(?:A-)?[URM]\d+(?:\.\d+)*"
#: a rule ID or ruling number in brackets, with or without more words: "(A-U17)",
#: "(U4.2 variant, PGC)", "(regional, A-M19)", "(M2.2-M2.4)"
SOURCE_CODE = re.compile(rf"\((?:[^()]*[ ,])?{_ID}(?:-{_ID})?(?:[ ,][^()]*)?\)")
#: a card in letters: 5H, 10S, QD, AC (not "10-point", not a rule ID)
CARD_CODE = re.compile(r"(?<![\w.-])(?:10|[2-9AKQJ])[HSDC](?![\w.-])")
#: a rule ID in brackets in a sentence, not cited as a rule link cites it ("(Sets, rule
#: U5.1)", "(…, our ruling A-M11)" are labels' citations)
PROSE_ID = re.compile(rf"\((?:[^()]*[ ,])?(?<!rule )(?<!ruling ){_ID}(?:-{_ID})?(?:[ ,][^()]*)?\)")

#: a button that names a rule by its ID alone ("Rule U8.1", "Rule A-R14")
BARE_RULE = re.compile(rf"^Rule {_ID}$")
#: one of our rulings called a rule ("Umtali rule A-U14: Our ruling: ...")
RULING_AS_RULE = re.compile(r"\brule A-[URM]\d+", re.IGNORECASE)
#: a meld's headline giving it a worth in points ("Run: 24 points", "Set: 1 point")
MELD_WORTH = re.compile(r"^(?:Run|Set|Lay off|Meld|Allowed)\b[^.]*?: -?\d+ points?(?! out)\b")

#: the names of every button in the semantics tree
_READ_BUTTONS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return [];
  return [...host.querySelectorAll('[role="button"]')]
    .map(el => (el.getAttribute('aria-label') || el.textContent || '').trim())
    .filter(t => t);
}"""

#: every aria-label and every piece of text in Flutter's semantics tree, but no
#: text-field values (they are typed, not written by us)
_READ_TREE = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return [];
  const out = [];
  for (const el of host.querySelectorAll('*')) {
    const label = el.getAttribute('aria-label');
    if (label) out.push(label);
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') continue;
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
    }
  }
  return out;
}"""


def word_problems(texts: list[str]) -> list[str]:
    """Each text that breaks a rule above, with the words that break it.

    >>> word_problems(["House rules: Ace high or low", "Total: 1 point", "Ann 2 points"])
    []
    >>> for problem in word_problems(["(house rule ace_high_or_low allows it)", "Ann: 1 points"]):
    ...     print(problem)
    'ace_high_or_low' in '(house rule ace_high_or_low allows it)'
    '1 points' in 'Ann: 1 points'
    >>> word_problems(["Hand end: 21 penalty points. hand 1: Bob went out"])
    ["'. h' in 'Hand end: 21 penalty points. hand 1: Bob went out'"]
    """
    found: list[str] = []
    patterns = (SNAKE_CASE, INTERNAL_ID, ONE_PLURAL, MANY_SINGULAR, DOUBLE_STOP, LOWER_SENTENCE)
    for text in texts:
        for pattern in (*patterns, RULING_AS_RULE, CARD_CODE):
            found.extend(f"{m.group(0)!r} in {text!r}" for m in pattern.finditer(text))
    return found


def house_rule_problems(text: str) -> list[str]:
    """What a house rule's title or explanation says in the code's or the sources'
    words (every check of :func:`word_problems`, and no bracketed source codes or
    ruling numbers, no cards in letters).

    >>> house_rule_problems("which run pot the board has (regional, A-M19)")
    ["'(regional, A-M19)' in 'which run pot the board has (regional, A-M19)'"]
    >>> house_rule_problems("a marriage of K♥ Q♥ scores 20")
    []
    """
    found = word_problems([text])  # (cards in letters, a rule ID in a sentence)
    for m in SOURCE_CODE.finditer(text):  # and no citation in brackets at all
        problem = f"{m.group(0)!r} in {text!r}"
        if problem not in found:
            found.append(problem)
    return found


def prose_problems(text: str) -> list[str]:
    """The referee's reasons and notes as a screen shows them: the checks of
    :func:`house_rule_problems` (no "(A-U14)", no "QH KH AH").

    >>> prose_problems("K♥ Q♥ melded together are one marriage: 20 points, not 40")
    []
    >>> len(prose_problems('"QH KH AH": the ace is low (A-R3)'))  # (A-R3), QH, KH, AH
    4
    """
    found = word_problems([text])
    found.extend(f"{m.group(0)!r} in {text!r}" for m in PROSE_ID.finditer(text))
    return found


def link_problems(labels: list[str]) -> list[str]:
    """Each button name that cites a rule by its bare ID or calls a ruling a rule.

    >>> link_problems(["Rule U8.1", "Umtali rule A-U14: Our ruling: a marriage is worth 20"])
    ["bare rule ID 'Rule U8.1'", "'rule A-U14' in 'Umtali rule A-U14: Our ruling: a marriage \
is worth 20'"]
    >>> link_problems(["Going out, rule U8.1", "A marriage is worth 20, our ruling A-U14"])
    []
    """
    found = [f"bare rule ID {t!r}" for t in labels if BARE_RULE.match(t)]
    for t in labels:
        found.extend(f"{m.group(0)!r} in {t!r}" for m in RULING_AS_RULE.finditer(t))
    return found


def penalty_problems(texts: list[str]) -> list[str]:
    """Each text of a penalty-points game that calls a meld worth points.

    >>> penalty_problems(["Run: 24 points. 7♥ 8♥ 9♥ is a run of 3 cards"])
    ["'Run: 24 points' in 'Run: 24 points. 7♥ 8♥ 9♥ is a run of 3 cards'"]
    >>> penalty_problems(["Run: 24 penalty points out of the hand. 7♥ 8♥ 9♥ is a run"])
    []
    """
    return [f"{m.group(0)!r} in {t!r}" for t in texts for m in MELD_WORTH.finditer(t)]


def assert_words_people_use(page: Any, where: str = "", *, penalty: bool = False) -> None:
    """Fail if the screen shown in ``page`` says anything in the code's words (and, in a
    game scored in penalty points, if a meld is called worth points)."""
    texts: list[str] = page.evaluate(_READ_TREE)
    assert texts, f"{where or page.url}: the accessibility tree is empty (semantics not on?)"
    problems = word_problems(texts) + link_problems(page.evaluate(_READ_BUTTONS))
    if penalty:
        problems += penalty_problems(texts)
    assert not problems, f"{where or page.url}: " + "; ".join(problems)
