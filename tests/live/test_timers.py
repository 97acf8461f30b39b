"""Turn timers, reconnect budgets, bots and reconnects."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from durak.engine import Game
from games import services
from games.models import Deal, Match, Move, RuleVariant, Seat

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def table(bots=()):
    users = [make_user("kira"), make_user("lev")]
    players = 2
    match = services.create_match(
        users[0], RuleVariant.objects.get(slug="classic"), players, bots=bots
    )
    if not bots:
        services.join_match(match, users[1])
    match.refresh_from_db()
    return match, users


def to_act(match_id: int) -> tuple[Match, Game]:
    match = Match.objects.get(pk=match_id)
    return match, Game.from_snapshot(match.state)


@in_own_loop
async def test_an_expired_turn_timer_plays_the_default_action_and_pushes_it():
    match, users = await db(table)
    sockets = [Socket(f"/ws/games/{match.pk}/", await db(session_cookie, u)) for u in users]
    for sock in sockets:
        await sock.open()
        await sock.drain()
    match, game = await db(to_act, match.pk)
    seat = game.to_act()[0]
    expected = str(game.default_action(seat))
    assert await db(services.expire_deadlines, timezone.now()) == 0  # not yet due
    later = timezone.now() + timedelta(seconds=match.turn_seconds + 1)
    assert await db(services.expire_deadlines, later) == 1
    move = await db(lambda: Move.objects.get(match_id=match.pk))
    assert (move.action, move.source) == (expected, Move.Source.TIMEOUT)
    for sock in sockets:
        await sock.until_version(match.version + 1)
    # A second claim of the same deadline finds nothing to do.
    assert await db(services.expire_deadlines, later) == 0
    assert await db(lambda: Move.objects.filter(match_id=match.pk).count()) == 1
    for sock in sockets:
        await sock.close()


def test_spent_reconnect_budget_forfeits_the_game():
    match, users = table()
    Match.objects.filter(pk=match.pk).update(turn_seconds=120)
    match, game = to_act(match.pk)
    seat = game.to_act()[0]
    # Nobody has opened the table: the seat counts as away from its first turn.
    assert Seat.objects.get(match=match, number=seat).disconnected_since is not None
    assert services.expire_deadlines(timezone.now() + timedelta(seconds=40)) == 0
    assert services.expire_deadlines(timezone.now() + timedelta(seconds=46)) == 1
    deal = Deal.objects.get(match=match)
    assert deal.end_reason == Deal.EndReason.FORFEIT and deal.fool_seat == seat
    assert Move.objects.get(match=match).source == Move.Source.FORFEIT
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert Seat.objects.get(match=match, number=seat).fools == 1


def test_coming_back_keeps_the_unspent_budget():
    match, users = table()
    match, game = to_act(match.pk)
    seat = game.to_act()[0]
    past = timezone.now() - timedelta(seconds=20)
    Match.objects.filter(pk=match.pk).update(turn_started_at=past)
    Seat.objects.filter(match=match, number=seat).update(disconnected_since=past)
    assert services.seat_connected(match.pk, users[seat], "chan-back") == seat
    s = Seat.objects.get(match=match, number=seat)
    assert 24_000 <= s.reconnect_budget_ms <= 25_500
    assert s.disconnected_since is None
    services.seat_disconnected(match.pk, "chan-back")
    s.refresh_from_db()
    assert s.disconnected_since is not None


@in_own_loop
async def test_reconnect_gets_a_full_render():
    match, users = await db(table)
    cookie = await db(session_cookie, users[0])
    first = Socket(f"/ws/games/{match.pk}/", cookie)
    await first.open()
    frame = await first.receive()
    await first.close()
    again = Socket(f"/ws/games/{match.pk}/", cookie)
    await again.open()
    full = await again.receive()
    for part in (
        "table-version",
        "table-status",
        "table-seats",
        "table-felt",
        "table-hand",
        "table-controls",
        "table-result",
        "table-chat",
    ):
        assert f'id="{part}"' in full
    hand = Game.from_snapshot((await db(to_act, match.pk))[0].state).hand(0)
    assert all(f'data-card="{c}"' in full for c in hand)
    assert frame.count("data-card=") == full.count("data-card=")
    await again.close()


def test_bot_moves_exactly_once_even_when_two_processes_claim_it():
    match, users = table(bots=["random"])
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    game = Game.from_snapshot(match.state)
    if 1 not in game.to_act():  # Let the human lead so the bot must answer.
        lead = next(a for a in game.legal_actions() if a.seat == 0)
        services.apply_action(match.pk, users[0], str(lead), version=match.version)
    moves = Move.objects.filter(match=match).count()
    later = timezone.now() + timedelta(seconds=5)
    results = []

    def run():
        try:
            results.append(services.run_bot_turn(match.pk, later))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len([r for r in results if r is not None]) == 1
    bot_moves = Move.objects.filter(match=match, source=Move.Source.BOT)
    assert bot_moves.count() == 1 and Move.objects.filter(match=match).count() == moves + 1
    assert bot_moves.get().seat == 1


def test_a_bot_game_plays_to_the_end_with_timers_and_bots():
    match, users = table(bots=["easy"])
    # The human keeps the page open but never moves: every turn of theirs times out.
    services.seat_connected(match.pk, users[0], "chan-open")
    clock = timezone.now()
    for _ in range(600):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        clock += timedelta(seconds=31)
        services.run_bot_turn(match.pk, clock)
        services.expire_deadlines(clock)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    sources = set(Move.objects.filter(match=match).values_list("source", flat=True))
    assert sources == {Move.Source.BOT, Move.Source.TIMEOUT}
    assert Deal.objects.get(match=match).end_reason == Deal.EndReason.NORMAL


@in_own_loop
async def test_a_hint_is_refused_in_a_rated_game():
    match, users = await db(table)
    match, game = await db(to_act, match.pk)
    assert match.is_rated
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, users[game.to_act()[0]]))
    await sock.open()
    await sock.drain()
    await sock.send({"type": "hint"})
    frame = await sock.until(lambda f: "only available in unrated games" in f)
    assert 'id="table-hint"' not in frame
    await sock.close()
