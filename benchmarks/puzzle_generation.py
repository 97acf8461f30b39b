"""Puzzle generation cost: puzzles found per CPU-minute of the task worker.

Plays a fixed set of 2-player podkidnoy 36 games between medium bots (seeds
``--seed`` .. ``--seed + --games - 1``; not measured), then runs the worker's search
(``durak.bots.puzzles.find_puzzles``, the exact endgame solver at every two-seat
endgame decision) over their records and prints the process CPU time it took
(``time.process_time``: what it cost one core, whatever else the machine runs), the
puzzles found, and puzzles and games per CPU-minute.  The stored analysis' swings are
not given (none are stored here), so this is the cost per finished game as queued.

    .venv/bin/python benchmarks/puzzle_generation.py [--games 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def records(games: int, seed: int) -> list[dict]:
    from durak.bots import fast
    from durak.engine import Game, Rules

    out = []
    for s in range(seed, seed + games):
        game = Game.new(Rules(players=2), s)
        fast.playout(game, fast.medium_move, random.Random(s))
        out.append(game.to_record())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from durak.bots.puzzles import find_puzzles

    played = records(args.games, args.seed)
    cpu, wall = time.process_time(), time.perf_counter()
    found = sum(len(find_puzzles(record)) for record in played)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"games: {len(played)} (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"puzzles found: {found}")
    print(f"CPU: {cpu:.2f} s (wall {wall:.2f} s)")
    print(f"puzzles per CPU-minute: {60 * found / cpu:.0f}")
    print(f"games searched per CPU-minute: {60 * len(played) / cpu:.0f}")


if __name__ == "__main__":
    main()
