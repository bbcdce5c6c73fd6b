"""The protocol every game's referee implements, and the values it returns.

Glossary used across the games:

* **meld** -- cards put down together (a set, a sequence/run, a marriage...).
* **set** -- 3 or 4 cards of one rank.  **sequence / run** -- 3+ consecutive
  cards of one suit.
* **extension / lay-off** -- a card added to a meld already on the table; the
  meld it is played against is its **anchor**.
* **pot** -- a pile of chips on the Rummoli board.
* **record** -- a game as the list of actions the table reported; replaying
  it rebuilds the state, undo is pop-and-replay.

A ruleset is a module registered in :mod:`rulesets` (``load_ruleset("umtali")``)
whose module-level object satisfies :class:`Ruleset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from rulesets.cards import Card
from rulesets.errors import HouseRuleError, RecordError

__all__ = [
    "RECORD_SCHEMA_VERSION",
    "GameRecord",
    "HouseRulesBase",
    "Ruleset",
    "ScoreReport",
    "Verdict",
    "parse_house_rules",
]

RECORD_SCHEMA_VERSION = 1


class Verdict(BaseModel):
    """The referee's answer to "is this legal?".

    ``legal``, ``kind``, ``points``, ``rule`` and ``reason`` are a public
    contract (``companion check --json`` prints them).
    """

    model_config = ConfigDict(frozen=True)

    legal: bool
    kind: str | None = None
    points: int | None = None
    rule: str
    reason: str
    cards: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class ScoreReport(BaseModel):
    """Points of a group of cards under a game's rules, with the per-card breakdown."""

    model_config = ConfigDict(frozen=True)

    points: int
    rule: str
    breakdown: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class HouseRulesBase(BaseModel):
    """Base for each game's frozen house-rules model (defaults = RULES.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: one-line explanation per field, shown next to each switch in the app.
    EXPLAIN: ClassVar[dict[str, str]] = {}


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
        raise HouseRuleError(
            f'"{",".join(items)}": bad value for {where}: {first["msg"]}'
        ) from None


class GameRecord(BaseModel):
    """A whole game as reported at the table: who, which rules, what happened.

    ``actions`` are each game's own action models dumped to JSON (a ``type``
    field tells them apart).  This is what storage persists and replay reads.
    """

    model_config = ConfigDict(extra="forbid")

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


@runtime_checkable
class Ruleset(Protocol):
    """What every game module offers (each module exposes one object ``RULESET``).

    * ``check`` -- verdict on a proposed play (CLI ``companion check``).
    * ``score`` -- points of some cards (CLI ``companion score``).
    * ``replay`` -- JSON-able summary of a recorded game (CLI ``companion replay``).
    * ``random_record`` -- a random *legal* game record, for the conformance test.
    """

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    house_rules: type[HouseRulesBase]

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

    def replay(self, record: GameRecord) -> dict[str, Any]: ...

    def random_record(self, seed: int) -> GameRecord: ...
