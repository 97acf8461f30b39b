"""Learned policies (weights files) against ``greedy``, side by side on the same deals.

Usage (from the repository root)::

    .venv/bin/python benchmarks/learned_strength.py --weights OLD.npz NEW.npz \
        --first-deal 930000 --deals 600 --modes podkidnoy,perevodnoy

Each weights file plays as the learned bot (``durak.bots.learned.LearnedBot``: the
network, and the exact solver once every hidden card is known), ``--no-solver`` also
plays each one on the network alone. Every deal is played twice with the seats
swapped, as ``bot_tournament.py`` plays them, the deals and the bots' random numbers
seeded as there. Prints, per file and mode, the share of decided games won with its
95% Wilson interval, and the learned side's CPU a move (its process's, on one core):
mean and 99th percentile. Pass deals no training or tuning used: ``training``'s
checkpoints use 900000-900199.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import time
from functools import cache

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.bot_tournament import p99, wilson  # noqa: E402
from durak.bots import get_bot  # noqa: E402
from durak.bots.fast import decider  # noqa: E402
from durak.bots.learned import LearnedBot, Network  # noqa: E402
from durak.bots.learned.bot import SOLVER_NODES  # noqa: E402
from durak.engine import Game, Rules  # noqa: E402

MODES = {"podkidnoy": Rules(players=2), "perevodnoy": Rules(players=2, mode="perevodnoy")}


@cache
def _network(path: str) -> Network:
    """A weights file, read once per process."""
    return Network.load(path)


def play_deal(task: tuple[str, bool, str, int]) -> tuple[list[float | None], list[float]]:
    """The learned side's score in both seatings of one deal (None: a draw), and its
    CPU seconds a move. ``task``: the weights file, with the endgame solver or not, the
    mode, the deal."""
    path, solver, mode, deal = task
    learned = LearnedBot(_network(path), solver_nodes=SOLVER_NODES if solver else 0)
    greedy = get_bot("greedy")
    scores: list[float | None] = []
    cpu: list[float] = []
    for learned_seat in (0, 1):
        game = Game.new(MODES[mode], f"2p-{mode}:{deal}")
        rng = random.Random(deal)
        while not game.is_over:
            seat = decider(game)
            knowledge = game.knowledge(seat)
            if seat == learned_seat:
                start = time.process_time()
                action = learned.choose_action(knowledge, rng)
                cpu.append(time.process_time() - start)
            else:
                action = greedy.choose_action(knowledge, rng)
            game.apply(action)
        fool = game.result["fool"]
        scores.append(None if fool is None else float(fool != learned_seat))
    return scores, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", nargs="+", required=True)
    parser.add_argument("--first-deal", type=int, default=930_000)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--modes", default="podkidnoy")
    parser.add_argument("--no-solver", action="store_true", help="also the network alone")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    modes = args.modes.split(",")
    print(f"deals {args.first_deal}-{args.first_deal + args.deals - 1}, both seatings")
    print(
        "| weights | solver | mode | wins of decided (95% CI) | decided | CPU ms a move mean / p99 |"
    )
    print("| --- | --- | --- | --- | ---: | --- |")
    with mp.get_context("spawn").Pool(args.workers) as pool:
        for path in args.weights:
            for solver in (True, False) if args.no_solver else (True,):
                for mode in modes:
                    tasks = [
                        (path, solver, mode, d)
                        for d in range(args.first_deal, args.first_deal + args.deals)
                    ]
                    scores, cpu = [], []
                    for pair, moves in pool.imap(play_deal, tasks, chunksize=10):
                        scores += [s for s in pair if s is not None]
                        cpu += moves
                    rate, low, high = wilson(int(sum(scores)), len(scores))
                    print(
                        f"| {path} | {'yes' if solver else 'no'} | {mode} | {100 * rate:.1f}% "
                        f"({100 * low:.1f}-{100 * high:.1f}) | {len(scores)} | "
                        f"{1000 * sum(cpu) / len(cpu):.2f} / {1000 * p99(cpu):.2f} |",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
