"""The shape of the code, checked: no import circle in ``rulesets`` or ``companion``,
and no class in ``rulesets`` over 500 lines (issue 21).

An import counts when it runs as the module is imported: at module level, in a class
body, or under a module-level ``if``/``try``/``with`` -- not inside a function, nor
under ``if TYPE_CHECKING:``.  ``from a.b import c`` is an edge to ``a.b.c`` when that
is a module, else to ``a.b`` (whose ``__init__`` must give ``c``).  The parent
packages Python also initialises on the way are not edges: a package's ``__init__``
that re-exports its modules would otherwise make a "circle" of every package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_CLASS_LINES = 500


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a folder under ``root``) by its dotted name."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when a module (or class) body runs."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from _run_at_import(node.body)
        elif isinstance(node, ast.If):
            if not _type_checking(node.test):
                yield from _run_at_import(node.body)
            yield from _run_at_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _run_at_import(block)
            for handler in node.handlers:
                yield from _run_at_import(handler.body)
        elif isinstance(node, ast.With):
            yield from _run_at_import(node.body)


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports when it is imported."""
    known: dict[str, Path] = {}
    for package in packages:
        known |= modules(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        edges: set[str] = set()
        for node in _run_at_import(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = here[: len(here) - node.level + 1] if node.level else []
                source = ".".join([*base, *([node.module] if node.module else [])])
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                    for alias in node.names
                ]
            edges |= {t for t in targets if t in known and t != name}
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected group of two or more modules
    (Tarjan), sorted, as one list per circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def long_classes(root: Path, package: str, limit: int) -> list[str]:
    """ "module.Class: n lines" for every class (nested ones too) over ``limit`` lines."""
    out: list[str] = []
    for name, path in modules(root, package).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append(f"{name}.{node.name}: {lines} lines")
    return out


@pytest.mark.parametrize("packages", [("rulesets",), ("rulesets", "companion")])
def test_no_import_circle(packages: tuple[str, ...]) -> None:
    graph = import_graph(ROOT, packages)
    assert len(graph) > 50 and sum(map(len, graph.values())) > 100  # the graph was read
    assert cycles(graph) == []


def test_no_class_in_rulesets_over_500_lines() -> None:
    assert long_classes(ROOT, "rulesets", MAX_CLASS_LINES) == []


# ---------------------------------------------------------------- the checks themselves


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_circle_is_found_and_lazy_imports_are_not_one(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.game import Game\n",
            "pkg/game.py": "from . import suggest\nclass Game:\n    pass\n",
            "pkg/suggest.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.game import Game\n"
                "def suggest() -> None:\n    from pkg import game\n"
            ),
            "pkg/words.py": "import pkg.cards\n",
            "pkg/cards.py": "try:\n    from pkg.words import x\nexcept ImportError:\n    pass\n",
        },
    )
    graph = import_graph(root, ("pkg",))
    assert graph["pkg.game"] == {"pkg.suggest"}  # `from . import suggest`: the module
    assert graph["pkg.suggest"] == set()  # TYPE_CHECKING and a function's import
    assert cycles(graph) == [["pkg.cards", "pkg.words"]]
    (root / "pkg/suggest.py").write_text("from pkg.game import Game\n", encoding="utf-8")
    assert cycles(import_graph(root, ("pkg",))) == [
        ["pkg.cards", "pkg.words"],
        ["pkg.game", "pkg.suggest"],
    ]


def test_a_long_class_is_found(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_CLASS_LINES))
    root = _package(tmp_path, {"pkg/big.py": f"class Big:\n{body}\nclass Small:\n    x = 1\n"})
    assert long_classes(root, "pkg", MAX_CLASS_LINES) == ["pkg.big.Big: 501 lines"]
