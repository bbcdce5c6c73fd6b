"""Backups and CSV, shared by every backend on top of a few primitives.

:class:`BaseRepository` implements :class:`~companion.storage.base.Archive` (and
the writer lock, and an empty :class:`~companion.storage.base.ProblemLog`) on
``_iter_games``, ``_known_ids``, ``_locked``, ``_bulk_insert`` and ``list_players``.
A summary is whatever the caller saved; whoever wants a fresh one computes it
above storage (:mod:`companion.backup`).
"""

from __future__ import annotations

import contextlib
import csv
import io
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from companion import jsonsafe
from companion.storage import models
from companion.storage.base import BACKUP_FORMAT, MAX_GAMES, Summarize
from companion.storage.checks import check_game, check_name, sort_key
from companion.storage.files import first_error
from companion.storage.models import (
    ImportReport,
    NewerVersionError,
    Player,
    Problem,
    StorageError,
    StoredGame,
)

__all__ = ["CSV_COLUMNS", "BaseRepository", "spreadsheet_cell", "validate_backup"]

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
