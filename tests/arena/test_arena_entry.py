"""An arena's entry conditions: a least rating, a least number of rated games, and a
password for a private arena."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from arena import services
from arena.models import ArenaPlayer
from games.services import Refused
from history.models import Rating

from .conftest import entry, person, running_arena

pytestmark = pytest.mark.django_db


def rated(user, rating: float = 1500, games: int = 0, rating_class: str = "two_player"):
    Rating.objects.create(user=user, rating_class=rating_class, rating=rating, games=games)
    return user


def refused_join(user, arena, password: str = "") -> Refused:
    before = list(ArenaPlayer.objects.values())
    with pytest.raises(Refused) as refusal:
        services.join(user, arena, password)
    assert list(ArenaPlayer.objects.values()) == before
    return refusal.value


def test_a_rating_below_the_least_is_refused_and_changes_nothing():
    arena = running_arena(min_rating=1600)
    refusal = refused_join(rated(person(), 1580, games=30), arena)
    assert refusal.code == "rating"
    assert "at least 1600" in refusal.message and "yours is 1580" in refusal.message
    services.join(rated(person(), 1600, games=30), arena)
    assert ArenaPlayer.objects.filter(arena=arena).count() == 1


def test_the_rating_counts_in_the_arenas_rating_class_only():
    arena = running_arena(min_rating=1600)
    # Strong at tables of three or more, unrated at two: the start rating, 1500.
    refusal = refused_join(rated(person(), 1900, games=50, rating_class="multi"), arena)
    assert "yours is 1500" in refusal.message


def test_too_few_rated_games_are_refused():
    arena = running_arena(min_rated_games=10)
    refusal = refused_join(rated(person(), 1700, games=9), arena)
    assert refusal.code == "rated_games"
    assert "at least 10 rated games" in refusal.message
    assert "you have played 9" in refusal.message
    assert refused_join(person(), arena).code == "rated_games"  # never rated: no games
    services.join(rated(person(), 1700, games=10), arena)


def test_a_private_arena_needs_its_password():
    arena = running_arena(password="zimniy-vecher")
    user = person()
    assert refused_join(user, arena).code == "password"
    refusal = refused_join(user, arena, "zimniy")
    assert "password is wrong" in refusal.message
    services.join(user, arena, "zimniy-vecher")
    assert entry(arena, user).withdrawn is False


def test_a_player_coming_back_meets_the_conditions_again():
    arena = running_arena(password="secret")
    user = person()
    services.join(user, arena, "secret")
    services.withdraw(user, arena)
    assert refused_join(user, arena, "wrong").code == "password"
    assert entry(arena, user).withdrawn is True
    services.join(user, arena, "secret")


def test_joining_twice_says_so_before_the_conditions():
    arena = running_arena(password="secret")
    user = person()
    services.join(user, arena, "secret")
    assert refused_join(user, arena).code == "joined"


def test_the_refusals_speak_russian_to_a_russian_player():
    arena = running_arena(min_rating=1600, min_rated_games=5)
    low = rated(person(), 1400, games=20)
    few = rated(person(), 1700, games=2)
    with translation.override("ru"):
        assert "рейтинг" in refused_join(low, arena).message
        assert "рейтинговых партий" in refused_join(few, arena).message
    private = running_arena(password="secret")
    with translation.override("ru"):
        assert "пароль" in refused_join(person(), private).message


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("language", "asks", "wrong"),
    [
        ("en", "Password of this private arena", "the password is wrong"),
        ("ru", "Пароль закрытой арены", "пароль неверный"),
    ],
)
def test_the_join_form_asks_for_the_password_and_refuses_a_wrong_one(language, asks, wrong):
    arena = running_arena(password="secret", min_rating=1000)
    user = person()
    client = client_of(user, language)
    page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert asks in page
    assert 'name="password" form="arena-join-form"' in page
    # Outside the part the page refreshes as the arena changes: what is typed stays.
    part = client.get(reverse("arena:standings", args=[arena.pk])).content.decode()
    assert 'id="arena-join-form"' in part and 'name="password"' not in part
    response = client.post(reverse("arena:join", args=[arena.pk]), {"password": "nope"})
    assert response.status_code == 403
    assert wrong in response.content.decode()
    assert not ArenaPlayer.objects.exists()
    response = client.post(reverse("arena:join", args=[arena.pk]), {"password": "secret"})
    assert response.status_code == 302
    assert entry(arena, user).withdrawn is False


def test_an_open_arena_asks_no_password_and_shows_no_conditions():
    arena = running_arena()
    page = client_of(person()).get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert 'name="password"' not in page
    assert 'data-testid="arena-conditions"' not in page


def test_the_page_names_the_conditions():
    arena = running_arena(min_rating=1600, min_rated_games=10, password="x")
    page = client_of(person()).get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert "a rating of at least 1600 (Two players)" in page
    assert "at least 10 rated games (Two players)" in page
    listing = client_of(person()).get(reverse("arena:list")).content.decode()
    assert "🔒" in listing
