"""Friends, presence, invites and blocks, through the services, pages and sockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from friends import services
from friends.models import Block, Friendship, Invite
from games import services as games
from games.models import Match, RuleVariant, Seat
from games.services import Refused
from games.socket_guard import SocketQuota
from matchmaking import services as matchmaking
from matchmaking.models import Seek
from tests.live.conftest import Socket
from tests.matchmaking.conftest import make_user, wishes
from tests.sockets import db, in_own_loop, session_cookie

pytestmark = pytest.mark.django_db


def friends(a, b) -> None:
    services.request_friend(a, b)
    services.accept_friend(b, Friendship.objects.get(from_user=a, to_user=b).pk)


def waiting_table(creator) -> Match:
    return games.create_match(creator, RuleVariant.objects.get(slug="classic"), 2)


def test_a_request_accepted_makes_friends_and_unfriend_ends_it():
    anna, boris = make_user(), make_user()
    services.request_friend(anna, boris)
    assert services.friend_ids(anna.pk) == set()
    assert [r.from_user for r in services.panel(boris)["incoming"]] == [anna]
    services.accept_friend(boris, Friendship.objects.get().pk)
    assert services.friend_ids(anna.pk) == {boris.pk} and services.friend_ids(boris.pk) == {anna.pk}
    assert services.panel(anna)["friends"] == [(boris, "away")]
    services.unfriend(boris, anna)
    assert not Friendship.objects.exists()


def test_asking_someone_who_asked_you_accepts():
    anna, boris = make_user(), make_user()
    services.request_friend(anna, boris)
    services.request_friend(boris, anna)
    assert services.friend_ids(anna.pk) == {boris.pk}


@pytest.mark.parametrize("who", ["self", "blocked", "blocker"])
def test_requests_to_yourself_or_across_a_block_are_refused(who):
    anna, boris = make_user(), make_user()
    if who == "blocked":
        services.block(boris, anna)
    if who == "blocker":
        services.block(anna, boris)
    with pytest.raises(Refused) as refused:
        services.request_friend(anna, anna if who == "self" else boris)
    assert refused.value.code == ("self" if who == "self" else "blocked")
    assert not Friendship.objects.exists()


def test_a_request_and_invite_flood_is_refused(monkeypatch):
    monkeypatch.setattr(services, "SOCIAL_RATE", (3, 60))
    anna = make_user()
    for _ in range(3):
        services.request_friend(anna, make_user())
    with pytest.raises(Refused) as refused:
        services.request_friend(anna, make_user())
    assert refused.value.code == "rate_limited"
    assert Friendship.objects.count() == 3


def test_invites_go_to_friends_at_a_waiting_table_only():
    anna, boris, stranger = make_user(), make_user(), make_user()
    friends(anna, boris)
    match = waiting_table(anna)
    for other, code in ((anna, "self"), (stranger, "not_friend")):
        with pytest.raises(Refused) as refused:
            services.invite(anna, other, match.pk)
        assert refused.value.code == code
    with pytest.raises(Refused) as refused:
        services.invite(boris, anna, match.pk)  # Boris has no seat there
    assert refused.value.code == "not_seated"
    invite = services.invite(anna, boris, match.pk)
    assert services.pending_invites(boris) == [invite]
    services.answer_invite(boris, invite.pk, accept=True)
    assert Seat.objects.filter(match=match, user=boris).exists()
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    assert services.pending_invites(boris) == []


def test_a_declined_invite_seats_nobody():
    anna, boris = make_user(), make_user()
    friends(anna, boris)
    match = waiting_table(anna)
    invite = services.invite(anna, boris, match.pk)
    services.answer_invite(boris, invite.pk, accept=False)
    assert Invite.objects.get().status == Invite.Status.DECLINED
    assert not Seat.objects.filter(match=match, user=boris).exists()
    with pytest.raises(Refused):
        services.answer_invite(boris, invite.pk, accept=True)


def test_a_block_ends_the_friendship_and_keeps_them_apart():
    anna, boris = make_user(), make_user()
    friends(anna, boris)
    match = waiting_table(anna)
    invite = services.invite(anna, boris, match.pk)
    services.block(anna, boris)
    assert services.friend_ids(anna.pk) == set()
    assert Invite.objects.get(pk=invite.pk).status == Invite.Status.DECLINED
    # Boris cannot join Anna's table, nor watch it (and so not read her chat).
    with pytest.raises(Refused) as refused:
        games.join_match(match, boris)
    assert refused.value.code == "blocked"
    assert not Seat.objects.filter(user=boris).exists()
    watcher = Client()
    watcher.force_login(boris)
    assert watcher.get(reverse("table:table", args=[match.pk])).status_code == 404
    # Nor can he invite her, and their seeks are never paired.
    with pytest.raises(Refused):
        services.invite(boris, anna, match.pk)
    first = matchmaking.create_seek(anna, **wishes())
    second = matchmaking.create_seek(boris, **wishes())
    Seek.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert matchmaking.pair_all() == []
    assert {first.status, second.status} == {Seek.Status.WAITING}
    services.unblock(anna, boris)
    assert len(matchmaking.pair_all()) == 1


def test_presence_is_online_playing_or_away():
    anna, boris, carl = make_user(), make_user(), make_user()
    quota = SocketQuota(anna.pk, None, "test-socket-anna")
    assert quota.admit()
    playing = SocketQuota(boris.pk, None, "test-socket-boris")
    assert playing.admit()
    match = waiting_table(boris)
    dan = make_user()
    games.join_match(match, carl)
    # The status follows the seat: carl, seated with no page open yet, is playing.
    assert services.presence_of([anna.pk, boris.pk, carl.pk, dan.pk]) == {
        anna.pk: "online",
        boris.pk: "playing",
        carl.pk: "playing",
        dan.pk: "away",
    }
    quota.release()
    assert services.presence_of([anna.pk])[anna.pk] == "away"


def test_a_friend_at_a_public_game_in_play_can_be_watched_from_the_panel():
    anna, boris, carl, dan = make_user(), make_user(), make_user(), make_user()
    for friend in (boris, carl, dan):
        friends(anna, friend)
    classic = RuleVariant.objects.get(slug="classic")
    public = games.create_match(boris, classic, 2, bots=["medium"])
    private = games.create_match(carl, classic, 2, bots=["medium"], is_private=True)
    waiting_table(dan)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(anna)
    panel = client.get("/").content.decode().split('id="friends-panel"')[1].split("</section>")[0]
    rows = {row.split('"')[0]: row for row in panel.split('data-friend="')[1:]}
    assert reverse("table:table", args=[public.pk]) in rows[boris.username]
    assert "Смотреть" in rows[boris.username]
    assert reverse("table:table", args=[private.pk]) not in panel
    assert "Смотреть" not in rows[carl.username] and "Смотреть" not in rows[dan.username]


def test_no_watch_link_to_a_game_where_another_player_blocked_you():
    anna, boris, fay = make_user(), make_user(), make_user()
    friends(anna, boris)
    services.block(fay, anna)
    match = waiting_table(boris)
    games.join_match(match, fay)
    assert services.tables_to_watch([boris.pk], boris) == {boris.pk: match.pk}
    assert services.tables_to_watch([boris.pk], anna) == {}
    client = Client()
    client.force_login(anna)
    panel = client.get("/").content.decode().split('id="friends-panel"')[1].split("</section>")[0]
    assert 'data-presence="playing"' in panel
    assert reverse("table:table", args=[match.pk]) not in panel


def test_a_profile_offers_to_watch_the_public_game_its_player_is_in():
    anna, boris = make_user(), make_user()
    match = games.create_match(boris, RuleVariant.objects.get(slug="classic"), 2, bots=["medium"])
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(anna)
    profile = reverse("accounts:profile", args=[boris.username])
    watch = f'href="{reverse("table:table", args=[match.pk])}"'
    page = client.get(profile).content.decode()
    assert "Сейчас играет" in page and watch in page
    games.resign(match.pk, boris)
    page = client.get(profile).content.decode()
    assert "Сейчас играет" not in page and watch not in page


def test_profile_offers_friend_and_block_in_russian():
    anna, boris = make_user(), make_user()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(anna)
    page = client.get(reverse("accounts:profile", args=[boris.username])).content.decode()
    assert "Добавить в друзья" in page and "Заблокировать" in page
    client.post(reverse("friends:add", args=[boris.username]))
    page = client.get(reverse("accounts:profile", args=[boris.username])).content.decode()
    assert "Заявка отправлена" in page
    response = client.post(reverse("friends:add", args=[anna.username]), follow=True)
    assert "Это вы." in response.content.decode()
    client.post(reverse("friends:block", args=[boris.username]))
    assert Block.objects.filter(blocker=anna, blocked=boris).exists()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_an_invite_arrives_live_on_the_table_socket_and_requests_on_the_lobby():
    anna, boris = await db(make_user), await db(make_user)
    other_table = await db(waiting_table, boris)
    table = Socket(f"/ws/games/{other_table.pk}/", await db(session_cookie, boris))
    lobby = Socket("/ws/lobby/", await db(session_cookie, boris))
    for sock in (table, lobby):
        assert (await sock.open())[0]
        await sock.drain()
    await db(services.request_friend, anna, boris)
    panel = await lobby.until(lambda f: 'id="friends-panel"' in f and "wants to be friends" in f)
    assert anna.username in panel
    request = await db(Friendship.objects.get)
    await db(services.accept_friend, boris, request.pk)
    match = await db(waiting_table, anna)
    await db(services.invite, anna, boris, match.pk)
    for sock in (table, lobby):
        notice = await sock.until(lambda f: 'id="invite-notice"' in f and "invites you" in f)
        assert f"#{match.pk}" in notice and 'hx-swap-oob="true"' in notice
    for sock in (table, lobby):
        await sock.close()


def _seat_by_pairing(boris) -> None:
    partner = make_user()
    matchmaking.create_seek(partner, **wishes())
    matchmaking.create_seek(boris, **wishes())


def _seat_by_joining(boris) -> None:
    games.join_match(waiting_table(make_user()), boris)


def _seat_by_invite(boris) -> None:
    host = make_user()
    friends(host, boris)
    match = waiting_table(host)
    invite = services.invite(host, boris, match.pk)
    services.answer_invite(boris, invite.pk, accept=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("seat", [_seat_by_pairing, _seat_by_joining, _seat_by_invite])
@in_own_loop
async def test_a_friend_just_seated_shows_playing_at_once_over_the_lobby_socket(seat):
    anna, boris = await db(make_user), await db(make_user)
    await db(friends, anna, boris)
    lobby = Socket("/ws/lobby/", await db(session_cookie, anna))
    assert (await lobby.open())[0]
    await lobby.drain()
    await db(seat, boris)  # boris opens no socket: no table page has loaded yet
    panel = await lobby.until(
        lambda f: f'data-friend="{boris.username}" data-presence="playing"' in f
    )
    assert "playing" in panel
    await lobby.close()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_an_invite_arrives_live_on_the_notice_socket_of_any_other_page():
    anna, boris = await db(make_user), await db(make_user)
    await db(friends, anna, boris)
    notices = Socket("/ws/notices/", await db(session_cookie, boris))
    assert (await notices.open())[0]
    await notices.drain()
    match = await db(waiting_table, anna)
    await db(services.invite, anna, boris, match.pk)
    notice = await notices.until(lambda f: 'id="invite-notice"' in f and "invites you" in f)
    assert f"#{match.pk}" in notice and 'hx-swap-oob="true"' in notice
    # An open notice socket is an open page: boris is online to his friends.
    assert await db(services.presence_of, [boris.pk]) == {boris.pk: "online"}
    await notices.close()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_the_notice_socket_refuses_a_visitor_who_is_not_signed_in():
    connected, _code = await Socket("/ws/notices/", None).open()
    assert not connected


def test_every_signed_in_page_opens_one_socket_and_the_lobby_and_table_their_own():
    anna = make_user()
    client = Client()
    client.force_login(anna)
    match = waiting_table(anna)

    def sockets(url: str) -> list[str]:
        page = client.get(url).content.decode()
        return [part.split('"')[1] for part in page.split("ws-connect=")[1:]]

    assert sockets(reverse("accounts:profile", args=[anna.username])) == ["/ws/notices/"]
    assert sockets(reverse("daily:leaderboard")) == ["/ws/notices/"]
    assert sockets(reverse("table:lobby")) == ["/ws/lobby/"]
    assert sockets(reverse("table:table", args=[match.pk])) == [f"/ws/games/{match.pk}/"]
    client.logout()
    assert sockets(reverse("daily:leaderboard")) == []
