"""The hard bot's CPU and memory a move at 6-8 seats once the talon is empty.

Usage (from the repository root)::

    .venv/bin/python benchmarks/big_table_search.py --old /path/to/worktree --positions 4

The positions are the first lead after the talon ran out with three or more players
still in, in seeded 52-card games played mostly by ``medium`` (as the tests make them),
plus ``durak/tests/bots/data/seven-seat-hard-search.json``. At each, the hard bot chooses a
move at the live budget (600 playouts, reproducible) with several seeds; every search
runs in a child process of its own, this tree's and ``--old``'s taking turns, so the two
see the same machine at the same moments (a tree from before ``durak/`` was a package
runs the script as it was at 1c0b4a8). A search is cut at ``--cap`` seconds of CPU
and counted as unanswered. Prints, per tree, the CPU a move (mean, p99, largest), the
searches cut, and the largest peak resident memory of a child.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot_tournament import p99  # noqa: E402

from durak import Game  # noqa: E402
from durak.tests.bots.test_search_bounds import SEVEN_SEATS, empty_talon_position  # noqa: E402

# Runs in the child, in the tree under test: one search, then its CPU and peak memory.
CHILD = """
import json, random, resource, signal, sys, time
from durak import Game, bots
job = json.load(sys.stdin)
def cut(*_):
    raise TimeoutError
signal.signal(signal.SIGPROF, cut)
game = Game.from_record(job["record"])
start = time.process_time()
signal.setitimer(signal.ITIMER_PROF, job["cap"])
try:
    bots.choose("hard", game.knowledge(job["seat"]), random.Random(job["seed"]), 600,
                reproducible=True)
    cpu = time.process_time() - start
except TimeoutError:
    cpu = None
signal.setitimer(signal.ITIMER_PROF, 0)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cpu": cpu, "rss_mb": rss}))
"""


def positions(count: int) -> list[tuple[str, dict, int]]:
    found = [("7 seats, the reported one", json.loads(SEVEN_SEATS.read_text()), 5)]
    for players in (6, 7, 8):
        for seed in range(count):
            game, seat = empty_talon_position(players, seed)
            found.append((f"{players} seats, deal {seed}", game.to_record(), seat))
    return found


def search(tree: str, record: dict, seat: int, seed: int, cap: float) -> dict:
    job = json.dumps({"record": record, "seat": seat, "seed": seed, "cap": cap})
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=job,
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--old", help="a worktree of an older commit, measured alongside")
    ap.add_argument("--positions", type=int, default=4, help="deals per table size")
    ap.add_argument("--seeds", type=int, default=4, help="bot seeds per position")
    ap.add_argument("--cap", type=float, default=20.0, help="CPU seconds before a cut")
    args = ap.parse_args()
    trees = {"this tree": str(Path(__file__).resolve().parent.parent)}
    if args.old:
        trees["old"] = str(Path(args.old).resolve())
    rows: dict[str, list[dict]] = {name: [] for name in trees}
    for label, record, seat in positions(args.positions):
        assert Game.from_record(record).talon_count == 0
        for seed in range(args.seeds):
            for name, tree in trees.items():
                rows[name].append(search(tree, record, seat, seed, args.cap))
        print(
            label,
            {
                n: [r["cpu"] and round(r["cpu"], 2) for r in rs[-args.seeds :]]
                for n, rs in rows.items()
            },
            flush=True,
        )
    print("| tree | searches | cut at the cap | CPU s a move, mean | p99 | largest | peak MB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, found in rows.items():
        done = [r["cpu"] for r in found if r["cpu"] is not None]
        cut = len(found) - len(done)
        peak = max(r["rss_mb"] for r in found)
        print(
            f"| {name} | {len(found)} | {cut} | {statistics.mean(done):.2f} | "
            f"{p99(done):.2f} | {max(done):.2f} | {peak:.0f} |"
        )


if __name__ == "__main__":
    main()
