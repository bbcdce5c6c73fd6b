"""A game's past, for every game alike: replay a record, and look back from a live game.

Everything here is built on the :class:`~rulesets.protocol.Game` protocol's
``push`` and ``pop`` alone, so it works for all three referees with no code of
their own:

* :func:`replay` -- a record as a live game, strict (a refused entry raises
  :class:`~rulesets.errors.RecordError`) or lenient (the game as far as the
  referee accepts it, and the entries it refused, kept).
* :func:`summary_at`, :func:`judge_at`, :func:`preview` -- where the game stood
  before entry ``index``, the verdict on an action in its place, the summary
  an action would give there.
* :func:`corrected` -- the record with one past entry replaced (a finished
  hand corrected), every later entry pushed again.

Looking back pops the live game to that point and pushes the entries back
after (in a ``finally``): the game ends as it began.

>>> from rulesets import load_ruleset
>>> from rulesets.rummy import HandEnd, StartHand
>>> g = load_ruleset("rummy").new_game(["Ann", "Bob"])
>>> _ = g.push(StartHand(dealer="Ann"))
>>> _ = g.push(HandEnd(went_out="Ann", remaining={"Bob": ["KS"]}))
>>> str(summary_at(g, 1).phase), str(g.summary().phase)
('play', 'deal')
>>> fixed = HandEnd(went_out="Bob", remaining={"Ann": ["QS"]})
>>> judge_at(g, 1, fixed).legal, preview(g, fixed, at=1).totals
(True, {'Ann': 10, 'Bob': 0})
>>> [a.type for a in corrected(g, 1, fixed)], g.summary().totals
(['start_hand', 'hand_end'], {'Ann': 0, 'Bob': 10})
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from rulesets.cards import Card
from rulesets.errors import RecordError, RulesetError
from rulesets.protocol import Action, Game, GameRecord, Ruleset, Summary, Verdict

__all__ = [
    "Replayed",
    "corrected",
    "judge_at",
    "preview",
    "replay",
    "rewound",
    "summary_at",
]

S = TypeVar("S", bound=Summary, covariant=True)
ActionIn = Action | dict[str, Any]


class Stack(Protocol[S]):
    """A :class:`~rulesets.protocol.Game` seen through its action stack, with its own
    summary type (so ``summary_at`` of a Rummy game is a ``RummySummary``)."""

    @property
    def actions(self) -> tuple[Action, ...]: ...

    def push(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Action: ...

    def pop(self) -> Action: ...

    def judge(self, action: ActionIn, *, hand: Sequence[Card] | None = None) -> Verdict: ...

    def summary(self) -> S: ...


G = TypeVar("G", bound=Stack[Summary])


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class Replayed:
    """A record replayed: the live game, and what the referee refused (lenient only).

    ``refused`` are the stored entries from the first one the referee refused on,
    kept as they were (never dropped); ``problem`` is why it refused it.
    """

    game: Game
    refused: tuple[dict[str, Any], ...] = ()
    problem: RulesetError | None = field(default=None, compare=False)


def replay(
    record: GameRecord, *, lenient: bool = False, ruleset: Ruleset | None = None
) -> Replayed:
    """The live game of ``record`` (one replay, python-chess style: then push and pop).

    Strict (the default): any entry the referee refuses raises from the
    :class:`~rulesets.errors.RulesetError` family, naming the entry (and the rule
    it breaks).  ``lenient``: the game holds every entry up
    to the first refused one; that entry and the rest come back in ``refused``.
    An unknown game or bad players / rules raise either way.  ``ruleset``: the
    referee to replay with (default: the one the record names).
    """
    if ruleset is None:
        from rulesets import load_ruleset

        ruleset = load_ruleset(record.game)
    if not lenient:
        return Replayed(ruleset.from_record(record))
    game = ruleset.new_game(record.players, record.rules)
    for i, data in enumerate(record.actions):
        try:
            game.push(data)
        except RulesetError as exc:
            return Replayed(game, tuple(record.actions[i:]), exc)
    return Replayed(game)


# --------------------------------------------------------------------------- the past


@contextmanager
def rewound(game: G, index: int) -> Iterator[G]:
    """``game`` as it stood before entry ``index`` (0-based; ``len(actions)``: now),
    for the ``with`` block; after it, exactly the entries it had are pushed back."""
    count = len(game.actions)
    if not 0 <= index <= count:
        raise RecordError(f"entry {index + 1}: the game has {count} entries")
    later = [game.pop() for _ in range(count - index)][::-1]
    try:
        yield game
    finally:
        while len(game.actions) > index:
            game.pop()
        for action in later:
            game.push(action)


def summary_at(game: Stack[S], index: int) -> S:
    """Where the game stood just before entry ``index`` (0-based)."""
    with rewound(game, index):
        return game.summary()


def judge_at(
    game: Stack[Summary], index: int, action: ActionIn, *, hand: Sequence[Card] | None = None
) -> Verdict:
    """The verdict ``action`` would get in place of entry ``index``; nothing changes."""
    with rewound(game, index):
        return game.judge(action, hand=hand)


def preview(game: Stack[S], action: ActionIn, *, at: int | None = None) -> S:
    """The summary as it would be after ``action`` (in place of entry ``at``, if
    given, else after the last one); raises if the referee refuses it; nothing changes."""
    with rewound(game, len(game.actions) if at is None else at):
        game.push(action)
        return game.summary()


def corrected(game: Stack[Summary], index: int, action: ActionIn) -> list[Action]:
    """The record's actions with entry ``index`` replaced by ``action``.

    Every later entry is pushed again after it, each as it stands now
    (:meth:`Action.after_correction`: a later deal that names its dealer goes to
    whoever the rules now name).  Raises if the referee refuses the corrected
    record; the game itself is left as it was.
    """
    later = game.actions[index + 1 :]
    if index >= len(game.actions):
        raise RecordError(f"entry {index + 1}: the game has {len(game.actions)} entries")
    with rewound(game, index):
        game.push(action)
        for entry in later:
            game.push(entry.after_correction(game.summary()))
        return list(game.actions)
