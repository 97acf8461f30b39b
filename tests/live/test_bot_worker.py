"""Bot workers: moves and hints are searched off the web process, and reach the sockets."""

from __future__ import annotations

import signal
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import hints
from analysis.models import HintRequest
from durak.engine import Game
from games import services, ticker
from games.models import Match, Move, RuleVariant
from games.services.timers import claim_due_bot_turn, play_claimed_bot_turn
from table.management.commands.bot_worker import BotWorker
from tests.conftest import start_bot_worker
from tests.sockets import answer_a_hint

from .conftest import ERROR, Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 20
    settings.GAMES_HINT_PLAYOUTS = 20


def bot_table(level: str = "hard", *, bot_leads: bool | None = None) -> tuple[Match, object]:
    """A table of a person (seat 0) and a bot; ``bot_leads`` picks who moves first."""
    for attempt in range(40):
        user = make_user(f"ivan{attempt}-{time.monotonic_ns()}")
        match = services.create_match(
            user, RuleVariant.objects.get(slug="classic"), 2, bots=(level,)
        )
        match.refresh_from_db()
        leads = 1 in Game.from_snapshot(match.state).to_act()
        if bot_leads is None or leads == bot_leads:
            return match, user
        services.abort_match(match, "not this deal")
    raise AssertionError("no deal with the wanted first mover in forty")


def bot_moves(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id, source=Move.Source.BOT).count()


def human_leads(match: Match, user: object) -> Match:
    game = Game.from_snapshot(match.state)
    lead = next(a for a in game.legal_actions() if a.seat == 0 and a.kind == "attack")
    services.apply_action(match.pk, user, str(lead), version=match.version)
    return Match.objects.get(pk=match.pk)


def played_elsewhere(now) -> object:
    """A bot worker's move whose push reaches no socket here, as with the in-memory
    layer of another process: the pushes its commit sends are dropped."""
    with services.collected_pushes():
        return services.run_due_bot_turn(now)


@in_own_loop
async def test_a_move_committed_by_another_process_reaches_the_socket_through_the_ticker():
    match, user = await db(bot_table, "random", bot_leads=False)
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, user))
    await sock.open()
    await sock.drain()
    match = await db(human_leads, match, user)
    await sock.until_version(match.version)
    played = await db(played_elsewhere, timezone.now() + timedelta(seconds=5))
    assert played is not None and played[1] is not None  # the bot answered the lead
    await ticker.announce_versions_ahead()
    frame = await sock.until_version(match.version + 1)
    assert ERROR not in frame
    await sock.close()


def test_a_bot_move_whose_claim_ran_out_is_played_once_by_the_next_worker(settings):
    match, _ = bot_table("random", bot_leads=True)
    start = timezone.now() + timedelta(seconds=1)
    first = claim_due_bot_turn(start)
    assert first is not None and first[0] == match.pk
    # The first worker stalls past its lease; a second claims the turn and plays it.
    later = first[1] + timedelta(seconds=1)
    second = services.run_due_bot_turn(later)
    assert second is not None and second[1] is not None
    # The first worker wakes up: the turn is no longer its own, and nothing is played.
    assert play_claimed_bot_turn(match.pk, first[1]) is None
    assert bot_moves(match.pk) == 1


def test_a_bot_worker_killed_mid_search_loses_nothing_and_the_next_plays_once(settings):
    match, _ = bot_table("hard", bot_leads=True)
    due = match.bot_due_at
    # A search far longer than the test: the worker is surely inside it when killed.
    worker = start_bot_worker(GAMES_BOT_PLAYOUTS="100000000", GAMES_SEARCH_CPU_SECONDS="600")
    try:
        deadline = time.monotonic() + 60
        while Match.objects.get(pk=match.pk).bot_due_at == due:
            assert time.monotonic() < deadline, "the worker never claimed the bot's turn"
            time.sleep(0.05)
        worker.send_signal(signal.SIGKILL)
    finally:
        worker.kill()
        worker.wait(timeout=30)
    lease = Match.objects.get(pk=match.pk).bot_due_at
    assert lease > due and bot_moves(match.pk) == 0
    assert services.run_due_bot_turn(lease - timedelta(seconds=1)) is None  # still leased
    after_lease = services.run_due_bot_turn(lease + timedelta(seconds=1))
    assert after_lease is not None and after_lease[1] is not None
    assert bot_moves(match.pk) == 1


def unrated_table_to_act() -> tuple[Match, object, int]:
    users = [make_user(f"olga-{time.monotonic_ns()}"), make_user(f"petr-{time.monotonic_ns()}")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    Match.objects.filter(pk=match.pk).update(is_rated=False)
    match.refresh_from_db()
    seat = Game.from_snapshot(match.state).to_act()[0]
    return match, users[seat], seat


@in_own_loop
async def test_a_hint_answered_by_a_worker_reaches_the_asking_socket():
    match, user, seat = await db(unrated_table_to_act)
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, user))
    await sock.open()
    await sock.drain()
    await sock.send({"type": "hint"})
    await answer_a_hint()  # the request waits in the database until a bot worker takes it
    frame = await sock.until(lambda f: 'id="table-hint"' in f and "data-action" in f)
    action = frame.split('data-action="')[1].split('"')[0]
    game = Game.from_snapshot(match.state)
    assert action in {str(a) for a in game.legal_actions() if a.seat == seat}
    await sock.close()


@in_own_loop
async def test_a_hint_for_a_position_that_moved_on_says_so():
    match, user, seat = await db(unrated_table_to_act)
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, user))
    await sock.open()
    await sock.drain()
    await sock.send({"type": "hint"})
    deadline = time.monotonic() + 30
    while not await db(lambda: HintRequest.objects.filter(match_id=match.pk).exists()):
        assert time.monotonic() < deadline, "the socket's hint request never arrived"
        await sock.drain()
    await db(lambda: Match.objects.filter(pk=match.pk).update(version=match.version + 1))
    assert await db(hints.answer_next_hint)
    frame = await sock.until(lambda f: 'id="table-hint"' in f)
    assert "data-action" not in frame and "ask again" in frame
    await sock.close()


def test_a_bot_move_searched_ahead_lands_at_its_due_time_and_once(settings):
    settings.GAMES_BOT_HEAD_START_SECONDS = 1.0
    match, _ = bot_table("random", bot_leads=True)
    due = match.bot_due_at
    worker = BotWorker()
    # Within the head start: the worker claims the turn and searches it now...
    worker.step(due - timedelta(seconds=0.8))
    assert len(worker.held) == 1 and bot_moves(match.pk) == 0
    # ...but the move waits for the bot's delay, as a person's would.
    worker.step(due - timedelta(seconds=0.1))
    assert bot_moves(match.pk) == 0
    worker.step(due + timedelta(milliseconds=10))
    assert not worker.held and bot_moves(match.pk) == 1
    # Further steps find nothing more to play for that turn.
    worker.step(due + timedelta(seconds=2))
    assert bot_moves(match.pk) == 1


def test_a_move_searched_ahead_is_dropped_when_another_worker_played_the_turn(settings):
    settings.GAMES_BOT_HEAD_START_SECONDS = 1.0
    match, _ = bot_table("random", bot_leads=True)
    due = match.bot_due_at
    stalled = BotWorker()
    stalled.step(due - timedelta(seconds=0.5))
    (held,) = stalled.held
    # The first worker stalls past its lease; another claims the turn and plays it.
    assert services.run_due_bot_turn(held.claim.lease + timedelta(seconds=1)) is not None
    assert bot_moves(match.pk) == 1
    # The stalled worker's move is for a table that moved on: refused, nothing written.
    before = Match.objects.get(pk=match.pk).version
    stalled.step(held.claim.lease + timedelta(seconds=2))
    assert not stalled.held
    assert bot_moves(match.pk) == 1
    assert Match.objects.get(pk=match.pk).version == before


def test_queued_bot_turns_do_not_keep_a_hint_waiting(settings):
    settings.GAMES_BOT_HEAD_START_SECONDS = 0.0
    first, _ = bot_table("random", bot_leads=True)
    second, _ = bot_table("random", bot_leads=True)
    match, user, _seat = unrated_table_to_act()
    hint = hints.request_hint(match.pk, user)
    both_due = max(first.bot_due_at, second.bot_due_at) + timedelta(seconds=0.1)
    worker = BotWorker()
    worker.step(both_due)  # one bot turn...
    worker.step(both_due)  # ...then the hint, though the other bot turn is due as well
    hint.refresh_from_db()
    assert hint.answered_at is not None and hint.action
    assert bot_moves(first.pk) + bot_moves(second.pk) == 1
    worker.step(both_due)  # the other bot turn's search...
    worker.land_all()  # ...lands
    assert bot_moves(first.pk) == bot_moves(second.pk) == 1
