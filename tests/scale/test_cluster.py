"""Two daphne processes and two bot workers on one PostgreSQL test database and one Redis.

Players on different processes see each other's moves; turn timers and bots act
exactly once although both processes tick and both workers claim; a process killed with SIGKILL loses no
applied move, its clients reconnect and carry on, and deadlines stored in the
database are honoured after a restart.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from durak.engine import Game
from durak_site.cluster import Cluster, Node, free_port
from games import services
from games.models import Match, Move, RuleVariant, Seat, ServerProcess, SocketPresence
from tests.redis_db import redis_url_for_tests
from tests.security.realsockets import frames_until_closed

from .conftest import (
    db,
    in_own_loop,
    make_user,
    needs_cluster_backends,
    session_cookie,
)
from .invariants import assert_moves_gap_free, assert_snapshot_is_replay
from .wsclient import TableClient, hand_in

pytestmark = [needs_cluster_backends, pytest.mark.django_db(transaction=True)]

PREFIX = f"durak-cluster-test-{uuid.uuid4().hex[:8]}"


def child_env(database_name: str) -> dict[str, str]:
    """The children use this run's test database and Redis prefix, and tick fast."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
    url = os.environ["DATABASE_URL"]
    base = url.rsplit("/", 1)[0]
    env.update(
        DATABASE_URL=f"{base}/{database_name}",
        REDIS_URL=redis_url_for_tests(os.environ["REDIS_URL"]),
        CHANNELS_PREFIX=PREFIX,
        CACHE_PREFIX=PREFIX,
        GAMES_TICK_SECONDS="0.1",
        GAMES_SERVER_BEAT_SECONDS="0.2",
        GAMES_SERVER_TIMEOUT="2",
        GAMES_BOT_DELAY="0,0",
        GAMES_BOT_PLAYOUTS="20",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="durak_site.settings",
        PYTHONPATH=str(Path(__file__).resolve().parents[2])
        + os.pathsep
        + env.get("PYTHONPATH", ""),
    )
    return env


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Cluster]:
    if sys.platform == "win32":  # pragma: no cover - SIGKILL semantics
        pytest.skip("POSIX only")
    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
        connection.close()
    running = Cluster(
        [free_port(), free_port()],
        env=child_env(name),
        log_dir=tmp_path_factory.mktemp("daphne"),
        bot_workers=2,
    )
    running.start(timeout=60)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module", autouse=True)
def flush_retries() -> Iterator[None]:
    """Retry the test database flush when it deadlocks with the children's tickers.

    TRUNCATE locks the tables one by one while a ticker query in a child process
    may hold one and want another; PostgreSQL then aborts one side. A retry of
    the flush (the tables are being emptied anyway) is all it takes.
    """
    from django.core.management.base import CommandError
    from django.core.management.commands import flush

    original = flush.Command.handle

    def handle(self, *args, **options):
        for attempt in range(5):
            try:
                return original(self, *args, **options)
            except CommandError as error:
                if "deadlock" not in str(error.__cause__) or attempt == 4:
                    raise
                time.sleep(0.3)

    flush.Command.handle = handle
    yield
    flush.Command.handle = original


@pytest.fixture(autouse=True)
def channels_prefix(settings) -> Iterator[str]:
    """The test process speaks on the cluster's prefix, so its pushes reach the children."""
    from channels.layers import channel_layers

    layers = {**settings.CHANNEL_LAYERS}
    layers["default"] = {
        **layers["default"],
        "CONFIG": {
            **layers["default"]["CONFIG"],
            "prefix": PREFIX,
            "hosts": [redis_url_for_tests(os.environ["REDIS_URL"])],
        },
    }
    settings.CHANNEL_LAYERS = layers
    channel_layers.backends.clear()
    yield PREFIX
    channel_layers.backends.clear()


def new_table(slug: str = "classic", players: int = 2, bots: tuple[str, ...] = ()):
    users = [make_user("c") for _ in range(players - len(bots))]
    match = services.create_match(users[0], RuleVariant.objects.get(slug=slug), players, bots=bots)
    for user in users[1:]:
        services.join_match(match, user)
    match.refresh_from_db()
    return match, users, [session_cookie(u) for u in users]


def current(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


async def play_one(clients: dict[int, TableClient], match_id: int, rng: random.Random):
    """One random legal action, sent by its seat's socket; every socket must see it."""
    match = await db(current, match_id)
    game = Game.from_snapshot(match.state)
    action = rng.choice(game.legal_actions())
    sender = clients[action.seat]
    await sender.act(str(action), match.version)
    for client in clients.values():
        await client.until_version(match.version + 1)
    return str(action), match.version + 1


@in_own_loop
async def test_players_on_different_processes_see_each_others_moves(cluster: Cluster) -> None:
    match, users, cookies = await db(new_table)
    a, b = cluster.nodes
    clients = {
        0: TableClient(a.url, match.pk, cookies[0]),
        1: TableClient(b.url, match.pk, cookies[1]),
    }
    for client in clients.values():
        await client.open()
    rng = random.Random(match.pk)
    for _ in range(20):
        match_now = await db(current, match.pk)
        if match_now.status != Match.Status.PLAYING:
            break
        before = {seat: len(c.frames) for seat, c in clients.items()}
        action, version = await play_one(clients, match.pk, rng)
        mover = int(action.split()[0])
        watcher = clients[1 - mover]
        seen = watcher.frames[before[1 - mover] :]
        # The other process pushed the move: the played cards are on the watcher's table.
        for card in action.split()[2:]:
            assert any(f'data-card="{card}"' in f for f in seen), (action, seen[-1][:300])
    moves = await db(assert_moves_gap_free, match.pk)
    assert len(moves) >= 5
    await db(lambda: assert_snapshot_is_replay(current(match.pk)))
    for client in clients.values():
        await client.close()


async def wait_for_moves(match_ids: list[int], count: int, timeout: float = 30.0) -> None:
    """Until every match has at least ``count`` moves (a loaded machine ticks late)."""

    def done() -> bool:
        return all(
            Move.objects.filter(match_id=match_id).count() >= count for match_id in match_ids
        )

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await db(done):
        assert loop.time() < deadline, f"no move {count} within {timeout:.0f} s"
        await asyncio.sleep(0.2)


def expire_now(match_ids: list[int]) -> None:
    now = timezone.now()
    Match.objects.filter(pk__in=match_ids).update(
        turn_started_at=now - timedelta(seconds=60), turn_deadline=now - timedelta(seconds=1)
    )


def log_out(cookie: str) -> None:
    """A log-out on this process: its news travels through Redis to the others."""
    client = Client()
    client.cookies["sessionid"] = cookie
    assert client.post(reverse("accounts:logout")).status_code == 302


@in_own_loop
async def test_a_log_out_closes_the_users_sockets_on_the_other_processes(cluster: Cluster) -> None:
    """The sockets' heartbeat (20 s) is far off: the account's news alone closes them."""
    match, users, cookies = await db(new_table)
    sockets = [TableClient(node.url, match.pk, cookies[0]) for node in cluster.nodes]
    other = TableClient(cluster.nodes[0].url, match.pk, cookies[1])
    for sock in [*sockets, other]:
        await sock.open()
    await db(log_out, cookies[0])
    closed = [await frames_until_closed(sock) for sock in sockets]
    await other.send({"type": "sync"})
    synced = await other.until(lambda f: 'id="table-version"' in f)
    await other.close()
    assert [code for _frames, code in closed] == [4401, 4401]
    assert all(any("session has ended" in f for f in frames) for frames, _code in closed)
    assert synced  # the other player's socket, on the same process, stays


@in_own_loop
async def test_an_expired_timer_fires_once_across_processes(cluster: Cluster) -> None:
    tables = [await db(new_table) for _ in range(8)]
    ids = [match.pk for match, _, _ in tables]
    versions = {m.pk: m.version for m, _, _ in tables}
    await db(expire_now, ids)
    await wait_for_moves(ids, 1)
    # Both processes tick every 0.1 s: give them plenty more chances to double-fire.
    await asyncio.sleep(1.5)

    def check() -> None:
        for match_id in ids:
            moves = list(Move.objects.filter(match_id=match_id))
            assert [(m.seq, m.source) for m in moves] == [(1, "timeout")], match_id
            match = current(match_id)
            assert match.version == versions[match_id] + 1
            assert match.turn_deadline > timezone.now()
            assert_snapshot_is_replay(match)

    await db(check)


@in_own_loop
async def test_bots_move_once_across_processes(cluster: Cluster) -> None:
    def setup() -> list[int]:
        ids = []
        for _ in range(8):
            match, users, _ = new_table(bots=("random",))
            game = Game.from_snapshot(match.state)
            if game.to_act() != [0]:
                # The bot leads here and may throw in more: not a single-move case.
                services.abort_match(match, "bot leads")
                continue
            lead = next(a for a in game.legal_actions() if a.seat == 0 and a.kind == "attack")
            services.apply_action(match.pk, users[0], str(lead), version=match.version)
            ids.append(match.pk)
        return ids

    ids = await db(setup)
    assert ids
    await wait_for_moves(ids, 2)
    await asyncio.sleep(1.5)

    def check() -> None:
        for match_id in ids:
            moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
            assert [(m.seq, m.seat, m.source) for m in moves] == [
                (1, 0, "player"),
                (2, 1, "bot"),
            ], match_id
            match = current(match_id)
            assert match.bot_due_at is None
            assert Game.from_snapshot(match.state).to_act() == [0]
            assert_snapshot_is_replay(match)

    await db(check)


@in_own_loop
async def test_sigkill_loses_no_move_and_clients_carry_on(cluster: Cluster) -> None:
    match, users, cookies = await db(new_table)
    a, b = cluster.nodes
    clients = {
        0: TableClient(a.url, match.pk, cookies[0]),
        1: TableClient(b.url, match.pk, cookies[1]),
    }
    for client in clients.values():
        await client.open()
    rng = random.Random(match.pk + 1)
    acknowledged: list[str] = []
    for _ in range(4):
        action, _version = await play_one(clients, match.pk, rng)
        acknowledged.append(action)

    # Kill b while a move from its client (seat 1) may be in flight.
    for _ in range(20):
        match_now = await db(current, match.pk)
        game = Game.from_snapshot(match_now.state)
        pending = [x for x in game.legal_actions() if x.seat == 1]
        if pending:
            break
        action, _version = await play_one(clients, match.pk, rng)
        acknowledged.append(action)
    assert pending
    await clients[1].act(str(rng.choice(pending)), match_now.version)
    b.kill()

    def stored() -> list[str]:
        return list(
            Move.objects.filter(match_id=match.pk).order_by("seq").values_list("action", flat=True)
        )

    moves = await db(stored)
    assert moves[: len(acknowledged)] == acknowledged, "an acknowledged move was lost"
    assert len(moves) in (len(acknowledged), len(acknowledged) + 1)
    await db(assert_moves_gap_free, match.pk)

    # The client of the dead process reconnects to the survivor and gets the current table.
    client_b = clients[1]
    frame = await client_b.open(a.url)
    match_now = await db(current, match.pk)
    game = Game.from_snapshot(match_now.state)
    assert client_b.version == match_now.version
    assert sorted(hand_in(frame)) == sorted(game.hand(1))
    for _ in range(3):
        if (await db(current, match.pk)).status != Match.Status.PLAYING:
            break
        await play_one(clients, match.pk, rng)

    # b comes back; its client moves over again and the game goes on across both.
    cluster.restart(1)
    frame = await client_b.open(b.url)
    assert client_b.version == (await db(current, match.pk)).version
    # Clocks: a short turn, then every process is down when the deadline passes.
    await db(lambda: Match.objects.filter(pk=match.pk).update(turn_seconds=2))
    if (await db(current, match.pk)).status == Match.Status.PLAYING:
        await play_one(clients, match.pk, rng)
    before = await db(current, match.pk)
    if before.status != Match.Status.PLAYING:
        pytest.skip("the random game ended before the clock check")  # pragma: no cover
    deadline = before.turn_deadline
    assert deadline is not None and deadline <= timezone.now() + timedelta(seconds=2.5)
    for client in clients.values():
        await client.close()
    a.kill()
    b.kill()
    await asyncio.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.5)
    assert await db(lambda: Move.objects.filter(match_id=match.pk).count()) == before.move_count
    cluster.restart(0)
    cluster.restart(1)

    def timed_out() -> Move | None:
        return Move.objects.filter(match_id=match.pk, seq=before.move_count + 1).first()

    for _ in range(200):
        move = await db(timed_out)
        if move is not None:
            break
        await asyncio.sleep(0.1)
    assert move is not None, "the stored deadline was not honoured after the restart"
    assert move.source == "timeout"
    assert move.created_at >= deadline
    await db(assert_moves_gap_free, match.pk)
    await db(lambda: assert_snapshot_is_replay(current(match.pk)))


@in_own_loop
async def test_a_rolling_restart_loses_and_doubles_no_move(cluster: Cluster) -> None:
    """Each process restarts in turn while the game goes on, as docs/deploy.md says."""
    match, users, cookies = await db(new_table)
    a, b = cluster.nodes
    clients = {
        0: TableClient(a.url, match.pk, cookies[0]),
        1: TableClient(b.url, match.pk, cookies[1]),
    }
    for client in clients.values():
        await client.open()
    rng = random.Random(match.pk + 2)
    acknowledged: list[str] = []

    async def play(moves: int) -> None:
        for _ in range(moves):
            if (await db(current, match.pk)).status != Match.Status.PLAYING:
                return
            action, _version = await play_one(clients, match.pk, rng)
            acknowledged.append(action)

    await play(3)
    for index, node in enumerate(cluster.nodes):
        survivor = cluster.nodes[1 - index]
        # The balancer sends the restarting process's players to the one still serving.
        for client in clients.values():
            if client.base_url == node.url:
                await client.close()
                await client.open(survivor.url)
        cluster.restart(index)
        await play(3)
    stored = await db(
        lambda: list(
            Move.objects.filter(match_id=match.pk).order_by("seq").values_list("action", flat=True)
        )
    )
    assert stored == acknowledged
    await db(assert_moves_gap_free, match.pk)
    await db(lambda: assert_snapshot_is_replay(current(match.pk)))
    for client in clients.values():
        await client.close()


@in_own_loop
async def test_a_killed_process_releases_its_players_sockets(cluster: Cluster) -> None:
    match, users, cookies = await db(new_table)
    a, b = cluster.nodes
    clients = [TableClient(a.url, match.pk, cookies[0]), TableClient(b.url, match.pk, cookies[1])]
    for client in clients:
        await client.open()

    def seats() -> list[Seat]:
        return list(Seat.objects.filter(match_id=match.pk).order_by("number"))

    def open_sockets() -> list[int]:
        return [s.sockets.count() for s in seats()]

    assert await db(open_sockets) == [1, 1]
    b.kill()
    killed_at = timezone.now()
    for _ in range(100):
        counts = await db(open_sockets)
        if counts[1] == 0:
            break
        await asyncio.sleep(0.1)
    assert counts == [1, 0], "the dead process's socket was not released"
    rows = await db(seats)
    # Away since the dead process's last beat, not since the sweep.
    assert rows[1].disconnected_since is not None and rows[1].disconnected_since <= killed_at
    # The other player sees the seat go away, pushed from the surviving process.
    await clients[0].until(lambda f: 'class="badge away"' in f)
    assert await db(lambda: SocketPresence.objects.filter(seat__match_id=match.pk).count()) == 1
    await clients[0].close()
    cluster.restart(1)


@in_own_loop
async def test_a_process_starts_its_ticker_before_any_request(cluster: Cluster) -> None:
    """A fresh process beats (and so runs timers and bots) although nobody called it yet."""
    node = Node(host="127.0.0.1", port=free_port(), env=cluster.env)
    node.start()
    try:

        def beating() -> bool:
            return ServerProcess.objects.filter(pid=node.process.pid).exists()

        for _ in range(200):
            if await db(beating):
                break
            await asyncio.sleep(0.1)
        assert await db(beating), "the new process did not start its ticker by itself"
    finally:
        node.stop()


@in_own_loop
async def test_daphne_refuses_huge_frames_before_the_consumer(cluster: Cluster) -> None:
    """A frame past daphne's limit (1 MiB) ends the connection and changes nothing;
    below it, the consumer's own 4 KiB cap answers with an error frame."""
    from websockets.exceptions import ConnectionClosed

    match, users, cookies = await db(new_table)
    before = await db(lambda: (current(match.pk).version, current(match.pk).state))
    client = TableClient(cluster.nodes[0].url, match.pk, cookies[0])
    await client.open()
    await client.send({"type": "chat", "text": "x" * 10_000})
    assert "too long" in await client.until(lambda f: 'id="table-error"' in f)
    with pytest.raises(ConnectionClosed) as closed:
        # Daphne may drop the connection while the frame is still being sent.
        await client.conn.send("y" * (2 * 1024 * 1024))
        await asyncio.wait_for(client.conn.recv(), 20)
    # Either a 1009 close frame or a dropped connection, never a normal answer.
    assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
    assert await db(lambda: (current(match.pk).version, current(match.pk).state)) == before
    # The process is unharmed: the same player connects again.
    again = TableClient(cluster.nodes[0].url, match.pk, cookies[0])
    await again.open()
    assert again.version == before[0]
    await again.close()
