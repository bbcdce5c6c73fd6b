"""The on-disk repository: one small TinyDB file per game, its action log, a month-sharded index.

The parts live in modules of their own: :mod:`~companion.storage.folder` (lock,
checked reads, atomic writes, quarantine), :mod:`~companion.storage.gamefiles`
(game files and logs), :mod:`~companion.storage.index` (the shards) and
:mod:`~companion.storage.journal` (multi-file changes).  This class puts them
together behind :class:`~companion.storage.base.GameRepository`.  The data
folder's layout, and why: ``docs/ARCHITECTURE.md``, section 3.3.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.storage import actionlog, models, quarantine
from companion.storage.archive import BaseRepository
from companion.storage.atomic import Sync, fsync_dir
from companion.storage.checks import (
    action_json,
    check_action,
    check_merge,
    check_name,
    check_players,
    check_rename,
    check_revision,
    check_rules,
    check_status,
    check_summary,
    renamed,
    sort_key,
)
from companion.storage.compaction import Compactor
from companion.storage.files import CreateOp, ImportOp, IndexOp, RenameOp, parse_players
from companion.storage.folder import STORE_FORMAT, Damaged, DataFolder
from companion.storage.gamefiles import GameFiles, Live
from companion.storage.index import IndexShards, Staged, shard_name
from companion.storage.journal import Journal, Op
from companion.storage.migrations import make_meta
from companion.storage.models import (
    GameListItem,
    GameNotFoundError,
    GameStatus,
    NewerVersionError,
    Player,
    Problem,
    StorageError,
    StoredGame,
    now_iso,
)

__all__ = ["COMPACT_AFTER", "STORE_FORMAT", "TinyDbRepository"]

#: a log longer than this is folded into its game file (one rewrite per this many saves)
COMPACT_AFTER = 512


class TinyDbRepository(BaseRepository):
    """Game history in a data folder; safe against crashes and concurrent writers."""

    def __init__(
        self, data_dir: str | os.PathLike[str], *, durable: bool = True, lock_timeout: float = 30
    ) -> None:
        self._folder = folder = DataFolder(data_dir, durable=durable, timeout=lock_timeout)
        self._dir = folder.dir
        self._index = IndexShards(folder, lambda: self._games.scan())
        self._games = GameFiles(folder, self._index.describe)
        self._journal = Journal(folder)
        self._compactor = Compactor(self._games.compact)
        folder.on_first_hold = self._recover
        folder.on_set_aside = self._after_set_aside
        with folder.lock.hold(lock_timeout):
            fmt = folder.check_format()  # refuses a newer / unknown store before any change
            folder.make_folders()
            with folder.writing():  # nested: no recovery before the stale temps are gone
                died = folder.clean_after_dead_writers()
                self._recover()
                if died:  # it may have saved a game's summary but not yet its list line
                    self._index.reconcile(self._games.scan_logged())
                if fmt is not None and fmt[1] < models.STORAGE_SCHEMA_VERSION:
                    self._migrate_all()
                if fmt != (STORE_FORMAT, models.STORAGE_SCHEMA_VERSION):
                    folder.write_format()

    # ---- basics -------------------------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        return self._dir

    @property
    def problems(self) -> list[str]:
        """Plain-language notes about files that were damaged or refused (this session)."""
        return list(self._folder.problems)

    def close(self) -> None:
        """Finish folding long logs in, and say this process is done writing (lets the
        next open skip the temp-file scan)."""
        self._compactor.wait()
        self._games.close_logs()
        self._folder.close()

    def settle(self) -> None:
        """Wait until the background work (folding long logs in) is done."""
        self._compactor.wait()

    def _writing(self) -> contextlib.AbstractContextManager[None]:
        """The writer lock for a change; a fold running in the background gives way to it."""
        self._compactor.saw_save()
        return self._folder.writing()

    def _locked(self) -> contextlib.AbstractContextManager[Any]:
        return self._folder.writing()

    def _after_set_aside(self, path: Path) -> None:
        """A damaged file went to quarantine: mend what pointed at it."""
        self._games.forget(path.stem)
        if path.parent == self._folder.games_dir:
            self._index.remove([path.stem])
        elif path.parent == self._folder.index_dir:
            self._index.rebuild_shard(path.stem)

    def _migrate_all(self) -> None:
        """Upgrade every file of an older store once, on open."""
        f = self._folder
        paths = [(f.players_path, "players", "the player list")]
        paths += [(p, "index", f"the history index for {p.stem}") for p in self._index.paths()]
        for folder in (f.games_dir, f.trash_dir):
            paths += [(p, "game", f"game {p.stem}") for p in folder.glob("*.json")]
        for path, kind, what in paths:
            with contextlib.suppress(Damaged, NewerVersionError):
                f.read(path, kind, what)

    # ---- journaled changes: every step may be done twice ---------------------------------
    def _recover(self) -> None:
        if self._journal.pending():
            self._journal.recover(self._apply, self._index.rebuild)

    def _apply(self, op: Op) -> None:
        """Do (or finish doing) a journaled change."""
        if isinstance(op, IndexOp):
            self._apply_index(op.ids)
        elif isinstance(op, CreateOp):
            self._apply_import(ImportOp(games=[op.game]))
        elif isinstance(op, ImportOp):
            self._apply_import(op)
        else:
            self._apply_rename(op)

    def _apply_index(self, ids: list[str]) -> None:
        upsert, remove = [], []
        for gid in ids:
            game = self._games.load(gid)
            if game is None:
                remove.append(gid)
            else:
                upsert.append(game.list_item())
        with contextlib.suppress(NewerVersionError):  # a newer app's month: left alone
            self._index.remove(remove)
        for item in upsert:
            with contextlib.suppress(NewerVersionError):
                self._index.upsert([item])

    def _apply_import(self, op: ImportOp) -> None:
        f = self._folder
        for folder, games in ((f.games_dir, op.games), (f.trash_dir, op.trash)):
            for g in games:
                self._games.create(g, folder)
        self._add_players([*op.players, *(n for g in op.games + op.trash for n in g.players)])
        self._index.upsert([g.list_item() for g in op.games])

    def _apply_rename(self, op: RenameOp) -> None:
        items = []
        f = self._folder
        for folder, ids in ((f.games_dir, op.games), (f.trash_dir, op.trash)):
            for gid in ids:
                try:
                    game, live = self._games.read(gid, folder)
                except (GameNotFoundError, Damaged):
                    continue
                if op.old in game.players:
                    game = renamed(game, op.old, op.new)
                    self._games.rewrite(game, live.revision + 1, folder)  # a live game reloads
                if folder == f.games_dir:
                    items.append(game.list_item())
        self._index.upsert(items)
        players = self._read_players()
        old = next((p for p in players if p.name == op.old), None)
        if old is not None or not any(p.name.casefold() == op.new.casefold() for p in players):
            kept = [p for p in players if p.name != op.old]
            if not any(p.name.casefold() == op.new.casefold() for p in kept):
                created = old.created if old is not None else now_iso()
                kept.append(Player(name=op.new, created=created))
            self._write_players(kept)

    # ---- the game store ------------------------------------------------------------------
    def create_game(
        self, game: str, players: list[str], rules: dict[str, Any] | None = None
    ) -> StoredGame:
        names = check_players(players)
        stored = StoredGame(
            game=check_name(game, "game name"),
            players=names,
            rules=check_rules(dict(rules or {})),
        )
        with self._writing():
            self._index.writable(stored.created)
            self._journal.run(CreateOp(game=stored), self._apply)
            with contextlib.suppress(OSError):  # only spares the first tap some work
                self._games.start_log(stored.id)
        return stored

    def get_game(self, game_id: str) -> StoredGame:
        return self._games.read(game_id)[0]

    def snapshot(self, game_id: str) -> tuple[StoredGame, int]:
        """The game and its revision, read together (a writer's next ``expected``)."""
        with self._writing():
            game, live = self._games.fresh_state(game_id)
            return game, live.revision

    def game_revision(self, game_id: str) -> int:
        """How many changes the game's actions have had (cheap: two file stats when known)."""
        with self._writing():
            return self._games.state(game_id).revision

    def _checked_state(self, game_id: str, expected: int | None) -> Live:
        """What a writer needs, refused (StaleGameError) if the game changed since ``expected``;
        checked under the writer lock, so no other window or process writes in between."""
        live = self._games.state(game_id)
        check_revision(game_id, live.revision, expected)
        return live

    def _saved(self, game_id: str, live: Live, line: bytes, count: int) -> Live:
        """Append ``line`` (the game then holds ``count`` actions); a long log is folded in
        later, in the background (:mod:`~companion.storage.compaction`)."""
        live = self._games.append_line(game_id, live, line, count=count)
        self._games.remember(game_id, live)
        if live.log_ops >= COMPACT_AFTER:  # saved already; this only keeps reads quick
            self._compactor.request(game_id)
        return live

    def append_action(
        self, game_id: str, action: dict[str, Any], *, expected: int | None = None
    ) -> int:
        """Add one table entry: one line appended to the game's log, fsynced when this returns.

        The action is checked and encoded once, outside the lock; the line embeds it."""
        encoded = action_json(action)
        with self._writing():
            live = self._checked_state(game_id, expected)
            count = live.count + 1
            line = actionlog.op_encoded(count, now_iso(), encoded)
            return self._saved(game_id, live, line, count).count

    def append_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> int:
        """Add several actions as one entry: one appended line, all of them or none."""
        encoded = [action_json(a) for a in actions]
        if not encoded:
            raise StorageError("an entry needs at least one action")
        with self._writing():
            live = self._checked_state(game_id, expected)
            count = live.count + len(encoded)
            line = actionlog.op_many_encoded(count, now_iso(), encoded)
            return self._saved(game_id, live, line, count).count

    def pop_action(self, game_id: str, *, expected: int | None = None) -> dict[str, Any] | None:
        """Undo the last entry (one line appended to the log); returns it, or None."""
        with self._writing():
            game, live = self._games.fresh_state(game_id)
            check_revision(game_id, live.revision, expected)
            if not game.actions:
                return None
            undo = actionlog.op(live.count - 1, now_iso(), None)
            self._saved(game_id, live, undo, live.count - 1)
            return game.actions[-1]

    def replace_actions(
        self, game_id: str, actions: list[dict[str, Any]], *, expected: int | None = None
    ) -> None:
        checked = [check_action(a) for a in actions]
        with self._writing():
            game, live = self._games.fresh_state(game_id)
            check_revision(game_id, live.revision, expected)
            new = game.model_copy(update={"actions": checked, "updated": now_iso()})
            self._games.rewrite(new, live.revision + 1)

    # ---- the game history ----------------------------------------------------------------
    def set_summary(
        self, game_id: str, summary: dict[str, Any] | None, status: GameStatus | None = None
    ) -> None:
        """One line appended to the game's log, one to its month's index log, synced together.

        Both lines are written, then both files synced at the same time (one journal
        commit of the file system, not two: about the cost of one save) and both are
        durable when this returns.  Should a sync fail, the journal asks the next
        writer to mend the list line from the game; should the process die or the
        power fail before both are synced, the next open does
        (:meth:`IndexShards.reconcile`, from the games that have a log).  A game whose
        log is new this time is synced first and its list line after, so that the
        list never says more than a game that has a log to reconcile from."""
        fields: dict[str, Any] = {"summary": check_summary(summary)}
        if status is not None:
            fields["status"] = check_status(status)
        with self._writing():
            live = self._games.state(game_id)
            if live.head is None:
                live = self._games.fresh_state(game_id)[1]
            assert live.head is not None
            self._index.writable(live.head.created)
            head = live.head.model_copy(update={**fields, "updated": now_iso()})
            line = actionlog.summary_line(live.count, head.updated, head.summary, status)
            item = head.list_item()
            staged: list[Staged] = []

            def list_line() -> list[Sync]:
                found = self._index.stage(item)
                if found is None:
                    return []
                staged.append(found)
                return self._index.syncs(found)

            together = list_line if live.log_ok else None
            try:
                live = self._games.append_line(
                    game_id, live, line, counts=False, alongside=together
                )
                self._games.remember(game_id, replace(live, head=head))
                while staged:
                    self._index.settle(staged.pop(), synced=True)
                if together is None:
                    self._index.upsert([item])
            except BaseException:
                while staged:
                    self._index.settle(staged.pop(), synced=False)
                with contextlib.suppress(Exception):
                    self._journal.begin(IndexOp(ids=[game_id]))
                raise
        if head.status == "finished":
            self._compactor.request(game_id)  # a finished game's file is whole, later

    def delete_game(self, game_id: str) -> None:
        """Move a game to the trash (undo with :meth:`restore_game`)."""
        f = self._folder
        with self._writing():
            game, live = self._games.fresh_state(game_id)
            self._index.writable(game.created)
            if live.log_sig is not None:
                self._games.rewrite(game, live.revision)  # the trash holds whole files, no logs
            self._journal.begin(IndexOp(ids=[game_id]))
            path = self._games.path(game_id)
            os.replace(path, f.trash_dir / path.name)
            self._games.forget(game_id)
            if f.durable:
                fsync_dir(f.trash_dir)
                fsync_dir(f.games_dir)
            self._index.remove([game_id], game.created)
            self._journal.clear()

    def restore_game(self, game_id: str) -> StoredGame:
        f = self._folder
        with self._writing():
            try:
                game = self._games.read(game_id, f.trash_dir)[0]
            except GameNotFoundError:
                raise GameNotFoundError(f"no game with id {game_id!r} in the trash") from None
            self._index.writable(game.created)
            self._journal.begin(IndexOp(ids=[game_id]))
            path = self._games.path(game_id, f.trash_dir)
            os.replace(path, f.games_dir / path.name)
            if f.durable:
                fsync_dir(f.games_dir)
                fsync_dir(f.trash_dir)
            self._index.upsert([game.list_item()])
            self._journal.clear()
            return game

    def list_trash(self) -> list[GameListItem]:
        games = self._games.scan(self._folder.trash_dir)
        return [g.list_item() for g in sorted(games, key=sort_key, reverse=True)]

    def list_games(
        self, limit: int = 20, offset: int = 0, game: str | None = None, player: str | None = None
    ) -> list[GameListItem]:
        """Newest first, read from the index only (no game file is opened)."""
        return self._index.list_games(limit, offset, game, player)

    def rebuild_index(self) -> None:
        """Recreate the whole index from the game files (slow; used for repair)."""
        self._index.rebuild()

    # ---- the player directory ------------------------------------------------------------
    def _read_players(self) -> list[Player]:
        try:
            found = self._folder.read(self._folder.players_path, "players", "the player list")
        except Damaged:
            found = None
        return parse_players(found[0]) if found else []

    def _write_players(self, players: list[Player]) -> None:
        docs = {str(n): p.model_dump(mode="json") for n, p in enumerate(players, 1)}
        tables = {"meta": {"1": make_meta("players")}, "players": docs}
        self._folder.write(self._folder.players_path, tables)

    def _add_players(self, players: list[Player | str]) -> list[Player]:
        with self._writing():
            stored = self._read_players()
            known = {p.name.casefold(): p for p in stored}
            out = []
            added = False
            for p in players:
                player = Player(name=p) if isinstance(p, str) else p
                found = known.get(player.name.casefold())
                if found is None:
                    found = known[player.name.casefold()] = player
                    stored.append(player)
                    added = True
                out.append(found)
            if added:
                self._write_players(stored)
            return out

    def list_players(self) -> list[Player]:
        return sorted(self._read_players(), key=lambda p: p.name.casefold())

    def add_player(self, name: str) -> Player:
        return self._add_players([check_name(name)])[0]

    def _find_player(self, name: str) -> str | None:
        folded = name.casefold() if isinstance(name, str) else None
        return next((p.name for p in self.list_players() if p.name.casefold() == folded), None)

    def rename_player(self, old: str, new: str) -> None:
        """Rename everywhere (every game, deleted ones too): all at once, even across a crash."""
        new = check_name(new)
        with self._writing():
            key = self._find_player(old)
            if key is None:
                raise StorageError(f"{old!r}: no such player")
            other = self._find_player(new)
            if other is not None and other != key:
                raise StorageError(f"{new!r} already exists; merge the two players instead")
            games, trash = list(self._iter_games()), list(self._iter_games(trash=True))
            check_rename(key, new, games + trash)
            self._rename(key, new, games, trash)

    def merge_players(self, source: str, target: str) -> None:
        with self._writing():
            games, trash = list(self._iter_games()), list(self._iter_games(trash=True))
            src, dst = check_merge(
                source,
                target,
                self._find_player(source),
                self._find_player(target),
                games + trash,
            )
            self._rename(src, dst, games, trash)

    def _rename(self, old: str, new: str, games: list[StoredGame], trash: list[StoredGame]) -> None:
        mine = [g for g in games if old in g.players]
        for created in {g.created for g in mine}:
            self._index.writable(created)
        op = RenameOp(
            old=old,
            new=new,
            games=[g.id for g in mine],
            trash=[g.id for g in trash if old in g.players],
        )
        self._journal.run(op, self._apply)

    # ---- primitives for the archive ------------------------------------------------------
    def _iter_games(self, *, trash: bool = False) -> Iterator[StoredGame]:
        return self._games.scan(self._folder.trash_dir if trash else None)

    def _known_ids(self) -> set[str]:
        f = self._folder
        return {p.stem for folder in (f.games_dir, f.trash_dir) for p in folder.glob("*.json")}

    def _bulk_insert(
        self, games: list[StoredGame], trash: list[StoredGame], players: list[Player]
    ) -> None:
        with self._writing():
            known = self._known_ids()
            games = [g for g in games if g.id not in known]
            trash = [g for g in trash if g.id not in known]
            for created in {shard_name(g.created) for g in games}:
                self._index.read(self._index.path(created), writing=True)
            self._journal.run(ImportOp(games=games, trash=trash, players=players), self._apply)

    # ---- the problem log -----------------------------------------------------------------
    def quarantine_notes(self) -> list[str]:
        """What was ever moved to ``quarantine/`` and why (oldest first), for a repair screen."""
        return quarantine.notes(self._dir)

    def problem_reports(self) -> list[Problem]:
        return quarantine.problems(self._dir)

    def problem_file(self, ident: str) -> tuple[str, bytes]:
        path = quarantine.kept_file(self._dir, ident)
        try:
            return path.name, path.read_bytes()
        except OSError as exc:
            raise StorageError(f"{path}: cannot be read ({exc.strerror or exc})") from None

    def dismiss_problem(self, ident: str) -> None:
        with self._writing():
            kept = quarantine.kept_file(self._dir, ident)
            note = kept.with_name(kept.name + ".txt")
            quarantine.dismiss(self._dir, ident)
        with contextlib.suppress(OSError, ValueError):
            self._folder.problems.remove(note.read_text(encoding="utf-8", errors="replace"))

    def check_all(self) -> list[str]:
        """Open every file (slow: for a repair screen); returns :attr:`problems`."""
        for _ in self._iter_games():
            pass
        for _ in self._iter_games(trash=True):
            pass
        for path in self._index.paths():
            self._index.read(path)
        self._read_players()
        return self.problems
