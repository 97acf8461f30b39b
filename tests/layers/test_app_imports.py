"""The apps form layers: a module imports only its own app and the apps below it.

Every import counts, at module level or inside a function.  News goes upward by
signals and the channel layer, never by an import, so the apps' import graph has
no loop.  A new upward import fails here.  A page or socket that shows a lower
app's things with a higher app's lives in the higher app (the lobby and the table:
``table``), and ``durak_site`` (above every app) routes them.  The templates and
URL names are held to the same layers in ``test_template_ties.py``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from tests.imports import absolute_imports

ROOT = Path(__file__).resolve().parents[2]

# Lowest first.  The accounts know nothing of games; games nothing of who pairs
# them, rates them, reviews them or moderates them.
LAYERS = [
    "durak",  # the rules and the bots: pure Python, below every app
    "accounts",
    "games",
    "cards",  # the cards as pages draw them: faces, backs, their names
    "history",
    "friends",
    "matchmaking",
    "analysis",
    "puzzles",
    "moderation",
    "daily",
    "api",  # the public API for programs: over the services, matchmaking and history
    "opendata",  # the monthly files of public games: history's export, on the task worker
    "arena",  # arena tournaments: pairs players at games tables, scores their games
    "table",  # the live table: composes what every app below shows of a table
    "notifications",  # pushes of turns, invites and friend requests, opening their pages
    "durak_site",  # settings, routing, the worker commands: above every app
]


def imported_apps(path: Path) -> set[str]:
    """The project apps ``path`` imports, at any depth of its code."""
    return {name.split(".")[0] for name in absolute_imports(path)} & set(LAYERS)


def app_imports() -> list[tuple[str, str, str]]:
    """(app, module, imported app) for every import of another app."""
    edges = []
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = str(path.relative_to(ROOT))
            edges += [(app, module, other) for other in sorted(imported_apps(path) - {app})]
    return edges


def test_every_app_module_imports_only_lower_layers():
    upward = {
        (module, other)
        for app, module, other in app_imports()
        if LAYERS.index(other) > LAYERS.index(app)
    }
    assert upward == set(), "a lower layer imports a higher one"


def test_the_app_graph_has_no_loop():
    graph: dict[str, set[str]] = defaultdict(set)
    for app, _module, other in app_imports():
        graph[app].add(other)
    visiting: set[str] = set()
    done: set[str] = set()

    def visit(app: str, path: list[str]) -> None:
        assert app not in visiting, f"import loop: {' -> '.join([*path, app])}"
        if app in done:
            return
        visiting.add(app)
        for other in sorted(graph[app]):
            visit(other, [*path, app])
        visiting.remove(app)
        done.add(app)

    for app in LAYERS:
        visit(app, [])


def test_a_function_level_import_counts(tmp_path):
    module = tmp_path / "module.py"
    module.write_text("def later():\n    from moderation.models import Report\n")
    assert imported_apps(module) == {"moderation"}


def test_the_readme_lists_the_same_layers_in_the_same_order():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = readme.split("The apps form layers, lowest first:", 1)[1].split("(", 1)[0]
    listed = [name.strip(" .\n") for name in sentence.replace("\n", " ").split(",")]
    assert listed == LAYERS
