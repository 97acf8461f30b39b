"""CPU a move of each level, one after the other in this process, on the same positions.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bot_cpu.py --first-deal 985000 --deals 6

The positions are every decision with two or more legal actions of either seat in
2-player 36-card podkidnoy games of ``medium`` against ``greedy`` (deals seeded as
``bot_tournament.py`` seeds them, both seatings). At each one every level chooses a
move (``hard`` at 600 playouts, as live), so all see the same machine at the same
moments (each level first makes one untimed move, which loads what it needs). Prints
each level's CPU time a move (this process's, on one core): mean,
99th percentile and largest, and each level's mean as a share of ``hard``'s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot_tournament import p99  # noqa: E402

from durak.bots import Budget, get_bot  # noqa: E402
from durak.bots.fast import decider, legal  # noqa: E402
from durak.engine import Game, Knowledge, Rules  # noqa: E402


def positions(first: int, deals: int) -> list[Knowledge]:
    medium, greedy = get_bot("medium"), get_bot("greedy")
    found = []
    for deal in range(first, first + deals):
        for seat in (0, 1):
            game = Game.new(Rules(players=2), f"2p-podkidnoy:{deal}")
            rng = random.Random(deal)
            while not game.is_over:
                s = decider(game)
                knowledge = game.knowledge(s)
                if len(legal(game, s)) > 1:
                    found.append(knowledge)
                bot = medium if s == seat else greedy
                game.apply(bot.choose_action(knowledge, rng))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--first-deal", type=int, default=985000)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--levels", default="medium,learned,hard")
    ap.add_argument("--playouts", type=int, default=600)
    args = ap.parse_args()
    budget = Budget(iterations=args.playouts)
    found = positions(args.first_deal, args.deals)
    levels = args.levels.split(",")
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    for level in levels:  # untimed: a level's first move may load its weights
        get_bot(level).choose_action(found[0], random.Random(0), budget)
    for i, knowledge in enumerate(found):
        for level in levels:
            start = time.process_time()
            get_bot(level).choose_action(knowledge, random.Random(i), budget)
            cpu[level].append(1000 * (time.process_time() - start))
    print(f"{len(found)} positions, deals {args.first_deal}-{args.first_deal + args.deals - 1}")
    print("| level | CPU ms a move, mean | p99 | largest | mean, share of hard's |")
    print("| --- | ---: | ---: | ---: | ---: |")
    hard = statistics.mean(cpu["hard"]) if "hard" in cpu else float("nan")
    for level, values in cpu.items():
        mean = statistics.mean(values)
        print(
            f"| {level} | {mean:.2f} | {p99(values):.2f} | {max(values):.2f} | {mean / hard:.3f} |"
        )


if __name__ == "__main__":
    main()
