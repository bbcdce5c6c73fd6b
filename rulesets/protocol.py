"""The protocol every game's referee implements, and the values it returns.

Glossary used across the games:

* **meld** -- cards put down together (a set, a sequence/run, a marriage...).
* **set** -- 3 or 4 cards of one rank.  **sequence / run** -- 3+ consecutive
  cards of one suit.
* **extension / lay-off** -- a card added to a meld already on the table; the
  meld it is played against is its **anchor**.
* **pot** -- a pile of chips on the Rummoli board.
* **record** -- a game as the list of actions the table reported; replaying
  it rebuilds the state once, then the live game pushes and pops.
* **ledger** -- every score or chip movement, one :class:`LedgerEntry` each
  (who, how much, why: the kind, the rule ID and the cards it came from).

Two protocols, one per level (python-chess / OpenSpiel style):

* :class:`Ruleset` -- what a game *is*: its facts (players, units, house-rule
  switches, opening words), stateless checks (``check``, ``score``,
  ``suggest``) and the factory of live games.  Each game package exposes one
  object ``RULESET``; find it with :func:`rulesets.load_ruleset`.
* :class:`Game` -- one game at the table, implemented identically by all three
  games: ``verify`` / ``can`` / ``push`` / ``pop`` / ``judge`` / ``summary``.
  Players are always addressed by name.

>>> entries = (
...     LedgerEntry(player="Ann", amount=50, kind="start", rule="M1.3", hand=None),
...     LedgerEntry(player="Ann", amount=-9, kind="ante", rule="M1.3", hand=1),
...     LedgerEntry(player="Ann", amount=4, kind="pot", rule="M5.6", hand=1, cards=("KH",)),
... )
>>> [(r.title, r.amounts) for r in ledger_rows(("Ann",), entries, hand_word="Round")]
[('Start', {'Ann': 50}), ('Round 1', {'Ann': -5})]
>>> Units.CHIPS.of(1), Units.PENALTY.of(12)
('1 chip', '12 penalty points')
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Protocol,
    TypeVar,
    cast,
    runtime_checkable,
)

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
)
from pydantic_core import PydanticKnownError

from rulesets.cards import Card, parse_card, parse_cards
from rulesets.errors import CardParseError, HouseRuleError, RecordError, RulesetError
from rulesets.judgement import Judgement
from rulesets.switches import Switch
from rulesets.words import said

if TYPE_CHECKING:
    from pydantic import TypeAdapter

__all__ = [
    "RECORD_SCHEMA_VERSION",
    "Action",
    "Advice",
    "Cards",
    "CheckerFacts",
    "Ending",
    "Game",
    "GameRecord",
    "HandSummary",
    "HouseRulesBase",
    "LedgerEntry",
    "LedgerRow",
    "OneCard",
    "Opening",
    "Ruleset",
    "ScoreReport",
    "Standing",
    "Summary",
    "SummaryDetail",
    "Units",
    "Verdict",
    "card_error",
    "read_action",
    "ledger_rows",
    "parse_house_rules",
]

RECORD_SCHEMA_VERSION = 1


# --------------------------------------------------------------------------- units


class Units(StrEnum):
    """What a game's totals count.  ``of(n)`` words a number correctly."""

    POINTS = "points"
    PENALTY = "penalty points"
    CHIPS = "chips"

    def of(self, n: int) -> str:
        """``n`` with the unit, singular for one: "1 point", "3 chips".

        >>> Units.POINTS.of(-1), Units.POINTS.of(0)
        ('-1 point', '0 points')
        """
        word = str(self.value)
        if abs(n) == 1:
            word = word[:-1]
        return f"{n} {word}"

    def meld(self, n: int) -> str:
        """What a meld's ``points`` (:class:`Verdict` with ``cards`` put down) mean, in
        words (a verdict without cards, such as a hand's end, is a score: :meth:`of`).

        Points scored: the meld is worth them.  Penalty points: a meld is worth
        nothing -- its ``points`` are the penalty its cards would count if they were
        still held at the hand end, which putting them down takes out of the hand.

        >>> Units.POINTS.meld(20), Units.PENALTY.meld(24), Units.PENALTY.meld(1)
        ('20 points', '24 penalty points out of the hand', '1 penalty point out of the hand')
        """
        if self is Units.PENALTY:
            return f"{self.of(n)} out of the hand"
        return self.of(n)


# --------------------------------------------------------------------------- verdicts


#: the fields :meth:`Verdict.of` copies, in the judgement's order (a named tuple's)
_JUDGEMENT_FIELDS: tuple[str, ...] = Judgement._fields


class Verdict(BaseModel):
    """The referee's answer to "is this legal?".

    ``legal``, ``kind``, ``points``, ``rule`` and ``reason`` are a public
    contract (``companion check --json`` prints them).  ``points`` is the card value
    of what is put down, in the game's units: where points are scored (Umtali) what
    the meld scores; under penalty scoring (Rummy) the penalty those cards would
    count if still held at the hand end -- what melding them takes out of the hand,
    never a score of its own (:meth:`Units.meld` words it).  ``rule`` is a rule ID of
    RULES.md (the rulebook links it); ``reason`` is plain words.  ``moves`` are
    the chip or score movements a legal action would make, as the ledger will
    record them (Rummoli fills them; a view words a button from them, never
    from a rule of its own).  ``incomplete`` marks an illegal verdict on an action
    still being picked that more cards could make legal (a meld one card short):
    ``reason`` says what is missing, and a screen shows it neutral, not as a refusal.

    ``reason`` and ``notes`` write cards as "5H" and may cite a rule in their prose
    (what ``companion check`` prints); a screen shows :attr:`said` and
    :attr:`said_notes` instead: the same in players' words (cards as 5♥, no rule ID
    in a sentence -- ``rule`` is linked beside it).  ``words`` and ``note_words`` hold
    that form where it differs by more than the cards (``note_words`` None: the notes
    as they are; empty: a screen says none of them); they are not printed by
    ``check --json``.

    ``unchecked`` are the rules a check could not apply for want of the player's hand
    (Umtali's no-breaking rule U7.2 without a hand entered).  ``notes`` say so, for
    ``companion check``; a screen says it once beside its hand field
    (:meth:`CheckerFacts.hand_line`), not on every verdict -- ``note_words`` leave it
    out.  Not printed by ``check --json`` either.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    legal: bool
    kind: str | None = None
    points: int | None = None
    rule: str
    reason: str
    cards: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    moves: tuple[LedgerEntry, ...] = ()
    incomplete: bool = False
    words: str = ""
    note_words: tuple[str, ...] | None = None
    unchecked: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """The reason in players' words (what a screen shows): a sentence of its own,
        so it starts with a capital (a reason such as "hand 1: Bob went out" is also
        the tail of "Refused: ..." and of ``companion check``'s line, where it stays).

        >>> Verdict(legal=True, rule="U5.2", reason='"5H 6H 7H" is a sequence').said
        '5♥ 6♥ 7♥ is a sequence'
        >>> Verdict(legal=True, rule="R6.2", reason="hand 1: Bob went out").said
        'Hand 1: Bob went out'
        """
        text = said(self.words or self.reason)
        return text[:1].upper() + text[1:]

    @property
    def said_notes(self) -> tuple[str, ...]:
        """The notes in players' words (what a screen shows).

        >>> Verdict(legal=True, rule="U6.2", reason="x", notes=("5H is low",)).said_notes
        ('5♥ is low',)
        >>> Verdict(legal=True, rule="U6.2", reason="x", notes=("n",), note_words=()).said_notes
        ()
        """
        notes = self.notes if self.note_words is None else self.note_words
        return tuple(said(n) for n in notes)

    @classmethod
    def of(cls, judgement: Judgement) -> Verdict:
        """The verdict on cards a check judged (:mod:`rulesets.judgement`, no ledger moves).

        >>> Verdict.of(Judgement(legal=False, rule="U5.2", reason="x")).to_json()["legal"]
        False
        """
        # validated from a dict in one call (no keyword arguments repacked by __init__)
        data = dict(zip(_JUDGEMENT_FIELDS, judgement, strict=True))
        verdict: Verdict = cls.__pydantic_validator__.validate_python(data)
        return verdict

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"words", "note_words", "unchecked"})


class ScoreReport(BaseModel):
    """Points of a group of cards under a game's rules, with the per-card breakdown."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    points: int
    rule: str
    breakdown: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class Advice(BaseModel):
    """A ruleset's suggestion for a private hand: the best plays, exact, not greedy.

    ``plays`` are verdicts on each meld/extension of the best line, in the order
    to make them; ``left`` the cards that stay in hand; ``points`` what the line
    is worth in the game's units (Umtali: points onto your side; Rummy: the
    penalty of the cards left).  ``can_go_out`` says whether the line empties
    the hand (a final discard allowed where the rules allow it).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    plays: tuple[Verdict, ...] = ()
    left: tuple[str, ...] = ()
    points: int = 0
    can_go_out: bool = False
    reason: str = ""
    notes: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """The reason in players' words (cards as 5♥), what a screen shows."""
        return said(self.reason)

    @property
    def said_notes(self) -> tuple[str, ...]:
        """The notes in players' words, what a screen shows."""
        return tuple(said(n) for n in self.notes)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


# --------------------------------------------------------------------------- ledger


class LedgerEntry(BaseModel):
    """One score or chip movement, with its audit trail.

    * ``player`` -- whose total moves (a player name).
    * ``amount`` -- by how much, in the game's units (negative: paid / lost).
    * ``kind`` -- a stable machine word for the movement ("meld", "penalty",
      "ante", "pot", "start", "buy_in", ...); each game documents its kinds.
    * ``rule`` -- the RULES.md ID that makes it so.
    * ``cards`` -- the cards it came from (canonical text, e.g. ``"10H"``).
    * ``hand`` -- the hand / round number it belongs to; None for movements
      outside any hand (Rummoli's starting stacks, buy-ins, the final poker).
    * ``label`` -- the words a person reads ("K♥ pot", "cards held").
    * ``other`` -- the counterpart, where there is one (who paid whom).
    * ``detail`` -- extra words for the audit line ("Ann 4, Bob 2").

    A game's totals are exactly the sums of its ledger, per player.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    player: str
    amount: int
    kind: str
    rule: str
    cards: tuple[str, ...] = ()
    hand: int | None = None
    label: str = ""
    other: str | None = None
    detail: str = ""

    def line(self) -> str:
        """The audit line: label, signed amount, detail and rule.

        >>> LedgerEntry(player="Ann", amount=3, kind="owed", rule="A-M11",
        ...             label="cards owed", detail="Bob 3").line()
        'cards owed +3 (Bob 3) [A-M11]'
        """
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.label or self.kind} {self.amount:+d}{detail} [{self.rule}]"


class LedgerRow(BaseModel):
    """Consecutive ledger entries that a history table shows as one row."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    title: str
    hand: int | None
    kind: str
    amounts: dict[str, int]
    entries: tuple[LedgerEntry, ...]


_ROW_TITLES: dict[str, str] = {
    "start": "Start",
    "buy_in": "Buy-in",
    "adjust": "Adjustment",
    "final_poker": "Final poker",
}


def ledger_rows(
    players: Sequence[str], ledger: Sequence[LedgerEntry], *, hand_word: str = "Hand"
) -> list[LedgerRow]:
    """Group a ledger into history rows: one per hand, and one per run of
    movements outside a hand (start, buy-ins, final poker).  Every player has
    an amount in every row, so the rows add up to the totals.
    """
    rows: list[LedgerRow] = []
    group: list[LedgerEntry] = []

    def key(e: LedgerEntry) -> tuple[int | None, str]:
        return (e.hand, "" if e.hand is not None else e.kind)

    def flush() -> None:
        if not group:
            return
        first = group[0]
        amounts = dict.fromkeys(players, 0)
        for e in group:
            amounts[e.player] = amounts.get(e.player, 0) + e.amount
        if first.hand is not None:
            title = f"{hand_word} {first.hand}"
        else:
            title = _ROW_TITLES.get(first.kind, first.label or first.kind)
        rows.append(
            LedgerRow(
                title=title,
                hand=first.hand,
                kind="hand" if first.hand is not None else first.kind,
                amounts=amounts,
                entries=tuple(group),
            )
        )
        group.clear()

    for entry in ledger:
        if group and key(group[0]) != key(entry):
            flush()
        group.append(entry)
    flush()
    return rows


# --------------------------------------------------------------------------- summaries


class SummaryDetail(BaseModel):
    """Base of each game's typed part of a :class:`Summary`."""

    model_config = ConfigDict(frozen=True, defer_build=True)


class HandSummary(BaseModel):
    """A finished hand (or Rummoli round): its dealer, score per player and ledger."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    number: int
    dealer: str | None = None
    scores: dict[str, int] = Field(default_factory=dict)
    ledger: tuple[LedgerEntry, ...] = ()


class Standing(BaseModel):
    """One player's place: best total first, equal totals share a place (1, 1, 3).

    >>> Standing(place=1, player="Bob", total=12, winner=True).place
    1
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    place: int
    player: str
    total: int
    winner: bool = False


class Ending(BaseModel):
    """How a finished game ended, and how a new game of the same players begins.

    * ``text`` / ``rule`` -- the result in words ("Bob wins, 49 to 46.") and the
      rule that decides it.
    * ``next_dealer`` -- who deals the first hand of a new game with the same
      players (in the same seats) and house rules: the deal goes on round the
      table as it would have between hands (U2.3, R1.2, M6.3).  ``next_deal``
      says so in words, ``next_rule`` is that rotation's rule.
    * ``chips`` -- each player's starting chips in that game, in seat order (as
      in this one); None for a game without chips.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    text: str
    rule: str
    next_dealer: str
    next_deal: str
    next_rule: str
    chips: tuple[int, ...] | None = None


class Summary(BaseModel):
    """Where a game stands: the fields every game shares, plus ``detail``.

    ``totals`` are the sums of ``ledger`` per player (the movements that count;
    an Umtali or Rummy hand counts once it has ended).  ``units`` and
    ``higher_is_better`` say how to read the totals under this game's rules.
    ``hand`` is the number of the hand in play (or of the last one played).
    Each game subclasses this with typed ``hands`` and ``detail`` and
    implements :meth:`to_json`, the JSON that ``companion replay`` prints and
    the history keeps (a stable public shape).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    game: str
    players: tuple[str, ...]
    phase: str
    finished: bool
    winners: tuple[str, ...] = ()
    totals: dict[str, int]
    units: Units
    higher_is_better: bool
    dealer: str | None = None
    turn: str | None = None
    hand: int = 0
    hands: tuple[HandSummary, ...] = ()
    ledger: tuple[LedgerEntry, ...] = ()
    detail: SummaryDetail = Field(default_factory=SummaryDetail)
    #: set once the game is over: the result and how the next game begins
    ending: Ending | None = None

    #: what a history row of one hand is called ("Hand", "Round").
    HAND_WORD: ClassVar[str] = "Hand"

    def rows(self) -> list[LedgerRow]:
        """The ledger as history rows (see :func:`ledger_rows`)."""
        return ledger_rows(self.players, self.ledger, hand_word=self.HAND_WORD)

    def ranking(self) -> tuple[Standing, ...]:
        """Every player's place by total (the better total first, as ``higher_is_better``
        says); equal totals share a place and keep their seat order.

        >>> s = Summary(game="x", players=("Ann", "Bob", "Cy"), phase="over", finished=True,
        ...             winners=("Bob", "Cy"), totals={"Ann": 40, "Bob": 12, "Cy": 12},
        ...             units=Units.PENALTY, higher_is_better=False)
        >>> [(r.place, r.player, r.winner) for r in s.ranking()]
        [(1, 'Bob', True), (1, 'Cy', True), (3, 'Ann', False)]
        """
        sign = -1 if self.higher_is_better else 1
        order = sorted(self.players, key=lambda p: sign * self.totals.get(p, 0))
        out: list[Standing] = []
        for n, p in enumerate(order):
            total = self.totals.get(p, 0)
            same = bool(out) and out[-1].total == total
            place = out[-1].place if same else n + 1
            out.append(Standing(place=place, player=p, total=total, winner=p in self.winners))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape (``companion replay --json``); games override it."""
        return self.model_dump(mode="json")


# --------------------------------------------------------------------------- house rules


class HouseRulesBase(BaseModel):
    """Base for each game's frozen house-rules model (defaults = RULES.md).

    ``TITLES`` names each switch in the words players use ("Ace high or low");
    ``EXPLAIN`` says in one line what it changes.  Screens and messages show
    these, never the field name.  A field annotated with a
    :class:`~rulesets.switches.Switch` (``Annotated[bool, Switch(title, explain)]``)
    fills both when the class is built.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        titles, explain = dict(cls.TITLES), dict(cls.EXPLAIN)
        for name, info in cls.model_fields.items():
            for mark in info.metadata:
                if isinstance(mark, Switch):
                    titles[name], explain[name] = mark.title, mark.explain
        cls.TITLES, cls.EXPLAIN = titles, explain

    #: one-line explanation per field, shown next to each switch in the app.
    EXPLAIN: ClassVar[dict[str, str]] = {}
    #: a short name per field, in the words players use.
    TITLES: ClassVar[dict[str, str]] = {}
    #: words for the values of choice switches ("per_pot" -> "One poker per pot").
    VALUE_TITLES: ClassVar[dict[str, str]] = {}

    @classmethod
    def title_of(cls, name: str) -> str:
        """The switch's name in plain words (falls back to the field name, spaced).

        >>> HouseRulesBase.title_of("ace_high_or_low")
        'Ace high or low'
        """
        title = cls.TITLES.get(name)
        if title:
            return title
        words = name.replace("_", " ").strip()
        return words[:1].upper() + words[1:]

    @classmethod
    def value_title(cls, value: object) -> str:
        """A switch's value in plain words (choices from ``VALUE_TITLES``).

        >>> HouseRulesBase.value_title("per_pot"), HouseRulesBase.value_title(True)
        ('Per pot', 'on')
        """
        if isinstance(value, bool):
            return "on" if value else "off"
        if value is None:
            return "off"
        text = str(value)
        title = cls.VALUE_TITLES.get(text)
        if title:
            return title
        words = text.replace("_", " ").strip()
        return words[:1].upper() + words[1:]

    def changed(self) -> dict[str, Any]:
        """The switches that differ from the defaults (what a record stores)."""
        return self.model_dump(mode="json", exclude_defaults=True)


HR = TypeVar("HR", bound=HouseRulesBase)


def parse_house_rules(model: type[HR], specs: Sequence[str] | str | None) -> HR:
    """Build house rules from ``name`` / ``name=value`` switches.

    ``specs`` may be one comma-separated string or several.  A bare name turns a
    boolean switch on; ``no_name`` or ``name=false`` turns it off.

    >>> class Demo(HouseRulesBase):
    ...     jokers: bool = False
    ...     target: int = 100
    >>> parse_house_rules(Demo, "jokers,target=150")
    Demo(jokers=True, target=150)
    >>> parse_house_rules(Demo, ["wild"])
    Traceback (most recent call last):
    ...
    rulesets.errors.HouseRuleError: "wild": unknown house rule (known: jokers, target)
    """
    if specs is None:
        return model()
    items: list[str] = []
    for spec in [specs] if isinstance(specs, str) else specs:
        items.extend(p.strip() for p in spec.split(",") if p.strip())
    fields = model.model_fields
    values: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip().replace("-", "_")
        raw: Any = value.strip() if eq else True
        if not eq and name.startswith("no_") and name[3:] in fields:
            name, raw = name[3:], False
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise HouseRuleError(f'"{item}": unknown house rule (known: {known})')
        values[name] = raw
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = str(first["msg"]).removeprefix("Value error, ")
        if where:
            raise HouseRuleError(f'"{",".join(items)}": bad value for {where}: {msg}') from None
        raise HouseRuleError(f'"{",".join(items)}": {msg}') from None


# --------------------------------------------------------------------------- records and actions


def _read_cards(value: object) -> tuple[Card, ...]:
    """A card list field's Card values from a record's text ("10H", "th", "10♥") or
    Card values; a card listed twice is kept (the referee refuses it, by its rule)."""
    if type(value) is tuple and all(type(c) is Card for c in value):
        return value  # the edge's own Card values: nothing to read
    if not isinstance(value, tuple | list):
        raise PydanticKnownError("tuple_type")
    cards: list[Card] = []
    for item in value:
        if isinstance(item, Card):
            cards.append(item)
        elif not isinstance(item, str):
            raise PydanticKnownError("string_type")
        else:
            try:
                cards.append(parse_card(item))
            except CardParseError:  # several cards in one text ("5H 6H"), or the card's error
                cards.extend(parse_cards(item, allow_duplicates=True))
    return tuple(cards)


def _read_card(value: object) -> Card:
    """A one-card field's Card value from its text or a Card."""
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise PydanticKnownError("string_type")
    return parse_card(value)


def _card_texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


#: an action's list of cards: Card values, read from text once, stored as text ["5H", "6H"].
Cards = Annotated[
    tuple[Card, ...],
    PlainValidator(_read_cards),
    PlainSerializer(_card_texts, return_type=list[str]),
]
#: an action's one card: a Card value, read from text once, stored as text "5H".
OneCard = Annotated[Card, PlainValidator(_read_card), PlainSerializer(str, return_type=str)]


def card_error(exc: ValidationError) -> RulesetError | None:
    """The card error (:class:`~rulesets.errors.CardParseError`) pydantic wrapped in
    ``exc``, when a card that is no card is all that is wrong with an action."""
    found: RulesetError | None = None
    for error in exc.errors():
        cause = error.get("ctx", {}).get("error")
        if not isinstance(cause, RulesetError):
            return None
        found = found or cause
    return found


ActionT = TypeVar("ActionT")


def read_action(
    data: Any, adapter: TypeAdapter[ActionT], types: tuple[type, ...], what: str
) -> ActionT:
    """One game's action (``types``, read by ``adapter``) from itself, another action
    or model (through its JSON) or a JSON dict: each game's ``parse_action``.

    A card that is no card raises its card error, as the referee says it; anything
    else a :class:`RecordError` naming ``what`` ("an Umtali action") and the field,
    cut to 300 characters (a record may be as long as you like).
    """
    if isinstance(data, types):
        return cast(ActionT, data)
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        error = card_error(exc)  # a card that is no card: said as the referee says it
        if error is not None:
            raise error from None
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise RecordError(f"{data!r}: not {what}: {where}: {first['msg']}"[:300]) from None


class Action(BaseModel):
    """Base of every game's recorded actions (each game's are a discriminated union
    on ``type``).  Frozen, JSON-able; ``to_json`` is what a record stores.

    **Cards are read once, at the edge.**  A card field (:data:`Cards`,
    :data:`OneCard`) holds Card values: given as values where the edge has them (a
    picker, the command line), else read from the record's text when the action is
    built.  ``to_json`` writes them back as the text a record stores ("5H", byte
    for byte).  A card that is no card raises
    :class:`~rulesets.errors.CardParseError` (a ``ValueError``) when the action is
    built; a card listed twice is kept, for the referee to refuse by its rule.

    >>> from rulesets.umtali import Meld
    >>> m = Meld(player="Ann", cards=parse_cards("5♥ 6h 7H"))
    >>> m.cards == parse_cards("5H 6H 7H"), m.to_json()["cards"]
    (True, ['5H', '6H', '7H'])
    >>> m == Meld(player="Ann", cards=("5H", "6♥", "7h"))
    True
    >>> Meld(player="Ann", cards=("5H", "5X"))
    Traceback (most recent call last):
    ...
    rulesets.errors.CardParseError: "5X": unknown suit 'X' (use S, H, D, C or ♠♥♦♣)
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: str

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            error = card_error(exc)
            if error is None:
                raise
            raise error from None

    def _said(self, name: str) -> str:
        """The cards of field ``name`` as people write them ("5♥ 6♥ 7♥"), for :meth:`words`."""
        value: Card | tuple[Card, ...] = getattr(self, name)
        if isinstance(value, Card):
            return value.symbol
        return " ".join(c.symbol for c in value)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def words(self, players: Sequence[str] = (), *, past: bool = False) -> str:
        """What this entry did, in the table's words, for a "who did what" line:
        the player, then what they did, cards as 5♥ 6♥ 7♥ ("Bob meld 5♥ 6♥ 7♥").

        ``players`` (the seating) names a player an old record gives by seat
        number.  ``past`` tells it as done, for the table's news ("Bob melded
        5♥ 6♥ 7♥"); without it the words name the entry inside a sentence ("Ann
        undid Bob meld 5♥ 6♥ 7♥").  Each game's actions word themselves; this
        default, for an action of no card game, says its player and its type in words.

        >>> class Tally(Action):
        ...     type: str = "add_points"
        ...     player: str = "Ann"
        >>> Tally().words()
        'Ann add points'
        """
        who = getattr(self, "player", None)
        what = self.type.replace("_", " ")
        return f"{who} {what}" if isinstance(who, str) else what

    def after_correction(self, before: Summary) -> Action:
        """This recorded action as it stands once an earlier entry was corrected
        (:func:`rulesets.timeline.corrected`); ``before`` is the game just before it.
        Unchanged by default."""
        return self


class GameRecord(BaseModel):
    """A whole game as reported at the table: who, which rules, what happened.

    ``actions`` are each game's own action models dumped to JSON (a ``type``
    field tells them apart).  This is what storage persists and replay reads.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: int = RECORD_SCHEMA_VERSION
    game: str
    players: list[str]
    rules: dict[str, Any] = {}
    actions: list[dict[str, Any]] = []

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Validate loaded JSON, raising :class:`RecordError` with a readable reason."""
        try:
            record = cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise RecordError(f"not a game record: {where}: {first['msg']}") from None
        if record.schema_version > RECORD_SCHEMA_VERSION:
            raise RecordError(
                f"record schema {record.schema_version} is newer than this app understands "
                f"({RECORD_SCHEMA_VERSION}); update Rummy Companion"
            )
        return record


class CheckerFacts(BaseModel):
    """What the meld checker offers for a game, in the words it shows.

    * ``modes`` -- which checks make sense: ``meld`` (put cards down), ``extend``
      (a card onto a meld on the table), ``hand`` (advice on a whole hand).
    * ``going_out`` -- whether "Going out" changes a verdict (Umtali's pair).
    * ``rest_of_hand`` -- the label of the switch that adds the rest of the hand
      to a check, saying what it enables; empty when the game has none.
    * ``whole_hand`` -- one line under the whole-hand mode, saying what it shows.
    * ``hand_verdict`` -- the whole-hand mode also asks ``check`` (Rummoli's widow).
    * ``legal_words`` / ``illegal_words`` -- the verdict's headline; with
      ``plain_headline`` the legal words stand alone (no kind and points).
    * ``unchecked_words`` -- the line beside the rest-of-hand switch when a verdict
      could not apply a rule for want of the hand (:attr:`Verdict.unchecked`): said
      there once, not on every verdict (:meth:`hand_line`).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    modes: tuple[str, ...] = ("meld", "extend", "hand")
    going_out: bool = False
    rest_of_hand: str = ""
    whole_hand: str = ""
    hand_verdict: bool = False
    legal_words: str = "Legal"
    illegal_words: str = "Not legal"
    plain_headline: bool = False
    unchecked_words: str = ""

    def hand_line(self, verdict: Verdict | None) -> str:
        """What to say beside the hand field about ``verdict``: empty unless it could
        not apply a rule for want of the hand.

        >>> facts = CheckerFacts(unchecked_words="Enter your hand to check it.")
        >>> v = Verdict(legal=True, rule="U6.2", reason="x", unchecked=("U7.2",))
        >>> facts.hand_line(v), facts.hand_line(v.model_copy(update={"unchecked": ()}))
        ('Enter your hand to check it.', '')
        """
        return self.unchecked_words if verdict is not None and verdict.unchecked else ""

    def headline(self, verdict: Verdict, units: Units) -> str:
        """The verdict's headline in words.

        >>> v = Verdict(legal=True, kind="sequence", points=3, rule="U5.2", reason="x")
        >>> CheckerFacts().headline(v, Units.POINTS)
        'Legal: sequence, 3 points'
        >>> CheckerFacts().headline(v.model_copy(update={"legal": False}), Units.POINTS)
        'Not legal'
        >>> short = Verdict(legal=False, rule="U5.2", reason="x", incomplete=True)
        >>> CheckerFacts().headline(short, Units.POINTS)  # a meld still being picked
        'Keep picking'
        """
        if not verdict.legal:
            return "Keep picking" if verdict.incomplete else self.illegal_words
        if self.plain_headline or not verdict.kind:
            return self.legal_words
        words = verdict.kind.replace("_", " ")
        if verdict.points is None:
            points = ""
        else:  # cards put down: a meld's points (Units.meld); else a score (a hand's end)
            n = verdict.points
            points = f", {units.meld(n) if verdict.cards else units.of(n)}"
        return f"{self.legal_words}: {words}{points}"


class Opening(BaseModel):
    """Who deals and who plays first in a new game, with the rule that says so."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    dealer: str
    first: str
    text: str
    rule: str


# --------------------------------------------------------------------------- protocols


@runtime_checkable
class Game(Protocol):
    """One game at the table: a stack of recorded actions and the state they built.

    Identical in all three games (python-chess's move stack):

    * ``verify(action)`` raises from the :class:`~rulesets.errors.RulesetError`
      family (reason + rule ID) if ``action`` is illegal now; never changes state.
    * ``can(action)`` -- the same answer as a bool (to grey out a button).
    * ``push(action)`` -- verify, then apply; returns the parsed action.  A
      refused action changes nothing.
    * ``pop()`` -- the exact inverse of the last ``push``; returns that action.
    * ``judge(action)`` -- a :class:`Verdict` (legal or not, kind, points, rule,
      reason); never raises for an illegal action and agrees with ``verify``.
    * ``summary()`` -- the typed :class:`Summary`.

    Looking back (the summary or a verdict at a past entry, correcting a
    finished hand) and replaying a record are :mod:`rulesets.timeline`, built
    on ``push`` and ``pop`` alone, the same for every game.

    ``action`` is the game's action model or its JSON dict.  ``hand`` is the
    acting player's private hand where the table entered it (it enables checks
    such as Umtali's no-breaking rule); it is never recorded.
    """

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def rules(self) -> HouseRulesBase: ...

    @property
    def actions(self) -> tuple[Action, ...]: ...

    def verify(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> None: ...

    def can(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> bool: ...

    def push(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> Action: ...

    def pop(self) -> Action: ...

    def judge(
        self, action: Action | dict[str, Any], *, hand: Sequence[Card] | None = None
    ) -> Verdict: ...

    def summary(self) -> Summary: ...

    def to_record(self) -> GameRecord: ...


@runtime_checkable
class Ruleset(Protocol):
    """What a game is (each game package exposes one object ``RULESET``).

    Facts: ``name``, ``title``, ``summary`` (one line), ``min_players`` /
    ``max_players``, ``house_rules`` (the switches: a frozen model with
    ``TITLES`` and ``EXPLAIN``), ``hand_word`` ("Hand" or "Round"),
    ``starting_stack`` (chips per player at the start, None without chips),
    ``pack_rule`` (the rule ID of "one pack": a card listed twice breaks it),
    ``checker`` (what the meld checker offers, :class:`CheckerFacts`),
    ``units(rules)``, ``higher_is_better(rules)`` and ``jokers(rules)``.

    * ``new_game`` / ``from_record`` -- a live :class:`Game`.
    * ``parse_action`` -- one recorded action from its JSON (``RecordError``).
    * ``opening`` -- who deals and plays first, in words, with the rule; under the
      house rules given, it also says, once for the game, what a verdict cannot check
      without the player's hand.
    * ``opening_actions`` -- the action(s) that open a new game's record.
    * ``check`` -- verdict on a proposed play (CLI ``companion check``).
    * ``score`` -- points of some cards (CLI ``companion score``).
    * ``suggest`` -- the best plays for a private hand (optionally at a live table).
    * ``replay`` -- the public JSON summary of a record (CLI ``companion replay``).
    * ``random_record`` -- a random *legal* game record, for the conformance test.
    """

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    house_rules: type[HouseRulesBase]
    hand_word: str
    starting_stack: int | None
    pack_rule: str
    checker: CheckerFacts

    def units(self, rules: HouseRulesBase | None = None) -> Units: ...

    def jokers(self, rules: HouseRulesBase | None = None) -> bool: ...

    def higher_is_better(self, rules: HouseRulesBase | None = None) -> bool: ...

    def new_game(
        self, players: Sequence[str], rules: HouseRulesBase | dict[str, Any] | None = None
    ) -> Game: ...

    def from_record(self, record: GameRecord) -> Game: ...

    def parse_action(self, data: Any) -> Action: ...

    def opening(
        self,
        players: Sequence[str],
        dealer: str,
        *,
        rules: HouseRulesBase | dict[str, Any] | None = None,
    ) -> Opening: ...

    def opening_actions(
        self, players: Sequence[str], dealer: str, *, chips: Sequence[int] | None = None
    ) -> list[Action]: ...

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict: ...

    def score(
        self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None
    ) -> ScoreReport: ...

    def suggest(
        self,
        hand: Sequence[Card],
        *,
        rules: HouseRulesBase | None = None,
        game: Game | None = None,
        player: str | None = None,
    ) -> Advice: ...

    def replay(self, record: GameRecord) -> dict[str, Any]: ...

    def random_record(self, seed: int) -> GameRecord: ...
