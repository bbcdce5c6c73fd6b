"""The referee: pure rules for Umtali, basic Rummy and Rummoli.

No UI, no storage, no I/O lives here.  Each game is one package exposing a
``RULESET`` object that satisfies :class:`rulesets.protocol.Ruleset`; find it
with :func:`load_ruleset`, by name or alias.  Importing this package costs
next to nothing (a script's ``companion check`` pays only for the game it
asks about): the protocol and the games are imported when first asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

from rulesets.errors import (
    CardParseError,
    DuplicateCardError,
    HouseRuleError,
    IllegalActionError,
    RecordError,
    RulesetError,
)

if TYPE_CHECKING:
    from rulesets.protocol import Ruleset

__all__ = [
    "GAMES",
    "CardParseError",
    "DuplicateCardError",
    "HouseRuleError",
    "IllegalActionError",
    "RecordError",
    "Ruleset",
    "RulesetError",
    "load_ruleset",
]

#: canonical game names, in the order the app lists them.
GAMES: Final = ("umtali", "rummy", "rummoli")

#: every name a game is known by -> its package under ``rulesets``.
_ALIASES: Final[dict[str, str]] = {
    "umtali": "umtali",
    "rummy": "rummy",
    "rum": "rummy",
    "basic-rummy": "rummy",
    "rummoli": "rummoli",
    "rumoli": "rummoli",
}


def load_ruleset(name: str) -> Ruleset:
    """The ruleset registered under ``name`` (case-insensitive, aliases allowed)."""
    key = _ALIASES.get(name.strip().lower())
    if key is None:
        raise RulesetError(f"{name!r}: unknown game (choose {', '.join(GAMES)})")
    module = importlib.import_module(f"rulesets.{key}")
    ruleset: Ruleset = module.RULESET
    return ruleset


def __getattr__(name: str) -> object:
    """``rulesets.Ruleset`` without importing the protocol (pydantic) up front."""
    if name == "Ruleset":
        from rulesets.protocol import Ruleset

        return Ruleset
    raise AttributeError(f"module 'rulesets' has no attribute {name!r}")
