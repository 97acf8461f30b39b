"""The account's event stream, in this process: what it tells and when (its games
starting and finishing, the invites it receives, each once), who may open it, and
the seats' news waking only the event streams."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from api.events import CHANNEL_PREFIX, AccountEvents, wake_event_streams
from friends import services as friends
from games import services
from games.models import RuleVariant
from games.socket_rows import OpenSocket
from history.models import PlayerGame

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def classic():
    return RuleVariant.objects.get(slug="classic")


def playing(one, other):
    match = services.create_match(one, classic(), 2)
    services.join_match(match, other, token=match.invite_token)
    return match


def befriend(one, other) -> None:
    friends.accept_friend(other, friends.request_friend(one, other).pk)


def test_it_tells_the_games_in_progress_and_waiting_invites_first_then_only_news():
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    first = playing(ann, bob)
    befriend(cid, ann)
    waiting = services.create_match(cid, classic(), 2, is_private=True)
    invite = friends.invite(cid, ann, waiting.pk)
    events = AccountEvents(ann, token_id=0)
    assert events.news() == [
        {"type": "game_started", "match_id": first.pk, "seat": 0},
        {"type": "invite", "invite_id": invite.pk, "match_id": waiting.pk, "from": "cid"},
    ]
    assert events.news() == []  # nothing happened: nothing told twice

    services.resign(first.pk, ann)
    result = PlayerGame.objects.get(match=first, user=ann).result
    assert events.news() == [
        {"type": "game_finished", "match_id": first.pk, "status": "finished", "result": result}
    ]
    assert result == PlayerGame.Result.FOOL

    services.join_match(waiting, ann, token=waiting.invite_token)  # accepting starts it
    assert events.news() == [{"type": "game_started", "match_id": waiting.pk, "seat": 1}]
    services.abort_match(waiting, "test")
    assert events.news() == [
        {"type": "game_finished", "match_id": waiting.pk, "status": "aborted", "result": None}
    ]
    assert events.news() == []


def test_it_tells_nothing_of_other_accounts_games_or_invites():
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    events = AccountEvents(ann, token_id=0)
    assert events.news() == []
    playing(bob, cid)
    befriend(bob, cid)
    friends.invite(bob, cid, services.create_match(bob, classic(), 2, is_private=True).pk)
    assert events.news() == []


def test_an_invite_to_a_table_that_started_meanwhile_is_not_told():
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    befriend(bob, ann)
    table = services.create_match(bob, classic(), 2, is_private=True)
    friends.invite(bob, ann, table.pk)
    services.join_match(table, cid, token=table.invite_token)  # someone else took the seat
    assert AccountEvents(ann, token_id=0).news() == []


def test_no_token_or_a_token_without_the_read_scope_is_refused():
    ann = make_user("ann")
    assert api_client(None).get("/api/stream/event").status_code == 401
    refused = api_client(token_of(ann, ("play",))).get("/api/stream/event")
    assert refused.status_code == 403
    assert refused.json()["code"] == "scope"
    assert not OpenSocket.objects.exists()


def test_the_seats_news_wakes_the_event_streams_alone():
    ann, bob = make_user("ann"), make_user("bob")

    def record(channels: list[str]) -> None:
        for channel, user in zip(channels, (ann, ann, bob), strict=True):
            OpenSocket.objects.create(
                channel_name=channel, user=user, server="test", renewed_at=timezone.now()
            )

    async def received(layer, channel: str, seconds: float) -> dict | None:
        try:
            return await asyncio.wait_for(layer.receive(channel), seconds)
        except TimeoutError:
            return None

    async def wake_while_listening() -> list[dict | None]:
        # channels-redis' pub/sub layer delivers only to a channel being listened to,
        # as an open stream's is: listen first, then send.
        layer = get_channel_layer()
        channels = [
            await layer.new_channel(prefix) for prefix in (CHANNEL_PREFIX, "table.", CHANNEL_PREFIX)
        ]
        await sync_to_async(record)(channels)
        listening = [
            asyncio.ensure_future(received(layer, channel, seconds))
            for channel, seconds in zip(channels, (10.0, 1.0, 1.0), strict=True)
        ]
        await asyncio.sleep(0.2)
        await sync_to_async(wake_event_streams)(None, user_ids=[ann.pk])
        return [await task for task in listening]

    events, page, others = async_to_sync(wake_while_listening)()
    assert events == {"type": "events.check"}
    assert page is None  # a page's socket has no handler for it
    assert others is None  # another account's stream
