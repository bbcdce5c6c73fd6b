"""The repository protocol, and the behaviour both implementations share.

:class:`BaseRepository` implements export/import (JSON backup, CSV) and input
checks on top of a few primitives each implementation provides.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from companion.storage import models
from companion.storage.models import (
    GameListItem,
    GameStatus,
    ImportReport,
    NewerVersionError,
    Player,
    StorageError,
    StoredGame,
)

__all__ = [
    "BACKUP_FORMAT",
    "CSV_COLUMNS",
    "BaseRepository",
    "GameRepository",
    "load_ruleset",
    "replay_and_store",
]

BACKUP_FORMAT = "rummy-companion-backup"
CSV_COLUMNS = (
    "game_id",
    "started",
    "game",
    "status",
    "players",
    "winners",
    "hand",
    "player",
    "score",
)


def load_ruleset(name: str) -> Any:
    """Indirection so tests can substitute a fake referee."""
    from rulesets import load_ruleset as _load

    return _load(name)


@runtime_checkable
class GameRepository(Protocol):
    """What the app uses to keep history (see the package docstring)."""

    @property
    def data_dir(self) -> Path | None: ...

    @property
    def problems(self) -> list[str]: ...

    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame: ...

    def get_game(self, game_id: str) -> StoredGame: ...

    def append_action(self, game_id: str, action: dict[str, Any]) -> int: ...

    def pop_action(self, game_id: str) -> dict[str, Any] | None: ...

    def replace_actions(self, game_id: str, actions: list[dict[str, Any]]) -> None: ...

    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None: ...

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]: ...

    def delete_game(self, game_id: str) -> None: ...

    def restore_game(self, game_id: str) -> StoredGame: ...

    def list_trash(self) -> list[GameListItem]: ...

    def list_players(self) -> list[Player]: ...

    def add_player(self, name: str) -> Player: ...

    def rename_player(self, old: str, new: str) -> None: ...

    def merge_players(self, source: str, target: str) -> None: ...

    def export_json(self) -> dict[str, Any]: ...

    def import_json(self, data: dict[str, Any]) -> ImportReport: ...

    def export_csv(self) -> str: ...

    def close(self) -> None: ...


def check_name(name: Any, what: str = "player name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise StorageError(f"{name!r}: a {what} cannot be empty")
    return name.strip()


def check_merge(
    source: str, target: str, src: str | None, dst: str | None, games: Iterable[StoredGame]
) -> tuple[str, str]:
    """Refuse a merge of unknown, identical, or co-seated players; return the stored names."""
    if src is None or dst is None:
        missing = source if src is None else target
        raise StorageError(f"{missing!r}: no such player")
    if src == dst:
        raise StorageError(f"{source!r} and {target!r} are the same player")
    both = [g for g in games if src in g.players and dst in g.players]
    if both:
        raise StorageError(
            f"cannot merge {source!r} into {target!r}: both played in {len(both)} game(s)"
        )
    return src, dst


def check_players(players: Any) -> list[str]:
    if isinstance(players, str) or not isinstance(players, list | tuple) or not players:
        raise StorageError(f"{players!r}: a game needs a list of at least one player")
    names = [check_name(p) for p in players]
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise StorageError(f"{', '.join(names)}: {n!r} appears twice among the players")
        seen.add(n.casefold())
    return names


def check_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise StorageError(f"{action!r}: an action must be a JSON object (dict)")
    try:
        text = json.dumps(action, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise StorageError(f"{action!r}: an action must be plain JSON ({exc})") from None
    copy: dict[str, Any] = json.loads(text)
    return copy


def check_status(status: Any) -> GameStatus:
    if status not in ("in_progress", "finished"):
        raise StorageError(f"{status!r}: status must be 'in_progress' or 'finished'")
    checked: GameStatus = status
    return checked


def rename_in(value: Any, old: str, new: str) -> Any:
    """Replace the player name ``old`` by ``new`` in every string and dict key of ``value``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [rename_in(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): rename_in(v, old, new) for k, v in value.items()}
    return value


def describe(item: GameListItem | StoredGame) -> str:
    """Plain words for a game, e.g. 'the umtali game of 2026-11-29 with Ann, Bob'."""
    return f"the {item.game} game of {item.created[:10]} with {', '.join(item.players)}"


def sort_key(item: GameListItem | StoredGame) -> tuple[str, str]:
    return (item.created, item.id)


def matches(item: GameListItem | StoredGame, game: str | None, player: str | None) -> bool:
    if game is not None and item.game != game:
        return False
    return player is None or player in item.players


class BaseRepository:
    """Shared behaviour: backup export/import and CSV, on top of a few primitives."""

    # ---- primitives every implementation provides --------------------------------
    def _iter_games(self, *, trash: bool = False) -> Iterator[StoredGame]:
        raise NotImplementedError

    def _known_ids(self) -> set[str]:
        raise NotImplementedError

    def _bulk_insert(self, games: list[StoredGame], trash: list[StoredGame]) -> None:
        raise NotImplementedError

    def _add_players(self, players: list[Player | str]) -> list[Player]:
        """Add players not known yet (case-insensitive); return the stored ones."""
        raise NotImplementedError

    def list_players(self) -> list[Player]:
        raise NotImplementedError

    def add_player(self, name: str) -> Player:
        raise NotImplementedError

    # ---- export / import ------------------------------------------------------------
    def export_json(self) -> dict[str, Any]:
        """Everything (players, games, trash) as one JSON-able dict; lossless."""

        def dump(games: Iterable[StoredGame]) -> list[dict[str, Any]]:
            return [g.model_dump(mode="json") for g in sorted(games, key=sort_key)]

        return {
            "format": BACKUP_FORMAT,
            "schema_version": models.STORAGE_SCHEMA_VERSION,
            "exported": models.now_iso(),
            "players": [p.model_dump(mode="json") for p in self.list_players()],
            "games": dump(self._iter_games()),
            "trash": dump(self._iter_games(trash=True)),
        }

    def import_json(self, data: dict[str, Any]) -> ImportReport:
        """Merge a backup: add games whose id is new, skip those already here."""
        if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
            raise StorageError("this is not a Rummy Companion backup (no 'format' marker)")
        version = data.get("schema_version")
        if not isinstance(version, int):
            raise StorageError("this backup has no schema version")
        if version > models.STORAGE_SCHEMA_VERSION:
            raise NewerVersionError(
                f"this backup was made by a newer version of Rummy Companion (format {version}, "
                f"this app reads up to {models.STORAGE_SCHEMA_VERSION}); update the app"
            )
        report = ImportReport()
        known = self._known_ids()
        chosen: dict[str, list[StoredGame]] = {"games": [], "trash": []}
        for key in ("games", "trash"):
            raw_games = data.get(key, [])
            if not isinstance(raw_games, list):
                raise StorageError(f"backup field {key!r} is not a list")
            for n, raw in enumerate(raw_games, 1):
                try:
                    game = StoredGame.model_validate(raw)
                    check_players(game.players)
                except (ValidationError, StorageError) as exc:
                    msg = str(exc).splitlines()[0]
                    report.problems.append(
                        f"{key} entry {n} could not be read and was skipped: {msg}"
                    )
                    continue
                if game.id in known:
                    report.skipped.append(game.id)
                    continue
                known.add(game.id)
                chosen[key].append(game)
                report.added.append(game.id)
        players: list[Player | str] = []
        raw_players = data.get("players", [])
        for raw in raw_players if isinstance(raw_players, list) else []:
            try:
                player = Player.model_validate(raw)
                players.append(Player(name=check_name(player.name), created=player.created))
            except (ValidationError, StorageError):
                report.problems.append(f"player entry {raw!r:.60} could not be read; skipped")
        for game in chosen["games"] + chosen["trash"]:
            players.extend(game.players)
        self._add_players(players)
        self._bulk_insert(chosen["games"], chosen["trash"])
        return report

    def export_csv(self) -> str:
        """One row per player per hand, for spreadsheets (see :data:`CSV_COLUMNS`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for game in sorted(self._iter_games(), key=sort_key):
            summary = _replay_summary(game)
            winners = summary.get("winners") if summary else None
            base = [
                game.id,
                game.created,
                game.game,
                game.status,
                "; ".join(game.players),
                "; ".join(str(w) for w in winners) if isinstance(winners, list) else "",
            ]
            hands = summary.get("hands") if summary else None
            rows = 0
            for hand in hands if isinstance(hands, list) else []:
                scores = hand.get("scores") if isinstance(hand, dict) else None
                if not isinstance(scores, dict):
                    continue
                for player, score in scores.items():
                    writer.writerow([*base, hand.get("number", ""), player, score])
                    rows += 1
            if rows == 0:
                writer.writerow([*base, "", "", ""])
        return out.getvalue()


def replay_and_store(repo: GameRepository, game_id: str) -> dict[str, Any]:
    """Replay a stored game with its referee and keep the summary (and status) for the list.

    Raises the referee's RulesetError if the record cannot be replayed; nothing
    is stored then.
    """
    game = repo.get_game(game_id)
    summary: dict[str, Any] = load_ruleset(game.game).replay(game.to_record())
    status: GameStatus = "finished" if summary.get("finished") else "in_progress"
    repo.set_summary(game_id, summary, status)
    return summary


def _replay_summary(game: StoredGame) -> dict[str, Any] | None:
    """Replay the record; if the referee cannot, fall back to the stored summary.

    A RulesetError is the expected failure, but a referee still being written
    (missing module, missing RULESET, a bug) must not block the export either.
    """
    try:
        summary = load_ruleset(game.game).replay(game.to_record())
    except Exception:
        return game.summary
    return summary if isinstance(summary, dict) else game.summary
