"""API bots beside people at the table, on the stack `make run` starts.

N bot accounts, each with a token, play through the public API game after game: each
opens a table against the site's cheapest bot at fast speed (``POST /api/tables``),
reads its seat's stream (``GET /api/games/{id}/stream``, newline-delimited JSON) and
answers each of its turns at once with the example bot's choice
(``clients/example_bot.py``) through ``POST /api/games/{id}/actions``.  With
``--pairs`` the bots play each other instead: in pairs of friends, one challenges
(``POST /api/challenges``, they take turns) and the other accepts
(``POST /api/invites/{id}/accept``), and both answer at once, with no bot's delay.

Beside them, H two-human tables play over the site's WebSocket, the people of
``benchmarks/ws_load.py`` (think 0.5-1.5 s, a rematch when a game ends).  The people
play twice, for the same time: first alone, then with the API bots (which start a
warm-up before that window), so their latencies stand side by side in one run.

It reports:
- move-to-stream-line: from just before a bot's POST until its own stream brought the
  line with the move applied (a version past the one it answered), p50/p95/p99;
- the POST's own round trip, the games finished, the refusals;
- the people's action-to-update (both seats saw the new version), p50/p99, alone and
  beside the bots;
- the CPU of the daphne process and of the bot workers in each window, the load
  average, and this client's own event-loop lag.

    .venv/bin/python benchmarks/api_bots.py --bots 100 --people-tables 50 --seconds 60
    .venv/bin/python benchmarks/api_bots.py --smoke

The stack is the launcher of `make run` (``durak_site.cluster --embedded``: one
daphne on SQLite with the in-memory layer, a task worker, bot workers) on a fresh
database in a temporary directory, with ``DJANGO_DEBUG=0``.  All the bots connect
from 127.0.0.1, so the per-address limit on tables opened is lifted for the run
(``TABLE_RATE_LIMIT_ADDRESS``); each account's own limits are the site's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from api_bot_players import HOST, BotStats, Servers, api_bot, api_pair, make_bots  # noqa: E402
from bots_at_the_table import LOG, count_bot_moves, start_stack  # noqa: E402
from live_latency import (  # noqa: E402
    cpu_seconds,
    free_port,
    make_tables,
    pct,
    prepare_database,
    production_env,
    setup_django,
    share_server_settings,
)
from ws_load import Seat, Stats, drive_humans, load_state, watch_loop_lag  # noqa: E402


def cpu_now(pids: dict[str, list[int]]) -> dict[str, float]:
    return {name: sum(cpu_seconds(p) for p in group) for name, group in pids.items()}


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def open_database_files(pid: int, database: str) -> int:
    """How many open files of process ``pid`` are the SQLite database: one a connection."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            count += os.readlink(fd) == database
    return count


async def watch_database_files(pid: int, database: str | None, stop_at: float) -> int | None:
    """The most SQLite connections ``pid`` held at once, looked at every second (None:
    the database is not a SQLite file)."""
    if database is None:
        return None
    most = 0
    while time.perf_counter() < stop_at:
        most = max(most, open_database_files(pid, database))
        await asyncio.sleep(1.0)
    return most


async def people_window(tables, seats_of, seconds: float, args, pids) -> dict:
    """The people play for ``seconds``; their latencies and the processes' CPU."""
    for table in tables:
        table["state"], table["version"] = await load_state(table["id"])
    stats = Stats()
    cpu_before, client_before = cpu_now(pids), time.process_time()
    started = stats.started = time.perf_counter()
    wall = datetime.now(UTC)
    stop_at = started + seconds

    async def at_stop() -> tuple[dict, float, str]:
        await asyncio.sleep(seconds / 2)
        middle = load_average()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        return cpu_now(pids), time.process_time(), middle

    sampled = asyncio.ensure_future(at_stop())
    connections = asyncio.ensure_future(
        watch_database_files(pids["daphne"][0], args.database, stop_at)
    )
    outcomes = await asyncio.gather(
        *(drive_humans(t, seats_of[t["id"]], stats, stop_at, args) for t in tables),
        watch_loop_lag(stats, stop_at),
        return_exceptions=True,
    )
    cpu_after, client_after, middle = await sampled
    errors = [*stats.errors, *(f"driver: {o!r}" for o in outcomes if isinstance(o, BaseException))]
    for seats in seats_of.values():
        for seat in seats:
            errors += seat.refusals + seat.errors
            seat.refusals.clear()
            seat.errors.clear()
    return {
        "latencies": [x * 1000 for x in stats.latencies],
        "cpu": {name: (cpu_after[name] - cpu_before[name]) / seconds for name in cpu_after},
        "client_cpu": (client_after - client_before) / seconds,
        "loop_lag_p99": pct(stats.loop_lags, 99) * 1000,
        "load_mid": middle,
        "database_connections": await connections,
        "errors": errors,
        "window": (wall, datetime.now(UTC)),
    }


async def run(servers: Servers, tables, bots: list[str], args, pids) -> dict:
    # A table's two seats take turns too: on several processes, each move crosses them.
    seats_of = {
        t["id"]: [Seat(f"http://{HOST}:{servers.next()}", t["id"], c) for c in t["cookies"]]
        for t in tables
    }
    gate = asyncio.Semaphore(8)

    async def open_seat(seat: Seat) -> None:
        async with gate:
            await seat.open()

    await asyncio.gather(*(open_seat(s) for seats in seats_of.values() for s in seats))
    await asyncio.sleep(2)  # each socket's presence push drains first
    print(f"[{time.strftime('%H:%M:%S')}] people alone, load {load_average()}", flush=True)
    alone = await people_window(tables, seats_of, args.seconds, args, pids)
    bot_stats = BotStats()
    measure_from = time.perf_counter() + args.warmup
    window = (measure_from, measure_from + args.seconds)
    print(f"[{time.strftime('%H:%M:%S')}] {len(bots)} API bots start", flush=True)
    if args.pairs:
        pairs = [bots[n : n + 2] for n in range(0, len(bots) - 1, 2)]
        players = [asyncio.ensure_future(api_pair(servers, p, window, bot_stats)) for p in pairs]
    else:
        players = [
            asyncio.ensure_future(api_bot(servers, t, args.level, window, bot_stats))
            for _n, t in bots
        ]
    await asyncio.sleep(args.warmup)
    print(f"[{time.strftime('%H:%M:%S')}] people beside the bots, load {load_average()}")
    beside = await people_window(tables, seats_of, args.seconds, args, pids)
    outcomes = await asyncio.gather(*players, return_exceptions=True)
    bot_stats.errors += [f"bot: {o!r}" for o in outcomes if isinstance(o, BaseException)]
    await asyncio.gather(*(s.close() for seats in seats_of.values() for s in seats))
    return {"alone": alone, "beside": beside, "bots": bot_stats}


def figures(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "p50": statistics.median(values),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values),
    }


def line(values: dict) -> str:
    if not values["count"]:
        return "none"
    return (
        f"p50 {values['p50']:.1f} / p95 {values['p95']:.1f} / p99 {values['p99']:.1f} / "
        f"max {values['max']:.1f} ms ({values['count']})"
    )


def report(result: dict, args, started: str, load_before: str) -> dict:
    bots: BotStats = result["bots"]
    seconds = args.seconds
    out = {
        "started": started,
        "load_before": load_before,
        "args": {k: v for k, v in vars(args).items() if k != "think"},
        "bots": {
            "move_to_line": figures([x * 1000 for x in bots.move_to_line]),
            "post_round_trip": figures([x * 1000 for x in bots.post_round_trip]),
            "moves_per_second": len(bots.post_round_trip) / seconds,
            "games": bots.games,
            "tables": bots.tables,
            "refused": dict(bots.refused),
            "unseen": bots.unseen,
            "errors": bots.errors,
        },
    }
    site_bot_moves = count_bot_moves(result["beside"]["window"])
    out["bots"]["site_bot_moves_per_second"] = site_bot_moves / seconds
    print(f"\nstarted {started} UTC; load average before {load_before}")
    against = "each other, in pairs" if args.pairs else f"the site's {args.level} bot (fast)"
    print(f"{args.bots} API bots against {against}; {seconds:.0f} s windows")
    print(f"move-to-stream-line: {line(out['bots']['move_to_line'])}")
    print(f"POST round trip:     {line(out['bots']['post_round_trip'])}")
    print(
        f"API moves {out['bots']['moves_per_second']:.1f}/s, site bot moves "
        f"{site_bot_moves / seconds:.1f}/s, games finished {bots.games}, tables {bots.tables}, "
        f"refused {dict(bots.refused)}, lines never seen {bots.unseen}, errors {len(bots.errors)}"
        + (f" (first: {bots.errors[0]})" if bots.errors else "")
    )
    print(f"\n{args.people_tables} two-human tables over WebSockets:")
    print("| people | action-to-update p50 / p99 / max | actions/s | daphne CPU | bot workers' CPU"
          " | client CPU | client loop lag p99 | load average mid-window"
          " | daphne's SQLite connections, most at once | errors |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for name in ("alone", "beside"):
        phase = result[name]
        people = figures(phase["latencies"])
        out[name] = {
            "people": people,
            "actions_per_second": people["count"] / seconds,
            "cpu_cores": phase["cpu"],
            "client_cpu_cores": phase["client_cpu"],
            "loop_lag_p99_ms": phase["loop_lag_p99"],
            "load_mid": phase["load_mid"],
            "database_connections": phase["database_connections"],
            "errors": phase["errors"],
        }
        spread = (
            f"{people['p50']:.1f} / {people['p99']:.1f} / {people['max']:.1f} ms"
            if people["count"]
            else "none"
        )
        print(
            f"| {name} | {spread} | {people['count'] / seconds:.1f} | "
            f"{phase['cpu']['daphne']:.2f} cores | {phase['cpu']['bot workers']:.2f} cores | "
            f"{phase['client_cpu']:.2f} cores | {phase['loop_lag_p99']:.1f} ms | "
            f"{phase['load_mid']} | {phase['database_connections'] or '-'} | {len(phase['errors'])} |"
        )
    errors = out["alone"]["errors"] + out["beside"]["errors"]
    if errors:
        print(f"first people error: {errors[0]}")
    return out


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bots", type=int, default=100, help="API bot accounts playing")
    parser.add_argument("--people-tables", type=int, default=50, help="two-human tables")
    parser.add_argument("--seconds", type=float, default=60, help="each measured window")
    parser.add_argument("--warmup", type=float, default=10, help="bots play before measuring")
    parser.add_argument("--level", default="random", help="the site's bot the API bots play")
    parser.add_argument("--pairs", action="store_true", help="the API bots play each other")
    parser.add_argument("--bot-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--smoke", action="store_true", help="3 bots, 2 tables, 8 s: a check")
    return parser


def settle(args: argparse.Namespace) -> tuple[str, str]:
    """Fill in what ``--smoke`` and the people imply; when the run started, and the load."""
    if args.smoke:
        args.bots, args.people_tables, args.seconds, args.warmup = 3, 2, 8, 3
    args.think = (0.5, 1.5)  # the people's, as in bots_at_the_table.py
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"), load_average()


def seat_players(args: argparse.Namespace) -> tuple[list[dict], list[tuple[str, str]]]:
    """The people's two-human tables and the API bots, made in the run's database."""
    from games.models import Match

    tables = []
    for match_id, cookies in make_tables(args.people_tables):
        match = Match.objects.get(pk=match_id)
        tables.append({"id": match_id, "state": match.state, "version": match.version,
                       "cookies": cookies, "bot": False})  # fmt: skip
    return tables, make_bots(args.bots, friends=args.pairs)


def write_json(out: dict, path: str) -> None:
    for phase in ("alone", "beside"):
        out[phase]["errors"] = out[phase]["errors"][:20]
    out["bots"]["errors"] = out["bots"]["errors"][:20]
    Path(path).write_text(json.dumps(out, indent=2, default=str))


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0]).parse_args()
    started, load_before = settle(args)
    tmp = tempfile.TemporaryDirectory(prefix="durak-api-bots-")
    args.database = os.path.join(tmp.name, "bench.sqlite3")
    env = production_env(args.database, TABLE_RATE_LIMIT_ADDRESS="1000000")
    share_server_settings(env, "TABLE_RATE_LIMIT_ADDRESS")
    setup_django(args.database)
    prepare_database(env)
    tables, bots = seat_players(args)
    port = free_port()
    launcher, pids = start_stack(env, port, args.bot_workers)
    try:
        result = asyncio.run(run(Servers([port]), tables, bots, args, pids))
    except BaseException:
        print("".join(list(LOG)[-40:]), file=sys.stderr)
        raise
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=60)
    out = report(result, args, started, load_before)
    if args.json:
        write_json(out, args.json)
    tmp.cleanup()


if __name__ == "__main__":
    main()
