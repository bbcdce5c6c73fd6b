"""rulesets/ is pure: it imports no UI, no storage and does no I/O (STYLE.md #7)."""

from __future__ import annotations

import ast
from pathlib import Path

import rulesets

FORBIDDEN = {"flet", "flet_web", "flet_charts", "tinydb", "companion", "platformdirs", "filelock"}
FORBIDDEN_CALLS = {"open", "print", "input"}


def _sources() -> list[Path]:
    return sorted(Path(rulesets.__file__).parent.rglob("*.py"))


def test_rulesets_imports_no_ui_or_storage() -> None:
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_rulesets_does_no_io() -> None:
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"
