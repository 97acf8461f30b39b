"""API bots beside people on the cluster stack: daphne processes on PostgreSQL and Redis.

The same run as ``benchmarks/api_bots.py`` (API bots playing through the public API,
two-human tables over the WebSocket, the people alone and then beside the bots), on
the stack of `make run-cluster` instead of `make run`'s: ``--processes`` daphne
processes, a task worker and ``--bot-workers`` bot workers of ``durak_site.cluster``,
sharing a fresh PostgreSQL database (dropped at the end) and Redis (under a prefix of
the run's own), with ``DJANGO_DEBUG=0`` and the site's default connection pool.

Nothing balances the load in front of the processes here, so the clients take turns:
each new connection, a bot's request or stream and a person's socket alike, goes to
the next process, as a load balancer taking turns would send it.  A bot's move and its
stream are then often on different processes, and so are a table's two people: the
push crosses Redis.

    .venv/bin/python benchmarks/api_bots_cluster.py --bots 100 --people-tables 50 --seconds 60
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from api_bot_players import Servers  # noqa: E402
from api_bots import arguments, report, run, seat_players, settle, write_json  # noqa: E402
from cluster_load import create_database, drop_database  # noqa: E402
from live_latency import (  # noqa: E402
    free_port,
    prepare_database,
    production_env,
    setup_django,
    share_server_settings,
)

SHARED = (
    "TABLE_RATE_LIMIT_ADDRESS",
    "DATABASE_URL",
    "REDIS_URL",
    "CHANNELS_PREFIX",
    "CACHE_PREFIX",
)


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="daphne processes")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    args = parser.parse_args()
    started, load_before = settle(args)
    args.database = None  # no SQLite file whose connections to count
    server, tag = args.pg.rstrip("/"), uuid.uuid4().hex[:8]
    name = f"durak_api_bots_{tag}"
    create_database(server, name)
    env = production_env(
        None,
        TABLE_RATE_LIMIT_ADDRESS="1000000",
        DATABASE_URL=f"{server}/{name}",
        REDIS_URL=args.redis,
        CHANNELS_PREFIX=f"durak-api-bots-{tag}",
        CACHE_PREFIX=f"durak-api-bots-{tag}",
    )
    share_server_settings(env, *SHARED)
    from durak_site.cluster import Cluster

    try:
        setup_django(None)
        prepare_database(env)
        tables, bots = seat_players(args)
        ports = [free_port() for _ in range(args.processes)]
        logs = Path(tempfile.mkdtemp(prefix="durak-api-bots-cluster-"))
        cluster = Cluster(ports, env=env, log_dir=logs, workers=1, bot_workers=args.bot_workers)
        cluster.start(timeout=120)
        pids = {
            "daphne": [node.process.pid for node in cluster.nodes],
            "bot workers": [worker.process.pid for worker in cluster.bot_workers],
        }
        try:
            result = asyncio.run(run(Servers(ports), tables, bots, args, pids))
        finally:
            cluster.stop()
        print(f"\n{args.processes} daphne processes on PostgreSQL and Redis (logs in {logs})")
        out = report(result, args, started, load_before)
        if args.json:
            write_json(out, args.json)
    finally:
        drop_database(server, name)


if __name__ == "__main__":
    main()
