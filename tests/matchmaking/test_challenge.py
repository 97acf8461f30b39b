""" "Play" against a friend: a private table for two, and the friend invited to it."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from friends import services as friends
from friends.models import Invite
from games.models import Match, Seat
from matchmaking import services

from .conftest import client_for, make_user, wishes

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def befriend(one, other) -> None:
    request = friends.request_friend(one, other)
    friends.accept_friend(other, request.pk)


def challenge_url(user) -> str:
    return reverse("matchmaking:challenge", args=[user.username])


def test_a_friend_is_invited_to_a_private_table_dealt_as_the_last_play_now_wishes():
    alla, boris = make_user(), make_user()
    befriend(alla, boris)
    services.create_seek(alla, **wishes(deck_size=24, speed="fast", is_rated=False))
    services.cancel_seek(alla)
    answer = client_for(alla).post(challenge_url(boris), **HTMX)
    match = Match.objects.get()
    assert answer["HX-Redirect"] == reverse("table:table", args=[match.pk])
    assert match.status == Match.Status.WAITING and match.is_private
    assert (match.players, match.engine_rules.deck_size, match.turn_seconds) == (2, 24, 15)
    assert not match.is_rated
    assert list(
        Seat.objects.filter(match=match, user__isnull=False).values_list("user", flat=True)
    ) == [alla.pk]
    invite = Invite.objects.get()
    assert (invite.from_user, invite.to_user, invite.match) == (alla, boris, match)
    # Boris accepts, and the game starts.
    friends.answer_invite(boris, invite.pk, accept=True)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_without_a_last_choice_the_table_is_podkidnoy_36_normal_and_rated():
    alla, boris = make_user(), make_user()
    befriend(alla, boris)
    client_for(alla).post(challenge_url(boris), **HTMX)
    match = Match.objects.get()
    assert match.engine_rules.deck_size == 36 and match.engine_rules.mode == "podkidnoy"
    assert match.turn_seconds == 30 and match.is_rated


@pytest.mark.parametrize("relation", ["stranger", "blocked"])
def test_no_table_is_made_for_a_stranger_or_across_a_block(relation):
    alla, boris = make_user(), make_user()
    if relation == "blocked":
        befriend(alla, boris)
        friends.block(boris, alla)
    client = client_for(alla, "ru")
    answer = client.post(challenge_url(boris), **HTMX)
    assert answer["HX-Redirect"] == reverse("table:lobby")
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert said and all(any("а" <= ch <= "я" for ch in text) for text in said), said
    assert not Match.objects.exists() and not Invite.objects.exists()


def test_the_lobby_offers_play_beside_each_friend():
    alla, boris = make_user(), make_user()
    befriend(alla, boris)
    page = client_for(alla, "ru").get("/").content.decode()
    panel = page[page.index('id="friends-panel"') :]
    assert f'hx-post="{challenge_url(boris)}"' in panel and "Сыграть" in panel
