"""What every game's ruleset object does the same way: build, replay, parse, seat.

Each game's ``RULESET`` (``rulesets/<game>/ruleset.py``) subclasses
:class:`RulesetBase`, names its game class, its action parser and its random
game maker, and adds only what is its own: facts, opening words, checks,
scoring and advice.

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from rulesets.protocol import Action, Game, GameRecord, HouseRulesBase
from rulesets.seats import left_of

__all__ = ["GameClass", "RulesetBase", "left_of_dealer"]

#: the player on the dealer's left (kept for Umtali's ruleset; see :mod:`rulesets.seats`).
left_of_dealer = left_of

GameT = TypeVar("GameT", bound=Game)
GameT_co = TypeVar("GameT_co", bound=Game, covariant=True)
ActionT = TypeVar("ActionT", bound=Action)


class GameClass(Protocol[GameT_co]):
    """A game's class: built from ``(players, rules)``, or replayed from a record."""

    def __call__(self, players: Sequence[str], rules: Any = None, /) -> GameT_co: ...

    def from_record(self, record: GameRecord, /) -> GameT_co: ...


class RulesetBase(Generic[GameT, ActionT]):
    """Building and replaying a game, the same for every ruleset.

    A subclass sets ``game_class`` (built from ``(players, rules)``, with a
    ``from_record`` class method), ``action_parser`` and ``record_maker``
    (both as ``staticmethod``), and may override :meth:`game_rules` to turn
    what it is given into its own house rules before a game is built.
    """

    game_class: GameClass[GameT]
    #: the rule that allows each card once (one pack): U1.1, R1.1, M1.1.
    pack_rule: str
    action_parser: Callable[[Any], ActionT]
    record_maker: Callable[[int], GameRecord]

    def game_rules(self, rules: HouseRulesBase | dict[str, Any] | None) -> Any:
        """The house rules a new game is built with (default: as given)."""
        return rules

    def new_game(
        self, players: Sequence[str], rules: HouseRulesBase | dict[str, Any] | None = None
    ) -> GameT:
        """A game with no entries yet."""
        return self.game_class(tuple(players), self.game_rules(rules))

    def from_record(self, record: GameRecord) -> GameT:
        """Replay a record once (raises :class:`RecordError` / :class:`IllegalActionError`)."""
        return self.game_class.from_record(record)

    def parse_action(self, data: Any) -> ActionT:
        """One stored entry as the game's typed action."""
        return self.action_parser(data)

    def replay(self, record: GameRecord) -> dict[str, Any]:
        """The public JSON summary of a recorded game (``companion replay --json``)."""
        return self.game_class.from_record(record).summary().to_json()

    def random_record(self, seed: int) -> GameRecord:
        """A random legal, complete game."""
        return self.record_maker(seed)
