"""The in-memory twin of the TinyDB repository: same behaviour, nothing on disk."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.storage.archive import BaseRepository
from companion.storage.checks import (
    check_action,
    check_merge,
    check_name,
    check_players,
    check_rename,
    check_revision,
    check_rules,
    check_status,
    check_summary,
    matches,
    renamed,
    sort_key,
)
from companion.storage.models import (
    GameListItem,
    GameNotFoundError,
    GameStatus,
    Player,
    StorageError,
    StoredGame,
    now_iso,
)

__all__ = ["MemoryRepository"]


class MemoryRepository(BaseRepository):
    """Keeps everything in dicts; used by tests and as a fallback without a data folder."""

    def __init__(self) -> None:
        self._games: dict[str, StoredGame] = {}
        self._trash: dict[str, StoredGame] = {}
        self._players: dict[str, Player] = {}
        #: changes of each game's actions (appends, undos, edits, renames): see snapshot()
        self._revisions: dict[str, int] = {}
        self._lock = threading.RLock()

    @property
    def data_dir(self) -> Path | None:
        return None

    @property
    def problems(self) -> list[str]:
        return []

    def close(self) -> None:
        pass

    # ---- games ----------------------------------------------------------------------
    def _get(self, game_id: str) -> StoredGame:
        try:
            return self._games[game_id]
        except (KeyError, TypeError):
            raise GameNotFoundError(f"no game with id {game_id!r}") from None

    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame:
        with self._lock:
            names = check_players(players)
            stored = StoredGame(
                game=check_name(game, "game name"),
                players=names,
                rules=check_rules(dict(rules or {})),
            )
            for name in names:
                self.add_player(name)
            self._games[stored.id] = stored.model_copy(deep=True)
            return stored

    def get_game(self, game_id: str) -> StoredGame:
        with self._lock:
            return self._get(game_id).model_copy(deep=True)

    def snapshot(self, game_id: str) -> tuple[StoredGame, int]:
        with self._lock:
            return self.get_game(game_id), self._revisions.get(game_id, 0)

    def game_revision(self, game_id: str) -> int:
        with self._lock:
            self._get(game_id)
            return self._revisions.get(game_id, 0)

    def _changing(self, game_id: str, expected: int | None) -> StoredGame:
        """The game about to change (refused if it changed since ``expected``)."""
        stored = self._get(game_id)
        revision = self._revisions.get(game_id, 0)
        check_revision(game_id, revision, expected)
        self._revisions[game_id] = revision + 1
        stored.updated = now_iso()
        return stored

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int:
        checked = check_action(action)
        with self._lock:
            stored = self._changing(game_id, expected)
            stored.actions.append(checked)
            return len(stored.actions)

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int:
        checked = [check_action(a) for a in actions]
        if not checked:
            raise StorageError("an entry needs at least one action")
        with self._lock:
            stored = self._changing(game_id, expected)
            stored.actions.extend(checked)
            return len(stored.actions)

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None:
        with self._lock:
            stored = self._get(game_id)
            check_revision(game_id, self._revisions.get(game_id, 0), expected)
            if not stored.actions:
                return None
            return self._changing(game_id, expected).actions.pop()

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None:
        checked = [check_action(a) for a in actions]
        with self._lock:
            self._changing(game_id, expected).actions = checked

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None:
        with self._lock:
            stored = self._get(game_id)
            stored.summary = check_summary(summary)
            if status is not None:
                stored.status = check_status(status)
            stored.updated = now_iso()

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]:
        with self._lock:
            found = sorted(
                (g for g in self._games.values() if matches(g, game, player)),
                key=sort_key,
                reverse=True,
            )
            return [g.list_item() for g in found[offset : offset + limit]]

    def delete_game(self, game_id: str) -> None:
        with self._lock:
            self._trash[game_id] = self._games.pop(self._get(game_id).id)

    def restore_game(self, game_id: str) -> StoredGame:
        with self._lock:
            if game_id not in self._trash:
                raise GameNotFoundError(f"no game with id {game_id!r} in the trash")
            self._games[game_id] = self._trash.pop(game_id)
            return self.get_game(game_id)

    def list_trash(self) -> list[GameListItem]:
        with self._lock:
            found = sorted(self._trash.values(), key=sort_key, reverse=True)
            return [g.list_item() for g in found]

    # ---- players ----------------------------------------------------------------------
    def _find_player(self, name: str) -> str | None:
        folded = name.casefold()
        return next((k for k in self._players if k.casefold() == folded), None)

    def list_players(self) -> list[Player]:
        with self._lock:
            return sorted(
                (p.model_copy() for p in self._players.values()), key=lambda p: p.name.casefold()
            )

    def add_player(self, name: str) -> Player:
        return self._add_players([check_name(name)])[0]

    def _add_players(self, players: list[Player | str]) -> list[Player]:
        out = []
        with self._lock:
            for p in players:
                player = Player(name=p) if isinstance(p, str) else p
                existing = self._find_player(player.name)
                if existing is None:
                    self._players[player.name] = player.model_copy()
                    existing = player.name
                out.append(self._players[existing].model_copy())
        return out

    def rename_player(self, old: str, new: str) -> None:
        with self._lock:
            key = self._find_player(old)
            new = check_name(new)
            if key is None:
                raise StorageError(f"{old!r}: no such player")
            other = self._find_player(new)
            if other is not None and other != key:
                raise StorageError(f"{new!r} already exists; merge the two players instead")
            check_rename(key, new, self._all())
            self._rename(key, new)

    def merge_players(self, source: str, target: str) -> None:
        with self._lock:
            found = self._find_player(source), self._find_player(target)
            src, dst = check_merge(source, target, *found, self._all())
            self._rename(src, dst)

    def _all(self) -> list[StoredGame]:
        return [*self._games.values(), *self._trash.values()]

    def _rename(self, old: str, new: str) -> None:
        for table in (self._games, self._trash):
            for gid, g in list(table.items()):
                if old in g.players:
                    table[gid] = renamed(g, old, new)
                    self._revisions[gid] = self._revisions.get(gid, 0) + 1
        player = self._players.pop(old)
        if new not in self._players:
            self._players[new] = player.model_copy(update={"name": new})

    # ---- primitives for export/import ---------------------------------------------
    def _iter_games(self, *, trash: bool = False) -> Iterator[StoredGame]:
        with self._lock:
            games = list((self._trash if trash else self._games).values())
        for g in games:
            yield g.model_copy(deep=True)

    def _known_ids(self) -> set[str]:
        with self._lock:
            return set(self._games) | set(self._trash)

    def _locked(self) -> contextlib.AbstractContextManager[Any]:
        return self._lock

    def _bulk_insert(
        self, games: list[StoredGame], trash: list[StoredGame], players: list[Player]
    ) -> None:
        with self._lock:
            for g in games:
                self._games[g.id] = g.model_copy(deep=True)
            for g in trash:
                self._trash[g.id] = g.model_copy(deep=True)
            self._add_players(list(players))
