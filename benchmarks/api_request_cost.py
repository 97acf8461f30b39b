"""What one API request costs the web process: its CPU and its round trip.

Starts the launcher of `make run` (one daphne on SQLite with the in-memory layer, a
task worker, no bot workers) on a fresh database with ``DJANGO_DEBUG=0``, makes bot
accounts with a token each, and has ``--clients`` clients ask ``GET /api/account``
one request after another for ``--seconds`` (each on a connection of its own, as
the reference client does), the tokens taken in turn so none meets its rate limit.
It prints the requests a second, their round trip, daphne's CPU a request and the
most SQLite connections daphne held at once.  The request is the API's cheapest
with a token: what it costs is the price of serving any API request (Django's
middleware, the token's read, ninja), before the work of the endpoint itself.

    .venv/bin/python benchmarks/api_request_cost.py --clients 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from api_bot_players import make_bots, request  # noqa: E402
from api_bots import open_database_files  # noqa: E402
from bots_at_the_table import start_stack  # noqa: E402
from live_latency import (  # noqa: E402
    cpu_seconds,
    free_port,
    pct,
    prepare_database,
    production_env,
    setup_django,
    share_server_settings,
)


async def ask(port: int, tokens: list[str], seconds: float, clients: int) -> list[float]:
    """Round trips (seconds) of the requests ``clients`` made one after another."""
    times: list[float] = []
    stop_at = time.perf_counter() + seconds
    turn = iter(range(10**9))

    async def client() -> None:
        while time.perf_counter() < stop_at:
            token = tokens[next(turn) % len(tokens)]
            started = time.perf_counter()
            status, _body = await request(port, "GET", "/api/account", token)
            if status != 200:
                raise RuntimeError(f"GET /api/account answered {status}")
            times.append(time.perf_counter() - started)

    await asyncio.gather(*(client() for _ in range(clients)))
    return times


async def measure(port: int, tokens: list[str], args, daphne: int) -> dict:
    await ask(port, tokens, args.warmup, args.clients)
    most_connections = 0

    async def watch(stop_at: float) -> None:
        nonlocal most_connections
        while time.perf_counter() < stop_at:
            most_connections = max(most_connections, open_database_files(daphne, args.database))
            await asyncio.sleep(0.5)

    cpu_before = cpu_seconds(daphne)
    watching = asyncio.ensure_future(watch(time.perf_counter() + args.seconds))
    times = await ask(port, tokens, args.seconds, args.clients)
    cpu = cpu_seconds(daphne) - cpu_before
    await watching
    return {
        "requests": len(times),
        "per_second": len(times) / args.seconds,
        "p50_ms": statistics.median(times) * 1000,
        "p99_ms": pct(times, 99) * 1000,
        "cpu_ms": cpu / len(times) * 1000,
        "cores": cpu / args.seconds,
        "connections": most_connections,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="requests in flight at once")
    parser.add_argument("--seconds", type=float, default=20, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--tokens", type=int, default=50, help="accounts, a token each")
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="durak-api-request-")
    args.database = os.path.join(tmp.name, "bench.sqlite3")
    env = production_env(args.database)
    share_server_settings(env)
    setup_django(args.database)
    prepare_database(env)
    tokens = [secret for _name, secret in make_bots(args.tokens, friends=False)]
    port = free_port()
    launcher, pids = start_stack(env, port, 0)
    try:
        out = asyncio.run(measure(port, tokens, args, pids["daphne"][0]))
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=60)
        tmp.cleanup()
    print(
        f"GET /api/account, {args.clients} clients, {args.seconds:.0f} s: "
        f"{out['per_second']:.0f} requests/s ({out['requests']}), round trip "
        f"p50 {out['p50_ms']:.1f} / p99 {out['p99_ms']:.1f} ms; daphne "
        f"{out['cpu_ms']:.2f} ms of CPU a request ({out['cores']:.2f} cores); "
        f"SQLite connections, most at once {out['connections']}"
    )


if __name__ == "__main__":
    main()
