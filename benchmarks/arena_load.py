"""An arena of many players on the cluster (PostgreSQL + Redis): issue 49's load test.

It makes a fresh PostgreSQL database and a running arena of two-seat tables on the
24-card deck (games of about twenty moves, so many end in a few minutes), ``--players``
accounts joined to it, then starts ``durak_site.cluster`` (two daphne processes, a
bot worker and a task worker) and plays it over real WebSockets:

- every player holds the arena page's socket (``/ws/arena/<id>/``) the whole run,
  half of them on each web process, as a player keeps the arena open in a tab;
- the web processes' tickers pair the players; the load client reads the open
  tables of the arena from the database a few times a second (the page's link to
  "your table" says the same), and each table's two players open its socket on their
  own process and play the first legal action the server rendered for them
  (``live_latency.choose``) after ``--think`` seconds, until the game ends; then they
  close the table and are paired again, until the arena is over.  Sockets open ten at
  a time (``--connect-concurrency``): at the start every player is paired in one tick,
  and three hundred sockets opened at once take longer than daphne's 5 s to accept
  on two busy cores, so the turn time is 30 s and a table whose socket drops or stays
  silent is opened again.

Measured: the standings' push latency (from a game's end, its deal's ``finished_at``,
stamped in the transaction of its last move, to the first push after it on every open
arena page, the board itself or a word to fetch the live part; p50/p99/max over all
pages and games), the web processes' CPU per game end (from /proc, between the arena's
start and its last game end), the number of games; with ``--fetch``, also each page
fetching its live part when a push says so, as the page's htmx does, and that fetch's
time.

Checked afterwards (any of them non-zero fails the run): players seated at two open
tables of the arena at once (sampled from the database on every poll, and from the
stored games: two tables of one player whose times overlap), games lost (an arena
table not finished and scored, a scored game whose first deal is not finished, or a
game the players saw end that the database lacks), and standings not equal to
``arena.services.recompute`` over the stored games (points, games, fire).

    .venv/bin/python benchmarks/arena_load.py --smoke
    .venv/bin/python benchmarks/arena_load.py --players 300 --minutes 4 --json out.json

The database is ``durak_arena_load_<pid>`` on ``--pg``, dropped afterwards; the channel
layer and cache use ``--redis`` (a db number of its own, default 7) under a fresh key
prefix, and nothing there is flushed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from arena_load_checks import FAILURES, check, print_result  # noqa: E402
from cluster_load import drop_database, machine, peak_rss_mb_of, prepare_environment  # noqa: E402
from live_latency import choose, cpu_seconds, pct, session_cookie  # noqa: E402
from ws_load import TIMEOUT, Seat, in_thread, progress  # noqa: E402

# The two pushes a page may be sent: "fetch your live part again" (a change of its own
# player's), or the board itself (others' results: no fetch to make).
REFRESH = 'id="arena-refresh"'
BOARD = 'id="arena-board"'
POLL_SECONDS = 0.3
# After the arena's end and its last game, how long the pages stay open for the last push.
TAIL_SECONDS = 3.0
# Times a table's sockets are opened again before its driver gives up.
REOPENS = 5


# ----------------------------------------------------------------- setup


def migrate_and_seed(env: dict[str, str], args: argparse.Namespace) -> dict:
    """Migrate, then the arena (not started) and its players, joined through the service
    the Join button calls, each with a signed-in session."""
    import subprocess

    for command in ("migrate", "collectstatic"):
        subprocess.run(
            [sys.executable, "manage.py", command, "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    os.environ.update(env)
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.utils import timezone

    from arena import services
    from arena.models import Arena
    from games.models import RuleVariant

    arena = Arena.objects.create(
        name="Load arena",
        variant=RuleVariant.objects.get(slug="short-deck-24"),
        players_per_table=2,
        turn_seconds=args.turn_seconds,
        # Started only when every page is open (start_arena).
        starts_at=timezone.now() + timedelta(days=1),
        minutes=args.minutes,
    )
    stamp = uuid.uuid4().hex[:6]
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"arena{stamp}p{n}") for n in range(args.players)
    )
    players = []
    for user in users:
        services.join(user, arena)
        players.append({"user_id": user.pk, "cookie": session_cookie(user)})
    connections.close_all()
    return {"arena_id": arena.pk, "players": players}


def start_arena(arena_id: int) -> float:
    """Start the arena now (the tickers set it running); its end, as a unix time."""
    from django.utils import timezone

    from arena.models import Arena

    now = timezone.now()
    Arena.objects.filter(pk=arena_id).update(starts_at=now)
    return Arena.objects.get(pk=arena_id).ends_at.timestamp()


# ----------------------------------------------------------------- the players


@dataclass
class Run:
    arena_id: int
    urls: list[str]
    args: argparse.Namespace
    node_of: dict[int, int]  # user id: the web process of their pages
    cookie_of: dict[int, str]
    # Per open arena page: the unix times its refresh frames arrived.
    refreshes: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    fetches: list[float] = field(default_factory=list)
    told_to_fetch: int = 0
    drivers: dict[int, asyncio.Task] = field(default_factory=dict)
    redriven: int = 0
    seen_finished: set[int] = field(default_factory=set)
    seated_twice: int = 0
    seated_twice_samples: int = 0
    errors: list[str] = field(default_factory=list)
    refusals: int = 0
    moves: int = 0
    page_drops: int = 0
    reopened: int = 0  # table sockets opened again after a drop or a silence
    connects: asyncio.Semaphore | None = None


async def hold_page(
    run: Run, user_id: int, stop: asyncio.Event, http, limit: asyncio.Semaphore
) -> None:
    """One player's arena page: its socket, open until ``stop``; the arrival of each
    refresh it is told, and with --fetch the standings part fetched on it."""
    from websockets.asyncio.client import connect

    url = run.urls[run.node_of[user_id]]
    host = url.split("://", 1)[1]
    cookie = f"sessionid={run.cookie_of[user_id]}"
    conn = None
    for attempt in range(8):
        try:
            async with limit:  # opened a few at a time, as arrivals would be
                conn = await connect(
                    f"ws://{host}/ws/arena/{run.arena_id}/",
                    origin=url,
                    additional_headers={"Cookie": cookie},
                    compression=None,
                    open_timeout=60,
                    ping_interval=None,
                )
            break
        except Exception as error:
            if attempt == 7:
                run.errors.append(f"arena page of {user_id}: {error!r}")
                return
            await asyncio.sleep(0.5 * 2**attempt)
    fetching = run.args.fetch > 0 and random.Random(user_id).random() < run.args.fetch

    async def read() -> None:
        async for frame in conn:
            if REFRESH in frame or BOARD in frame:
                run.refreshes[user_id].append(time.time())
            if REFRESH in frame:
                run.told_to_fetch += 1
                if fetching:
                    asyncio.ensure_future(fetch(http, url, run, cookie))

    reader = asyncio.ensure_future(read())
    await asyncio.wait([reader, asyncio.ensure_future(stop.wait())], return_when="FIRST_COMPLETED")
    if reader.done():
        run.page_drops += 1
        run.errors.append(f"arena page of {user_id} closed by the server")
    await conn.close()
    reader.cancel()


async def fetch(http, url: str, run: Run, cookie: str) -> None:
    started = time.perf_counter()
    async with http.get(
        f"{url}/arena/{run.arena_id}/standings/", headers={"Cookie": cookie}
    ) as response:
        await response.read()
        if response.status != 200:
            run.errors.append(f"standings part: {response.status}")
    run.fetches.append(time.perf_counter() - started)


async def play_table(run: Run, match_id: int, seats: list[tuple[int, int]]) -> None:
    """The table's two players, each on their own page's process, play it out; a socket
    that drops or a push that does not come is opened again, as the page's would be."""
    rng = random.Random(match_id)
    players = [
        (number, Seat(run.urls[run.node_of[user]], match_id, run.cookie_of[user], True))
        for user, number in seats
    ]
    try:
        for attempt in range(REOPENS + 1):
            try:
                for _, seat in players:
                    if not seat.alive:
                        await seat.close()
                        async with run.connects:  # a few at a time, as the pages open
                            await seat.open()
                await play_out(run, match_id, players, rng)
                run.seen_finished.add(match_id)
                return
            except (ConnectionError, TimeoutError, LookupError) as error:
                if attempt == REOPENS:
                    run.errors.append(f"match {match_id}: {error!r}")
                    return
                run.reopened += 1
                for _, seat in players:  # both look at the table afresh
                    await seat.close()
    except Exception as error:
        run.errors.append(f"match {match_id}: {error!r}")
    finally:
        await asyncio.gather(*(seat.close() for _, seat in players), return_exceptions=True)


async def play_out(run: Run, match_id: int, players: list, rng: random.Random) -> None:
    """Play the first legal action either player's page shows until the game ends."""
    await asyncio.wait_for(
        asyncio.gather(*(seat.wait_version(0) for _, seat in players)), 4 * TIMEOUT
    )
    while True:
        version = max(seat.version for _, seat in players)
        await asyncio.wait_for(
            asyncio.gather(*(seat.wait_version(version) for _, seat in players)), TIMEOUT
        )
        if players[0][1].status != "playing":
            return
        moves = [(seat, choose(seat.frame, number)) for number, seat in players]
        mover, action = next(((s, a) for s, a in moves if a), (None, None))
        if mover is None:
            raise LookupError(f"no legal action shown at v{version}")
        await asyncio.sleep(rng.uniform(*run.args.think))
        if any(seat.version > version for _, seat in players):
            continue  # the other player moved meanwhile
        refused = len(mover.refusals)
        await mover.send({"type": "action", "action": action, "version": version})
        deadline = time.perf_counter() + TIMEOUT
        while mover.version <= version and len(mover.refusals) == refused:
            if time.perf_counter() > deadline or not mover.alive:
                raise TimeoutError(f"no answer to {action} at v{version}")
            await asyncio.sleep(0.02)
        if len(mover.refusals) > refused:
            run.refusals += 1  # at once after the other's move: look again
        else:
            run.moves += 1


def open_seats(arena_id: int) -> list[tuple[int, int, int]]:
    from arena.services import OPEN_TABLE
    from games.models import Seat as SeatRow

    return list(
        SeatRow.objects.filter(
            match__arena_game__arena_id=arena_id, match__status__in=OPEN_TABLE
        ).values_list("match_id", "user_id", "number")
    )


async def watch_tables(run: Run, ends_at: float, tables: list[asyncio.Task]) -> None:
    """Start a driver for every new table of the arena; sample who sits at two open
    tables; return once the arena is over and no table of it is open."""
    while True:
        rows = await in_thread(lambda: open_seats(run.arena_id))
        by_match: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for match_id, user_id, number in rows:
            by_match[match_id].append((user_id, number))
        tables_of = Counter(user for seats in by_match.values() for user, _ in seats)
        run.seated_twice = max(run.seated_twice, sum(1 for n in tables_of.values() if n > 1))
        run.seated_twice_samples += 1
        for match_id, seats in by_match.items():
            if len(seats) != 2:
                continue
            driver = run.drivers.get(match_id)
            if driver is not None and driver.done():
                # Its players gave up waiting (a push that never came): as a person
                # would reload the page, they look at the table again.
                run.redriven += 1
            elif driver is not None:
                continue
            run.drivers[match_id] = asyncio.ensure_future(play_table(run, match_id, seats))
            tables.append(run.drivers[match_id])
        if time.time() > ends_at and not by_match:
            return
        await asyncio.sleep(POLL_SECONDS)


async def play(run: Run, cpu_now, arena_id: int) -> dict:
    import aiohttp

    stop = asyncio.Event()
    limit = run.connects = asyncio.Semaphore(run.args.connect_concurrency)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=50))

    pages = [asyncio.ensure_future(hold_page(run, user, stop, http, limit)) for user in run.node_of]
    while len(run.refreshes) < len(run.node_of):
        # Each page is told to fetch the standings once as it opens.
        await asyncio.sleep(0.2)
        if any(task.done() for task in pages):  # a page that could not open: see errors
            break
    progress(f"{len(run.node_of)} arena pages open; the arena starts")
    cpu_before, started = cpu_now(), time.time()
    ends_at = await in_thread(lambda: start_arena(arena_id))
    tables: list[asyncio.Task] = []
    await watch_tables(run, ends_at, tables)
    await asyncio.gather(*tables)
    cpu_after, last_end = cpu_now(), time.time()
    await asyncio.sleep(TAIL_SECONDS)
    stop.set()
    await asyncio.gather(*pages)
    await http.close()
    return {
        "cpu": {name: cpu_after[name] - cpu_before[name] for name in cpu_before},
        "started": started,
        "played_s": last_end - started,
    }


# ----------------------------------------------------------------- the run


def run_arena(args: argparse.Namespace) -> dict:
    from durak_site.cluster import Cluster, free_port

    workdir = Path(tempfile.mkdtemp(prefix="durak-arena-load-"))
    args.mode, args.debug, args.bot_delay = "cluster", False, 1.0
    env = prepare_environment(args, workdir)
    seeded = time.perf_counter()
    seed = migrate_and_seed(env, args)
    progress(
        f"{args.players} players joined in {time.perf_counter() - seeded:.0f} s; starting the "
        f"cluster (logs in {workdir})"
    )
    cluster = Cluster(
        [free_port(), free_port()], env=env, log_dir=workdir, workers=1, bot_workers=1
    )
    cluster.start(timeout=120)
    players = seed["players"]
    run = Run(
        arena_id=seed["arena_id"],
        urls=cluster.urls,
        args=args,
        node_of={p["user_id"]: n % 2 for n, p in enumerate(players)},
        cookie_of={p["user_id"]: p["cookie"] for p in players},
    )
    daphne = [node.process.pid for node in cluster.nodes]
    workers = [w.process.pid for w in [*cluster.bot_workers, *cluster.workers]]

    def cpu_now() -> dict[str, float]:
        alive = lambda pids: [p for p in pids if Path(f"/proc/{p}").exists()]  # noqa: E731
        return {
            "daphne": sum(map(cpu_seconds, alive(daphne))),
            "workers": sum(map(cpu_seconds, alive(workers))),
        }

    gc.freeze()
    gc.set_threshold(50_000, 200, 100)
    load_before = os.getloadavg()
    try:
        played = asyncio.run(play(run, cpu_now, seed["arena_id"]))
        load_after = os.getloadavg()
        rss = [peak_rss_mb_of(pid) for pid in daphne]
    finally:
        cluster.stop()
    progress("checking the database")
    found = check(run)
    ends = found["games_finished"]
    return {
        "players": args.players,
        "minutes": args.minutes,
        "turn_seconds": args.turn_seconds,
        "think_s": list(args.think),
        "fetch_share": args.fetch,
        "played_s": round(played["played_s"], 1),
        "moves": run.moves,
        "refused_moves": run.refusals,
        "cpu_s": {k: round(v, 1) for k, v in played["cpu"].items()},
        "daphne_cores": round(played["cpu"]["daphne"] / played["played_s"], 2),
        "daphne_cpu_ms_per_game_end": round(1000 * played["cpu"]["daphne"] / ends, 1)
        if ends
        else None,
        "pushes_to_fetch": run.told_to_fetch,
        "tables_looked_at_again": run.redriven,
        "standings_fetches": len(run.fetches),
        "fetch_p50_ms": round(1000 * pct(run.fetches, 50), 1) if run.fetches else None,
        "fetch_p99_ms": round(1000 * pct(run.fetches, 99), 1) if run.fetches else None,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "daphne_peak_rss_mb": rss,
        "page_drops": run.page_drops,
        "table_sockets_reopened": run.reopened,
        "errors": len(run.errors),
        "error_examples": run.errors[:5],
        **found,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--minutes", type=int, default=4, help="the arena's length")
    parser.add_argument(
        "--turn-seconds",
        type=int,
        default=30,
        help="the arena's turn time: the first tables all open at the start at once",
    )
    parser.add_argument(
        "--think",
        type=lambda s: tuple(float(x) for x in s.split(",")),
        default=(1.0, 3.0),
        help="a player's think time before each move, uniform in LOW,HIGH seconds",
    )
    parser.add_argument(
        "--fetch",
        type=float,
        default=0.0,
        help="share of the pages that fetch the standings part on each push (0-1)",
    )
    parser.add_argument("--smoke", action="store_true", help="20 players, a 2-minute arena")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument("--connect-concurrency", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the result to this file")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.minutes = 20, 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.database = f"durak_arena_load_{os.getpid()}"
    print(f"machine: {machine()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}", flush=True)
    try:
        result = run_arena(args)
    finally:
        if not args.keep_database:
            drop_database(args.pg, args.database)
    print_result(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, default=str))
    failed = result["errors"] or any(result[name] for name in FAILURES)
    return 1 if failed or result["push_p99_ms"] is None else 0


if __name__ == "__main__":
    sys.exit(main())
