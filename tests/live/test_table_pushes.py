"""A table's push goes to the channels of that table's open sockets, and no others."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction
from django.utils import timezone

from games import presence, services
from games.models import OpenSocket

from .conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def open_socket(user, channel: str, match_id: int | None, server: str) -> None:
    OpenSocket.objects.create(
        channel_name=channel,
        user=user,
        match_id=match_id,
        server=server,
        renewed_at=timezone.now(),
    )


def test_a_table_push_reaches_its_sockets_and_no_other():
    user = make_user("pusher")
    here = presence.server_name()

    def notify() -> None:
        with transaction.atomic():
            services.notify_match_changed(7, 3)

    async def received(layer, channel: str) -> dict | None:
        try:
            return await asyncio.wait_for(layer.receive(channel), 1)
        except TimeoutError:
            return None

    async def run() -> list[dict | None]:
        # The sockets listen before the push, as open sockets do: a pub/sub layer
        # delivers only to channels listened to when the message is sent.
        layer = get_channel_layer()
        channels = [await layer.new_channel() for _ in range(3)]
        for channel, match_id in zip(channels, (7, 8, None), strict=True):
            await sync_to_async(open_socket)(user, channel, match_id, here)
        listening = [asyncio.ensure_future(received(layer, c)) for c in channels]
        await asyncio.sleep(0.2)
        await sync_to_async(notify)()
        return list(await asyncio.gather(*listening))

    told, at_other_table, in_lobby = async_to_sync(run)()
    assert told == services.match_changed_message(7, 3)
    assert at_other_table is None and in_lobby is None


def test_only_a_shared_layer_reaches_the_sockets_of_other_processes():
    user = make_user("counted")
    open_socket(user, "specific.here!a", 7, presence.server_name())
    open_socket(user, "specific.there!b", 7, "another-host:1:0")
    reached = sorted(services.table_channels(7))
    if isinstance(get_channel_layer(), InMemoryChannelLayer):
        # The in-memory layer is this process's alone: another's socket is not reachable.
        assert reached == ["specific.here!a"]
    else:
        assert reached == ["specific.here!a", "specific.there!b"]


def test_a_socket_that_cannot_be_sent_to_does_not_keep_the_message_from_the_others():
    async def run() -> dict | None:
        layer = get_channel_layer()
        good = await layer.new_channel()
        listening = asyncio.ensure_future(asyncio.wait_for(layer.receive(good), 2))
        await asyncio.sleep(0.2)
        message = {"type": "account.changed"}
        # A name no layer accepts, as a damaged row would hold, comes first.
        await services.Push(message, channels=("no such channel!", good)).send(layer)
        return await listening

    assert async_to_sync(run)() == {"type": "account.changed"}
