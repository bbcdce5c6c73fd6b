"""Preferences share the history's lock and atomic write; opening the store never deletes
another writer's temp file (issue 13: 1,402 of 5,148 theme saves failed under contention)."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from companion.preferences import (
    default_rules,
    load_preferences,
    save_default_rules,
    save_theme,
    saved_theme,
)
from companion.storage import open_repository

FORK = multiprocessing.get_context("fork")


def test_opening_the_store_keeps_a_live_writers_temp_file(tmp_path: Path) -> None:
    open_repository(tmp_path).close()
    live = tmp_path / f".preferences.json.{os.getpid()}.0a1b2c3d.tmp"
    live.write_text("{}")
    theirs = tmp_path / ".notes.tmp"  # not the store's
    theirs.write_text("x")
    open_repository(tmp_path)
    assert live.exists() and theirs.exists()


def _save_theme(data_dir: str, n: int) -> None:
    for i in range(n):
        save_theme(Path(data_dir), i % 2 == 1)  # ends on True


def _save_rules(data_dir: str, n: int) -> None:
    for i in range(n):
        save_default_rules(Path(data_dir), "rummy", {"jokers": i % 2 == 1})  # ends on jokers


def _open_many(data_dir: str, n: int) -> None:
    for _ in range(n):
        open_repository(data_dir).close()


def test_theme_saves_and_store_opens_at_once_lose_nothing(tmp_path: Path) -> None:
    open_repository(tmp_path).close()
    n = 100
    procs = [
        FORK.Process(target=_save_theme, args=(str(tmp_path), n)),
        FORK.Process(target=_save_rules, args=(str(tmp_path), n)),
        FORK.Process(target=_open_many, args=(str(tmp_path), n)),
        FORK.Process(target=_open_many, args=(str(tmp_path), n)),
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]  # no FileNotFoundError
    assert saved_theme(tmp_path) is True  # neither writer undid the other's last save
    assert default_rules(tmp_path, "rummy") == {"jokers": True}
    assert not list(tmp_path.glob(".*.tmp"))


def test_damaged_preferences_are_set_aside_with_a_note(tmp_path: Path) -> None:
    repo = open_repository(tmp_path)
    for damage in (b"[" * 100_000 + b"]" * 100_000, b'{"house_rules": []}', b'{"dark": 3}'):
        (tmp_path / "preferences.json").write_bytes(damage)
        assert load_preferences(tmp_path) == {}
        assert saved_theme(tmp_path) is None
        save_theme(tmp_path, True)  # and saving works again
        assert saved_theme(tmp_path) is True
    problems = repo.problem_reports()
    assert len(problems) == 3 and all("preferences" in p.note for p in problems)
