"""A house-rule switch's words, said once where the switch is declared.

A game's house-rules model (a :class:`~rulesets.protocol.HouseRulesBase`) marks
each field with a :class:`Switch`; the base reads the marks into ``TITLES`` and
``EXPLAIN`` when the class is built, so a switch is named once, not three times.

>>> from typing import Annotated
>>> from rulesets.protocol import HouseRulesBase
>>> class Demo(HouseRulesBase):
...     jokers: Annotated[bool, Switch("Play with jokers", "Two jokers are added.")] = False
>>> Demo.TITLES, Demo.EXPLAIN
({'jokers': 'Play with jokers'}, {'jokers': 'Two jokers are added.'})
"""

from dataclasses import dataclass

__all__ = ["Switch"]


@dataclass(frozen=True, slots=True)
class Switch:
    """A house rule in players' words: ``title`` names it, ``explain`` says in one line
    what it changes (no rule IDs, no field names: screens show both as they are)."""

    title: str
    explain: str
