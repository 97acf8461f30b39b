"""How long the lobby takes to render: its page, and the push every lobby socket renders
after a change (the open tables, the games in progress and the live counts).

Each tree (this one, and with ``--old`` a worktree of another commit) runs in a child
process of its own on a fresh SQLite database in a temporary directory: it seats
``--open`` public tables waiting for a player and ``--playing`` public games in play
(a player against a bot), then times the lobby page through Django's test client and
the socket's render, each as the median of ``--runs`` rounds, with the queries each
makes. The trees take turns, round after round, so that both meet the same machine.

    .venv/bin/python benchmarks/lobby_render.py [--old <worktree>] [--open 50] \\
        [--playing 50] [--runs 9]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RENDERS = 20  # socket renders per round


def child(open_tables: int, playing: int) -> dict[str, float]:
    """Seat the tables, then time one round of lobby renders on the tree on sys.path."""
    with tempfile.TemporaryDirectory() as scratch:
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(scratch) / "lobby.sqlite3")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from accounts.models import User
        from games.models import RuleVariant
        from games.services import create_match
        from table.pages import render_open_tables

        call_command("migrate", verbosity=0, interactive=False)
        classic = RuleVariant.objects.get(slug="classic")
        for n in range(open_tables):
            creator = User.objects.create_user(f"waiting{n}", password="x")
            create_match(creator, classic, 2)
        for n in range(playing):
            player = User.objects.create_user(f"playing{n}", password="x")
            create_match(player, classic, 2, bots=["medium"])
        viewer = User.objects.create_user("viewer", password="x")
        # An older tree's render took no viewer: the same push for every socket.
        takes_viewer = bool(inspect.signature(render_open_tables).parameters)

        def render() -> str:
            return render_open_tables(viewer) if takes_viewer else render_open_tables()

        client = Client()
        client.force_login(viewer)
        client.get("/")
        render()
        out: dict[str, float] = {}
        with CaptureQueriesContext(connection) as page_queries:
            start = time.perf_counter()
            client.get("/")
            out["page ms"] = (time.perf_counter() - start) * 1000
        with CaptureQueriesContext(connection) as push_queries:
            render()
        start = time.perf_counter()
        for _ in range(RENDERS):
            render()
        out["push ms"] = (time.perf_counter() - start) * 1000 / RENDERS
        out["page queries"] = len(page_queries)
        out["push queries"] = len(push_queries)
        out["push bytes"] = len(render().encode())
        return out


def run_child(tree: Path, open_tables: int, playing: int) -> dict[str, float]:
    argv = [sys.executable, str(Path(__file__).resolve()), "--child"]
    argv += ["--open", str(open_tables), "--playing", str(playing)]
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", help="a worktree of another commit, measured beside this one")
    parser.add_argument("--open", type=int, default=50, help="public tables waiting")
    parser.add_argument("--playing", type=int, default=50, help="public games in play")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, os.getcwd())
        print(json.dumps(child(args.open, args.playing)))
        return
    trees = {"this tree": ROOT}
    if args.old:
        trees["old"] = Path(args.old).resolve()
    rows: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            rows[name].append(run_child(tree, args.open, args.playing))
    print(
        f"{args.open} public tables waiting, {args.playing} public games in play; "
        f"median of {args.runs} rounds (a fresh database each)"
    )
    keys = ["page ms", "page queries", "push ms", "push queries", "push bytes"]
    print("| tree | " + " | ".join(keys) + " |")
    print("| --- |" + " ---: |" * len(keys))
    for name, got in rows.items():
        cells = []
        for key in keys:
            value = median([r[key] for r in got])
            cells.append(f"{value:.1f}" if key.endswith("ms") else f"{value:,.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
