"""The layers hold where imports cannot see them: in templates, URL names and signals.

A template may name only its own app and the apps below it: the tag libraries it
``{% load %}``s, the templates it ``{% include %}``s or ``{% extends %}``, and the URL
names it ``{% url %}``s. So may an app's code name URLs (``reverse("table:table")``).
Every app's page is drawn inside the site's frame (``base.html`` and ``includes/``,
the site's own, above every app), so that frame is the one thing any template may
extend or include. And a signal only tells: a sender never reads what its receivers
return (an app above that has a say registers with the app below instead).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.layers.test_app_imports import LAYERS, ROOT

APPS = [app for app in LAYERS if (ROOT / app / "apps.py").exists()]
SITE = "durak_site"
# Folders of the site's templates that belong to an app, not to the site: Django's
# auth pages (accounts) and the admin's (moderation customises the admin).
TEMPLATE_FOLDER_APP = {"registration": "accounts", "admin": "moderation"}
# The site's frame: what every page is drawn in.
FRAME = ("base.html", "includes/")
TAG = re.compile(r"\{%\s*(load|include|extends|url)\s+(.*?)%\}", re.S)
QUOTED = re.compile(r"""^["']([^"']+)["']""")
URL_NAME = re.compile(r"^([a-z_]+):[\w-]+$")


def layer(app: str) -> int:
    return LAYERS.index(app)


def tag_libraries() -> dict[str, str]:
    """Template tag library name -> the app that has it."""
    return {
        path.stem: app
        for app in APPS
        for path in (ROOT / app / "templatetags").glob("*.py")
        if path.stem != "__init__"
    }


def url_namespaces() -> dict[str, str]:
    """URL namespace -> the app whose urls.py declares it."""
    found = {}
    for app in APPS:
        urls = ROOT / app / "urls.py"
        if urls.exists():
            match = re.search(r"^app_name\s*=\s*[\"'](\w+)[\"']", urls.read_text(), re.M)
            if match:
                found[match.group(1)] = app
    return found


def template_app(name: str) -> str:
    """The app a template (by its name, as loaders find it) belongs to."""
    folder = name.split("/", 1)[0] if "/" in name else ""
    if folder in APPS:
        return folder
    return TEMPLATE_FOLDER_APP.get(folder, SITE)


def templates() -> Iterator[tuple[str, Path]]:
    """(template name, file) of the site's templates and every app's own."""
    for path in sorted((ROOT / "templates").rglob("*.html")):
        yield str(path.relative_to(ROOT / "templates")), path
    for app in APPS:
        for path in sorted((ROOT / app / "templates").rglob("*.html")):
            yield str(path.relative_to(ROOT / app / "templates")), path


def ties(source: str) -> Iterator[tuple[str, str]]:
    """(kind, the app named) for each tag of ``source`` that names another app."""
    libraries, namespaces = tag_libraries(), url_namespaces()
    for kind, rest in TAG.findall(source):
        rest = rest.strip()
        if kind == "load":
            names = rest.split(" from ")[-1].split() if " from " in rest else rest.split()
            for name in names:
                if name in libraries:
                    yield "load", libraries[name]
            continue
        quoted = QUOTED.match(rest)
        if quoted is None:
            continue  # a name held in a variable: named where the variable is set
        target = quoted.group(1)
        if kind == "url":
            url = URL_NAME.match(target)
            if url and url.group(1) in namespaces:
                yield "url", namespaces[url.group(1)]
        elif not target.startswith(FRAME):
            yield kind, template_app(target.split("#", 1)[0])


def upward_template_ties() -> list[str]:
    found = []
    for name, path in templates():
        app = template_app(name)
        for kind, other in ties(path.read_text()):
            if layer(other) > layer(app):
                found.append(f"{name} ({app}) {kind}s {other}")
    return found


def string_constants(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def app_modules() -> Iterator[tuple[str, Path]]:
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts and "tests" not in path.parts:
                yield app, path


def upward_url_names_in_code() -> list[str]:
    namespaces = url_namespaces()
    found = []
    for app, path in app_modules():
        for text in string_constants(path):
            url = URL_NAME.match(text)
            if url and url.group(1) in namespaces and layer(namespaces[url.group(1)]) > layer(app):
                found.append(f"{path.relative_to(ROOT)} ({app}) names {text}")
    return found


def signal_names() -> set[str]:
    """Every module-level ``name = Signal()`` of the project."""
    names = set()
    for _app, path in app_modules():
        for node in ast.parse(path.read_text()).body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", getattr(node.value.func, "attr", "")) == "Signal"
            ):
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def answers_read(source: str, signals: set[str]) -> list[int]:
    """Lines where a signal is sent and what its receivers returned is used."""
    tree = ast.parse(source)
    # A send whose value nobody reads: a statement of its own, or the body of a lambda
    # (``transaction.on_commit(lambda: news.send(...))`` drops what the lambda returns).
    dropped = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    dropped |= {id(node.body) for node in ast.walk(tree) if isinstance(node, ast.Lambda)}
    lines = []
    for node in ast.walk(tree):
        func = getattr(node, "func", None)
        if not isinstance(node, ast.Call) or not isinstance(func, ast.Attribute):
            continue
        sender = func.value
        name = getattr(sender, "id", getattr(sender, "attr", None))
        if func.attr in ("send", "send_robust") and name in signals and id(node) not in dropped:
            lines.append(node.lineno)
    return lines


def test_templates_name_only_their_app_and_the_apps_below():
    assert upward_template_ties() == []


def test_app_code_names_only_the_urls_of_its_app_and_the_apps_below():
    assert upward_url_names_in_code() == []


def test_no_sender_reads_what_a_signals_receivers_return():
    signals = signal_names()
    assert "deal_finished" in signals  # the scan finds the project's signals
    read = [
        f"{path.relative_to(ROOT)}:{line}"
        for _app, path in app_modules()
        for line in answers_read(path.read_text(), signals)
    ]
    assert read == []


# The checks themselves, on the ties this project once had.
@pytest.mark.parametrize(
    ("name", "source", "named"),
    [
        ("games/partials.html", "{% url 'history:games' 'ivan' %}", ("url", "history")),
        ("games/partials.html", '{% url "daily:today" %}', ("url", "daily")),
        (
            "table/table.html",
            "{% load i18n static moderation analysis_tags %}",
            ("load", "analysis"),
        ),
        ("history/replay.html", '{% include "table/partials.html#hand" %}', ("include", "table")),
        ("friends/profile_actions.html", '{% extends "base.html" %}', None),
    ],
)
def test_the_template_check_sees_each_kind_of_tie(name, source, named):
    found = list(ties(source))
    if named is None:
        assert found == []
    else:
        assert named in found


def test_the_signal_check_sees_answers_read_and_passes_news():
    asking = "answers = seat_wanted.send(sender=None)\nok = any(a for _r, a in answers)\n"
    assert answers_read(asking, {"seat_wanted"}) == [1]
    assert answers_read("if any(x for _r, x in watching.send(sender=None)): pass\n", {"watching"})
    assert answers_read("deal_finished.send(sender=None, deal=1)\n", {"deal_finished"}) == []
    on_commit = "transaction.on_commit(lambda: news.send(sender=None))\n"
    assert answers_read(on_commit, {"news"}) == []
