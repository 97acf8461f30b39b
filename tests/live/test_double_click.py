"""A double click sends the same move twice: the second is answered calmly."""

from __future__ import annotations

import pytest

from durak.engine import Game
from games.models import Match, Move

from .conftest import ERROR, Socket, db, frame_version, in_own_loop
from .test_play import setup_table

pytestmark = pytest.mark.django_db(transaction=True)


def state(match_id: int) -> tuple[int, dict]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state


@in_own_loop
async def test_the_same_move_twice_is_played_once_and_the_repeat_invites_nothing():
    match, users, cookies = await db(setup_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    for sock in sockets:
        assert (await sock.open())[0]
    version, snap = await db(state, match.pk)
    for sock in sockets:
        await sock.until_version(version)
    lead = next(a for a in Game.from_snapshot(snap).legal_actions() if a.kind == "attack")
    me = sockets[lead.seat]
    frame = {"type": "action", "action": str(lead), "version": version}
    await me.send(frame)
    await me.send(frame)
    # The refusal and the state push travel separately: either may come first.
    await me.until(lambda f: ERROR in f)
    if not any((frame_version(f) or 0) > version for f in me.frames):
        await me.until_version(version + 1)
    reply = next(f for f in me.frames if ERROR in f)
    assert "That move is already played." in reply
    assert 'role="status"' in reply and "calm" in reply
    assert "try again" not in reply
    moves = await db(lambda: list(Move.objects.filter(match_id=match.pk).values_list("action")))
    assert moves == [(str(lead),)]

    # A different move at an old version is still refused as stale.
    defender = sockets[1 - lead.seat]
    await defender.drain()
    await defender.send({"type": "action", "action": f"{1 - lead.seat} take", "version": version})
    reply = await defender.until_error()
    assert "try again" in reply and 'role="alert"' in reply
    for sock in sockets:
        await sock.close()
