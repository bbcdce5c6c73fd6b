"""The table registry: every live game of one history (see :mod:`companion.hub`).

One :class:`TableHub` per history a process serves.  The app's services make it
once, when the history is opened (:func:`companion.app.build_main`), and hand the
same hub to every browser session -- the host's and each phone's, whose history
is only a guarded view of the hub's (:class:`companion.access.GuardedRepository`).
Nothing is kept on the repository object: who shares a live game is decided by
who was given the hub.

The hub owns the repository it was given (a plain reference: nothing refers back
from the repository to the hub, so there is no cycle to break), and it is closed
by whoever opened it.  With it comes the history's listing
(:class:`~companion.hub.listing.HistoryListing`: who follows the history list,
and the worker saving its lines), one per hub: ``hub.listing``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.hub.listing import HistoryListing
from companion.hub.live import LiveGame
from companion.storage import GameRepository
from rulesets import load_ruleset
from rulesets.protocol import Ruleset

__all__ = ["TableHub"]


def _referee(name: str) -> Ruleset:
    """The ruleset of ``name``, looked up at call time (tests substitute a referee)."""
    return load_ruleset(name)


@dataclass(eq=False)  # one hub per history: compared (and hashed) by identity
class TableHub:
    """Every live game of one history (one repository), opened once per process."""

    repo: GameRepository
    ruleset_of: Callable[[str], Ruleset] = _referee
    #: the history list of this history: its followers and where its lines are saved
    listing: HistoryListing = field(default_factory=HistoryListing)
    _games: dict[str, LiveGame] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def live(self, game_id: str) -> LiveGame:
        """The live game of ``game_id``, replayed from history the first time it is asked for
        (and again if another process changed it since)."""
        with self._lock:
            found = self._games.get(game_id)
            if found is None:
                found = LiveGame(self.repo, game_id, self.ruleset_of, self.listing)
                self._games[game_id] = found
                self._forget_idle()
                return found
        found.catch_up()
        return found

    def _forget_idle(self, keep: int = 32) -> None:
        """Keep memory flat: drop games nobody is looking at, oldest first."""
        idle = [gid for gid, g in self._games.items() if g.listeners == 0]
        for gid in idle[: max(0, len(self._games) - keep)]:
            del self._games[gid]

    def close(self) -> None:
        """Shutting down: every history-list line still waiting is saved (the repository
        stays open: it is closed by whoever opened it)."""
        self.listing.close()
