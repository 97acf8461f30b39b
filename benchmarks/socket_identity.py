"""Cost of checking a socket's sign-in on every message (``games.socket_guard``).

A table socket asks ``signed_in_user`` before it acts on a frame: the session row
and the user row, read afresh.  This times that check against a whole move
(``services.apply_action`` on a two-player table), alternating the two, in one process.

    .venv/bin/python benchmarks/socket_identity.py --rounds 2000
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/socket_identity.py

Without DATABASE_URL it migrates a fresh SQLite file in a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from games import services
    from games.engine import Game
    from games.models import Match, RuleVariant
    from games.socket_guard import signed_in_user

    if connection.vendor == "sqlite":
        call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    users = [
        get_user_model().objects.create_user(f"bench-{os.getpid()}-{n}", password="x")
        for n in range(2)
    ]
    client = Client()
    client.force_login(users[0])
    session_key = client.cookies["sessionid"].value
    check, move = [], []
    match = None
    for _ in range(args.rounds):
        if match is None or match.status != Match.Status.PLAYING:
            match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
            services.join_match(match, users[1])
        match.refresh_from_db()
        action = Game.from_snapshot(match.state).legal_actions()[0]
        started = time.perf_counter()
        signed_in_user(session_key, users[0].pk)
        check.append(time.perf_counter() - started)
        started = time.perf_counter()
        services.apply_action(match.pk, action.seat, str(action), version=match.version)
        move.append(time.perf_counter() - started)
        match.refresh_from_db()
    check_ms = statistics.median(check) * 1000
    move_ms = statistics.median(move) * 1000
    print(f"database: {connection.vendor}; rounds: {args.rounds}")
    print(f"sign-in check: median {check_ms:.3f} ms")
    print(f"one move (apply_action): median {move_ms:.3f} ms")
    print(f"check / move: {check_ms / move_ms:.1%}")


if __name__ == "__main__":
    main()
