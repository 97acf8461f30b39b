"""The engine's layout: modules import each other without a cycle, stay short, and the
game's behaviour is not assembled from mixins.

Imports are read with ``ast`` from every place in a module, function bodies and
``TYPE_CHECKING`` blocks included: a cycle hidden in a function is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import durak.engine
from tests.imports import absolute_imports

ENGINE = Path(durak.engine.__file__).parent
PACKAGE = "durak.engine"


def engine_modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(ENGINE.glob("*.py"))}


def imported_modules(name: str, source: str, modules: set[str]) -> set[str]:
    """The engine modules that ``name``'s source imports, anywhere in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.split(".")[2])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module
            elif node.level == 0 and node.module and node.module.startswith(PACKAGE):
                base = node.module[len(PACKAGE) + 1 :] or None
            else:
                continue
            if base:
                found.add(base.split(".")[0])
            else:  # "from . import x, y" names modules
                found.update(alias.name for alias in node.names if alias.name in modules)
    found.discard(name)
    return found & modules


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    modules = set(sources)
    return {name: imported_modules(name, src, modules) for name, src in sources.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_engine_modules_import_without_a_cycle() -> None:
    sources = {name: path.read_text() for name, path in engine_modules().items()}
    sources.pop("__init__")  # the package's face re-exports every module
    assert find_cycle(import_graph(sources)) is None


@pytest.mark.parametrize(
    "sources",
    [
        {"a": "from .b import x", "b": "def f():\n    from .a import y"},
        {"a": "from . import b", "b": "import durak.engine.c", "c": "from durak.engine.a import z"},
        {
            "a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B",
            "b": "from .a import x",
        },
    ],
)
def test_the_cycle_check_finds_cycles_anywhere_in_a_module(sources: dict[str, str]) -> None:
    assert find_cycle(import_graph(sources)) is not None


def test_the_cycle_check_passes_a_layered_graph() -> None:
    sources = {"a": "", "b": "from .a import x", "c": "from . import a, b\ndef f():\n    import os"}
    assert find_cycle(import_graph(sources)) is None


def test_no_engine_module_is_over_400_lines() -> None:
    long = {
        name: n
        for name, path in engine_modules().items()
        if (n := len(path.read_text().splitlines())) > 400
    }
    assert long == {}


def test_no_engine_class_has_more_than_one_base() -> None:
    mixed = []
    for name, path in engine_modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and len(node.bases) > 1:
                mixed.append(f"{name}.{node.name}")
    assert mixed == []


def test_the_engine_imports_no_django() -> None:
    for name, path in engine_modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "django" for a in node.names), name
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "django", name


def test_other_packages_use_only_the_engines_public_names() -> None:
    """Outside the engine (and its tests) code imports ``durak.engine`` itself, never one
    of its modules: what the package exports is the interface."""
    root = ENGINE.parents[1]
    reaching_in = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in (".venv", "tests") or path.is_relative_to(ENGINE):
            continue
        if path.is_relative_to(ENGINE.parent / "tests"):
            continue
        names = absolute_imports(path)
        reaching_in += [f"{rel}: {n}" for n in names if n.startswith(PACKAGE + ".")]
    assert reaching_in == []


def test_the_site_uses_only_the_bots_public_names() -> None:
    """The web apps import ``durak.bots`` itself, never one of its modules (the
    benchmarks may: they measure the parts; so may the training, which builds the
    learned policy's)."""
    root = ENGINE.parents[1]
    reaching_in = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in (".venv", "tests", "benchmarks", "training", "durak"):
            continue
        names = absolute_imports(path)
        reaching_in += [f"{rel}: {n}" for n in names if n.startswith("durak.bots.")]
    assert reaching_in == []
