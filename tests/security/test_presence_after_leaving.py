"""A socket's presence belongs to that socket, not to the seat its user holds now.

The attack: B opens a table socket, leaves the seat, closes that socket, sits down
again and walks away once the game starts.  Before, the first socket's row stayed
behind (its close found B seatless and returned early), so B's seat looked present
for good and never forfeited.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.models import Match, Move, RuleVariant, Seat, SocketPresence
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def three_seats() -> tuple[Match, list]:
    users = [make_user("alla"), make_user("boris"), make_user("clara")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 3)
    return match, users


def play_timers_until_forfeit(match_id: int, seat: int) -> bool:
    """Run the turn timer past each deadline until ``seat`` forfeits or the deal ends."""
    for _ in range(100):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            break
        services.expire_deadlines(match.turn_deadline + timedelta(seconds=1))
    return Move.objects.filter(match_id=match_id, seat=seat, source=Move.Source.FORFEIT).exists()


@in_own_loop
async def test_a_player_who_left_and_sat_down_again_forfeits_when_gone() -> None:
    match, (alla, boris, clara) = await db(three_seats)
    cookies = {user.pk: await db(session_cookie, user) for user in (alla, boris, clara)}
    path = f"/ws/games/{match.pk}/"

    await db(services.join_match, match.pk, boris)
    first = Socket(path, cookies[boris.pk])
    assert (await first.open())[0]
    await first.drain()
    await db(services.leave_match, match.pk, boris)
    await first.close()

    await db(services.join_match, match.pk, boris)
    await db(services.join_match, match.pk, clara)
    assert (await db(Match.objects.get, pk=match.pk)).status == Match.Status.PLAYING
    others = [Socket(path, cookies[user.pk]) for user in (alla, clara)]
    for sock in others:
        assert (await sock.open())[0]
        await sock.drain()

    seat = await db(lambda: Seat.objects.get(match_id=match.pk, user=boris))
    assert seat.disconnected_since is not None  # Boris has no socket open
    assert not await db(lambda: SocketPresence.objects.filter(seat=seat).exists())
    assert await db(play_timers_until_forfeit, match.pk, seat.number)
    for sock in others:
        await sock.close()
