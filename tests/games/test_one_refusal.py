"""Every service refuses with one type, ``games.services.Refused``: a message for the
person in their language, a code for programs, an HTTP status for pages."""

from __future__ import annotations

import ast

import pytest
from django.utils import translation

from analysis import hints
from games.services import Refused
from tests.layers.test_app_imports import LAYERS, ROOT


def service_modules():
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "services" in path.parts or path.name == "services.py":
                yield path


def test_no_service_module_defines_a_refusal_of_its_own():
    own = []
    for path in service_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Refused"):
                own.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert own == ["games/services/common.py: Refused"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("en", "There is no such table."), ("ru", "Такого стола нет.")]
)
def test_a_hint_for_no_table_is_the_one_refusal_in_the_readers_language(language, words):
    from accounts.models import User

    user = User.objects.create_user("refused-reader")
    with translation.override(language), pytest.raises(Refused) as refused:
        hints.request_hint(10**9, user)
    assert (refused.value.message, refused.value.status) == (words, 404)
