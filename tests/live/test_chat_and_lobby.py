"""Chat rules, the lobby, creating and joining tables, suspended users."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import ChatMessage, Match, RuleVariant, Seat

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def classic():
    return RuleVariant.objects.get(slug="classic")


def playing_table():
    users = [make_user("mila"), make_user("oleg"), make_user("watcher")]
    match = services.create_match(users[0], classic(), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    return match, users


@in_own_loop
async def test_chat_is_escaped_and_spectators_talk_among_themselves_until_the_end():
    match, users = await db(playing_table)
    player, other, watcher = [
        Socket(f"/ws/games/{match.pk}/", await db(session_cookie, u)) for u in users
    ]
    for sock in (player, other, watcher):
        assert (await sock.open())[0]
        await sock.drain()
    await player.send(
        {"type": "chat", "text": "<script>alert(1)</script> hi", "HEADERS": {"HX-Request": "true"}}
    )
    frame = await other.until(lambda f: 'id="table-chat"' in f)
    assert "&lt;script&gt;" in frame and "<script>" not in frame
    await watcher.until(lambda f: "&lt;script&gt;" in f)

    await watcher.send({"type": "chat", "text": "spectators only"})
    seen = await watcher.until(lambda f: "spectators only" in f)
    assert "spectators only" in seen
    await player.drain()
    assert not any("spectators only" in f for f in player.frames)
    message = await db(lambda: ChatMessage.objects.get(text="spectators only"))
    assert message.channel == ChatMessage.Channel.SPECTATORS

    # The game ends: the players now see the spectators' channel too.
    await db(services.resign, match.pk, users[0])
    await player.until(lambda f: "Game over" in f)
    await player.send({"type": "sync"})
    await player.until(lambda f: "spectators only" in f)

    # A moderator hides a message: it disappears from open tables at once.
    await db(services.hide_chat_messages, [message.pk], users[2])
    frame = await watcher.until(lambda f: 'id="table-chat"' in f)
    assert "spectators only" not in frame
    for sock in (player, other, watcher):
        await sock.close()


def test_chat_limits_length_rate_and_muted_users():
    match, users = playing_table()
    with pytest.raises(services.Refused, match="at most 300"):
        services.post_chat(match.pk, users[0], "x" * 301)
    with pytest.raises(services.Refused):
        services.post_chat(match.pk, users[0], "   ")
    for n in range(3):
        services.post_chat(match.pk, users[0], f"line {n}")
    with pytest.raises(services.Refused, match="too fast"):
        services.post_chat(match.pk, users[0], "one more")
    users[1].muted_until = timezone.now() + timedelta(hours=1)
    users[1].save()
    with pytest.raises(services.Refused, match="muted"):
        services.post_chat(match.pk, users[1], "hello")
    assert ChatMessage.objects.filter(match=match).count() == 3


def test_suspended_users_cannot_create_or_join():
    creator, banned = make_user("nika"), make_user("banned", suspended_forever=True)
    with pytest.raises(services.Refused, match="suspended"):
        services.create_match(banned, classic(), 2)
    match = services.create_match(creator, classic(), 2)
    with pytest.raises(services.Refused, match="suspended"):
        services.join_match(match, banned)
    assert Seat.objects.filter(match=match, user__isnull=False).count() == 1


@in_own_loop
async def test_anonymous_sockets_are_refused():
    match, users = await db(playing_table)
    for path in (f"/ws/games/{match.pk}/", "/ws/lobby/"):
        connected, _ = await Socket(path, None).open()
        assert not connected


@in_own_loop
async def test_private_tables_hide_from_strangers_and_the_lobby_updates_live():
    creator, stranger = await db(make_user, "olga"), await db(make_user, "pyotr")
    lobby = Socket("/ws/lobby/", await db(session_cookie, stranger))
    assert (await lobby.open())[0]
    assert "No open tables" in await lobby.receive()
    private = await db(services.create_match, creator, await db(classic), 2, is_private=True)
    sock = Socket(f"/ws/games/{private.pk}/", await db(session_cookie, stranger))
    assert not (await sock.open())[0]
    public = await db(services.create_match, creator, await db(classic), 3)
    frame = await lobby.until(lambda f: f'data-match="{public.pk}"' in f)
    assert "1/3" in frame and f'data-match="{private.pk}"' not in frame
    await db(services.join_match, public, stranger)
    frame = await lobby.until(lambda f: "2/3" in f)
    assert "pyotr" in frame
    await lobby.close()


def test_lobby_create_join_leave_and_invite(client):
    creator, friend, other = make_user("rita"), make_user("sasha"), make_user("timur")
    client.force_login(creator)
    assert client.get("/").status_code == 200
    variant = classic()
    # A forged seat beyond the table size, and a size outside the variant's range.
    bad = client.post(
        reverse("table:create"), {"variant": variant.pk, "players": 2, "seat_3": "easy"}
    )
    assert bad.status_code == 400 and Match.objects.count() == 0
    bad = client.post(reverse("table:create"), {"variant": variant.pk, "players": 9})
    assert bad.status_code == 400 and Match.objects.count() == 0
    teams = RuleVariant.objects.get(slug="teams-2x2")
    bad = client.post(reverse("table:create"), {"variant": teams.pk, "players": 2})
    assert bad.status_code == 400 and Match.objects.count() == 0

    response = client.post(
        reverse("table:create"),
        {"variant": variant.pk, "players": 3, "is_private": "on", "seat_1": "hard"},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "table:table", args=[match.pk]
    )
    assert match.is_private and not match.is_rated
    assert [s.bot_level for s in match.seats.order_by("number")] == ["", "hard", ""]
    page = client.get(reverse("table:table", args=[match.pk]))
    assert match.invite_token in page.content.decode()

    client.force_login(other)
    assert client.get(reverse("table:table", args=[match.pk])).status_code == 404
    client.post(reverse("table:join", args=[match.pk]))
    assert not Seat.objects.filter(match=match, user=other).exists()

    client.force_login(friend)
    invite = reverse("table:join_by_token", args=[match.invite_token])
    assert client.get(invite).status_code == 200
    response = client.post(invite)
    assert response.status_code == 302
    match.refresh_from_db()
    # The last seat filled: the table started by itself.
    assert match.status == Match.Status.PLAYING and match.live_deal is not None
    page = client.get(reverse("table:table", args=[match.pk])).content.decode()
    assert 'ws-connect="/ws/games/' in page and 'class="hand-card"' in page


def test_leave_before_start_and_creator_start(client, settings):
    settings.GAMES_AUTO_START = False
    creator, guest = make_user("ulya"), make_user("fedor")
    match = services.create_match(creator, classic(), 2)
    services.join_match(match, guest)
    with pytest.raises(services.Refused, match="creator"):
        services.start_match(match, guest)
    services.leave_match(match, guest)
    with pytest.raises(services.Refused, match="every seat"):
        services.start_match(match, creator)
    client.force_login(guest)
    client.post(reverse("table:join", args=[match.pk]))
    client.force_login(creator)
    client.post(reverse("table:start", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    with pytest.raises(services.Refused, match="resign"):
        services.leave_match(match, guest)


def test_rematch_deals_the_next_game_and_abort_unrates():
    from games.signals import match_aborted

    match, users = playing_table()
    services.resign(match.pk, users[1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Seat.objects.get(match=match, number=1).fools == 1
    # The first player's rematch is an offer; the second player's starts the game.
    assert services.start_next_deal(match, users[0]) is None
    deal = services.start_next_deal(match, users[1])
    assert deal.number == 2 and deal.dealer == 1
    received = []
    match_aborted.connect(lambda **kw: received.append(kw["reason"]), weak=False, dispatch_uid="t")
    try:
        services.abort_match(match, "cheating", by=users[2])
    finally:
        match_aborted.disconnect(dispatch_uid="t")
    match.refresh_from_db()
    deal.refresh_from_db()
    assert received == ["cheating"] and match.status == Match.Status.ABORTED and not match.is_rated
    assert deal.status == deal.Status.ABORTED and match.abort_reason == "cheating"
