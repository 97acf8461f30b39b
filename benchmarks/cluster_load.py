"""Load on the two-process cluster (PostgreSQL + Redis), compared with one process on SQLite.

It creates users, sessions and N two-player tables directly through the services
(bots off), starts the daphne processes with ``durak_site.cluster``, and plays
every table over real WebSockets (the ``websockets`` package): the two seats of a
table sit on different processes, so every move crosses Redis. Each game is
driven by one coroutine that keeps its own engine copy, waits a human-like think
time, sends a random legal action from the seat that may play it, and measures
the time until BOTH seats' sockets received a render with the new version. When
a game ends the table's rematch starts the next one, so the load stays constant.

Afterwards it checks the database: every acknowledged action is a ``Move``
exactly once, in order, and each match's seqs run 1..N without a gap.

    .venv/bin/python benchmarks/cluster_load.py                      # both runs
    .venv/bin/python benchmarks/cluster_load.py --mode cluster --games 500 --duration 60
    .venv/bin/python benchmarks/cluster_load.py --mode single --games 100

The cluster run uses a fresh PostgreSQL database on ``--pg`` (``--database``,
default ``durak_bench_<pid>``, so two runs at once never share one; dropped after
the check unless ``--keep-database``) and Redis (``--redis``) under a fresh key
prefix; the single run uses a fresh SQLite file and the in-memory layer.

The load client tunes its own garbage collector: a full collection of its thousand
sockets would otherwise stall it, and that pause would be counted as the server's
latency.
``--trace FILE`` writes each action's start and latency, to see when slow ones
happen.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')
ERROR = 'id="table-error"'
TIMEOUT = 15.0


# ----------------------------------------------------------------- setup


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def prepare_environment(args: argparse.Namespace, workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # A settings module of your own (e.g. to try a channel-layer option) is respected.
    env.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    env.update(
        LOG_LEVEL="WARNING",
        GAMES_BOT_DELAY="0,0",
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    )
    if not args.debug:
        # Production settings, as docs/deploy.md runs the site; plain HTTP on loopback
        # (a proxy would terminate TLS), so no redirect to HTTPS.
        env.update(
            DJANGO_DEBUG="0",
            SECRET_KEY=uuid.uuid4().hex * 2,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_SECURE_SSL_REDIRECT="0",
        )
    if args.mode == "cluster":
        import psycopg

        with psycopg.connect(f"{args.pg.rstrip('/')}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{args.database}"')
        env["DATABASE_URL"] = f"{args.pg.rstrip('/')}/{args.database}"
        env["REDIS_URL"] = args.redis
        env["CHANNELS_PREFIX"] = f"durak-bench-{uuid.uuid4().hex[:8]}"
        env["CACHE_PREFIX"] = env["CHANNELS_PREFIX"]
    else:
        env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def migrate_and_seed(env: dict[str, str], games: int) -> list[dict]:
    """Migrate, then create 2 users, their sessions and one started table per game."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.models import Match, RuleVariant

    settings.GAMES_AUTO_START = True
    User = get_user_model()
    # Classic rules with timers far beyond the run: nothing but the players may move,
    # however long it takes to connect a thousand sockets on a busy machine.
    variant = RuleVariant.objects.get(slug="classic")
    variant.pk = None
    variant.slug, variant.name = "bench-classic", "Classic (benchmark)"
    variant.turn_seconds = variant.reconnect_seconds = 3600
    variant.save()
    stamp = uuid.uuid4().hex[:6]
    made = [0]

    def make_table(number: int) -> dict:
        from django.db import connection

        try:
            users = [User.objects.create(username=f"b{stamp}{number}x{seat}") for seat in range(2)]
            cookies = []
            for user in users:
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                cookies.append(session.session_key)
            match = services.create_match(users[0], variant, 2)
            services.join_match(match, users[1])
            match = Match.objects.get(pk=match.pk)
            made[0] += 1
            if made[0] % 100 == 0:
                progress(f"{made[0]} tables created")
            return {
                "id": match.pk,
                "cookies": cookies,
                "state": match.state,
                "version": match.version,
            }
        finally:
            connection.close()

    from concurrent.futures import ThreadPoolExecutor

    # Creating tables waits on the database as much as on Python: a few threads help.
    with ThreadPoolExecutor(max_workers=4) as pool:
        tables = list(pool.map(make_table, range(games)))
    from django.db import connections

    connections.close_all()
    return tables


# ----------------------------------------------------------------- driving


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[int, list[str]] = field(default_factory=dict)
    # Sent but never seen back (the run timed out on it): it may or may not be stored.
    in_flight: dict[int, str] = field(default_factory=dict)
    rematches: int = 0
    connect_retries: int = 0
    socket_drops: int = 0
    # (seconds since play started, latency) per acknowledged action, for --trace.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    # How late this client's own event loop woke up for a 10 ms timer.
    loop_lags: list[float] = field(default_factory=list)
    frame_bytes: int = 0
    frames: int = 0
    started: float = 0.0
    started_wall: float = 0.0


class Seat:
    def __init__(self, url: str, match_id: int, cookie: str) -> None:
        self.url = url
        self.match_id = match_id
        self.cookie = cookie
        self.version = -1
        self.conn = None
        self.waiters: list[tuple[int, asyncio.Future]] = []
        self.reader: asyncio.Task | None = None
        self.errors: list[str] = []
        self.received_bytes = 0
        self.received_frames = 0

    async def open(self) -> int:
        """Connect, retrying like the page's ws extension does; returns the retries needed."""
        from websockets.asyncio.client import connect

        host = self.url.split("://", 1)[1]
        for attempt in range(8):
            try:
                self.conn = await connect(
                    f"ws://{host}/ws/games/{self.match_id}/",
                    origin=self.url,
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    compression=None,
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                )
                break
            except (OSError, TimeoutError, Exception) as error:
                # daphne drops a socket the application did not accept within 5 s.
                if attempt == 7:
                    raise RuntimeError(f"could not connect to {self.url}: {error!r}") from error
                await asyncio.sleep(0.5 * 2**attempt)
        self.reader = asyncio.ensure_future(self._read())
        return attempt

    async def _read(self) -> None:
        try:
            async for frame in self.conn:
                if isinstance(frame, bytes):
                    frame = frame.decode()
                self.received_bytes += len(frame)
                self.received_frames += 1
                if ERROR in frame:
                    self.errors.append(re.sub(r"<[^>]+>", "", frame)[:200])
                found = VERSION.search(frame)
                if found:
                    self.version = max(self.version, int(found.group(1)))
                    ready = [w for w in self.waiters if w[0] <= self.version]
                    for item in ready:
                        self.waiters.remove(item)
                        if not item[1].done():
                            item[1].set_result(time.perf_counter())
        except Exception as error:  # A dropped socket is an error of the run.
            self.errors.append(f"socket closed: {error!r}")
        finally:
            # Whoever waits on this socket learns at once that it is gone.
            for _, future in self.waiters:
                if not future.done():
                    future.set_exception(ConnectionError("socket closed"))
            self.waiters.clear()

    @property
    def alive(self) -> bool:
        return self.reader is not None and not self.reader.done()

    def wait_version(self, version: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        if self.version >= version:
            future.set_result(time.perf_counter())
        else:
            self.waiters.append((version, future))
        return future

    async def send(self, data: dict) -> None:
        await self.conn.send(json.dumps(data))

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


def pick(game, rng: random.Random):
    legal = game.legal_actions()
    # People rarely take when they can beat: keep games of a realistic length.
    weights = [0.2 if a.kind == "take" else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


async def load_state(match_id: int) -> tuple[dict, int]:
    from games.models import Match

    def fetch():
        from django.db import close_old_connections

        close_old_connections()
        match = Match.objects.get(pk=match_id)
        return match.state, match.version

    return await asyncio.to_thread(fetch)


async def stored_player_moves(match_id: int) -> list[str]:
    from games.models import Move

    def fetch():
        from django.db import close_old_connections

        close_old_connections()
        return list(
            Move.objects.filter(match_id=match_id, source="player")
            .order_by("seq")
            .values_list("action", flat=True)
        )

    return await asyncio.to_thread(fetch)


async def recover(table: dict, seats: list, stats: Stats, pending: str | None):
    """A socket was dropped: reconnect it (as the page does) and take the table from the DB.

    The pending action counts as acknowledged only if the database holds it as the
    next move; the database check afterwards still compares everything.
    """
    from games.engine import Game

    stats.socket_drops += sum(1 for seat in seats if not seat.alive)
    for seat in seats:
        if not seat.alive:
            await seat.open()
    acknowledged = stats.acknowledged[table["id"]]
    if pending is not None:
        stored = await stored_player_moves(table["id"])
        if stored == [*acknowledged, pending]:
            acknowledged.append(pending)
    state, version = await load_state(table["id"])
    return Game.from_snapshot(state), version


async def drive(table: dict, seats: list[Seat], stats: Stats, stop_at: float, args) -> None:
    from games.engine import Game

    rng = random.Random(table["id"])
    game = Game.from_snapshot(table["state"])
    version = table["version"]
    acknowledged = stats.acknowledged.setdefault(table["id"], [])
    # Spread the first moves so the load does not come in one wave.
    await asyncio.sleep(rng.uniform(0, args.think[1]))
    while time.perf_counter() < stop_at:
        if game.is_over:
            waits = [seat.wait_version(version + 1) for seat in seats]
            await seats[0].send({"type": "rematch"})
            try:
                await asyncio.wait_for(asyncio.gather(*waits), TIMEOUT)
            except TimeoutError:
                stats.errors.append(f"match {table['id']}: no rematch")
                return
            state, version = await load_state(table["id"])
            game = Game.from_snapshot(state)
            stats.rematches += 1
            continue
        if not all(seat.alive for seat in seats):
            game, version = await recover(table, seats, stats, None)
            continue
        if any(seat.version > version for seat in seats):
            stats.errors.append(f"match {table['id']}: moved on without its players at v{version}")
            game, version = await recover(table, seats, stats, None)
            continue
        action = pick(game, rng)
        waits = [seat.wait_version(version + 1) for seat in seats]
        sent = time.perf_counter()
        try:
            await seats[action.seat].send(
                {"type": "action", "action": str(action), "version": version}
            )
            seen = await asyncio.wait_for(asyncio.gather(*waits), TIMEOUT)
        except TimeoutError:
            stats.errors.append(f"match {table['id']}: no update for {action} at v{version}")
            stats.in_flight[table["id"]] = str(action)
            return
        except Exception as error:
            stats.errors.append(f"match {table['id']}: {error!r} during {action}")
            for waiter in waits:
                waiter.cancel()
            game, version = await recover(table, seats, stats, str(action))
            continue
        stats.latencies.append(max(seen) - sent)
        stats.timeline.append((sent - stats.started, max(seen) - sent))
        acknowledged.append(str(action))
        game.apply(action)
        version += 1
        await asyncio.sleep(rng.uniform(*args.think))


async def run_load(tables: list[dict], urls: list[str], args) -> tuple[Stats, float, float]:
    stats = Stats()
    seats_of: dict[int, list[Seat]] = {}
    limit = asyncio.Semaphore(args.connect_concurrency)

    retries = 0

    async def open_seat(seat: Seat) -> None:
        nonlocal retries
        async with limit:
            retries += await seat.open()

    for index, table in enumerate(tables):
        # The two players of a table are on different processes whenever there are two.
        seats_of[table["id"]] = [
            Seat(urls[(index + seat) % len(urls)], table["id"], table["cookies"][seat])
            for seat in range(2)
        ]
    connect_started = time.perf_counter()
    await asyncio.gather(*(open_seat(s) for seats in seats_of.values() for s in seats))
    connect_seconds = time.perf_counter() - connect_started
    stats.connect_retries = retries
    progress(
        f"{2 * len(tables)} sockets open in {connect_seconds:.1f} s ({retries} retries); playing"
    )
    for seats, table in zip(seats_of.values(), tables, strict=True):
        await asyncio.gather(*(s.wait_version(table["version"]) for s in seats))
    # Every connect pushes a presence update to the table: let that backlog drain first.
    await asyncio.sleep(args.settle)
    started = stats.started = time.perf_counter()
    stats.started_wall = time.time()
    stop_at = started + args.duration
    lag_watch = asyncio.ensure_future(watch_loop_lag(stats, stop_at))
    outcomes = await asyncio.gather(
        *(drive(t, seats_of[t["id"]], stats, stop_at, args) for t in tables),
        return_exceptions=True,
    )
    await lag_watch
    stats.errors.extend(f"driver: {o!r}" for o in outcomes if isinstance(o, BaseException))
    elapsed = time.perf_counter() - started
    for seats in seats_of.values():
        for seat in seats:
            stats.errors.extend(f"match {seat.match_id}: {e}" for e in seat.errors)
            stats.frame_bytes += seat.received_bytes
            stats.frames += seat.received_frames
    await asyncio.gather(*(s.close() for seats in seats_of.values() for s in seats))
    return stats, elapsed, connect_seconds


async def watch_loop_lag(stats: Stats, stop_at: float) -> None:
    """Sample this client's own scheduling delay, which would otherwise pass for latency."""
    while time.perf_counter() < stop_at:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.loop_lags.append(time.perf_counter() - before - 0.01)


# ----------------------------------------------------------------- checks


def drop_database(args: argparse.Namespace) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{args.pg.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')


def check_database(stats: Stats) -> dict[str, int]:
    from django.db import close_old_connections

    from games.models import Move

    close_old_connections()
    lost = duplicated = gaps = unexpected = 0
    for match_id, sent in stats.acknowledged.items():
        moves = list(
            Move.objects.filter(match_id=match_id)
            .order_by("seq")
            .values_list("seq", "action", "source")
        )
        seqs = [seq for seq, _, _ in moves]
        if seqs != list(range(1, len(seqs) + 1)):
            gaps += 1
        stored = [action for _, action, source in moves if source == "player"]
        unexpected += sum(1 for _, _, source in moves if source != "player")
        # Order-preserving comparison: what was acknowledged must be stored once, in order.
        if stored[: len(sent)] != sent:
            missing = len([a for a in sent if a not in stored])
            lost += max(1, missing)
        extra = stored[len(sent) :]
        # The one action a timed-out game left in flight may have landed; more may not.
        if extra and extra != [stats.in_flight.get(match_id)]:
            duplicated += len(extra)
    return {
        "lost": lost,
        "duplicated": duplicated,
        "gapped_matches": gaps,
        "non_player_moves": unexpected,
    }


# ----------------------------------------------------------------- report


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} cores ({model}), {memory}, {platform.platform()}, "
        f"CPython {platform.python_version()}, load average at start {load}"
    )


def peak_rss_mb_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def run_one(args) -> dict:
    from durak_site.cluster import Cluster, free_port

    workdir = Path(tempfile.mkdtemp(prefix="durak-cluster-bench-"))
    env = prepare_environment(args, workdir)
    t0 = time.perf_counter()
    tables = migrate_and_seed(env, args.games)
    seed_seconds = time.perf_counter() - t0
    processes = 2 if args.mode == "cluster" else 1
    cluster = Cluster([free_port() for _ in range(processes)], env=env, log_dir=workdir)
    progress(f"{len(tables)} tables ready in {seed_seconds:.0f} s; starting {processes} daphne")
    cluster.start(timeout=120)
    # What is loaded now lives as long as the client; young collections come rarely.
    gc.freeze()
    gc.set_threshold(50_000, 200, 100)
    try:
        stats, elapsed, connect_seconds = asyncio.run(run_load(tables, cluster.urls, args))
        peak_rss_mb = [peak_rss_mb_of(node.process.pid) for node in cluster.nodes]
    finally:
        cluster.stop()
    progress("checking the database")
    checks = check_database(stats)
    if args.mode == "cluster" and not args.keep_database:
        drop_database(args)
    latencies_ms = [x * 1000 for x in stats.latencies]
    result = {
        "mode": args.mode,
        "backend": "2 daphne, PostgreSQL + Redis"
        if args.mode == "cluster"
        else "1 daphne, SQLite + in-memory layer",
        "games": args.games,
        "think_s": list(args.think),
        "duration_s": round(elapsed, 1),
        "actions": len(latencies_ms),
        "actions_per_s": round(len(latencies_ms) / elapsed, 1) if elapsed else 0,
        "p50_ms": round(percentile(latencies_ms, 50), 1),
        "p90_ms": round(percentile(latencies_ms, 90), 1),
        "p99_ms": round(percentile(latencies_ms, 99), 1),
        "max_ms": round(max(latencies_ms), 1) if latencies_ms else None,
        "mean_ms": round(statistics.fmean(latencies_ms), 1) if latencies_ms else None,
        "errors": len(stats.errors),
        "rematches": stats.rematches,
        "connect_s": round(connect_seconds, 1),
        "connect_retries": stats.connect_retries,
        "socket_drops": stats.socket_drops,
        "seed_s": round(seed_seconds, 1),
        "client_lag_p99_ms": round(1000 * percentile(stats.loop_lags, 99), 1),
        "client_lag_max_ms": round(1000 * max(stats.loop_lags, default=0), 1),
        "server_peak_rss_mb": peak_rss_mb,
        "mean_frame_bytes": round(stats.frame_bytes / stats.frames) if stats.frames else 0,
        **checks,
    }
    if args.trace:
        with open(args.trace, "w") as trace:
            trace.write(f"# play started at unix time {stats.started_wall:.3f}\n")
            for at, latency in stats.timeline:
                trace.write(f"{at:.3f} {1000 * latency:.1f}\n")
    for error in stats.errors[:10]:
        print(f"  error: {error}", file=sys.stderr)
    return result


def print_result(result: dict) -> None:
    print(
        f"{result['backend']}: {result['games']} games, {result['actions']} actions in "
        f"{result['duration_s']} s = {result['actions_per_s']} actions/s; latency "
        f"p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, p99 {result['p99_ms']} ms, "
        f"max {result['max_ms']} ms; errors {result['errors']}; lost {result['lost']}, "
        f"duplicated {result['duplicated']}, gapped matches {result['gapped_matches']}, "
        f"non-player moves {result['non_player_moves']}; rematches {result['rematches']}; "
        f"{2 * result['games']} sockets connected in {result['connect_s']} s "
        f"({result['connect_retries']} connect retries); "
        f"sockets dropped by the server {result['socket_drops']}; "
        f"load client's own loop lag p99 {result['client_lag_p99_ms']} ms, "
        f"max {result['client_lag_max_ms']} ms; mean frame {result['mean_frame_bytes']} bytes; "
        f"server peak RSS {' + '.join(str(mb) for mb in result['server_peak_rss_mb'])} MB",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["both", "cluster", "single"], default="both")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play measured")
    parser.add_argument(
        "--think",
        type=lambda s: tuple(float(x) for x in s.split(",")),
        default=(3.0, 9.0),
        help="a player's think time between moves, uniform in LOW,HIGH seconds",
    )
    parser.add_argument("--single-games", type=int, default=None, help="games for the SQLite run")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default=None, help="default: durak_bench_<pid>")
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--connect-concurrency", type=int, default=10)
    parser.add_argument(
        "--settle", type=float, default=15.0, help="seconds between connecting and playing"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON (one run)")
    parser.add_argument(
        "--trace", default=None, help="write 'seconds-into-play latency-ms' per action (one run)"
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="serve with DJANGO_DEBUG=1 instead of production settings",
    )
    args = parser.parse_args()
    args.database = args.database or f"durak_bench_{os.getpid()}"

    if args.mode != "both":
        result = run_one(args)
        print(json.dumps(result) if args.json else "", flush=True)
        if not args.json:
            print_result(result)
        return 0 if result["errors"] == 0 and result["lost"] == result["duplicated"] == 0 else 1

    print(f"machine: {machine()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}", flush=True)
    status = 0
    for mode in ("cluster", "single"):
        games = args.games if mode == "cluster" or args.single_games is None else args.single_games
        command = [
            sys.executable,
            __file__,
            "--mode",
            mode,
            "--json",
            "--games",
            str(games),
            "--duration",
            str(args.duration),
            "--think",
            ",".join(str(x) for x in args.think),
            "--pg",
            args.pg,
            "--database",
            args.database,
            *(["--keep-database"] if args.keep_database else []),
            "--redis",
            args.redis,
            "--connect-concurrency",
            str(args.connect_concurrency),
            "--settle",
            str(args.settle),
        ]
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            print(f"{mode}: the run failed (exit {done.returncode})")
            status = 1
            continue
        result = json.loads(lines[-1])
        print_result(result)
        if done.returncode:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
