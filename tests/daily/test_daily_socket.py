"""A second try at the day's deal through the table socket: refused, nothing changes."""

from __future__ import annotations

import pytest

from daily import services
from daily.models import DailyEntry
from durak.engine import Game
from games import services as games
from games.models import Deal, Match, RuleVariant
from tests.live.conftest import Socket, db, in_own_loop, make_user, session_cookie
from tests.table_fingerprint import table_fingerprint

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each async test runs its own event loop; channels-redis binds to one."""
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def finished_daily_try() -> tuple[Match, str]:
    user = make_user("anna")
    daily = services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))
    entry = services.start_daily(user, daily)
    games.resign(entry.match_id, user)
    return Match.objects.get(pk=entry.match_id), session_cookie(user)


@in_own_loop
async def test_a_rematch_or_a_move_at_a_finished_daily_table_is_refused():
    match, cookie = await db(finished_daily_try)
    sock = Socket(f"/ws/games/{match.pk}/", cookie)
    connected, _code = await sock.open()
    assert connected
    opened = await sock.until_version(match.version)
    # The finished table offers the day's board, not a rematch.
    assert "result-daily" in opened and "control-rematch" not in opened
    await sock.drain()
    before = await db(table_fingerprint, match.pk)
    deals = await db(Deal.objects.filter(match=match).count)
    game = Game.from_snapshot(before.state)
    frames = [
        {"type": "rematch"},
        {"type": "action", "action": "0 take", "version": before.version},
        {"type": "resign"},
    ]
    for frame in frames:
        await sock.send(frame)
        error = await sock.until_error()
        assert 'role="alert"' in error
        assert await db(table_fingerprint, match.pk) == before
    assert game.is_over
    messages = " ".join(sock.frames)
    assert "This table plays one fixed deal: it has no rematch." in messages
    assert await db(Deal.objects.filter(match=match).count) == deals == 1
    assert await db(DailyEntry.objects.count) == 1
    await sock.close()
