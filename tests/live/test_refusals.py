"""Bad input over the socket: each answer is an error to that socket, and nothing changes."""

from __future__ import annotations

import asyncio

import pytest

from durak.engine import Game, Rules
from games import services
from games.models import Match, Move, RuleVariant
from tests.table_fingerprint import table_fingerprint

from .conftest import Socket, db, frame_version, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def two_player_table():
    users = [make_user("anna"), make_user("boris")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    return match, [session_cookie(u) for u in users]


@in_own_loop
async def test_out_of_turn_illegal_forged_malformed_and_stale_change_nothing():
    match, cookies = await db(two_player_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    for sock in sockets:
        await sock.open()
        await sock.until_version(match.version)
    for sock in sockets:
        await sock.drain()
    before = await db(table_fingerprint, match.pk)
    version = before.version
    game = Game.from_snapshot(before.state)
    attacker = game.to_act()[0]
    other = 1 - attacker
    not_held = next(c for c in game.hand(other) if c not in game.hand(attacker))
    lead = next(a for a in game.legal_actions() if a.kind == "attack")
    bad = [
        (
            other,
            {
                "type": "action",
                "action": f"{other} attack {game.hand(other)[0]}",
                "version": version,
            },
        ),
        (
            attacker,
            {"type": "action", "action": f"{attacker} attack {not_held}", "version": version},
        ),
        (
            attacker,
            {"type": "action", "action": f"{attacker} defend {not_held}", "version": version},
        ),
        (other, {"type": "action", "action": str(lead), "version": version}),  # forged seat
        (attacker, {"type": "action", "action": str(lead), "version": version - 1}),  # stale
        (attacker, {"type": "action", "action": str(lead)}),  # no version
        (attacker, {"type": "action", "action": 42, "version": version}),
        (attacker, "{not json"),
        (attacker, "[1, 2]"),
        (attacker, {"type": "dance"}),
        (attacker, {"type": "action", "action": "0 attack " + "6H " * 2000, "version": version}),
    ]
    for seat, frame in bad:
        await sockets[seat].send(frame)
        error = await sockets[seat].until_error()
        assert 'role="alert"' in error and len(error) < 1000
        assert await sockets[1 - seat].nothing_more()
        assert await db(table_fingerprint, match.pk) == before
    messages = " ".join(sockets[attacker].frames + sockets[other].frames)
    assert "It is not your turn." in messages
    assert "You can only move for your own seat." in messages
    assert "The table changed before your move arrived" in messages
    assert "That message is not valid JSON." in messages
    assert "That message is too long." in messages

    # A repeated message: the first applies, the identical second is refused as stale.
    await sockets[attacker].send({"type": "action", "action": str(lead), "version": version})
    await sockets[attacker].until_version(version + 1)
    await sockets[attacker].send({"type": "action", "action": str(lead), "version": version})
    await sockets[attacker].until_error()
    after = await db(table_fingerprint, match.pk)
    assert after.version == version + 1 and len(after.moves) == len(before.moves) + 1
    for sock in sockets:
        await sock.close()


def three_player_throw_in_table():
    """A 3-player table where both attackers may throw in at once after the lead."""
    users = [make_user(n) for n in ("vera", "gleb", "dina")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 3)
    for user in users[1:]:
        services.join_match(match, user)
    rules = Rules(players=3)
    for seed in range(10_000):
        game = Game.new(rules, seed)
        lead = next(
            (a for a in game.legal_actions() if a.kind == "attack" and len(a.cards) == 1), None
        )
        game.apply(lead)
        throwers = {a.seat for a in game.legal_actions() if a.kind == "attack"}
        if len(throwers) == 2 and len(game.hand(game.defender)) >= 3:
            break
    match.refresh_from_db()
    match.state = game.snapshot()
    match.save(update_fields=["state"])
    throw_ins = {}
    for action in game.legal_actions():
        if action.kind == "attack" and len(action.cards) == 1:
            throw_ins.setdefault(action.seat, action)
    return match, users, [session_cookie(u) for u in users], list(throw_ins.values())


@in_own_loop
async def test_two_throw_ins_at_once_are_never_lost_or_doubled():
    match, users, cookies, throw_ins = await db(three_player_throw_in_table)
    sockets = {a.seat: Socket(f"/ws/games/{match.pk}/", cookies[a.seat]) for a in throw_ins}
    for sock in sockets.values():
        await sock.open()
        await sock.until_version(match.version)
    before = await db(table_fingerprint, match.pk)
    version = before.version
    await asyncio.gather(
        *(
            sockets[a.seat].send({"type": "action", "action": str(a), "version": version})
            for a in throw_ins
        )
    )
    outcomes = []
    for a in throw_ins:
        frame = await sockets[a.seat].until(
            lambda f: 'id="table-error"' in f or (frame_version(f) or 0) > version
        )
        outcomes.append("error" if 'id="table-error"' in frame else "applied")
    after = await db(table_fingerprint, match.pk)
    applied = [text for _, text in after.moves]
    # Both carried the same version: exactly one lands, the other is told to retry.
    assert sorted(outcomes) == ["applied", "error"]
    assert (
        after.version == version + 1
        and len(applied) == 1
        and applied[0] in {str(a) for a in throw_ins}
    )
    table = Game.from_snapshot(after.state).table()
    thrown = [pair[0] for pair in table if pair[0] in {a.cards[0] for a in throw_ins}]
    assert len(thrown) == 1
    for sock in sockets.values():
        await sock.close()


def test_concurrent_throw_ins_from_threads_serialise():
    """Service level, real threads: same version -> one applies; fresh versions -> both."""
    import threading

    from django.db import connection

    match, users, cookies, throw_ins = three_player_throw_in_table()
    version = Match.objects.get(pk=match.pk).version
    results: list[str] = []

    def play(action, user, version):
        try:
            services.apply_action(match.pk, user, str(action), version=version)
            results.append("ok")
        except services.Refused as refused:
            results.append(refused.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(a, users[a.seat], version)) for a in throw_ins]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale"]
    assert Move.objects.filter(match_id=match.pk).count() == 1
    # The loser retries with the new version and lands too: both applied, once each.
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    done = Move.objects.get(match_id=match.pk).action
    retry = next(a for a in throw_ins if str(a) != done)
    if retry in game.legal_actions():
        services.apply_action(match.pk, users[retry.seat], str(retry), version=match.version)
        assert list(Move.objects.filter(match_id=match.pk).values_list("action", flat=True)) == [
            done,
            str(retry),
        ]
