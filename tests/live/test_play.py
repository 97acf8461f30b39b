"""Whole games through the table consumer, and what each seat may see."""

from __future__ import annotations

import random

import pytest

from durak.engine import Game
from games import services
from games.models import Deal, Match, Move, RuleVariant

from .conftest import Socket, card_codes, db, frame_version, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def setup_table(players: int = 2, slug: str = "classic"):
    users = [make_user(f"player{n}") for n in range(players)]
    variant = RuleVariant.objects.get(slug=slug)
    match = services.create_match(users[0], variant, players)
    for user in users[1:]:
        services.join_match(match, user)
    match.refresh_from_db()
    return match, users, [session_cookie(u) for u in users]


def state(match_id: int) -> tuple[int, dict, str]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, match.status


def allowed_codes(snapshot: dict, seat: int) -> set[str]:
    view = Game.from_snapshot(snapshot).view(seat)
    codes = set(view["hand"]) | {view["trump"]}
    for attack, defence in view["table"]:
        codes.add(attack)
        if defence:
            codes.add(defence)
    return codes


@in_own_loop
async def test_two_players_play_a_whole_game_and_never_see_each_others_cards():
    match, users, cookies = await db(setup_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    for sock in sockets:
        assert (await sock.open())[0]
    snapshots: dict[int, dict] = {}
    rng = random.Random(7)
    version, snap, status = await db(state, match.pk)
    first_version = version
    snapshots[version] = snap
    for sock in sockets:
        await sock.until_version(version)
    for _ in range(400):
        if status != Match.Status.PLAYING:
            break
        game = Game.from_snapshot(snap)
        actions = [a for a in game.legal_actions() if a.kind != "swap"]
        action = rng.choice(actions)
        await sockets[action.seat].send(
            {"type": "action", "action": str(action), "version": version, "HEADERS": {}}
        )
        for sock in sockets:
            await sock.until_version(version + 1)
        version, snap, status = await db(state, match.pk)
        snapshots[version] = snap
    assert status == Match.Status.FINISHED

    deal = await db(lambda: Deal.objects.get(match_id=match.pk))
    assert deal.status == Deal.Status.FINISHED and deal.result is not None
    seqs = await db(
        lambda: list(Move.objects.filter(match_id=match.pk).values_list("seq", flat=True))
    )
    assert (
        seqs == list(range(1, len(seqs) + 1))
        and len(seqs) == version - first_version == deal.move_count
    )

    # The last frame each player got shows the result panel.
    for sock in sockets:
        assert "Game over" in sock.frames[-1]
    # Every frame: only that seat's own cards, the table and the trump.
    checked = 0
    for seat, sock in enumerate(sockets):
        for frame in sock.frames:
            v = frame_version(frame)
            if v is None:
                continue
            leaked = card_codes(frame) - allowed_codes(snapshots[v], seat)
            assert not leaked, f"seat {seat} saw {leaked} at version {v}"
            checked += 1
    assert checked >= 2 * (version - first_version)
    for sock in sockets:
        await sock.close()


@in_own_loop
async def test_the_mover_gets_one_render_of_each_move_with_its_own_hand():
    match, users, cookies = await db(setup_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    for sock in sockets:
        assert (await sock.open())[0]
    version, snap, status = await db(state, match.pk)
    for sock in sockets:
        await sock.until_version(version)
        await sock.drain(0.2)
    rng = random.Random(3)
    for _ in range(12):
        game = Game.from_snapshot(snap)
        action = rng.choice([a for a in game.legal_actions() if a.kind != "swap"])
        mover = sockets[action.seat]
        await mover.send({"type": "action", "action": str(action), "version": version})
        frame = await mover.until_version(version + 1)
        version, snap, status = await db(state, match.pk)
        assert frame_version(frame) == version
        if 'id="table-hand"' in frame:
            hand = set(Game.from_snapshot(snap).view(action.seat)["hand"])
            assert hand <= card_codes(frame)
        # The move's push finds the mover's page already showing this version.
        assert await mover.nothing_more()
        await sockets[1 - action.seat].until_version(version)
        if status != Match.Status.PLAYING:
            break
    for sock in sockets:
        await sock.close()
