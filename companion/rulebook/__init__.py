"""The in-app rulebook: each game's rules in plain words, organised by the rule IDs of RULES.md.

The text lives in small markdown files next to this module (``umtali.md``, ``rummy.md``,
``rummoli.md``), parsed once at first use and cached.  File format, for writers::

    # U6 Extensions                      <- a group (level-1 heading): ID, then title
    keywords: extend, lay off            <- optional metadata lines right under a heading
    example: 5H 6H 7H | a heart sequence <- cards in canonical notation | caption (repeatable)
    house_rule: marriage_extendable | what the switch changes here (repeatable)
    refines: U6.2                        <- a ruling: the plain rule(s) it refines

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
from itertools import takewhile
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
    "published_id",
    "search",
    "section",
    "sections",
]

GAMES: tuple[str, ...] = ("umtali", "rummy", "rummoli")
#: how the rulebook titles a ruling ("Our ruling: a marriage is worth 20")
_RULING_PREFIX = "our ruling:"
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
    #: a ruling's plain rules that it refines (``A-U4`` refines ``U6.2``): search
    #: ranks the ruling below each of them
    refines: tuple[str, ...] = ()

    @property
    def heading(self) -> str:
        """``"U6.2 What can be played on what"``."""
        return f"{self.id} {self.title}"

    @property
    def shown_id(self) -> str:
        """The rule ID as published, for people to read and cite.

        A house-rule variant's section is keyed by its switch (``R7.joker_swap``)
        so that links find it; on screen it is its rule, ``R7``.

        >>> section("R7.joker_swap").shown_id, section("U6.2").shown_id
        ('R7', 'U6.2')
        """
        return published_id(self.id)

    @property
    def is_ruling(self) -> bool:
        """One of our rulings (``A-U14``): how we play where the sources are unclear."""
        return self.id.startswith("A-")

    @property
    def kind(self) -> str:
        """What players call it: ``"rule"``, or ``"our ruling"`` for a ruling."""
        return "our ruling" if self.is_ruling else "rule"

    @property
    def name(self) -> str:
        """The section's title in players' words, without the ruling's "Our ruling:"
        (its :attr:`kind` says that).

        >>> section("U5.3").name, section("A-U14").name
        ('Marriage', 'A marriage is worth 20')
        """
        title = self.title
        if self.is_ruling and title.lower().startswith(_RULING_PREFIX):
            title = title[len(_RULING_PREFIX) :].strip()
            title = title[:1].upper() + title[1:]
        return title

    @property
    def cited(self) -> str:
        """The small print under a name: its kind and published ID.

        >>> section("U5.3").cited, section("A-U14").cited
        ('rule U5.3', 'our ruling A-U14')
        """
        return f"{self.kind} {self.shown_id}"

    @property
    def game_title(self) -> str:
        """The name of the game this rule belongs to (``"Umtali"``)."""
        return next((g.title for g in _GAME_INFO if g.id == self.game), self.game.title())


def published_id(rule_id: str) -> str:
    """A rule ID as people read and cite it: a variant's key is dropped.

    >>> published_id("R7.joker_swap"), published_id("U6.2"), published_id("A-M17")
    ('R7', 'U6.2', 'A-M17')
    """
    head, *rest = rule_id.split(".")
    return ".".join([head, *takewhile(str.isdigit, rest)])


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
_META = re.compile(r"^(keywords|example|house_rule|refines):\s*(.*)$")
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
    refines: list[str] = field(default_factory=list)
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
            refines=tuple(self.refines),
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
        elif key == "refines":
            draft.refines.extend(r.strip() for r in value.split(",") if r.strip())
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
#
# How a query is read (pure; the Rules screen shows the hits):
#
# * words are lower-cased, with a light plural fold ("jacks" -> "jack");
# * the words of a question that carry no meaning ("how", "many", "to", "the" ...)
#   are left out, so "how many cards to deal" looks for "card" and "deal";
# * each remaining word matches a word of the rulebook exactly, as the start of a
#   word (as you type: "marr"), or -- when the rulebook has no such word, from
#   four letters on -- with a typo or two ("marrige", "jakc"; optimal string
#   alignment distance via rapidfuzz);
# * a hit in a rule's ID, title or keywords counts more than one in its text; a
#   keyword phrase found in the question ("how many cards") adds a bonus;
# * without a game filter, each game's best answer comes first, so a question
#   every game answers ("how many cards to deal") shows all three games.

_WORD = re.compile(r"[0-9a-z]+(?:[.\-][0-9a-z]+)*")

_FILLER = """a an the to do does did i you we they me my your our their it its is are was were be
been of in on at for with by from about how what when where who whom which why can could may
might should would will shall must happens happen many much there this that these those and or
if then than so any some get gets"""
#: words of a question that do not say what it is about
STOP_WORDS = frozenset(_FILLER.split())

_EXACT, _PREFIX, _FUZZY, _FUZZY_PREFIX = "exact", "prefix", "fuzzy", "fuzzy_prefix"
#: points for a word found in the title / keywords / text, by how it matched
_WEIGHTS = {
    _EXACT: (40.0, 30.0, 10.0),
    _PREFIX: (30.0, 22.0, 6.0),
    _FUZZY: (32.0, 24.0, 8.0),
    _FUZZY_PREFIX: (24.0, 17.0, 4.0),
}


def _norm(word: str) -> str:
    """Lower case, and a light plural fold so "jacks" finds "jack"."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _words(text: str) -> list[str]:
    text = text.lower().replace("_", " ")
    return [_norm(w) for w in _WORD.findall(text)]


def _typos_allowed(term: str) -> int:
    """How many typos a word of this length may carry and still be recognised."""
    n = len(term)
    if n < 4 or any(ch.isdigit() for ch in term):
        return 0
    return 1 if n <= 5 else 2 if n <= 9 else 3


@dataclass(frozen=True, slots=True)
class _Index:
    section: Section
    id: str
    title: frozenset[str]
    keywords: frozenset[str]
    body: frozenset[str]
    title_text: str
    phrases: tuple[str, ...]  # keywords of two words or more, normalised


@cache
def _index() -> tuple[_Index, ...]:
    out = []
    for s in sections():
        kw = " ".join(s.keywords) + " " + " ".join(s.house_rules)
        body = s.body + " " + " ".join(n.text for n in s.house_rule_notes)
        body += " " + " ".join(e.caption for e in s.examples)
        phrases = tuple(
            p for p in (" ".join(_words(k)) for k in (*s.keywords, *s.house_rules)) if " " in p
        )
        out.append(
            _Index(
                s,
                s.id.lower(),
                frozenset(_words(s.title)),
                frozenset(_words(kw)),
                frozenset(_words(body)),
                " ".join(_words(s.title)),
                phrases,
            )
        )
    return tuple(out)


@cache
def _vocabulary() -> tuple[str, ...]:
    words: set[str] = set()
    for ix in _index():
        words |= ix.title | ix.keywords | ix.body
    return tuple(sorted(words))


@cache
def _expand(term: str) -> dict[str, tuple[str, float]]:
    """The rulebook's words ``term`` may stand for: word -> (how it matched, similarity)."""
    try:
        from rapidfuzz.distance import OSA
    except ImportError:  # a phone's browser: rapidfuzz has no WebAssembly wheel
        from companion.rulebook import osa_fallback as OSA  # type: ignore[no-redef]

    found: dict[str, tuple[str, float]] = {}
    vocabulary = _vocabulary()
    known = any(word.startswith(term) for word in vocabulary)
    # a word the rulebook uses (or the start of one) is taken as meant: "poker" is
    # no typo of "joker"; only an unknown word is read as a typo
    allowed = 0 if known else _typos_allowed(term)
    for word in vocabulary:
        if word == term:
            found[word] = (_EXACT, 1.0)
        elif word.startswith(term):
            found[word] = (_PREFIX, 1.0)
        elif allowed:
            dist = OSA.distance(term, word, score_cutoff=allowed)
            if dist <= allowed:
                found[word] = (_FUZZY, 1.0 - dist / max(len(term), len(word)))
                continue
            if len(word) > len(term):
                dist = OSA.distance(term, word[: len(term)], score_cutoff=allowed)
                if dist <= allowed:
                    found[word] = (_FUZZY_PREFIX, 1.0 - dist / len(term))
    return found


def _term_score(term: str, ix: _Index) -> tuple[float, str | None]:
    """Points of one query word in one section, and the rulebook word it matched."""
    if ix.id == term:
        return 100.0, None
    if ix.id.startswith(term) and any(ch.isdigit() for ch in term):
        return 60.0, None
    best, matched = 0.0, None
    for word, (how, sim) in _expand(term).items():
        weights = _WEIGHTS[how]
        for pos, field_words in enumerate((ix.title, ix.keywords, ix.body)):
            if word in field_words and weights[pos] * sim > best:
                best, matched = weights[pos] * sim, word
    return best, matched


def _query_terms(raw: str) -> list[str]:
    """The words of a query that say what it is about (all of them if none does)."""
    words = [w for w in _words(raw) if w]
    meaningful = [w for w in words if w not in STOP_WORDS]
    return meaningful or words


def _needed(n: int) -> int:
    """How many of ``n`` query words a section must match: all of one or two words,
    most of a longer question ("how many cards does each player get")."""
    return n if n <= 2 else n - (n - 1) // 2


def _plain(body: str) -> str:
    """A section's body on one line, its list items as "• ", each block (a paragraph,
    an item) ending in its full stop: "6 each. Turn the next card…", never "6 each
    Turn the next card…" where a list item without one met the next paragraph."""
    lines = [re.sub(r"[*`]", "", re.sub(r"^\s*- ", "• ", ln)).strip() for ln in body.splitlines()]
    out: list[str] = []
    for i, line in enumerate(lines):
        if not line:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        ends_block = not nxt or line.startswith("• ") or nxt.startswith("• ")
        if ends_block and not re.search(r"[.!?:;…]$", line):
            line += "."
        out.append(line)
    return " ".join(" ".join(out).split())


def _snippet(s: Section, terms: list[str], width: int = 110) -> str:
    text = _plain(s.body)
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


def _score(
    ix: _Index, terms: list[str], question: str, slack: int = 0
) -> tuple[float, list[str]] | None:
    """A section's score for the query, with the rulebook words it matched; None: no match.
    ``slack``: how many more query words than usual may go unmatched."""
    total, hit_words, missed = 0.0, [], 0
    allowed_misses = len(terms) - _needed(len(terms)) + slack
    for term in terms:
        points, word = _term_score(term, ix)
        if points == 0.0:
            missed += 1
            if missed > allowed_misses:
                return None
            continue
        total += points
        hit_words.append(word or term)
    phrase = " ".join(terms)
    if len(terms) > 1 and (phrase in ix.title_text or any(phrase in p for p in ix.phrases)):
        total += 25.0  # the words as a phrase, in the title or one keyword
    elif any(f" {p} " in f" {question} " for p in ix.phrases):
        total += 20.0  # a keyword phrase asked in the question ("how many cards")
    if phrase == ix.title_text:
        total += 10.0  # the query is the whole title ("going out")
    if ix.section.level == 1 and not ix.id.startswith(terms[0]):
        total -= 1.0  # a group heading yields to its own rules on equal matches
    return total, hit_words


def _rulings_after_rules(
    scored: list[tuple[float, int, _Index, list[str]]], terms: list[str]
) -> list[tuple[float, int, _Index, list[str]]]:
    """Our rulings (``A-...``) refine a game's plain rules, so a ruling ranks below
    every plain rule it refines (:attr:`Section.refines`) that answers the query too,
    however weakly; and just below the best plain rule of its game when that one
    answers at least half as well.  A ruling asked for by its ID ("A-U14") stays first."""
    best_plain: dict[str, float] = {}
    found: dict[str, float] = {}
    for sc, _, ix, _ in scored:
        found[ix.section.id] = sc
        if not ix.section.is_ruling:
            g = ix.section.game
            best_plain[g] = max(best_plain.get(g, 0.0), sc)
    out = []
    for sc, order, ix, words in scored:
        s = ix.section
        if s.is_ruling and ix.id not in terms:
            plain = best_plain.get(s.game, 0.0)
            if sc >= plain >= sc / 2:
                sc = plain - 0.5
            refined = [found[r] for r in s.refines if r in found]
            if refined:
                sc = min(sc, min(refined) - 0.5)
        out.append((sc, order, ix, words))
    return out


def _each_game_first(hits: list[Hit]) -> list[Hit]:
    """Each game's best hit first (best first), when it is a real answer (at least half
    the top score); then the rest in score order."""
    if not hits:
        return hits
    top = hits[0].score
    leaders: list[Hit] = []
    for h in hits:
        if h.score >= top / 2 and all(h.section.game != x.section.game for x in leaders):
            leaders.append(h)
    return leaders + [h for h in hits if h not in leaders]


def search(query: str, game: str | None = None, limit: int = 20) -> list[Hit]:
    """Sections answering ``query``, best first: keywords or a question, typos allowed.

    Hits in the ID, title or keywords rank above hits in the text; ties keep rulebook
    order.  Without ``game``, each game's best answer comes first.

    >>> [h.section.id for h in search("impasse")][:1]
    ['M5.7']
    >>> search("marrige")[0].section.id  # a typo
    'U5.3'
    >>> sorted(h.section.game for h in search("how many cards to deal")[:3])
    ['rummoli', 'rummy', 'umtali']
    >>> search("U6")[0].section.title
    'Extensions: single cards played off a meld'
    >>> [h.section.id for h in search("who deals nxt", "rummy")][:1]  # one word unknown
    ['R1.2']
    >>> ids = [h.section.id for h in search("marriage worth", "umtali")]
    >>> ids.index("U5.3") < ids.index("A-U14")  # the plain rule, then our ruling on it
    True
    >>> search("")
    []
    """
    terms = _query_terms(query.strip())
    if not terms:
        return []
    question = " ".join(_words(query))
    scored: list[tuple[float, int, _Index, list[str]]] = []
    # every word matched (most of a long question); else, for two words or more, the
    # best partial matches: one word the rulebook does not know ("who deals nxt")
    # does not empty the answer
    for slack in (0, 1) if len(terms) > 1 else (0,):
        for order, ix in enumerate(_index()):
            if game is not None and ix.section.game != game:
                continue
            found = _score(ix, terms, question, slack)
            if found is not None:
                scored.append((found[0], order, ix, found[1]))
        if scored:
            break
    scored = _rulings_after_rules(scored, terms)
    scored.sort(key=lambda t: (-t[0], t[1]))
    hits = [Hit(ix.section, _snippet(ix.section, words), sc) for sc, _, ix, words in scored]
    if game is None:
        hits = _each_game_first(hits)
    return hits[:limit]
