"""How fast the admin statistics dashboard renders over a large history.

Builds a fresh SQLite database in a temporary directory, migrates it, stores
100,000 finished games (deals) with their matches, seats and moves, then renders
/admin/dashboard/ through Django's test client and prints the server time and
the number of queries.

    .venv/bin/python benchmarks/dashboard_speed.py [--games 100000] [--keep]

Rows are written with plain multi-row INSERTs (the ORM's per-object work would
dominate the run); every column the ORM would fill gets the model's default.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database file")
    parser.add_argument(
        "--reuse",
        help="measure a database kept by an earlier --keep run (a file, or a postgres:// URL)",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="use this PostgreSQL server instead: a scratch database is created on it "
        "(and dropped afterwards unless --keep)",
    )
    return parser.parse_args()


def setup_django(db_path: Path | None, database_url: str | None = None) -> None:
    os.environ.pop("DATABASE_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ["SQLITE_PATH"] = str(db_path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


class Inserter:
    """INSERTs rows of one model: given columns per row, the model default elsewhere."""

    def __init__(self, model, columns: list[str]) -> None:
        from django.db import connection

        self.connection = connection
        fields = [f for f in model._meta.concrete_fields if f.column in columns]
        fields += [
            f for f in model._meta.concrete_fields if f.column not in columns and not f.primary_key
        ]
        self.fixed = tuple(
            f.get_db_prep_save(f.get_default(), connection) for f in fields[len(columns) :]
        )
        names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        self.sql = f"INSERT INTO {model._meta.db_table} ({names}) VALUES ({marks})"
        self.order = [f.column for f in fields[: len(columns)]]
        assert sorted(self.order) == sorted(columns), (self.order, columns)
        self.index = [columns.index(name) for name in self.order]

    def insert(self, rows: list[tuple]) -> None:
        fixed = self.fixed
        index = self.index
        with self.connection.cursor() as cursor:
            cursor.executemany(self.sql, [tuple(row[i] for i in index) + fixed for row in rows])


def generate(games: int, users: int, seed: int) -> dict[str, int]:
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import BotLevel, Deal, Match, Move, RuleVariant, Seat

    rng = random.Random(seed)
    now = timezone.now()
    dt = connection.ops.adapt_datetimefield_value
    rules_field = Deal._meta.get_field("rules")

    def js(value):
        return rules_field.get_db_prep_save(value, connection)

    variants = [
        (v.pk, v.min_players, v.max_players, js(v.rules_for(v.min_players).to_dict()))
        for v in RuleVariant.objects.all()
    ]
    empty_rules, empty_deck = js({}), js([])
    bot_levels = [level for level, _ in BotLevel.choices]

    with transaction.atomic():
        Inserter(User, ["username", "password", "date_joined", "email"]).insert(
            [(f"player{n}", "!", dt(now), "") for n in range(users)]
        )
        user_ids = list(User.objects.values_list("pk", flat=True))

        # About 2.5 games per match, as at a table of friends playing a series.
        # Ids grow with time, as on a live site: a match's rows, and the moves of
        # recent games, sit together at the end of their tables.
        matches = max(games * 2 // 5, 1)
        per_match = [1] * matches
        for _ in range(games - matches):
            per_match[rng.randrange(matches)] += 1
        opened = sorted(now - timedelta(days=rng.uniform(0, 365)) for _ in range(matches))
        match_rows, seat_rows, plan = [], [], []
        for match_id, created in enumerate(opened, start=1):
            variant_id, low, high, rules = rng.choice(variants)
            players = max(low, min(high, rng.choice((2, 2, 2, 3, 3, 4, 4, 6))))
            bots = 1 if rng.random() < 0.25 else 0
            people = rng.sample(user_ids, players - bots)
            finished = created
            for number in range(1, per_match[match_id - 1] + 1):
                started = finished + timedelta(seconds=rng.uniform(5, 60))
                finished = started + timedelta(minutes=rng.uniform(2, 15))
                plan.append((finished, started, match_id, number, players))
            match_rows.append(
                (
                    match_id,
                    variant_id,
                    players,
                    rules,
                    "finished",
                    people[0],
                    f"t{match_id}",
                    dt(created),
                    dt(created),
                    dt(finished),
                )
            )
            for number in range(players):
                user = people[number] if number < len(people) else None
                level = "" if user else rng.choice(bot_levels)
                seat_rows.append((match_id, number, user, level, dt(created)))
        Inserter(
            Match,
            [
                "id",
                "variant_id",
                "players",
                "rules",
                "status",
                "creator_id",
                "invite_token",
                "created_at",
                "started_at",
                "finished_at",
            ],
        ).insert(match_rows)
        Inserter(Seat, ["match_id", "number", "user_id", "bot_level", "joined_at"]).insert(
            seat_rows
        )

        plan.sort()
        deal_columns = [
            "id",
            "match_id",
            "number",
            "rules",
            "deck",
            "dealer",
            "first_attacker",
            "status",
            "fool_seat",
            "is_draw",
            "end_reason",
            "move_count",
            "started_at",
            "finished_at",
        ]
        move_columns = ["match_id", "deal_id", "seq", "seat", "action", "source", "created_at"]
        deals, moves = Inserter(Deal, deal_columns), Inserter(Move, move_columns)
        deal_rows, move_rows = [], []
        next_seq = [0] * (matches + 1)
        total_moves = 0
        for deal_id, (finished, started, match_id, number, players) in enumerate(plan, start=1):
            roll = rng.random()
            status, reason = "finished", "normal"
            if roll < 0.02:
                status, reason = "aborted", "aborted"
            elif roll < 0.04:
                reason = "resigned"
            elif roll < 0.05:
                reason = "forfeit"
            draw = status == "finished" and rng.random() < 0.03
            fool = None if draw or status != "finished" else rng.randrange(players)
            count = rng.randint(20, 60)
            deal_rows.append(
                (
                    deal_id,
                    match_id,
                    number,
                    empty_rules,
                    empty_deck,
                    0,
                    rng.randrange(players),
                    status,
                    fool,
                    draw,
                    reason,
                    count,
                    dt(started),
                    dt(finished),
                )
            )
            timeout_at = rng.randrange(count) if rng.random() < 0.05 else -1
            stamp = dt(finished)
            seq = next_seq[match_id]
            for i in range(count):
                seat = i % players
                move_rows.append(
                    (
                        match_id,
                        deal_id,
                        seq + i,
                        seat,
                        f"{seat} done",
                        "timeout" if i == timeout_at else "player",
                        stamp,
                    )
                )
            next_seq[match_id] = seq + count
            total_moves += count
            if len(move_rows) >= 200_000:
                deals.insert(deal_rows)
                moves.insert(move_rows)
                deal_rows, move_rows = [], []
        deals.insert(deal_rows)
        moves.insert(move_rows)
    return {
        "users": users,
        "matches": matches,
        "seats": len(seat_rows),
        "games": games,
        "moves": total_moves,
    }


def measure(runs: int) -> tuple[float, list[float], list[float], list[dict]]:
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User

    admin = User.objects.filter(username="bench-admin").first() or User.objects.create_superuser(
        "bench-admin", "", "bench-password"
    )
    client = Client()
    client.force_login(admin)
    url = "/admin/dashboard/"
    times, cpu_times = [], []
    first = None
    queries: list[dict] = []
    for run in range(runs + 1):
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            start, cpu_start = time.perf_counter(), time.process_time()
            response = client.get(url)
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
        assert response.status_code == 200, response.status_code
        if run == 0:
            first = elapsed
        else:
            times.append(elapsed)
            cpu_times.append(cpu)
        queries = captured.captured_queries
    return first, times, cpu_times, queries


def scratch_postgres(url: str, drop: str | None = None) -> str:
    """Create (or drop) a scratch database on the server at ``url``; its URL."""
    import psycopg

    base, _, _ = url.rpartition("/")
    name = drop or f"durak_dashboard_bench_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as admin:
        if drop:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            admin.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def main() -> None:
    args = parse_args()
    pg_url = None
    if args.postgres:
        pg_url = scratch_postgres(args.postgres)
        workdir = None
        started = time.perf_counter()
        setup_django(None, pg_url)
        counts = generate(args.games, args.users, args.seed)
        built = time.perf_counter() - started
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would soon after a bulk load
            cursor.execute("SELECT pg_database_size(current_database())")
            size_mb = cursor.fetchone()[0] / 1e6
    elif args.reuse:
        workdir = None
        if args.reuse.startswith("postgres"):
            pg_url = args.reuse
            setup_django(None, pg_url)
        else:
            db_path = Path(args.reuse)
            setup_django(db_path)
        from django.db import connection

        from games.models import Deal, Move

        counts = {"games": Deal.objects.count(), "moves": Move.objects.count()}
        built = 0.0
        if pg_url:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_database_size(current_database())")
                size_mb = cursor.fetchone()[0] / 1e6
    else:
        workdir = Path(tempfile.mkdtemp(prefix="durak-dashboard-bench-"))
        db_path = workdir / "bench.sqlite3"
        started = time.perf_counter()
        setup_django(db_path)
        counts = generate(args.games, args.users, args.seed)
        built = time.perf_counter() - started
    if not pg_url:
        size_mb = db_path.stat().st_size / 1e6

    first, times, cpu_times, queries = measure(args.runs)
    print(
        f"database: {'PostgreSQL' if pg_url else 'SQLite'}, {size_mb:.0f} MB"
        + (f", built and filled in {built:.1f} s" if built else "")
    )
    print("rows: " + ", ".join(f"{name} {n:,}" for name, n in counts.items()))
    print(f"dashboard, first request: {first * 1000:.0f} ms")
    print(
        f"dashboard, next {len(times)} requests: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )
    # SQLite runs inside this process, so CPU time covers the queries too; on a
    # shared machine it shows the request's own cost, apart from waiting for a core.
    # (PostgreSQL works in its own process: there it is Django's share only.)
    print(
        f"dashboard, CPU time of this process: median {statistics.median(cpu_times) * 1000:.0f} ms"
        f" (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(f"queries per request: {len(queries)}")
    for query in sorted(queries, key=lambda q: -float(q["time"]))[:8]:
        print(f"  {float(query['time']) * 1000:7.1f} ms  {query['sql'][:90]}")
    if pg_url:
        if args.keep or args.reuse:
            print(f"kept {pg_url}")
        else:
            from django.db import connections

            connections.close_all()
            scratch_postgres(args.postgres, drop=pg_url.rpartition("/")[2])
    elif args.keep or workdir is None:
        print(f"kept {db_path}")
    else:
        for path in workdir.iterdir():
            path.unlink()
        workdir.rmdir()


if __name__ == "__main__":
    main()
