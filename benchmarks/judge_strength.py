"""Is the review's judge at least as strong as the hard bot it judges?

The judge, made a player: at each decision it plays the option the post-game analysis
values best (``durak.bots.analysis.option_vectors`` at the analysis budget). It plays
2-player podkidnoy against the hard bot (its live budget in playouts) on ``--deals``
fresh deals, each deal twice with the seats swapped, and the script prints the judge's
score (not the fool 1, draw 0.5, the fool 0) with its 95% interval. At least 0.5 means
the judge is not the weaker.

    .venv/bin/python benchmarks/judge_strength.py [--deals 20] [--jobs 2]
        [--samples 200] [--first-seed 5000]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from durak.bots import Budget, fast, get_bot  # noqa: E402
from durak.bots.analysis import AnalysisBudget, option_vectors  # noqa: E402
from durak.engine import Game, Knowledge, Rules  # noqa: E402


def judge_move(knowledge: Knowledge, acts: list, rng: random.Random, samples: int):
    seat = knowledge.seat
    budget = AnalysisBudget(samples=samples)  # the analysis's time cap, a step's
    vectors, _exact, _deals = option_vectors(knowledge, acts, rng.randrange(1 << 30), budget)
    return acts[max(range(len(acts)), key=lambda i: vectors[i][seat])]


def play(task: tuple[int, int, int]) -> tuple[float, float]:
    """One game of a deal, the judge in ``judge_seat``: its score and its CPU seconds."""
    seed, judge_seat, samples = task
    game, rng = Game.new(Rules(players=2), seed), random.Random(seed)
    hard, budget = get_bot("hard"), Budget(iterations=600, reproducible=True)
    cpu = 0.0
    while not game.is_over:
        seat = fast.decider(game)
        acts = fast.legal(game, seat)
        if len(acts) == 1:
            game.apply(acts[0])
            continue
        knowledge = game.knowledge(seat)
        if seat == judge_seat:
            started = time.process_time()
            game.apply(judge_move(knowledge, acts, rng, samples))
            cpu += time.process_time() - started
        else:
            game.apply(hard.choose_action(knowledge, rng, budget) or acts[0])
    result = game.result
    score = 0.5 if result["draw"] else float(result["fool"] != judge_seat)
    return score, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=AnalysisBudget().samples)
    parser.add_argument("--first-seed", type=int, default=5000)
    args = parser.parse_args()
    tasks = [
        (args.first_seed + deal, seat, args.samples)
        for deal in range(args.deals)
        for seat in (0, 1)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play, tasks))
    scores = [score for score, _cpu in games]
    n = len(scores)
    mean = sum(scores) / n
    spread = 1.96 * math.sqrt(max(mean * (1 - mean), 1e-9) / n)
    print(
        f"judge (analysis budget, {args.samples} samples an option) against hard, "
        f"{args.deals} deals x 2 seatings: score {mean:.3f} "
        f"(95% {max(0.0, mean - spread):.3f}-{min(1.0, mean + spread):.3f}), "
        f"{sum(cpu for _s, cpu in games) / n:.1f} s of the judge's CPU a game, "
        f"{time.perf_counter() - started:.0f} s in all"
    )


if __name__ == "__main__":
    main()
