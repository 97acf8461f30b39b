""" "New opponent" after a game that "Play now" made: the same wishes, another table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as tables
from games.models import Match, RuleVariant
from matchmaking import services
from matchmaking.models import Seek

from .conftest import client_for, make_user, wishes

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def finished_play_now_game(**changes) -> tuple[Match, list]:
    people = [make_user(), make_user()]
    for person in people:
        seek = services.create_seek(person, **wishes(**changes))
    match = Match.objects.get(pk=seek.match_id)
    tables.resign(match.pk, people[1])
    return match, people


def test_the_button_is_offered_after_a_play_now_game_in_the_players_language():
    match, people = finished_play_now_game()
    url = reverse("matchmaking:new_opponent", args=[match.pk])
    answer = client_for(people[0], "ru").get(url)
    assert answer.status_code == 200 and "Новый соперник" in answer.content.decode()
    # The result panel asks for it.
    page = client_for(people[0]).get(reverse("table:table", args=[match.pk])).content.decode()
    assert f'hx-get="{url}"' in page


def test_no_button_after_a_table_made_in_the_lobby_or_for_a_stranger():
    alla, boris = make_user(), make_user()
    match = tables.create_match(alla, RuleVariant.objects.get(slug="classic"), 2)
    tables.join_match(match, boris)
    tables.resign(match.pk, boris)
    url = reverse("matchmaking:new_opponent", args=[match.pk])
    assert client_for(alla).get(url).status_code == 204
    played, _people = finished_play_now_game()
    stranger = make_user()
    other_url = reverse("matchmaking:new_opponent", args=[played.pk])
    assert client_for(stranger).get(other_url).status_code == 204
    assert client_for(stranger).post(other_url, **HTMX).status_code == 204
    assert not Seek.objects.filter(user=stranger).exists()


def test_it_looks_again_with_the_same_wishes_and_meets_the_next_player():
    match, people = finished_play_now_game(deck_size=24, speed="fast", is_rated=False)
    url = reverse("matchmaking:new_opponent", args=[match.pk])
    answer = client_for(people[0]).post(url, **HTMX)
    assert answer["HX-Redirect"] == reverse("table:lobby")
    again = Seek.objects.get(user=people[0], status=Seek.Status.WAITING)
    assert (again.deck_size, again.speed, again.is_rated) == (24, "fast", False)
    # The next player with those wishes sits down with them at a new table.
    newcomer = make_user()
    services.create_seek(newcomer, **wishes(deck_size=24, speed="fast", is_rated=False))
    again.refresh_from_db()
    assert again.match_id not in (None, match.pk)
    # Asked twice while looking: refused, and nothing more is made.
    other = client_for(people[1]).post(url, **HTMX)
    assert other["HX-Redirect"] == reverse("table:lobby")
    again_again = client_for(people[1]).post(url, **HTMX)
    assert again_again["HX-Redirect"] == reverse("table:lobby")
    assert Seek.objects.filter(user=people[1], status=Seek.Status.WAITING).count() == 1
