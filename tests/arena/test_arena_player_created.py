"""Arenas created by players: the arenas page's form makes a public or private arena,
limited per user and per address; bad input is refused with nothing made."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from arena import player_arenas, services
from arena.models import Arena
from games.models import RuleVariant
from games.services import Refused

from .conftest import person

pytestmark = pytest.mark.django_db

CREATE = reverse("arena:create")


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # the per-user and per-address counts live in the cache
    yield
    cache.clear()


def form(**fields) -> dict:
    values = {
        "name": "Пятничный подкидной",
        "variant": RuleVariant.objects.get(slug="classic").pk,
        "players_per_table": 2,
        "turn_seconds": 15,
        "minutes": 30,
        "starts_in": 10,
        "password": "",
    }
    values.update(fields)
    return values


def signed_in(user=None, address: str = "10.0.0.1", language: str = "en") -> Client:
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user or person())
    return client


def test_a_player_creates_a_public_arena_from_the_arenas_page():
    user = person()
    client = signed_in(user)
    page = client.get(reverse("arena:list")).content.decode()
    assert 'data-testid="arena-create"' in page
    before = timezone.now()
    response = client.post(CREATE, form())
    arena = Arena.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("arena:detail", args=[arena.pk])
    assert (arena.name, arena.created_by, arena.turn_seconds, arena.minutes) == (
        "Пятничный подкидной",
        user,
        15,
        30,
    )
    assert not arena.is_private and not arena.is_rated and not arena.bots_allowed
    assert arena.status == Arena.Status.SCHEDULED
    assert (
        before + timedelta(minutes=10) <= arena.starts_at <= timezone.now() + timedelta(minutes=10)
    )
    listed = Client().get(reverse("arena:list")).content.decode()
    assert "Пятничный подкидной" in listed


def test_a_private_arena_asks_its_password_of_whoever_joins():
    client = signed_in()
    client.post(CREATE, form(password="berezka"))
    arena = Arena.objects.get()
    assert arena.is_private
    with pytest.raises(Refused):
        services.join(person(), arena, "wrong")
    services.join(person(), arena, "berezka")
    assert arena.players.count() == 1


def test_the_form_is_hidden_from_a_visitor_and_refused_to_them():
    page = Client().get(reverse("arena:list")).content.decode()
    assert 'data-testid="arena-create"' not in page
    response = Client().post(CREATE, form())
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Arena.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"name": ""},
        {"name": "x" * 81},
        {"turn_seconds": 1},
        {"minutes": 600},
        {"starts_in": -5},
        {"variant": 987654},
        {"players_per_table": 9},
    ],
)
def test_bad_input_is_refused_with_nothing_made(fields):
    response = signed_in().post(CREATE, form(**fields))
    assert response.status_code == 400
    assert "field-errors" in response.content.decode() or "form-errors" in (
        response.content.decode()
    )
    assert not Arena.objects.exists()


def test_a_table_size_the_variant_does_not_allow_is_refused_in_russian():
    short = RuleVariant.objects.get(slug="short-deck-24")  # four at most: 24 cards
    response = signed_in(language="ru").post(
        CREATE, form(variant=short.pk, players_per_table=short.max_players + 1)
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Создать арену" in html
    with translation.override("ru"):
        assert str(short.players_rule()) in html
    assert not Arena.objects.exists()


def test_a_player_creating_too_often_is_refused_in_both_languages(monkeypatch):
    monkeypatch.setattr(player_arenas, "CREATE_LIMIT_USER", 2)
    monkeypatch.setattr(player_arenas, "OPEN_PER_PLAYER", 10)
    user = person()
    english = signed_in(user)
    for number in range(2):
        assert english.post(CREATE, form(name=f"A{number}")).status_code == 302
    refused = english.post(CREATE, form(name="A2"))
    assert refused.status_code == 429
    assert "You are creating arenas too often" in refused.content.decode()
    russian = signed_in(user, language="ru")
    user.language = "ru"
    user.save()
    refused = russian.post(CREATE, form(name="A3"))
    assert "Вы создаёте арены слишком часто" in refused.content.decode()
    assert Arena.objects.count() == 2


def test_one_address_creating_too_many_is_refused_for_every_account_behind_it(monkeypatch):
    monkeypatch.setattr(player_arenas, "CREATE_LIMIT_ADDRESS", 2)
    for number in range(2):
        response = signed_in(address="10.9.9.9").post(CREATE, form(name=f"B{number}"))
        assert response.status_code == 302
    refused = signed_in(address="10.9.9.9").post(CREATE, form(name="B2"))
    assert refused.status_code == 429
    assert "Too many arenas were created from your network" in refused.content.decode()
    assert signed_in(address="10.1.1.1").post(CREATE, form(name="B3")).status_code == 302
    assert Arena.objects.count() == 3


def test_a_player_with_arenas_not_yet_finished_waits_for_one_to_end():
    user = person()
    client = signed_in(user)
    for number in range(player_arenas.OPEN_PER_PLAYER):
        assert client.post(CREATE, form(name=f"C{number}")).status_code == 302
    refused = client.post(CREATE, form(name="one more"))
    assert refused.status_code == 400
    assert "have not finished" in refused.content.decode()
    Arena.objects.filter(created_by=user).update(status=Arena.Status.FINISHED)
    assert client.post(CREATE, form(name="after")).status_code == 302


def test_a_guest_may_not_create_a_rated_arena_and_a_suspended_player_none():
    guest = person()
    guest.is_guest = True
    guest.save()
    refused = signed_in(guest).post(CREATE, form(is_rated="on"))
    assert refused.status_code >= 400
    assert not Arena.objects.exists()
    suspended = person()
    with pytest.raises(Refused):
        suspended.suspended_until = timezone.now() + timedelta(days=1)
        suspended.save()
        player_arenas.create_player_arena(
            suspended,
            "10.0.0.2",
            {
                "name": "x",
                "variant": RuleVariant.objects.get(slug="classic"),
                "players_per_table": 2,
                "turn_seconds": 20,
                "minutes": 30,
                "starts_in": 5,
                "is_rated": False,
                "password": "",
            },
        )
    assert not Arena.objects.exists()
