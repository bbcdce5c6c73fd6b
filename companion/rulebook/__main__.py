"""For rulebook writers: ``python -m companion.rulebook [QUERY...]``.

Without a query it reloads the text files, reports how long parsing and indexing took, and
checks the text (unique IDs, metadata in the right place, examples that parse as cards).
With a query it prints the search hits, best first, as the Rules screen would list them.
"""

from __future__ import annotations

import re
import sys
import time

from companion import rulebook
from rulesets.cards import parse_cards
from rulesets.errors import RulesetError


def problems() -> list[str]:
    """Everything a writer should fix in the text files (empty when all is well)."""
    found: list[str] = []
    seen: set[str] = set()
    misplaced = re.compile(r"^(keywords|example|house_rule|refines):", re.M)
    for s in rulebook.sections():
        if s.id in seen:
            found.append(f"{s.id}: duplicate ID")
        seen.add(s.id)
        if not s.body:
            found.append(f"{s.id}: empty body")
        if misplaced.search(s.body):
            found.append(f"{s.id}: metadata line below the body (put it right under the heading)")
        for rule_id in s.refines:  # a ruling refines plain rules of its own game
            plain = rulebook.section(rule_id)
            if plain is None or plain.id != rule_id or plain.is_ruling or plain.game != s.game:
                found.append(f"{s.id}: refines {rule_id}, not a plain rule of its game")
        for example in s.examples:
            try:
                parse_cards(list(example.cards))
            except RulesetError as exc:
                found.append(f"{s.id}: example {' '.join(example.cards)!r}: {exc}")
    return found


def main(argv: list[str]) -> int:
    if argv:
        for hit in rulebook.search(" ".join(argv)):
            print(f"{hit.score:6.1f}  {hit.section.heading}\n        {hit.snippet}")
        return 0
    rulebook._book.cache_clear()
    rulebook._index.cache_clear()
    start = time.perf_counter()
    rulebook.sections()
    parsed = time.perf_counter()
    rulebook.search("warm up")
    indexed = time.perf_counter()
    print(
        f"{len(rulebook.sections())} sections; parse {1000 * (parsed - start):.1f} ms, "
        f"search index {1000 * (indexed - parsed):.1f} ms"
    )
    start = time.perf_counter()
    for query in ("marriage", "widow", "ace high", "going rummy", "pay card", "im"):
        rulebook.search(query)
    print(f"6 searches: {1000 * (time.perf_counter() - start):.1f} ms")
    issues = problems()
    for issue in issues:
        print("PROBLEM", issue)
    return 1 if issues else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
