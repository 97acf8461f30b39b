"""Fixtures for the admin tests: users in each role and tables built row by row."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from games import presence
from games.models import Deal, Match, Move, OpenSocket, RuleVariant, Seat

User = get_user_model()
PASSWORD = "kozyrnaya-shestyorka-42"


def pushed_to_table(match: Match, action: Callable[[], Any]) -> dict:
    """The first message the channel layer delivers to a socket of ``match`` while
    ``action`` runs.

    The socket is a channel with the row an open table socket has. The listener and
    the action share one event loop, as a server's sockets do.
    """
    layer = get_channel_layer()

    async def listen() -> dict:
        channel = await layer.new_channel()
        watcher = await sync_to_async(User.objects.create_user)(f"watcher-{match.pk}")
        await OpenSocket.objects.acreate(
            channel_name=channel,
            user=watcher,
            match_id=match.pk,
            server=presence.server_name(),
            renewed_at=timezone.now(),
        )
        await sync_to_async(action)()
        return await asyncio.wait_for(layer.receive(channel), 10)

    return async_to_sync(listen)()


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("root", "root@example.org", PASSWORD)


@pytest.fixture
def moderator(db):
    user = User.objects.create_user("moder", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture
def moderator_client(client, moderator):
    client.force_login(moderator)
    return client


@pytest.fixture
def players(db):
    return [User.objects.create_user(name, password=PASSWORD) for name in ("ivan", "olga", "petr")]


@pytest.fixture
def classic(db):
    return RuleVariant.objects.get(slug="classic")


def make_match(
    variant: RuleVariant,
    users: list,
    *,
    status: str = Match.Status.PLAYING,
    bots: tuple[str, ...] = (),
    is_private: bool = False,
    players: int | None = None,
) -> Match:
    """A table with ``users`` then ``bots`` in seat order, then empty seats up to
    ``players``, written directly."""
    taken = len(users) + len(bots)
    players = players or taken
    match = Match.objects.create(
        variant=variant,
        players=players,
        rules=variant.rules_for(players).to_dict(),
        creator=users[0],
        status=status,
        is_private=is_private,
    )
    Seat.objects.bulk_create(
        [Seat(match=match, number=n, user=u) for n, u in enumerate(users)]
        + [Seat(match=match, number=len(users) + n, bot_level=b) for n, b in enumerate(bots)]
        + [Seat(match=match, number=n) for n in range(taken, players)]
    )
    return match


def make_deal(
    match: Match,
    *,
    number: int = 1,
    status: str = Deal.Status.FINISHED,
    fool_seat: int | None = None,
    first_attacker: int | None = 0,
    is_draw: bool = False,
    end_reason: str = Deal.EndReason.NORMAL,
    moves: int = 0,
    sources: tuple[str, ...] = (),
    finished_at: datetime.datetime | None = None,
    minutes: float = 5,
) -> Deal:
    """A deal with ``moves`` moves; ``sources`` gives the first moves' sources."""
    finished_at = finished_at or timezone.now()
    deal = Deal.objects.create(
        match=match,
        number=number,
        rules=match.rules,
        deck=[],
        dealer=0,
        first_attacker=first_attacker,
        status=status,
        fool_seat=fool_seat,
        is_draw=is_draw,
        end_reason=end_reason if status != Deal.Status.PLAYING else "",
        move_count=moves,
        finished_at=finished_at if status != Deal.Status.PLAYING else None,
    )
    # started_at is auto_now_add: set it afterwards to fix the game's length.
    Deal.objects.filter(pk=deal.pk).update(
        started_at=finished_at - datetime.timedelta(minutes=minutes)
    )
    start = Move.objects.filter(match=match).count()
    Move.objects.bulk_create(
        Move(
            match=match,
            deal=deal,
            seq=start + i,
            seat=i % match.players,
            action=f"{i % match.players} done",
            source=sources[i] if i < len(sources) else Move.Source.PLAYER,
        )
        for i in range(moves)
    )
    return deal
