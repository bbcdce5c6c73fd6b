"""A game package whose names are imported when first asked for (PEP 562 style).

``import rulesets.umtali`` (or any of its modules: ``rulesets.umtali.check``)
runs the package's ``__init__``; with every name imported there up front,
a script's ``companion check`` would build every model of the game (pydantic)
before judging three cards.  A package lists where each of its names lives
and calls :func:`lazy_names`: a name's home is imported when the name is first
used (``from rulesets.umtali import UmtaliGame`` works as before).

A name may share its home's name (``suggest``, the function, lives in the
module ``suggest``): importing that module binds it on the package, as every
import of a submodule does, and the package keeps meaning the function there,
as it did when ``__init__`` imported it.

>>> import rulesets.umtali.suggest
>>> rulesets.umtali.suggest.__name__, rulesets.umtali.RULESET.name
('suggest', 'umtali')
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from types import ModuleType

__all__ = ["LazyPackage", "lazy_names"]


class LazyPackage(ModuleType):
    """A package that imports the home of an exported name when the name is first used."""

    def _homes(self) -> dict[str, str]:
        homes: dict[str, str] = self.__dict__.get("_lazy_homes", {})
        return homes

    def __getattr__(self, name: str) -> object:  # only for names not yet in the package
        home = self._homes().get(name)
        if home is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{self.__name__}.{home}"), name)
        self.__dict__[name] = value  # the next look is a plain attribute
        return value

    def __setattr__(self, name: str, value: object) -> None:
        if (
            isinstance(value, ModuleType)
            and self._homes().get(name) == name
            and value.__name__ == f"{self.__name__}.{name}"
        ):  # a submodule bound on its package: the name exported from it wins
            value = getattr(value, name)
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*self.__dict__, *self._homes()})


def lazy_names(package: str, homes: Mapping[str, tuple[str, ...]]) -> None:
    """Make ``package`` lazy: ``homes`` maps each module of it to the names it exports."""
    module = sys.modules[package]
    module.__dict__["_lazy_homes"] = {name: home for home, names in homes.items() for name in names}
    module.__class__ = LazyPackage
