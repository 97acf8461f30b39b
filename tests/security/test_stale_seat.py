"""A socket opened while its user held a seat shows no cards of whoever takes the seat
after them: a page is rendered for a seat only while the seat is the viewer's."""

from __future__ import annotations

import random

import pytest

from durak.engine import Game
from games import services
from games.models import Match, RuleVariant, Seat
from tests.live.conftest import Socket, db, frame_version, in_own_loop, make_user
from tests.sockets import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def three_seat_table():
    users = [make_user(name) for name in ("ada", "ben", "cy", "dee")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 3)
    services.join_match(match, users[1])
    return match, users, [session_cookie(u) for u in users]


def seat_numbers(match_id: int) -> dict[int, int]:
    return dict(Seat.objects.filter(match_id=match_id).values_list("user_id", "number"))


def current(match_id: int) -> tuple[int, dict, str]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, match.status


@in_own_loop
async def test_a_socket_kept_open_after_leaving_never_shows_the_next_players_cards():
    match, users, cookies = await db(three_seat_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    ben = sockets[1]
    for sock in sockets[:2]:
        assert (await sock.open())[0]
        await sock.drain()
    # Ben leaves through the site but keeps his socket open; Cy takes his seat and Dee
    # the last one, which starts the game.
    await db(services.leave_match, match.pk, users[1])
    await db(services.join_match, match.pk, users[2])
    await db(services.join_match, match.pk, users[3])
    numbers = await db(seat_numbers, match.pk)
    assert numbers[users[2].pk] == 1  # Ben's old seat
    by_seat = {numbers[u.pk]: sockets[i] for i, u in enumerate(users) if u.pk in numbers}
    for sock in (sockets[2], sockets[3]):
        assert (await sock.open())[0]
    await ben.drain()
    ben.frames.clear()
    version, snapshot, status = await db(current, match.pk)
    assert status == Match.Status.PLAYING
    rng = random.Random(2)
    for _ in range(16):
        if status != Match.Status.PLAYING:
            break
        legal = [a for a in Game.from_snapshot(snapshot).legal_actions() if a.kind != "swap"]
        action = rng.choice(legal)
        mover = by_seat[action.seat]
        await mover.send({"type": "action", "action": str(action), "version": version})
        await sockets[2].until_version(version + 1)
        version, snapshot, status = await db(current, match.pk)
    await ben.drain()
    pushed = [frame for frame in ben.frames if frame_version(frame) is not None]
    assert len(pushed) > 5
    assert not any('class="hand-card"' in frame for frame in pushed)
    for sock in sockets:
        await sock.close()
