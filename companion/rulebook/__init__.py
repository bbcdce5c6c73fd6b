"""The in-app rulebook: each game's rules in plain words, organised by the rule IDs of RULES.md.

The text lives in small markdown files next to this module (``umtali.md``, ``rummy.md``,
``rummoli.md``), parsed once at first use and cached.  File format, for writers::

    # U6 Extensions                      <- a group (level-1 heading): ID, then title
    keywords: extend, lay off            <- optional metadata lines right under a heading
    example: 5H 6H 7H | a heart sequence <- cards in canonical notation | caption (repeatable)
    house_rule: marriage_extendable | what the switch changes here (repeatable)

    Body paragraphs and bullet lists in light markdown.

    ## U6.2 What can be played on what   <- a section inside the group above

Lines starting with ``<!--`` are writer comments and are ignored.

The API the Rules screen calls:

>>> section("U6.2.1").id            # unknown sub-IDs fall back to the nearest parent
'U6.2'
>>> section("A-U14").game
'umtali'
>>> search("marriage")[0].section.id
'U5.3'
>>> [g.id for g in games()]
['umtali', 'rummy', 'rummoli']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = [
    "Example",
    "GameInfo",
    "Hit",
    "HouseRule",
    "HouseRuleNote",
    "Section",
    "games",
    "house_rules",
    "search",
    "section",
    "sections",
]

GAMES: tuple[str, ...] = ("umtali", "rummy", "rummoli")
_HERE = Path(__file__).resolve().parent  # the .md files ship inside this package


@dataclass(frozen=True, slots=True)
class Example:
    """Cards to draw as a picture (canonical notation, e.g. ``("5H", "6H", "7H")``)."""

    cards: tuple[str, ...]
    caption: str


@dataclass(frozen=True, slots=True)
class HouseRuleNote:
    """What one house-rule switch changes in one section."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Section:
    """One rule (or group of rules, or ruling) of the rulebook."""

    id: str
    game: str
    title: str
    body: str
    examples: tuple[Example, ...] = ()
    keywords: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()
    house_rule_notes: tuple[HouseRuleNote, ...] = ()
    parent: str | None = None
    level: int = 2

    @property
    def heading(self) -> str:
        """``"U6.2 What can be played on what"``."""
        return f"{self.id} {self.title}"


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the section, a short snippet around the match, and its score."""

    section: Section
    snippet: str
    score: float


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    title: str
    summary: str
    min_players: int
    max_players: int

    @property
    def players(self) -> str:
        """``"2"`` or ``"2–6"``, for a subtitle."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A house-rule switch of one game, with a general explanation and the sections it touches."""

    game: str
    name: str
    text: str
    sections: tuple[str, ...]


_GAME_INFO: tuple[GameInfo, ...] = (
    GameInfo(
        "umtali",
        "Umtali",
        "A quick two-player rummy where marriages, jacks and even single cards make melds.",
        2,
        2,
    ),
    GameInfo(
        "rummy",
        "Rummy",
        "The classic: make sets and runs, empty your hand first, keep your penalty low.",
        2,
        6,
    ),
    GameInfo(
        "rummoli",
        "Rummoli",
        "A chip game on a board: a hand of poker, then a race of stops to empty your hand.",
        2,
        8,
    ),
)


def games() -> list[GameInfo]:
    """The three games in menu order, with title, one-line summary and player counts."""
    return list(_GAME_INFO)


# --------------------------------------------------------------------------- parsing

_HEADING = re.compile(r"^(#{1,2})\s+(\S+)\s+(.+?)\s*$")
_META = re.compile(r"^(keywords|example|house_rule):\s*(.*)$")
_ID_IN_TEXT = re.compile(r"A-[URM]\d+(?:\.\d+)*|[URM]\d+(?:\.[0-9A-Za-z_]+)*", re.IGNORECASE)


def _split_pair(value: str) -> tuple[str, str]:
    left, _, right = value.partition("|")
    return left.strip(), right.strip()


@dataclass(slots=True)
class _Draft:
    id: str
    title: str
    level: int
    parent: str | None
    examples: list[Example] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    notes: list[HouseRuleNote] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    in_meta: bool = True

    def freeze(self, game: str) -> Section:
        return Section(
            id=self.id,
            game=game,
            title=self.title,
            body="\n".join(self.body).strip(),
            examples=tuple(self.examples),
            keywords=tuple(self.keywords),
            house_rules=tuple(n.name for n in self.notes),
            house_rule_notes=tuple(self.notes),
            parent=self.parent,
            level=self.level,
        )


def _parse(game: str, text: str) -> list[Section]:
    """Read one rulebook file (format in the module docstring) into sections, in file order."""
    drafts: list[_Draft] = []
    group: str | None = None
    for line in text.splitlines():
        if line.startswith("<!--"):
            continue
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            sid = heading.group(2)
            if level == 1:
                group = sid
            drafts.append(_Draft(sid, heading.group(3), level, group if level == 2 else None))
            continue
        if not drafts:
            continue
        draft = drafts[-1]
        meta = _META.match(line) if draft.in_meta else None
        if meta is None:
            draft.in_meta = False
            draft.body.append(line)
            continue
        key, value = meta.groups()
        if key == "keywords":
            draft.keywords.extend(k.strip() for k in value.split(",") if k.strip())
        elif key == "example":
            cards, caption = _split_pair(value)
            draft.examples.append(Example(tuple(cards.split()), caption))
        else:
            name, explanation = _split_pair(value)
            draft.notes.append(HouseRuleNote(name, explanation))
    return [d.freeze(game) for d in drafts]


@cache
def _book() -> tuple[tuple[Section, ...], dict[str, Section]]:
    all_sections: list[Section] = []
    for game in GAMES:
        text = (_HERE / f"{game}.md").read_text(encoding="utf-8")
        all_sections.extend(_parse(game, text))
    by_id = {s.id.upper(): s for s in all_sections}
    return tuple(all_sections), by_id


# --------------------------------------------------------------------------- lookup


def sections(game: str | None = None) -> list[Section]:
    """Every section in rulebook order (overview, rules, house rules, rulings), or one game's."""
    book, _ = _book()
    return [s for s in book if game is None or s.game == game]


def section(rule_id: str) -> Section | None:
    """The section for a rule ID as the referees cite it, or its nearest parent.

    >>> section("R3.4").title
    'Discard to end your turn'
    >>> section("u4.2").id, section("M5.3.9").id, section("R7.5").id
    ('U4.2', 'M5.3', 'R7')
    >>> section("rule U9.2 (marriage)").id
    'U9.2'
    >>> section("nonsense") is None
    True
    """
    _, by_id = _book()
    exact = by_id.get(rule_id.strip().upper())
    if exact is not None:
        return exact
    for cand in (m.group(0) for m in _ID_IN_TEXT.finditer(rule_id)):
        key = cand.upper()
        while key:
            if key in by_id:
                return by_id[key]
            if "." not in key:
                break
            key = key.rsplit(".", 1)[0]
    return None


def house_rules(game: str | None = None) -> list[HouseRule]:
    """Every house-rule switch explained in the rulebook's house-rules section(s), in order.

    >>> [h.name for h in house_rules("umtali")][:2]
    ['fifth_hand_on_tie', 'winner_deals']
    """
    out: list[HouseRule] = []
    for s in sections(game):
        if not s.id.endswith("-HR"):
            continue
        for note in s.house_rule_notes:
            touched = tuple(
                t.id for t in sections(s.game) if t is not s and note.name in t.house_rules
            )
            out.append(HouseRule(s.game, note.name, note.text, touched))
    return out


# --------------------------------------------------------------------------- search

_WORD = re.compile(r"[0-9a-z]+(?:[.\-][0-9a-z]+)*")


def _norm(word: str) -> str:
    """Lower case, and a light plural fold so "jacks" finds "jack"."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _words(text: str) -> list[str]:
    text = text.lower().replace("_", " ")
    return [_norm(w) for w in _WORD.findall(text)]


@dataclass(frozen=True, slots=True)
class _Index:
    section: Section
    id: str
    title: tuple[str, ...]
    keywords: tuple[str, ...]
    body: tuple[str, ...]
    title_text: str
    keyword_text: str


@cache
def _index() -> tuple[_Index, ...]:
    out = []
    for s in sections():
        kw = " ".join(s.keywords) + " " + " ".join(s.house_rules)
        body = s.body + " " + " ".join(n.text for n in s.house_rule_notes)
        body += " " + " ".join(e.caption for e in s.examples)
        out.append(
            _Index(
                s,
                s.id.lower(),
                tuple(_words(s.title)),
                tuple(_words(kw)),
                tuple(_words(body)),
                " ".join(_words(s.title)),
                " | ".join(" ".join(_words(k)) for k in (*s.keywords, *s.house_rules)),
            )
        )
    return tuple(out)


def _field_score(term: str, words: tuple[str, ...], exact: float, prefix: float) -> float:
    if term in words:
        return exact
    if any(w.startswith(term) for w in words):
        return prefix
    return 0.0


def _snippet(s: Section, terms: list[str], width: int = 110) -> str:
    plain = re.sub(r"^- ", "• ", s.body, flags=re.M)
    text = " ".join(re.sub(r"[*`]", "", plain).split())
    low = text.lower()
    pos = -1
    for t in terms:
        m = re.search(r"\b" + re.escape(t), low)
        if m:
            pos = m.start()
            break
    if pos < 0:
        return text[:width].rstrip() + ("…" if len(text) > width else "")
    start = max(0, pos - width // 3)
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < pos else start
    end = min(len(text), start + width)
    piece = text[start:end].strip()
    return ("…" if start else "") + piece + ("…" if end < len(text) else "")


def search(query: str, game: str | None = None, limit: int = 20) -> list[Hit]:
    """Sections matching every word of ``query`` (as you type: word prefixes count), best first.

    Hits in the ID, title or keywords rank above hits in the body; ties keep rulebook order.

    >>> [h.section.id for h in search("impasse")][:1]
    ['M5.7']
    >>> search("U6")[0].section.title
    'Extensions: single cards played off a meld'
    >>> search("")
    []
    """
    raw = query.strip().lower()
    terms = [t for t in _words(raw) if t]
    if not terms:
        return []
    phrase = " ".join(terms)
    scored: list[tuple[float, int, _Index]] = []
    for order, ix in enumerate(_index()):
        if game is not None and ix.section.game != game:
            continue
        total = 0.0
        for term in terms:
            if ix.id == term:
                best = 100.0
            elif ix.id.startswith(term) and any(ch.isdigit() for ch in term):
                best = 60.0
            else:
                best = max(
                    _field_score(term, ix.title, 40.0, 30.0),
                    _field_score(term, ix.keywords, 30.0, 22.0),
                    _field_score(term, ix.body, 10.0, 6.0),
                )
            if best == 0.0:
                break
            total += best
        else:
            if len(terms) > 1 and (phrase in ix.title_text or phrase in ix.keyword_text):
                total += 25.0  # the words as a phrase, in the title or one keyword
            if phrase == ix.title_text:
                total += 10.0  # the query is the whole title ("going out")
            if ix.section.level == 1 and not ix.id.startswith(terms[0]):
                total -= 1.0  # a group heading yields to its own rules on equal matches
            scored.append((total, order, ix))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [Hit(ix.section, _snippet(ix.section, terms), sc) for sc, _, ix in scored[:limit]]
