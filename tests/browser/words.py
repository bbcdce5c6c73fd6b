"""Words people use: a check any browser test can run on the screen it is showing.

``assert_words_people_use(page)`` reads every name and text of the accessibility tree
(what a screen reader says, and what the tests find controls by) and fails on:

* a snake_case word (a switch or value name from the code: ``ace_high_or_low``,
  ``per_pot``) -- screens say ``Ace high or low``, ``One per pot``;
* a dotted internal ID beyond the rule IDs we publish (``R7.joker_swap``, cite ``R7``);
* a plural that does not agree with its number: ``1 points``, ``1 more players``,
  ``2 point``;
* a double full stop (``Refused..``).

``house_rule_problems(text)`` is stricter, for a house rule's title and explanation
(issue 18): also no source code or ruling number in brackets (``(A-U17)``,
``(U4.2 variant, PGC)``, ``(M5.6)``) -- a house rule says what it changes, in
players' words -- and no card written in letters (``5H 6H 7H``; ``5♥ 6♥ 7♥``).

Typed text (the values of text fields) is not read: it is the players' own.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["assert_words_people_use", "house_rule_problems", "word_problems"]

SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
INTERNAL_ID = re.compile(r"\b(?:A-)?[URM]\d+(?:\.\d+)*\.[a-z_][a-z0-9_]*\b")
_NOUNS = "points|chips|players|cards|hands|rounds|games|pots|melds|turns|entries|bets"
ONE_PLURAL = re.compile(rf"(?<![\d.,])[-+−]?\b1 (?:more )?(?:{_NOUNS})\b")
MANY_SINGULAR = re.compile(
    r"(?<![\d.,\-−])\b(?:0|[2-9]|\d{2,}) (?:more )?(?:point|chip)\b(?![-\w])"
)

DOUBLE_STOP = re.compile(r"(?<![.])\.\.(?![.])")
_ID = r"(?:A-)?[URM]\d+(?:\.\d+)*"
#: a rule ID or ruling number in brackets, with or without more words: "(A-U17)",
#: "(U4.2 variant, PGC)", "(regional, A-M19)", "(M2.2-M2.4)"
SOURCE_CODE = re.compile(rf"\((?:[^()]*[ ,])?{_ID}(?:-{_ID})?(?:[ ,][^()]*)?\)")
#: a card in letters: 5H, 10S, QD, AC (not "10-point", not a rule ID)
CARD_CODE = re.compile(r"(?<![\w.-])(?:10|[2-9AKQJ])[HSDC](?![\w.-])")

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
    """
    found: list[str] = []
    for text in texts:
        for pattern in (SNAKE_CASE, INTERNAL_ID, ONE_PLURAL, MANY_SINGULAR, DOUBLE_STOP):
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
    found = word_problems([text])
    for pattern in (SOURCE_CODE, CARD_CODE):
        found.extend(f"{m.group(0)!r} in {text!r}" for m in pattern.finditer(text))
    return found


def assert_words_people_use(page: Any, where: str = "") -> None:
    """Fail if the screen shown in ``page`` says anything in the code's words."""
    texts: list[str] = page.evaluate(_READ_TREE)
    assert texts, f"{where or page.url}: the accessibility tree is empty (semantics not on?)"
    problems = word_problems(texts)
    assert not problems, f"{where or page.url}: " + "; ".join(problems)
