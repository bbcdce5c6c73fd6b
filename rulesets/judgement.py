"""The referee's answer to "is this legal?" as plain data: no pydantic to import.

A script's ``companion check`` is nearly all interpreter start and imports
(``benchmarks/cli_start.py``), so each game's check (``rulesets/<game>/check.py``)
returns a :class:`Judgement`, a named tuple, and the check's whole path
imports no pydantic.  The app's :class:`~rulesets.protocol.Verdict` is built
from the same judgement (``Verdict.of``), so the two never differ.

>>> j = Judgement(legal=True, kind="sequence", points=3, rule="U5.2", reason="x", cards=("5H",))
>>> j.to_json()["cards"], j.to_json()["moves"]
(['5H'], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from rulesets.cards import Card
    from rulesets.protocol import HouseRulesBase

__all__ = ["GameCheck", "Judgement"]


class Judgement(NamedTuple):
    """Legal or not, what the cards make and are worth, the rule and the reason.

    The fields mean what :class:`~rulesets.protocol.Verdict`'s do; a judgement of
    cards has no ledger ``moves`` (only a live game's verdict has).  A named tuple,
    immutable and built by keyword: every check builds one, and a frozen
    dataclass's ``__init__`` costs three times as much (``benchmarks/bench_rummy.py``).
    """

    legal: bool
    rule: str
    reason: str
    kind: str | None = None
    points: int | None = None
    cards: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    incomplete: bool = False
    words: str = ""  # the reason in players' words where it differs by more than cards
    note_words: tuple[str, ...] | None = None  # likewise the notes; None: as they are
    unchecked: tuple[str, ...] = ()  # rule IDs not checked for want of the player's hand

    def to_json(self) -> dict[str, Any]:
        """The public JSON of ``companion check --json``: a verdict's fields, in its order."""
        return {
            "legal": self.legal,
            "kind": self.kind,
            "points": self.points,
            "rule": self.rule,
            "reason": self.reason,
            "cards": list(self.cards),
            "notes": list(self.notes),
            "moves": [],
            "incomplete": self.incomplete,
        }


class GameCheck(Protocol):
    """A game's plain check, the module ``rulesets/<game>/check.py``
    (:func:`rulesets.load_check`): the rule of one pack, the judgement of cards, and
    the house-rules model, imported only when asked for.

    ``rules`` are the game's house rules (its model, or the plain switches its meld
    rules read); None: the rules of RULES.md.
    """

    @property
    def PACK_RULE(self) -> str: ...  # the rule ID a card listed twice breaks (U1.1, R1.1, M1.1)

    def house_rules(self) -> type[HouseRulesBase]: ...  # the model (pydantic), on demand

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: Any = None,
    ) -> Judgement: ...
