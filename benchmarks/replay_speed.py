"""How fast the replay viewer and the profile statistics render.

Builds a fresh SQLite database in a temporary directory, migrates it, and plays
games through the engine and the ``deal_finished`` receiver (history/seeding.py):

* the replay page and one step of a game of at least 300 actions (a 6-player
  perevodnoy deal), cold (nothing cached) and warm;
* the profile of a user with 5,000 finished games, with its query count.

Times are the server side of Django's test client (middleware, view, template),
median of ``--runs`` runs.  With ``--write`` the figures replace the
"History and replay" section of docs/performance.md.

    .venv/bin/python benchmarks/replay_speed.py [--games 5000] [--runs 15] [--write]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECTION = "## History and replay"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5_000, help="games of the profile user")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--min-actions", type=int, default=300)
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    return parser.parse_args()


def setup_django(db_path: Path) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["SQLITE_PATH"] = str(db_path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def timed(fn, runs: int) -> tuple[float, float, float]:
    """(median wall ms, best wall ms, median CPU ms).

    The test client runs the request in this process, so the process CPU time is
    the server's own work; wall time also counts waiting for a core on a busy
    machine.
    """
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def long_game(min_actions: int):
    from history.seeding import play_match

    for seed in range(1000):
        match = play_match(
            ["p1", "p2", "p3", "p4", "p5", "p6"], "transfer", seed=seed, is_rated=False
        )
        deal = match.deals.get()
        if deal.move_count >= min_actions:
            return match, deal
    raise SystemExit(f"no game of {min_actions} actions in 1000 seeds")


def seed_profile(games: int) -> None:
    from django.db import transaction
    from django.utils import timezone

    from history.seeding import play_match

    rng = random.Random(5)
    rivals = [f"rival{i}" for i in range(12)]
    when = timezone.now() - timedelta(minutes=5 * games)
    shapes = [(2, "short-deck-24"), (2, "classic"), (3, "classic"), (4, "transfer")]
    start = time.perf_counter()
    for index in range(games):
        players, variant = rng.choice(shapes)
        seats = ["hero", *rng.sample(rivals, players - 1)]
        rng.shuffle(seats)
        with transaction.atomic():
            play_match(seats, variant, seed=index, started_at=when, is_private=index % 10 == 0)
        when += timedelta(minutes=5)
        if (index + 1) % 1000 == 0:
            print(f"  seeded {index + 1} games ({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.core.cache import cache
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from history import replay
        from history.models import PlayerGame

        client = Client()
        print("Seeding a long game ...", flush=True)
        match, deal = long_game(args.min_actions)
        url = f"/games/{match.pk}/replay/"
        actions = deal.move_count

        def cold_page():
            cache.clear()
            replay.forget_all()
            assert client.get(url, {"step": actions // 2}).status_code == 200

        def warm_page():
            assert client.get(url, {"step": actions // 2}).status_code == 200

        steps = iter(range(10**9))

        def step():
            n = next(steps) % (actions + 1)
            response = client.get(url, {"step": n}, HTTP_HX_REQUEST="true")
            assert response.status_code == 200

        def seat_step():
            n = next(steps) % (actions + 1)
            response = client.get(url, {"step": n, "seat": 2}, HTTP_HX_REQUEST="true")
            assert response.status_code == 200

        warm_page()
        page_cold = timed(cold_page, args.runs)
        warm_page()
        page_warm = timed(warm_page, args.runs)
        step_full = timed(step, args.runs * 4)
        step_seat = timed(seat_step, args.runs * 4)
        with CaptureQueriesContext(connection) as q:
            step()
        step_queries = len(q.captured_queries)

        print(f"Seeding {args.games} games for one user ...", flush=True)
        seed_profile(args.games)
        games = PlayerGame.objects.filter(user__username="hero").count()
        profile_url = "/u/hero/"
        client.get(profile_url)
        profile = timed(lambda: client.get(profile_url), args.runs)
        with CaptureQueriesContext(connection) as q:
            client.get(profile_url)
        profile_queries = len(q.captured_queries)
        games_list = timed(lambda: client.get("/u/hero/games/", {"result": "fool"}), args.runs)

    lines = [
        f"Replay of a {actions}-action game (6-player perevodnoy), server time, median / best "
        f"of {args.runs}:",
        "",
        "| what | wall median ms | wall best ms | CPU median ms | budget ms |",
        "| --- | ---: | ---: | ---: | --- |",
        f"| replay page, cold (engine replay + cache fill) | {page_cold[0]:.1f} | {page_cold[1]:.1f} | {page_cold[2]:.1f} | < 100 |",
        f"| replay page, warm | {page_warm[0]:.1f} | {page_warm[1]:.1f} | {page_warm[2]:.1f} | < 100 |",
        f"| one step (htmx fragment, every hand face up) | {step_full[0]:.1f} | {step_full[1]:.1f} | {step_full[2]:.1f} | < 20 |",
        f"| one step in a seat's view (engine `view(seat)`) | {step_seat[0]:.1f} | {step_seat[1]:.1f} | {step_seat[2]:.1f} | < 20 |",
        f"| profile of a user with {games} games ({profile_queries} queries) | {profile[0]:.1f} | {profile[1]:.1f} | {profile[2]:.1f} | < 150 |",
        f"| that user's game list, filtered by result | {games_list[0]:.1f} | {games_list[1]:.1f} | {games_list[2]:.1f} | |",
        "",
        f"Load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        "",
        f"A step makes {step_queries} queries; the profile makes {profile_queries} whatever the "
        "number of games (statistics are aggregates over one indexed table, the chart "
        "reads the newest 1,200 rating changes in one query). Wall time counts waiting "
        "for a core on this shared machine; CPU time is the server's own work.",
    ]
    print()
    print("\n".join(lines))
    if args.write:
        write_section(lines)


def write_section(lines: list[str]) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    body = (
        f"{SECTION}\n\n"
        f"`.venv/bin/python benchmarks/replay_speed.py --write` "
        f"(CPython {platform.python_version()}, SQLite):\n\n" + "\n".join(lines) + "\n"
    )
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + body
    path.write_text(text, encoding="utf-8")
    print(f"\nWrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
