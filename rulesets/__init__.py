"""The referee: pure rules for Umtali, basic Rummy and Rummoli.

No UI, no storage, no I/O lives here.  Each game is one package exposing a
``RULESET`` object that satisfies :class:`rulesets.protocol.Ruleset`; find it
with :func:`load_ruleset`, by name or alias.  Importing this package costs
next to nothing: the protocol and the games are imported when first asked for.
A script's ``companion check`` asks :func:`load_check` for the game's plain
check (``rulesets/<game>/check.py``) and imports no pydantic at all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final, cast

from rulesets.errors import (
    CardParseError,
    DuplicateCardError,
    HouseRuleError,
    IllegalActionError,
    RecordError,
    RulesetError,
)

if TYPE_CHECKING:
    from rulesets.judgement import GameCheck
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
    "load_check",
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


def _package(name: str) -> str:
    """The package of the game known as ``name`` (case-insensitive, aliases allowed)."""
    key = _ALIASES.get(name.strip().lower())
    if key is None:
        raise RulesetError(f"{name!r}: unknown game (choose {', '.join(GAMES)})")
    return f"rulesets.{key}"


def load_ruleset(name: str) -> Ruleset:
    """The ruleset registered under ``name`` (case-insensitive, aliases allowed)."""
    ruleset: Ruleset = importlib.import_module(_package(name)).RULESET
    return ruleset


def load_check(name: str) -> GameCheck:
    """The plain check of the game known as ``name`` (its ``check`` module: no pydantic).

    >>> load_check("rum").check(()).rule
    'R2.1'
    """
    return cast("GameCheck", importlib.import_module(f"{_package(name)}.check"))


if TYPE_CHECKING:  # mypy proves each game's check module is a GameCheck
    from rulesets.rummoli import check as _rummoli
    from rulesets.rummy import check as _rummy
    from rulesets.umtali import check as _umtali

    _CHECKS: tuple[GameCheck, ...] = (_umtali, _rummy, _rummoli)


def __getattr__(name: str) -> object:
    """``rulesets.Ruleset`` without importing the protocol (pydantic) up front."""
    if name == "Ruleset":
        from rulesets.protocol import Ruleset

        return Ruleset
    raise AttributeError(f"module 'rulesets' has no attribute {name!r}")
