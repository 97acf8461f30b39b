"""An arena table's page leads back to its arena, in the reader's language; a table
outside arenas says nothing of arenas."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from arena import services
from games import services as games
from games.models import RuleVariant
from tests.arena.conftest import person, running_arena

pytestmark = pytest.mark.django_db


def page_of(user, match_id: int, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("table:table", args=[match_id])).content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["A table of the arena “Ночная арена”.", "Back to the arena"]),
        ("ru", ["Стол арены «Ночная арена».", "Вернуться на арену"]),
    ],
)
def test_an_arena_table_links_to_its_arena(language, words):
    arena = running_arena(name="Ночная арена")
    one, two = person(), person()
    for user in (one, two):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    page = page_of(one, match_id, language)
    for text in words:
        assert text in page
    assert f'href="{reverse("arena:detail", args=[arena.pk])}"' in page


def test_a_table_outside_arenas_has_no_arena_line():
    host = person()
    match = games.create_match(host, RuleVariant.objects.get(slug="classic"), 2, bots=["easy"])
    page = page_of(host, match.pk, "en")
    assert 'data-testid="table-arena"' not in page
    assert "Back to the arena" not in page
