"""CPU a move of the hard level's tree against the flat search, on the same positions.

Usage (from the repository root)::

    .venv/bin/python benchmarks/search_cpu.py --first-deal 985000 --deals 6

The positions are the decisions of the flat search's seat in 2-player 36-card
podkidnoy games against ``greedy`` (deals seeded as ``bot_tournament.py`` seeds them,
both seatings). At each one both searches choose a move at 600 playouts, one after the
other in this process, so the two see the same machine at the same moments. Prints each
search's CPU time a move (this process's, on one core): mean, 99th percentile and
largest, and the tree's mean and 99th percentile as multiples of the flat search's.
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

from durak.bots import Budget  # noqa: E402
from durak.bots.fast import decider, legal  # noqa: E402
from durak.bots.greedy import greedy_move  # noqa: E402
from durak.bots.search import HardBot  # noqa: E402
from durak.bots.tree import TreeBot  # noqa: E402
from durak.engine import Game, Knowledge, Rules  # noqa: E402


def positions(first: int, deals: int, budget: Budget) -> list[Knowledge]:
    flat = HardBot()
    found = []
    for deal in range(first, first + deals):
        for seat in (0, 1):
            game = Game.new(Rules(players=2), f"2p-podkidnoy:{deal}")
            rng = random.Random(deal)
            while not game.is_over:
                s = decider(game)
                acts = legal(game, s)
                if s == seat and len(acts) > 1:
                    knowledge = game.knowledge(s)
                    found.append(knowledge)
                    action = flat.choose_action(knowledge, rng, budget)
                else:
                    action = acts[0] if len(acts) == 1 else greedy_move(game, s, acts, rng)
                game.apply(action)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--first-deal", type=int, default=985000)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--playouts", type=int, default=600)
    args = ap.parse_args()
    budget = Budget(iterations=args.playouts)
    found = positions(args.first_deal, args.deals, budget)
    bots = {"flat": HardBot(), "tree": TreeBot()}
    cpu: dict[str, list[float]] = {name: [] for name in bots}
    for i, knowledge in enumerate(found):
        for name, bot in bots.items():
            start = time.process_time()
            bot.choose_action(knowledge, random.Random(i), budget)
            cpu[name].append(1000 * (time.process_time() - start))
    print(f"{len(found)} positions, deals {args.first_deal}-{args.first_deal + args.deals - 1}")
    print("| search | CPU ms a move, mean | p99 | largest |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in cpu.items():
        print(f"| {name} | {statistics.mean(values):.1f} | {p99(values):.1f} | {max(values):.1f} |")
    mean_ratio = statistics.mean(cpu["tree"]) / statistics.mean(cpu["flat"])
    p99_ratio = p99(cpu["tree"]) / p99(cpu["flat"])
    print(f"tree / flat: mean {mean_ratio:.2f}x, p99 {p99_ratio:.2f}x")


if __name__ == "__main__":
    main()
