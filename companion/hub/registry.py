"""The table registry: every live game of one history, opened once per process
(see :mod:`companion.hub`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.hub.live import LiveGame
from companion.storage import (
    GameRepository,
)
from rulesets import load_ruleset

# ---- the hub --------------------------------------------------------------------------------


@dataclass
class TableHub:
    """Every live game of one history (one repository), opened once per process."""

    repo: GameRepository
    ruleset_of: Callable[[str], Any] = load_ruleset
    _games: dict[str, LiveGame] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def live(self, game_id: str) -> LiveGame:
        """The live game of ``game_id``, replayed from history the first time it is asked for
        (and again if another process changed it since)."""
        with self._lock:
            found = self._games.get(game_id)
            if found is None:
                found = LiveGame(self.repo, game_id, self.ruleset_of)
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


_HUBS_LOCK = threading.Lock()


def hub_for(repo: GameRepository, ruleset_of: Callable[[str], Any] | None = None) -> TableHub:
    """The hub of ``repo`` (one per repository object, process-wide).

    A guarded view of a repository (a phone's) shares its hub with the host's.
    """
    inner = getattr(repo, "inner", repo)
    with _HUBS_LOCK:
        # kept on the repository itself, so the hub lives exactly as long as it does
        hub: TableHub | None = getattr(inner, "_table_hub", None)
        if hub is None:
            hub = TableHub(inner, ruleset_of or load_ruleset)
            setattr(inner, "_table_hub", hub)  # noqa: B010 (not part of the repository type)
        elif ruleset_of is not None:
            hub.ruleset_of = ruleset_of
        return hub
