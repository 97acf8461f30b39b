"""The arena's pages: the list, one arena, its buttons, in both languages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from arena import services
from arena.models import Arena, ArenaPlayer
from games.models import RuleVariant

from .conftest import entry, person, running_arena

pytestmark = pytest.mark.django_db


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_forged_arena_id_is_404_on_every_page():
    client = client_of(person())
    for name in ("detail", "standings"):
        assert client.get(reverse(f"arena:{name}", args=[987654])).status_code == 404
    for name in ("join", "pause", "resume", "withdraw"):
        assert client.post(reverse(f"arena:{name}", args=[987654])).status_code == 404
    assert not ArenaPlayer.objects.exists()


def test_join_from_the_page_then_twice_is_refused_with_a_message():
    arena = running_arena()
    user = person()
    client = client_of(user)
    response = client.post(reverse("arena:join", args=[arena.pk]))
    assert response.status_code == 302
    again = client.post(reverse("arena:join", args=[arena.pk]))
    assert again.status_code == 400
    assert "You have already joined this arena." in again.content.decode()
    assert ArenaPlayer.objects.filter(arena=arena).count() == 1


def test_the_buttons_only_post():
    arena = running_arena()
    client = client_of(person())
    assert client.get(reverse("arena:join", args=[arena.pk])).status_code == 405
    assert not ArenaPlayer.objects.exists()


def test_withdrawing_someone_else_is_impossible():
    arena = running_arena()
    owner, other = person(), person()
    services.join(owner, arena)
    response = client_of(other).post(
        reverse("arena:withdraw", args=[arena.pk]), {"user": owner.pk, "entry": owner.pk}
    )
    assert response.status_code == 400
    mine = entry(arena, owner)
    assert not mine.withdrawn and not mine.paused


def test_the_arena_page_shows_standings_your_row_and_your_table_in_russian():
    arena = running_arena()
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    page = client_of(a, "ru").get(reverse("arena:detail", args=[arena.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Таблица" in html and "Конец через" in html
    assert reverse("table:table", args=[match_id]) in html
    assert 'data-testid="arena-my-row"' in html
    assert "Standings" not in html


def test_the_lobby_links_to_the_arenas_and_the_list_shows_them():
    arena = running_arena(name="Friday night")
    client = client_of(person())
    lobby = client.get(reverse("table:lobby")).content.decode()
    assert reverse("arena:list") in lobby
    listing = client.get(reverse("arena:list")).content.decode()
    assert "Friday night" in listing
    assert reverse("arena:detail", args=[arena.pk]) in listing


def test_a_finished_arena_shows_its_podium_and_no_buttons():
    arena = running_arena()
    users = [person() for _ in range(4)]
    for user in users:
        services.join(user, arena)
    for points, user in zip([8, 6, 4, 2], users, strict=True):
        ArenaPlayer.objects.filter(arena=arena, user=user).update(points=points)
    arena.status = Arena.Status.FINISHED
    arena.save()
    html = client_of(users[3]).get(reverse("arena:detail", args=[arena.pk])).content.decode()
    podium = html.split('data-testid="arena-podium"')[1].split("</ol>")[0]
    assert [name in podium for name in (u.username for u in users)] == [True, True, True, False]
    assert podium.index(users[0].username) < podium.index(users[1].username)
    assert "The arena is over." in html
    assert reverse("arena:withdraw", args=[arena.pk]) not in html
    assert 'hx-trigger="every' not in html  # nothing left to poll for


def test_an_admin_schedules_an_arena_and_is_its_creator():
    admin = get_user_model().objects.create_superuser(username="root", password="pw-root")
    client = Client()
    client.force_login(admin)
    variant = RuleVariant.objects.get(slug="classic")
    form = {
        "name": "Быстрый подкидной",
        "variant": variant.pk,
        "players_per_table": 2,
        "turn_seconds": 15,
        "starts_at_0": "2030-01-01",
        "starts_at_1": "20:00:00",
        "minutes": 30,
        "min_rating": 1600,
        "min_rated_games": 10,
        "password": "zimniy-vecher",
        "bots_allowed": "on",
        "bot_wait_seconds": 20,
        "bot_level": "easy",
        "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    }
    response = client.post(reverse("admin:arena_arena_add"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    arena = Arena.objects.get()
    assert arena.created_by == admin
    # The entry conditions are the admin's to set.
    assert (arena.min_rating, arena.min_rated_games, arena.password) == (1600, 10, "zimniy-vecher")
    # So are the bots that fill a wait.
    assert (arena.bots_allowed, arena.bot_wait_seconds, arena.bot_level) == (True, 20, "easy")
    assert arena.status == Arena.Status.SCHEDULED
    too_many = {**form, "players_per_table": 9}
    assert client.post(reverse("admin:arena_arena_add"), too_many).status_code == 200
    assert Arena.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You are joining, pausing or withdrawing too often; wait a minute."),
        ("ru", "Вы слишком часто вступаете, встаёте на паузу или выходите; подождите минуту."),
    ],
)
def test_a_flood_of_pauses_and_comebacks_is_refused_and_changes_nothing(language, words):
    arena = running_arena()
    player = person()
    client = client_of(player, language)
    assert client.post(reverse("arena:join", args=[arena.pk])).status_code == 302
    # The join and a pause or a comeback each, up to the minute's limit, are let through.
    for number in range(services.OWN_CHANGES_PER_MINUTE - 1):
        name = "resume" if number % 2 else "pause"
        assert client.post(reverse(f"arena:{name}", args=[arena.pk])).status_code == 302
    paused = entry(arena, player).paused
    for name in ("pause", "resume", "withdraw"):
        refused = client.post(reverse(f"arena:{name}", args=[arena.pk]))
        assert refused.status_code == 429
        assert words in refused.content.decode()
    mine = entry(arena, player)
    assert (mine.paused, mine.withdrawn) == (paused, False)
    # Another player is not held back by this one's flood.
    assert (
        client_of(person(), language).post(reverse("arena:join", args=[arena.pk])).status_code
        == 302
    )
