"""Load on the two-process cluster (PostgreSQL + Redis), compared with one process on SQLite.

It creates users, sessions and N started tables directly through the services, some
of them (``--bot-tables``) a person against the hard bot as the lobby opens them,
starts the daphne processes and the bot workers with ``durak_site.cluster``, and
plays every table over real WebSockets (the ``websockets`` package; the players are
in ``benchmarks/ws_load.py``). The two seats of a two-human table sit on different
processes, so every move crosses Redis; the bots' moves come from the bot workers.
Players think 3-9 s a move; the bots wait a fixed ``--bot-delay``.

It reports the two-human tables' action-to-update latency (until both seats saw the
new version) and actions/s; at the bot tables, the person's own action-to-update
and the bot's answer time (the person saw the bot's turn begin, then its move) less
the bot's delay; and the CPU of the daphne processes and of the bot workers.

Afterwards it checks the database: every acknowledged action of a player is a
``Move`` exactly once, in order; each match's seqs run 1..N without a gap or a
repeat; no bot move is doubled (two bot moves in a row closer than the bot's delay
were played for one turn); and no move came from a timer or a forfeit.

    .venv/bin/python benchmarks/cluster_load.py                      # both runs
    .venv/bin/python benchmarks/cluster_load.py --mode cluster --games 30 --bot-tables 10 --duration 20
    .venv/bin/python benchmarks/cluster_load.py --mode single --games 100 --bot-tables 0

The cluster of issue 25 (two web processes, two bot workers, 300 tables, a third of
them against the hard bot), for a quiet machine:

    .venv/bin/python benchmarks/cluster_load.py --mode cluster --games 300 --bot-tables 100 --bot-workers 2 --duration 60 --redis redis://127.0.0.1:6379/2

The cluster run uses a fresh PostgreSQL database on ``--pg`` (``--database``,
default ``durak_bench_<pid>``, so two runs at once never share one; dropped after
the check unless ``--keep-database``) and Redis (``--redis``) under a fresh key
prefix; the single run uses a fresh SQLite file and the in-memory layer.

The load client tunes its own garbage collector: a full collection of its thousand
sockets would otherwise stall it, and that pause would be counted as the server's
latency. ``--trace FILE`` writes each two-human action's start and latency, to see
when slow ones happen.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bots_at_the_table import make_bot_tables  # noqa: E402
from live_latency import cpu_seconds, pct, session_cookie  # noqa: E402
from ws_load import Stats, progress, run_load  # noqa: E402

# ----------------------------------------------------------------- setup


def prepare_environment(args: argparse.Namespace, workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # A settings module of your own (e.g. to try a channel-layer option) is respected.
    env.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    env.update(
        LOG_LEVEL="WARNING",
        # A fixed delay: the bot's answer time less it is what the search and the
        # workers' queue add.
        GAMES_BOT_DELAY=f"{args.bot_delay},{args.bot_delay}",
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
        create_database(args.pg, args.database)
        env["DATABASE_URL"] = f"{args.pg.rstrip('/')}/{args.database}"
        env["REDIS_URL"] = args.redis
        env["CHANNELS_PREFIX"] = f"durak-bench-{uuid.uuid4().hex[:8]}"
        env["CACHE_PREFIX"] = env["CHANNELS_PREFIX"]
    else:
        env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def bot_table_count(args: argparse.Namespace, games: int) -> int:
    """``--bot-tables``: a count, or below 1 the share of the tables."""
    share = args.bot_tables
    return min(games, round(games * share) if share < 1 else int(share))


def migrate_and_seed(env: dict[str, str], games: int, bots: int, level: str) -> list[dict]:
    """Migrate, then create the users, their sessions and ``games`` started tables, the
    last ``bots`` of them a person against a bot."""
    for command in ("migrate", "collectstatic"):  # Production settings serve hashed files.
        subprocess.run(
            [sys.executable, "manage.py", command, "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model

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
            match = services.create_match(users[0], variant, 2)
            services.join_match(match, users[1])
            match = Match.objects.get(pk=match.pk)
            made[0] += 1
            if made[0] % 100 == 0:
                progress(f"{made[0]} tables created")
            cookies = [session_cookie(user) for user in users]
            return {"id": match.pk, "cookies": cookies, "bot": False}
        finally:
            connection.close()

    from concurrent.futures import ThreadPoolExecutor

    # Creating tables waits on the database as much as on Python: a few threads help.
    with ThreadPoolExecutor(max_workers=4) as pool:
        tables = list(pool.map(make_table, range(games - bots)))
    tables += [
        {"id": match_id, "cookies": cookies, "bot": True}
        for match_id, cookies in make_bot_tables(bots, level, variant)
    ]
    matches = Match.objects.in_bulk([table["id"] for table in tables])
    for table in tables:
        table.update(state=matches[table["id"]].state, version=matches[table["id"]].version)
    from django.db import connections

    connections.close_all()
    return tables


# ----------------------------------------------------------------- checks


def check_database(stats: Stats, tables: list[dict], args: argparse.Namespace) -> dict[str, int]:
    from django.db import close_old_connections

    from games.models import Move

    close_old_connections()
    found = dict.fromkeys(CHECKS, 0)
    for table in tables:
        kind = "bot_table_" if table["bot"] else ""
        moves = list(
            Move.objects.filter(match_id=table["id"])
            .order_by("seq")
            .values_list("seq", "action", "source", "created_at")
        )
        seqs = [seq for seq, *_ in moves]
        found["seq_doubled"] += len(seqs) - len(set(seqs))
        found[kind + "gapped_matches"] += seqs != list(range(1, len(seqs) + 1))
        allowed = ("player", "bot") if table["bot"] else ("player",)
        found[kind + "other_moves"] += sum(1 for *_, source, _ in moves if source not in allowed)
        stored = [action for _, action, source, _ in moves if source == "player"]
        sent = stats.acknowledged.get(table["id"], [])
        # Order-preserving comparison: what was acknowledged must be stored once, in order.
        if stored[: len(sent)] != sent:
            found[kind + "lost"] += max(1, len([a for a in sent if a not in stored]))
        extra = stored[len(sent) :]
        # The one action a timed-out game left in flight may have landed; more may not.
        if extra and extra != [stats.in_flight.get(table["id"])]:
            found[kind + "duplicated"] += len(extra)
        bot_moves = [(seq, at) for seq, _, source, at in moves if source == "bot"]
        found["bot_moves"] += len(bot_moves)
        # The bot workers' CPU is measured over the play; so are the moves it bought.
        played = stats.started_wall, stats.started_wall + args.duration
        found["bot_moves_in_play"] += sum(
            played[0] <= at.timestamp() < played[1] for _, at in bot_moves
        )
        # A bot's move is due its delay after the move before it: two bot moves in a row
        # sooner than that were both played for one turn.
        found["bot_doubled"] += sum(
            1
            for (seq, at), (next_seq, next_at) in pairwise(bot_moves)
            if next_seq == seq + 1 and (next_at - at).total_seconds() < args.bot_delay / 2
        )
    return found


CHECKS = (
    *("lost", "duplicated", "gapped_matches", "other_moves"),
    *("bot_table_lost", "bot_table_duplicated", "bot_table_gapped_matches"),
    *("bot_table_other_moves", "bot_moves", "bot_moves_in_play", "bot_doubled", "seq_doubled"),
)
FAILURES = [name for name in CHECKS if not name.startswith("bot_moves")]


# ----------------------------------------------------------------- report


def create_database(server: str, name: str) -> None:
    """A fresh, empty database ``name`` on the PostgreSQL ``server`` (an older one goes)."""
    import psycopg

    with psycopg.connect(f"{server.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(server: str, name: str) -> None:
    import psycopg
    from django.conf import settings
    from django.db import connections

    if settings.configured:
        connections.close_all()
    with psycopg.connect(f"{server.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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


def figures(prefix: str, seconds: list[float], less: float = 0.0) -> dict:
    """p50/p90/p99/max in ms of ``seconds`` less ``less`` s, under keys named ``prefix``."""
    ms = [(x - less) * 1000 for x in seconds]
    found = {f"{prefix}p{q}_ms": round(pct(ms, q), 1) for q in (50, 90, 99)}
    return {**found, f"{prefix}max_ms": round(max(ms), 1) if ms else None}


def run_one(args) -> dict:
    from durak_site.cluster import Cluster, free_port

    workdir = Path(tempfile.mkdtemp(prefix="durak-cluster-bench-"))
    env = prepare_environment(args, workdir)
    t0 = time.perf_counter()
    bots = bot_table_count(args, args.games)
    tables = migrate_and_seed(env, args.games, bots, args.bot_level)
    seed_seconds = time.perf_counter() - t0
    processes = 2 if args.mode == "cluster" else 1
    ports = (args.ports or [free_port() for _ in range(processes)])[:processes]
    cluster = Cluster(ports, env=env, log_dir=workdir, bot_workers=args.bot_workers)
    progress(
        f"{len(tables)} tables ready in {seed_seconds:.0f} s; starting {processes} daphne "
        f"and {args.bot_workers} bot workers (logs in {workdir})"
    )
    cluster.start(timeout=120)
    pids = {
        "daphne": [node.process.pid for node in cluster.nodes],
        "bot workers": [worker.process.pid for worker in cluster.bot_workers],
    }

    def cpu_now() -> dict[str, float]:
        alive = {
            name: [p for p in group if Path(f"/proc/{p}").exists()] for name, group in pids.items()
        }
        return {name: sum(map(cpu_seconds, group)) for name, group in alive.items()}

    # What is loaded now lives as long as the client; young collections come rarely.
    gc.freeze()
    gc.set_threshold(50_000, 200, 100)
    try:
        stats, elapsed, connect_seconds = asyncio.run(run_load(tables, cluster.urls, args, cpu_now))
        peak_rss_mb = [peak_rss_mb_of(node.process.pid) for node in cluster.nodes]
    finally:
        cluster.stop()
    progress("checking the database")
    checks = check_database(stats, tables, args)
    pushed = len(stats.latencies) + len(stats.person_latencies) + len(stats.bot_answers)
    result = {
        "mode": args.mode,
        "backend": "2 daphne, PostgreSQL + Redis"
        if args.mode == "cluster"
        else "1 daphne, SQLite + in-memory layer",
        "games": args.games,
        "bot_tables": bots,
        "bot_level": args.bot_level,
        "bot_workers": args.bot_workers,
        "bot_delay_s": args.bot_delay,
        "think_s": list(args.think),
        "duration_s": round(elapsed, 1),
        "actions": len(stats.latencies),
        "actions_per_s": round(len(stats.latencies) / elapsed, 1) if elapsed else 0,
        **figures("", stats.latencies),
        "mean_ms": round(1000 * statistics.fmean(stats.latencies), 1) if stats.latencies else None,
        "person_actions": len(stats.person_latencies),
        **figures("person_", stats.person_latencies),
        "bot_answers": len(stats.bot_answers),
        **figures("bot_over_delay_", stats.bot_answers, args.bot_delay),
        "refused": len(stats.refused),
        "cpu_s": {name: round(seconds, 1) for name, seconds in stats.cpu.items()},
        "cpu_ms_per_push": round(1000 * stats.cpu["daphne"] / pushed, 2) if pushed else None,
        "cpu_ms_per_bot_move": round(
            1000 * stats.cpu["bot workers"] / checks["bot_moves_in_play"], 1
        )
        if checks["bot_moves_in_play"]
        else None,
        "errors": len(stats.errors),
        "rematches": stats.rematches,
        "sockets": sum(len(table["cookies"]) for table in tables),
        "connect_s": round(connect_seconds, 1),
        "connect_retries": stats.connect_retries,
        "socket_drops": stats.socket_drops,
        "seed_s": round(seed_seconds, 1),
        "client_lag_p99_ms": round(1000 * pct(stats.loop_lags, 99), 1),
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
    for refusal in stats.refused[:3]:
        print(f"  refused: {refusal}", file=sys.stderr)
    return result


def print_result(r: dict) -> None:
    def spread(prefix: str) -> str:
        return ", ".join(f"{q} {r[f'{prefix}{q}_ms']} ms" for q in ("p50", "p90", "p99", "max"))

    cpu = r["cpu_s"]
    seconds = r["duration_s"] or float("nan")
    lines = [
        f"{r['backend']}, {r['bot_workers']} bot workers: {r['games']} tables "
        f"({r['games'] - r['bot_tables']} two-human, {r['bot_tables']} a person against "
        f"the {r['bot_level']} bot), think {r['think_s'][0]:g}-{r['think_s'][1]:g} s, "
        f"bot delay {r['bot_delay_s']:g} s, {seconds} s of play",
        f"two-human tables: {r['actions']} actions = {r['actions_per_s']} actions/s; "
        f"action-to-update {spread('')}",
        f"bot tables, the person: {r['person_actions']} actions; own action-to-update "
        f"{spread('person_')}; refused because the bot moved first: {r['refused']}",
        f"bot tables, the bot: {r['bot_answers']} answers; answer time less its delay "
        f"{spread('bot_over_delay_')}",
        f"CPU during play: daphne {cpu['daphne']} s ({cpu['daphne'] / seconds:.2f} cores, "
        f"{r['cpu_ms_per_push']} ms per action pushed), bot workers {cpu['bot workers']} s "
        f"({cpu['bot workers'] / seconds:.2f} cores, {r['cpu_ms_per_bot_move']} ms per bot move)",
        f"two-human tables: moves lost: {r['lost']}, doubled: {r['duplicated']}; "
        f"matches with a gap: {r['gapped_matches']}; moves by a timer or a bot: "
        f"{r['other_moves']}",
        f"bot tables: person's moves lost: {r['bot_table_lost']}, doubled: "
        f"{r['bot_table_duplicated']}; bot moves: {r['bot_moves']}, doubled: "
        f"{r['bot_doubled']}; matches with a gap: {r['bot_table_gapped_matches']}; "
        f"moves by a timer: {r['bot_table_other_moves']}",
        f"moves sharing a (match, seq): {r['seq_doubled']}",
        f"errors {r['errors']}; rematches {r['rematches']}; {r['sockets']} sockets connected "
        f"in {r['connect_s']} s ({r['connect_retries']} retries), dropped by the server "
        f"{r['socket_drops']}; load client's loop lag p99 {r['client_lag_p99_ms']} ms, max "
        f"{r['client_lag_max_ms']} ms; mean frame {r['mean_frame_bytes']} bytes; daphne "
        f"peak RSS {' + '.join(str(mb) for mb in r['server_peak_rss_mb'])} MB",
    ]
    print("\n".join(lines), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["both", "cluster", "single"], default="both")
    parser.add_argument("--games", type=int, default=500, help="tables, bot tables included")
    parser.add_argument(
        "--bot-tables",
        type=float,
        default=0.33,
        help="tables of a person against a bot: a count, or below 1 a share of --games",
    )
    parser.add_argument("--bot-level", default="hard")
    parser.add_argument("--bot-workers", type=int, default=2, help="bot worker processes")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the bots' fixed delay, s")
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
    parser.add_argument(
        "--ports",
        type=lambda s: [int(port) for port in s.split(",")],
        default=None,
        help="the daphne processes' ports, e.g. 8500,8501 (default: free ones)",
    )
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
    # Stopped from outside (a timeout, a kill), it still stops the processes it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.database = args.database or f"durak_bench_{os.getpid()}"

    if args.mode != "both":
        try:
            result = run_one(args)
        finally:  # A failed or stopped run leaves no database behind either.
            if args.mode == "cluster" and not args.keep_database:
                drop_database(args.pg, args.database)
        print(json.dumps(result) if args.json else "", flush=True)
        if not args.json:
            print_result(result)
        return 0 if result["errors"] == 0 and not any(result[k] for k in FAILURES) else 1

    print(f"machine: {machine()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}", flush=True)
    status = 0
    for mode in ("cluster", "single"):
        games = args.games if mode == "cluster" or args.single_games is None else args.single_games
        # The last of a repeated option wins: the run's own settings go after the rest.
        command = [sys.executable, __file__, *sys.argv[1:], "--mode", mode, "--json"]
        command += ["--games", str(games), "--database", args.database]
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            print(f"{mode}: the run failed (exit {done.returncode})")
            status = 1
            continue
        print_result(json.loads(lines[-1]))
        if done.returncode:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
