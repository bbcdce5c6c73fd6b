"""The repository protocol, and the behaviour both implementations share.

:class:`BaseRepository` implements export/import (JSON backup, CSV) and input
checks on top of a few primitives each implementation provides.  Storage
stores: it never replays a game through a referee.  A summary is whatever the
caller saved with :meth:`~GameRepository.set_summary` (or what a backup
carried); whoever wants a fresh one computes it above storage
(:mod:`companion.backup`).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from companion import jsonsafe
from companion.storage import models
from companion.storage.files import VALUE_DEPTH, first_error
from companion.storage.models import (
    GameListItem,
    GameStatus,
    ImportReport,
    NewerVersionError,
    Player,
    Problem,
    StaleGameError,
    StorageError,
    StoredGame,
    check_summary_shape,
)

__all__ = [
    "BACKUP_FORMAT",
    "CSV_COLUMNS",
    "MAX_BACKUP_BYTES",
    "BaseRepository",
    "GameRepository",
    "Summarize",
    "spreadsheet_cell",
    "validate_backup",
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

#: limits of what is stored (and of what a backup may bring in)
MAX_NAME = 100
MAX_GAME_NAME = 40
MAX_ACTION_BYTES = 64 * 1024
MAX_RULES_BYTES = 64 * 1024
MAX_SUMMARY_BYTES = 4 * 1024 * 1024
MAX_ACTIONS = 100_000
MAX_GAMES = 200_000
MAX_BACKUP_BYTES = 256 * 1024 * 1024

#: a summary for a stored game (None: none) -- e.g. a replay by the referee
Summarize = Callable[[StoredGame], dict[str, Any] | None]


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

    def snapshot(self, game_id: str) -> tuple[StoredGame, int]: ...

    def writer_lock(self) -> contextlib.AbstractContextManager[Any]: ...

    def game_revision(self, game_id: str) -> int: ...

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int: ...

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int: ...

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None: ...

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None: ...

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

    def export_csv(self, summarize: Summarize | None = None) -> str: ...

    def problem_reports(self) -> list[Problem]: ...

    def problem_file(self, ident: str) -> tuple[str, bytes]: ...

    def dismiss_problem(self, ident: str) -> None: ...

    def close(self) -> None: ...


# ---- input checks --------------------------------------------------------------------
def _plain_text(text: str) -> bool:
    """No control characters, no lone surrogates (they cannot be saved as UTF-8)."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def check_revision(game_id: str, revision: int, expected: int | None) -> None:
    """Refuse a write made from an older reading of the game (see :class:`StaleGameError`)."""
    if expected is not None and expected != revision:
        raise StaleGameError(
            f"game {game_id} changed since it was read (revision {revision}, not {expected})",
            revision,
        )


def check_name(name: Any, what: str = "player name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise StorageError(f"{name!r:.80}: a {what} cannot be empty")
    text: str = name.strip()
    limit = MAX_GAME_NAME if what == "game name" else MAX_NAME
    if len(text) > limit:
        raise StorageError(f"{text[:40]!r}...: a {what} has at most {limit} characters")
    if not _plain_text(text):
        raise StorageError(f"{text!r:.80}: a {what} cannot hold control characters")
    return text


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


def check_rename(key: str, new: str, games: Iterable[StoredGame]) -> None:
    """Refuse a new name someone else already has at one of the player's games."""
    both = [g for g in games if key in g.players and new in g.players and new != key]
    if both:
        raise StorageError(f"{new!r} already played in {len(both)} game(s) with {key!r}")


def check_players(players: Any) -> list[str]:
    if isinstance(players, str) or not isinstance(players, list | tuple) or not players:
        raise StorageError(f"{players!r:.80}: a game needs a list of at least one player")
    names = [check_name(p) for p in players]
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise StorageError(f"{', '.join(names)}: {n!r} appears twice among the players")
        seen.add(n.casefold())
    return names


def check_value(value: Any, what: str, max_bytes: int) -> Any:
    """A copy of ``value`` as plain JSON, within the nesting and size limits, or StorageError."""
    if jsonsafe.depth_of(value, VALUE_DEPTH) > VALUE_DEPTH:
        raise StorageError(f"{what} is nested more than {VALUE_DEPTH} levels deep")
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        data = text.encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise StorageError(f"{value!r:.80}: {what} must be plain JSON ({exc})") from None
    if len(data) > max_bytes:
        raise StorageError(f"{what} is too big ({len(data):,} bytes; at most {max_bytes:,})")
    return json.loads(text)


def check_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise StorageError(f"{action!r:.80}: an action must be a JSON object (dict)")
    copy: dict[str, Any] = check_value(action, "an action", MAX_ACTION_BYTES)
    return copy


def check_rules(rules: Any) -> dict[str, Any]:
    if not isinstance(rules, dict):
        raise StorageError(f"{rules!r:.80}: house rules must be a JSON object (dict)")
    copy: dict[str, Any] = check_value(rules, "the house rules", MAX_RULES_BYTES)
    return copy


def check_summary(summary: Any) -> dict[str, Any] | None:
    if summary is None:
        return None
    if not isinstance(summary, dict):
        raise StorageError(f"{summary!r:.80}: a summary must be a JSON object (dict)")
    copy: dict[str, Any] = check_value(summary, "a summary", MAX_SUMMARY_BYTES)
    try:
        check_summary_shape(copy)
    except ValueError as exc:
        raise StorageError(str(exc)) from None
    return copy


def check_status(status: Any) -> GameStatus:
    if status not in ("in_progress", "finished"):
        raise StorageError(f"{status!r:.40}: status must be 'in_progress' or 'finished'")
    checked: GameStatus = status
    return checked


def check_game(game: StoredGame) -> StoredGame:
    """Everything :meth:`create_game` and :meth:`append_action` would have refused."""
    check_players(game.players)
    check_name(game.game, "game name")
    check_rules(game.rules)
    if len(game.actions) > MAX_ACTIONS:
        raise StorageError(f"{len(game.actions):,} actions (at most {MAX_ACTIONS:,})")
    for action in game.actions:
        check_action(action)
    check_summary(game.summary)
    for stamp in (game.created, game.updated):
        try:
            datetime.fromisoformat(stamp)
        except ValueError:
            raise StorageError(f"{stamp!r:.40} is not a date and time") from None
    return game


def rename_in(value: Any, old: str, new: str) -> Any:
    """Replace the player name ``old`` by ``new`` in every string and dict key of ``value``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [rename_in(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): rename_in(v, old, new) for k, v in value.items()}
    return value


def renamed(game: StoredGame, old: str, new: str) -> StoredGame:
    data = game.model_dump(mode="json")
    for name in ("players", "actions", "summary"):
        data[name] = rename_in(data[name], old, new)
    return StoredGame.model_validate(data)


def describe(item: GameListItem | StoredGame) -> str:
    """Plain words for a game, e.g. 'the umtali game of 2026-11-29 with Ann, Bob'."""
    return f"the {item.game} game of {item.created[:10]} with {', '.join(item.players)}"


def sort_key(item: GameListItem | StoredGame) -> tuple[str, str]:
    return (item.created, item.id)


def matches(item: GameListItem | StoredGame, game: str | None, player: str | None) -> bool:
    if game is not None and item.game != game:
        return False
    return player is None or player in item.players


# ---- backups ---------------------------------------------------------------------------
@dataclass
class Backup:
    """A backup checked whole: the games and players that may go in, and what was skipped."""

    games: list[StoredGame] = field(default_factory=list)
    trash: list[StoredGame] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _backup_version(data: dict[str, Any]) -> None:
    version = data.get("schema_version")
    if type(version) is not int:
        raise StorageError("this backup has no schema version")
    if version > models.STORAGE_SCHEMA_VERSION:
        raise NewerVersionError(
            f"this backup was made by a newer version of Rummy Companion (format {version}, "
            f"this app reads up to {models.STORAGE_SCHEMA_VERSION}); update the app"
        )
    if version < 1:
        raise StorageError(
            f"this backup is marked format {version}, which no version of Rummy Companion "
            "writes; nothing was imported"
        )


def _backup_list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise StorageError(f"backup field {key!r} is not a list; nothing was imported")
    return value


def validate_backup(data: Any) -> Backup:
    """Check a whole backup before anything is written.

    Refuses it (:class:`StorageError`, nothing imported) when it is not a
    backup, is from a newer app, nests too deeply, is too big or lists a game
    twice; skips single games or players that cannot be stored (each with a
    reason in ``problems``).
    """
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise StorageError("this is not a Rummy Companion backup (no 'format' marker)")
    _backup_version(data)
    if jsonsafe.depth_of(data, jsonsafe.MAX_DEPTH) > jsonsafe.MAX_DEPTH:
        raise StorageError(
            f"this backup is nested more than {jsonsafe.MAX_DEPTH} levels deep; "
            "nothing was imported"
        )
    lists = {key: _backup_list(data, key) for key in ("games", "trash", "players")}
    if len(lists["games"]) + len(lists["trash"]) > MAX_GAMES:
        raise StorageError(f"this backup holds more than {MAX_GAMES:,} games; nothing was imported")
    backup = Backup()
    seen: set[str] = set()
    for key in ("games", "trash"):
        for n, raw in enumerate(lists[key], 1):
            try:
                game = check_game(StoredGame.model_validate(raw))
            except ValidationError as exc:
                backup.problems.append(
                    f"{key} entry {n} could not be read and was skipped: {first_error(exc)}"
                )
                continue
            except StorageError as exc:
                backup.problems.append(f"{key} entry {n} could not be read and was skipped: {exc}")
                continue
            if game.id in seen:
                raise StorageError(f"this backup holds game {game.id} twice; nothing was imported")
            seen.add(game.id)
            (backup.games if key == "games" else backup.trash).append(game)
    for raw in lists["players"]:
        try:
            player = Player.model_validate(raw)
            backup.players.append(player.model_copy(update={"name": check_name(player.name)}))
        except (ValidationError, StorageError):
            backup.problems.append(f"player entry {raw!r:.60} could not be read; skipped")
    return backup


# ---- CSV ------------------------------------------------------------------------------------
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """A value safe to put in a spreadsheet: no control characters, no formula.

    Text starting with ``= + - @`` (or a tab or CR) would run as a formula in
    a spreadsheet program; it gets a leading apostrophe.  Numbers stay numbers.

    >>> spreadsheet_cell('=HYPERLINK("http://x","y")'), spreadsheet_cell("Ann\\x07")
    ('\\'=HYPERLINK("http://x","y")', 'Ann')
    >>> spreadsheet_cell(-3), spreadsheet_cell("-3")
    (-3, "'-3")
    """
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int | float):
        return value
    text = str(value)
    clean = "".join(c for c in text if unicodedata.category(c) != "Cc")
    if text.lstrip(" ").startswith(_FORMULA_START) or clean.lstrip(" ").startswith(_FORMULA_START):
        clean = "'" + clean
    return clean


class BaseRepository:
    """Shared behaviour: backup export/import and CSV, on top of a few primitives."""

    # ---- primitives every implementation provides --------------------------------
    def _iter_games(self, *, trash: bool = False) -> Iterator[StoredGame]:
        raise NotImplementedError

    def _known_ids(self) -> set[str]:
        raise NotImplementedError

    def _locked(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the writer lock (one writer at a time)."""
        raise NotImplementedError

    def writer_lock(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the writer lock across several calls (reentrant): no other window or
        process writes in between -- e.g. check a game's revision, judge an entry, save it."""
        return self._locked()

    def _bulk_insert(
        self, games: list[StoredGame], trash: list[StoredGame], players: list[Player]
    ) -> None:
        """Add these games, deleted games and players, all or nothing."""
        raise NotImplementedError

    def list_players(self) -> list[Player]:
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
        """Merge a backup: add games whose id is new, skip those already here.

        The whole backup is checked first (:func:`validate_backup`); then what
        goes in goes in all at once -- a crash leaves all of it or none.
        """
        backup = validate_backup(data)
        report = ImportReport(problems=backup.problems)
        with self._locked():
            known = self._known_ids()
            chosen: dict[str, list[StoredGame]] = {"games": [], "trash": []}
            for key, games in (("games", backup.games), ("trash", backup.trash)):
                for game in games:
                    if game.id in known:
                        report.skipped.append(game.id)
                    else:
                        chosen[key].append(game)
                        report.added.append(game.id)
            players = list(backup.players)
            for game in chosen["games"] + chosen["trash"]:
                players.extend(Player(name=name) for name in game.players)
            known_names = {p.name.casefold() for p in self.list_players()}
            new_players = []
            for player in players:
                if player.name.casefold() not in known_names:
                    known_names.add(player.name.casefold())
                    new_players.append(player)
            if chosen["games"] or chosen["trash"] or new_players:
                self._bulk_insert(chosen["games"], chosen["trash"], new_players)
        return report

    def export_csv(self, summarize: Summarize | None = None) -> str:
        """One row per player per hand, for spreadsheets (see :data:`CSV_COLUMNS`).

        Hands come from ``summarize(game)`` (default: the stored summary).
        Every text cell is made safe for spreadsheets (:func:`spreadsheet_cell`).
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for game in sorted(self._iter_games(), key=sort_key):
            summary = summarize(game) if summarize is not None else game.summary
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
                    row = [*base, hand.get("number", ""), player, score]
                    writer.writerow([spreadsheet_cell(v) for v in row])
                    rows += 1
            if rows == 0:
                writer.writerow([spreadsheet_cell(v) for v in [*base, "", "", ""]])
        return out.getvalue()

    # ---- problems (nothing is ever damaged in memory) ---------------------------------
    def problem_reports(self) -> list[Problem]:
        """Every file set aside (and not dismissed) with its note; newest first."""
        return []

    def problem_file(self, ident: str) -> tuple[str, bytes]:
        """(file name, bytes) of the damaged file a problem kept, for saving elsewhere."""
        raise StorageError(f"{ident!r}: no such problem")

    def dismiss_problem(self, ident: str) -> None:
        """Hide a problem from the list (the damaged file itself is kept)."""
        raise StorageError(f"{ident!r}: no such problem")
