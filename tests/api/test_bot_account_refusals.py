"""A bot account plays through the API only: the site's own ways to a table refuse it
with a clear message and change nothing, and it never enters a pool of people.
Through the API it still opens tables and plays."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match, RuleVariant, Seat
from matchmaking import challenges
from matchmaking import services as matchmaking
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.models import Seek
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db
User = get_user_model()
SEEK = {
    "mode": "podkidnoy", "players": 2, "deck_size": 36, "speed": "normal",
    "is_rated": True, "allow_bots": False,
}  # fmt: skip
ENGLISH = "This is a bot account: it plays through the API only"


def a_bot(name: str = "robo"):
    return turn_into_bot(make_user(name))


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def an_open_table():
    """A public table of another player, waiting for a second one."""
    return services.create_match(make_user("host"), RuleVariant.objects.get(slug="classic"), 2)


@pytest.mark.parametrize("is_rated", [True, False])
def test_a_bot_account_never_enters_a_pool_of_people(is_rated):
    robo = a_bot()
    with pytest.raises(services.Refused) as refused:
        matchmaking.create_seek(robo, **{**SEEK, "is_rated": is_rated})
    assert refused.value.code == "bot_account"
    assert not Seek.objects.exists()


def test_play_now_on_the_page_is_refused_in_both_languages():
    robo = a_bot()
    for language, words in (("en", ENGLISH), ("ru", "Это аккаунт бота")):
        response = signed_in(robo, language).post(
            reverse("matchmaking:play"), SEEK, HTTP_HX_REQUEST="true"
        )
        assert words in response.content.decode()
    practice = signed_in(robo).post(
        reverse("matchmaking:play"), {**SEEK, "practice": "1", "practice_level": "easy"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert ENGLISH in practice.content.decode()
    assert not Seek.objects.exists() and not Match.objects.exists()


def test_a_seek_waiting_when_its_account_became_a_bot_is_never_paired_with_a_person():
    robo, person = make_user("robo"), make_user("person")
    matchmaking.create_seek(robo, **SEEK)
    # The service refuses to turn a seeking account; the row is changed under it,
    # as a race would, to show the pairing keeps the pool to people all the same:
    # the seek is the bot pool's now.
    User.objects.filter(pk=robo.pk).update(is_bot=True)
    matchmaking.create_seek(person, **SEEK)
    assert matchmaking.pair_all() == []
    assert Seek.objects.get(user=robo).status == Seek.Status.WAITING
    assert Seek.objects.get(user=person).status == Seek.Status.WAITING
    assert not Seat.objects.exists()


def test_the_lobby_refuses_a_bot_account_its_tables():
    robo = a_bot()
    table = an_open_table()
    joined = signed_in(robo).post(reverse("table:join", args=[table.pk]), follow=True)
    assert ENGLISH in joined.content.decode()
    by_link = signed_in(robo).post(
        reverse("table:join_by_token", args=[table.invite_token]), follow=True
    )
    assert ENGLISH in by_link.content.decode()
    created = signed_in(robo).post(
        reverse("table:create"), {"variant": table.variant_id, "players": 2, "bots": "easy"}
    )
    assert ENGLISH in created.content.decode()
    assert not Seat.objects.filter(user=robo).exists()
    assert Match.objects.count() == 1


def test_a_bot_account_does_not_accept_an_invite_on_the_site():
    from friends import services as friends
    from friends.models import Invite

    person, robo = make_user("person"), a_bot()
    friends.accept_friend(robo, friends.request_friend(person, robo).pk)
    table = services.create_match(person, RuleVariant.objects.get(slug="classic"), 2)
    invite = friends.invite(person, robo, table.pk)
    answered = signed_in(robo).post(
        reverse("friends:answer", args=[invite.pk]), {"answer": "join"}, follow=True
    )
    assert ENGLISH in answered.content.decode()
    assert Invite.objects.get(pk=invite.pk).status == Invite.Status.PENDING
    assert not Seat.objects.filter(user=robo).exists()


def test_a_bot_account_does_not_challenge_from_the_site():
    robo, person = a_bot(), make_user("person")
    with pytest.raises(services.Refused) as refused:
        challenges.challenge(robo, person)
    assert refused.value.code == "bot_account"
    assert not Match.objects.exists()


def test_a_bot_account_does_not_join_an_arena():
    from arena.models import ArenaPlayer
    from arena.services import join
    from tests.arena.conftest import running_arena

    arena = running_arena()
    with pytest.raises(services.Refused) as refused:
        join(a_bot(), arena)
    assert refused.value.code == "bot_account"
    assert not ArenaPlayer.objects.exists()


def test_the_daily_deal_and_playing_on_from_a_game_refuse_a_bot_account():
    from analysis.play_on import play_on
    from daily.models import DailyEntry
    from daily.services import deal_of_the_day, start_daily

    robo = a_bot()
    with pytest.raises(services.Refused) as daily:
        start_daily(robo, deal_of_the_day(RuleVariant.objects.get(slug="classic")))
    assert daily.value.code == "bot_account"
    table = an_open_table()
    with pytest.raises(services.Refused) as played_on:
        play_on(robo, table.pk, 1, "0", "")
    assert played_on.value.code == "bot_account"
    assert not DailyEntry.objects.exists()
    assert list(Match.objects.all()) == [table]


def test_through_the_api_a_bot_account_opens_a_table_and_plays():
    robo = a_bot()
    secret = token_of(robo)
    opened = api_client(secret).post(
        "/api/tables", '{"level": "easy"}', content_type="application/json"
    )
    assert opened.status_code == 201, opened.content
    match_id = opened.json()["match_id"]
    assert Seat.objects.filter(match_id=match_id, user=robo).exists()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_its_web_table_socket_is_refused_with_a_message():
    robo = await db(a_bot)
    secret = await db(token_of, robo)
    opened = await db(
        lambda: api_client(secret).post(
            "/api/tables", '{"level": "easy"}', content_type="application/json"
        )
    )
    match_id = opened.json()["match_id"]
    socket = Socket(f"/ws/games/{match_id}/", await db(session_cookie, robo))
    connected, _code = await socket.open()
    assert connected
    frame = await socket.receive()
    assert ENGLISH in frame.replace("&#x27;", "'")
    closed = await socket.comm.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
