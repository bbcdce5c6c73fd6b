"""Game files and their action logs: ``games/<id>.json`` plus ``games/<id>.log``.

A game is its file (as of its last rewrite) plus the lines of its log
(:mod:`~companion.storage.actionlog`).  :class:`GameFiles` reads a game whole,
appends one line per entry (one write, one fsync) and rewrites the file when
the log is folded in.  What a writer knows about a game's files (:class:`Live`)
is kept in memory while both files' signatures hold, so a save costs two stats,
not a read.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion import jsonsafe
from companion.storage import actionlog, models, quarantine
from companion.storage.atomic import Sync, commit_temp, fsync_dir, sync_together, write_temp
from companion.storage.files import (
    FILE_DEPTH,
    FileSig,
    game_revision,
    game_tables,
    log_token,
    meta_of,
    parse_game,
    table,
)
from companion.storage.folder import Damaged, DataFolder, dumps, read_bytes, stat, words
from companion.storage.models import (
    GameNotFoundError,
    NewerVersionError,
    StorageError,
    StoredGame,
    check_summary_shape,
)

__all__ = ["GameFiles", "Live"]

_ID_RE = re.compile(models.GAME_ID_PATTERN)
_CACHE = 256
#: logs kept open between saves (the games being played); none on Windows, where an
#: open file cannot be removed (a fold removes the log it folded in)
_KEEP_OPEN = 0 if os.name == "nt" else 4
#: a new log is made for appending, as every log a writer keeps open must be: another
#: process appends to it too, and a write at this descriptor's own offset would land
#: over that line (a save lost, and the game read back without either)
_NEW_LOG = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND


@dataclass(frozen=True)
class Live:
    """What a writer knows about a game's files, valid while both signatures hold."""

    json_sig: FileSig
    log_sig: FileSig | None = None  # None: no log file
    token: str = ""  # the game file's log token
    count: int = 0  # actions
    log_token: str | None = None  # the log's token (None: no log, or not even a whole header)
    log_valid: int = 0  # bytes of whole lines in the log
    log_torn: bool = False  # the log ends with a line cut off by a crash
    log_ops: int = 0  # entries and undos in the log (it is folded in past COMPACT_AFTER)
    rev: int = 0  # the game file's revision (see files.game_revision)
    head: StoredGame | None = None  # the game as read, without its actions (list line)

    @property
    def revision(self) -> int:
        """The game's revision: its file's, plus one per line of its log."""
        return self.rev + self.log_ops

    @property
    def log_ok(self) -> bool:
        """New lines may be appended to the log as it is."""
        return self.log_sig is not None and self.log_token == self.token and not self.log_torn


def _head(game: StoredGame) -> StoredGame:
    return game.model_copy(update={"actions": []})


class _Changed(Exception):
    """The game was saved to while it was being folded in: the fold gives way."""


def _no_pause() -> None:
    pass


def _stat(path: str) -> FileSig | None:
    try:
        return FileSig.of(os.stat(path))
    except FileNotFoundError:
        return None


def _close_all(held: dict[str, tuple[int, int]]) -> None:
    for fd, _ino in held.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    held.clear()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class GameFiles:
    """The game files of one data folder (``games/``, and ``trash/`` for reading)."""

    def __init__(self, folder: DataFolder, describe: Callable[[str], str]) -> None:
        self._folder = folder
        self._dir = folder.games_dir
        self._describe = describe  # game id -> plain words (from the index)
        self._live: dict[str, Live] = {}
        self._hot: dict[str, tuple[str, str]] = {}  # game id -> its file and log, as text
        #: game id -> (descriptor, inode) of its log, kept open between saves
        self._open: dict[str, tuple[int, int]] = {}
        weakref.finalize(self, _close_all, self._open)

    def _paths(self, game_id: str) -> tuple[str, str]:
        """The game's file and log in ``games/`` (checked once, then kept: every save asks)."""
        found = self._hot.get(game_id)
        if found is None:
            path = self.path(game_id)
            found = (str(path), str(path.with_suffix(".log")))
            if len(self._hot) >= _CACHE:
                self._hot.pop(next(iter(self._hot)))
            self._hot[game_id] = found
        return found

    def path(self, game_id: Any, folder: Path | None = None) -> Path:
        if not isinstance(game_id, str) or not _ID_RE.match(game_id):
            raise GameNotFoundError(f"no game with id {game_id!r:.80}")
        return (folder or self._dir) / f"{game_id}.json"

    def forget(self, game_id: str) -> None:
        self._live.pop(game_id, None)

    def read(self, game_id: str, folder: Path | None = None) -> tuple[StoredGame, Live]:
        """The game (its file plus its log) and what a writer needs to know about them.

        The log is read first: if the game file is rewritten in between, the log
        read belongs to an older token and is ignored -- the new file holds it.
        A damaged log is set aside (the game then opens from its file alone).
        """
        path = self.path(game_id, folder)
        log_path = path.with_suffix(".log")
        for _attempt in range(3):
            log = read_bytes(log_path)
            found = self._folder.read(path, "game", lambda: self._describe(game_id))
            if found is None:
                raise GameNotFoundError(f"no game with id {game_id!r}")
            game, token = parse_game(found[0])
            live = Live(found[1], None, token, len(game.actions), rev=game_revision(found[0]))
            if log is None:
                return game, replace(live, head=_head(game))
            try:
                parsed = actionlog.parse(log[0])
                live = replace(
                    live,
                    log_sig=log[1],
                    log_token=parsed.token,
                    log_valid=parsed.valid_size,
                    log_torn=parsed.torn,
                    log_ops=sum(o.counts for o in parsed.ops) if parsed.token == token else 0,
                )
                if parsed.token != token or not parsed.ops:
                    return game, replace(live, head=_head(game))
                applied = actionlog.apply(game.actions, parsed.ops)
                update: dict[str, Any] = {
                    "actions": applied.actions,
                    "updated": max(game.updated, applied.last),
                }
                if applied.summed:
                    update["summary"] = check_summary_shape(applied.summary)
                if applied.status is not None:
                    update["status"] = applied.status
            except actionlog.LogNewerError as exc:
                message = (
                    f"{words(self._describe(game_id))}: its latest entries were saved by a newer "
                    f"version of Rummy Companion ({exc}). Update the app to open it; the file "
                    "was left untouched."
                )
                self._folder.note(message)
                raise NewerVersionError(message) from None
            except (actionlog.LogDamagedError, ValueError) as exc:
                self._quarantine_log(log_path, log[0], str(exc), game_id)
                continue
            game = game.model_copy(update=update)
            return game, replace(live, count=len(game.actions), head=_head(game))
        raise StorageError(f"{words(self._describe(game_id))} keeps changing while being read")

    def _quarantine_log(self, log_path: Path, raw: bytes, reason: str, game_id: str) -> None:
        """Set a damaged log aside, unless it changed since it was judged (lock held inside)."""
        with self._folder.writing():
            now = read_bytes(log_path)
            if now is None or now[0] != raw:
                return  # rewritten meanwhile: read again
            dest = quarantine.set_aside(self._folder.dir, log_path, durable=self._folder.durable)
            self._folder.set_aside_note(
                dest,
                f"The latest entries of {self._describe(game_id)} could not be read ({reason}). "
                f"They were kept as {dest}; the game opens as it was when last summed up.",
            )
            self.forget(game_id)

    def load(self, game_id: str, folder: Path | None = None) -> StoredGame | None:
        """The game, or None if it is missing, damaged (set aside) or a newer app's."""
        try:
            return self.read(game_id, folder)[0]
        except (GameNotFoundError, Damaged, NewerVersionError):
            return None

    def scan(self, folder: Path | None = None) -> Iterator[StoredGame]:
        """Every readable game of ``games/`` (or ``folder``), by id."""
        folder = folder or self._dir
        for path in sorted(folder.glob("*.json")):
            game = self.load(path.stem, folder)
            if game is not None:
                yield game

    def scan_logged(self) -> Iterator[StoredGame]:
        """Every readable game of ``games/`` that has a log (changed since last folded in)."""
        for log in sorted(self._dir.glob("*.log")):
            game = self.load(log.stem)
            if game is not None:
                yield game

    # ---- what a writer knows ---------------------------------------------------------
    def state(self, game_id: str) -> Live:
        """What a writer needs to append to a game: from memory if its files did not change."""
        cached = self._live.get(game_id)
        if cached is not None:
            path, log_path = self._paths(game_id)
            if _stat(path) == cached.json_sig and _stat(log_path) == cached.log_sig:
                return cached
        return self.fresh_state(game_id)[1]

    def fresh_state(self, game_id: str) -> tuple[StoredGame, Live]:
        """Read the game whole, cut off a torn log tail or drop a stale log (lock held)."""
        game, live = self.read(game_id)
        log_path = self.path(game_id).with_suffix(".log")
        if live.log_sig is not None and live.log_token == live.token and live.log_torn:
            os.truncate(log_path, live.log_valid)
            if self._folder.durable:
                fd = os.open(log_path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            live = replace(live, log_sig=stat(log_path), log_torn=False)
        elif live.log_sig is not None and live.log_token != live.token:
            # stale (an older token) or not even its first line whole: nothing in it counts
            with contextlib.suppress(FileNotFoundError):
                os.unlink(log_path)
            live = replace(live, log_sig=None, log_token=None)
        self.remember(game_id, live)
        return game, live

    def remember(self, game_id: str, live: Live) -> None:
        if len(self._live) >= _CACHE and game_id not in self._live:
            self._live.pop(next(iter(self._live)))
        self._live[game_id] = live

    # ---- writing -----------------------------------------------------------------------
    def append_line(
        self,
        game_id: str,
        live: Live,
        line: bytes,
        *,
        counts: bool = True,
        count: int | None = None,
        alongside: Callable[[], Sequence[Sync]] | None = None,
    ) -> Live:
        """Append one line to the game's log: one write and one fsync.

        ``counts``: the line changes the actions (one step of the revision);
        ``count``: how many actions the game then holds (unchanged if None).
        ``alongside``: called once the line is written and before it is synced;
        the syncs it returns run at the same time as this one (see
        :func:`~companion.storage.atomic.sync_together`).  A new log's folder
        is synced alongside too."""
        self.forget(game_id)  # if this fails half-way, read afresh next time
        appending = live.log_ok
        if appending:
            assert live.log_sig is not None
            fd = self._log_fd(game_id, live.log_sig.ino)
            data = line
        else:
            self.close_log(game_id)
            fd = os.open(self._paths(game_id)[1], _NEW_LOG, 0o644)
            self._keep(game_id, fd)
            data = actionlog.header(live.token) + line
        try:
            _write_all(fd, data)
            others = list(alongside()) if alongside is not None else []
            if self._folder.durable:
                if not appending:
                    others.append(self._sync_dir)
                sync_together(fd, others)
            st = os.fstat(fd)
        except BaseException:
            self._let_go(game_id, fd)
            raise
        kept = self._open.get(game_id)
        if kept is None or kept[0] != fd:  # not kept (Windows)
            os.close(fd)
        elif kept[1] != st.st_ino:  # a new log: its inode is known now
            self._open[game_id] = (fd, st.st_ino)
        return Live(
            live.json_sig,
            FileSig.of(st),
            live.token,
            live.count if count is None else count,
            live.token,
            st.st_size,
            False,
            (live.log_ops if appending else 0) + counts,
            live.rev,
            live.head,
        )

    def _sync_dir(self) -> None:
        fsync_dir(self._dir)

    # ---- logs kept open: a save costs no open() and close() --------------------------
    def _log_fd(self, game_id: str, ino: int) -> int:
        """The game's log, open for appending: the one kept open if it is still the file
        the log's path names (``ino``: checked by :meth:`state` a moment ago, under the
        writer lock; the kept descriptor holds its inode, so no other file can have
        that number meanwhile), else opened afresh and kept."""
        held = self._open.get(game_id)
        if held is not None and held[1] == ino:
            return held[0]
        self.close_log(game_id)
        fd = os.open(self._paths(game_id)[1], os.O_WRONLY | os.O_APPEND)
        self._keep(game_id, fd, ino)
        return fd

    def _keep(self, game_id: str, fd: int, ino: int = -1) -> None:
        if _KEEP_OPEN == 0:  # pragma: no cover - Windows: an open log could not be removed
            return
        while len(self._open) >= _KEEP_OPEN:
            self.close_log(next(iter(self._open)))
        self._open[game_id] = (fd, ino)

    def close_log(self, game_id: str) -> None:
        """Close the game's log if it is kept open (it is being replaced or removed)."""
        held = self._open.pop(game_id, None)
        if held is not None:
            with contextlib.suppress(OSError):
                os.close(held[0])

    def close_logs(self) -> None:
        _close_all(self._open)

    def _let_go(self, game_id: str, fd: int) -> None:
        """Close ``fd`` after a failed append (and stop keeping it): the next save opens
        the log afresh."""
        kept = self._open.get(game_id)
        if kept is not None and kept[0] == fd:
            self.close_log(game_id)
        else:
            with contextlib.suppress(OSError):
                os.close(fd)

    def rewrite(self, game: StoredGame, revision: int, folder: Path | None = None) -> None:
        """Write the whole game file at ``revision`` (a new log token), then drop the old log."""
        path = self.path(game.id, folder)
        token = secrets.token_hex(4)
        self._folder.write(path, game_tables(game, token, revision))
        self.close_log(game.id)
        with contextlib.suppress(FileNotFoundError):  # stale now (token); no fsync needed
            os.unlink(path.with_suffix(".log"))
        sig = stat(path)
        if folder in (None, self._dir) and sig is not None:
            live = Live(sig, None, token, len(game.actions), rev=revision, head=_head(game))
            self.remember(game.id, live)

    def create(self, game: StoredGame, folder: Path | None = None) -> None:
        """Write a new game's file unless it is there already (a journal replayed)."""
        path = self.path(game.id, folder)
        if not path.exists():
            self._folder.write(path, game_tables(game, secrets.token_hex(4)))

    def start_log(self, game_id: str) -> None:
        """Give a new game its (empty) log now, so that its first save is a plain append.

        Creating a log costs a new file and a sync of its folder besides the line: paid
        here, when the game starts, not by the first tap.  Nothing is done if the game
        has a log already (or cannot be read)."""
        try:
            game, live = self.fresh_state(game_id)
        except (GameNotFoundError, Damaged, NewerVersionError):
            return
        if live.log_sig is not None:
            return
        self.forget(game_id)
        try:
            live = self._begin_log(game_id, live)
        except FileExistsError:
            return
        self.remember(game_id, live)

    def _begin_log(self, game_id: str, live: Live) -> Live:
        """Create the game's log holding only its header (``live``'s token), synced with
        its folder, and keep it open; ``live`` that knows it.  FileExistsError if there
        is a log."""
        log_path = self._paths(game_id)[1]
        self.close_log(game_id)
        fd = os.open(log_path, _NEW_LOG, 0o644)
        try:
            _write_all(fd, actionlog.header(live.token))
            if self._folder.durable:
                sync_together(fd, [self._sync_dir])
            st = os.fstat(fd)
        except BaseException:  # (a disk full): no headless log is left behind
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(log_path)
            raise
        self._keep(game_id, fd, st.st_ino)  # open for the next save: it costs no open()
        if self._open.get(game_id) != (fd, st.st_ino):  # not kept (Windows)
            os.close(fd)
        sig = FileSig.of(st)
        return replace(live, log_sig=sig, log_token=live.token, log_valid=sig.size)

    def compact(self, game_id: str, pause: Callable[[], object] = _no_pause) -> bool:
        """Fold the game's log into its file; True if done.

        Run by a background thread (:mod:`~companion.storage.compaction`), so it
        must never make a save wait for long -- neither on the writer lock nor on
        the interpreter: the game is folded from its raw JSON (:func:`fold_raw`,
        no model validation: the file and the lines were checked when written),
        in steps of :data:`~companion.storage.actionlog.STEP` lines, calling
        ``pause`` between steps (the compactor hands the CPU to saves there and
        waits while the table is busy).  Under the writer lock only the check
        that nothing was saved meanwhile, the rename and the log's removal.  If
        the game changed meanwhile, or its files are not the plain case (an older
        version, a torn or damaged log), nothing happens: the log stays long,
        reads stay right, and a later save asks again.

        A game still being played gets its next log, empty, at once (under the lock,
        in this thread): the first save after a fold is a plain append, not a new file
        and a sync of the folder (which took some 3x a save's CPU).  A finished game
        gets none: it is not saved to again, and the history keeps one file for it.
        """
        path = self.path(game_id)
        log_path = path.with_suffix(".log")
        log = read_bytes(log_path)  # the log first (as in read): a rewrite in between is seen
        found = read_bytes(path)
        if log is None or found is None:
            return False
        sigs = (found[1], log[1])

        def step() -> None:
            pause()
            if (stat(path), stat(log_path)) != sigs:
                raise _Changed

        token = secrets.token_hex(4)
        try:
            folded = fold_raw(found[0], log[0], token, step)
        except (_Changed, actionlog.LogNewerError):
            return False
        if folded is None:
            return False
        data, revision, count, status = folded
        tmp: Path | None = write_temp(path, data, durable=self._folder.durable)
        try:
            with self._folder.writing():
                if (stat(path), stat(log_path)) != sigs:
                    return False
                assert tmp is not None
                commit_temp(tmp, path, durable=self._folder.durable)
                tmp = None
                self.close_log(game_id)
                with contextlib.suppress(FileNotFoundError):  # stale now (token)
                    os.unlink(log_path)
                sig = stat(path)
                if sig is not None:
                    folded_live = Live(sig, None, token, count, rev=revision)
                    if status != "finished":
                        with contextlib.suppress(OSError):  # (the next save makes it)
                            folded_live = self._begin_log(game_id, folded_live)
                    self._remember_folded(game_id, sigs, folded_live)
                return True
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def _remember_folded(self, game_id: str, sigs: tuple[FileSig, FileSig], new: Live) -> None:
        """After a fold, what a writer knew stays known (the next save costs two stats)."""
        known = self._live.get(game_id)
        self.forget(game_id)
        if (
            known is not None
            and (known.json_sig, known.log_sig) == sigs
            and (known.count, known.revision) == (new.count, new.rev)
        ):
            self.remember(game_id, replace(new, head=known.head))


def fold_raw(
    raw: bytes, log: bytes, token: str, pause: Callable[[], object] = _no_pause
) -> tuple[bytes, int, int, str | None] | None:
    """A game file with its log folded in, from raw JSON: (bytes, revision, actions,
    the game's status).

    No model is built: the file's tables and the log's lines were checked when
    they were written, and what is copied is copied as it is.  None if this is
    not the plain case (another schema version, a log of another token, a torn
    or damaged log, no lines): the slow, checked path (:meth:`GameFiles.read`)
    deals with those.  ``pause`` is called between steps of the work.
    """
    try:
        tables = jsonsafe.loads(raw, max_depth=FILE_DEPTH)
        meta = meta_of(tables)
        if meta.get("schema_version") != models.STORAGE_SCHEMA_VERSION or not log_token(tables):
            return None
        rev = game_revision(tables)
        header = table(tables, "game").get("1")
        docs_table = table(tables, "actions")
        if not isinstance(header, dict):
            return None
        parsed = actionlog.parse(log, pause)
        if parsed.token != log_token(tables) or parsed.torn or not parsed.ops:
            return None
        pause()
        docs = [docs_table[k] for k in sorted(docs_table, key=int)]
        if not all(isinstance(d, dict) and isinstance(d.get("action"), dict) for d in docs):
            return None
        applied = actionlog.apply([d["action"] for d in docs], parsed.ops)
        header = dict(header)
        last = applied.last
        if last and (not isinstance(header.get("updated"), str) or last > header["updated"]):
            header["updated"] = last
        if applied.summed:
            header["summary"] = check_summary_shape(applied.summary)
        if applied.status is not None:
            header["status"] = applied.status
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # damaged: the checked read sets it aside
    revision = rev + sum(o.counts for o in parsed.ops)
    meta = {**meta, "log": token}
    if revision:
        meta["rev"] = revision
    head = dumps({"meta": {"1": meta}, "game": {"1": header}})
    parts = [head[:-1], b',"actions":{']
    version = models.STORAGE_SCHEMA_VERSION
    actions = applied.actions
    for first in range(0, len(actions), actionlog.STEP * 4):
        pause()
        chunk = {
            str(n): {"schema_version": version, "action": a}
            for n, a in enumerate(actions[first : first + actionlog.STEP * 4], first + 1)
        }
        parts.append((b"," if first else b"") + dumps(chunk)[1:-1])
    parts.append(b"}}")
    status = header.get("status")
    return b"".join(parts), revision, len(actions), status if isinstance(status, str) else None
