"""How far the post-game review can be trusted: its verdicts on the hard bot, their
stability between two runs, whether its numbers agree, its calibration and its cost.

Plays fresh 2-player podkidnoy deals, ``--games`` of hard against medium (hard's seat
alternating) and as many of hard against hard, at the hard bot's live budget in
playouts (so the games do not depend on the machine's load). Then analyses every game
twice, with seeds 1 and 2, exactly as the task worker does (``analyse_record``, every
seat), with this tree and, given ``--old PATH``, with the checkout at PATH (a worktree of
an older commit) at its own site budget, each analysis in a child process of its tree,
``--jobs`` at a time, and prints for each tree:

- hard's mean accuracy, and the winner's blunders (``??``) per game;
- the share of decisions whose judgement (none, ``?!``, ``?``, ``??``) differs between the
  two seeds, of all decisions and of those either seed marked;
- how far a decision's step chance is from its best option's, and how far the two
  seats' chances at a step are from adding up to 100 (points, mean over steps);
- CPU seconds of one game's analysis;
- the calibration: every step's chances of both seats (seed 1, the last step left out),
  in tenths, against the seat's real share of the outcome, as a chance counts it (1 not
  the fool, 0 the fool, a half each in a draw, so that two seats' shares add up to 1).

    .venv/bin/python benchmarks/review_quality.py [--games 50] [--jobs 2] [--old PATH]
        [--old-budget 0.4,30] [--new-budget SECONDS,SAMPLES] [--first-seed 1000]
        [--keep DIR]

With ``--keep DIR`` every game played and every analysis made is written to DIR as it
ends, and a run given the same DIR (and the same other options) reads them back instead
of making them again: a long run may be stopped and taken up later.  Only with sample
budgets whose time caps are never reached is the taken-up run the same as one whole.

On a loaded machine give both trees a time cap they never reach (``--old-budget 10,30
--new-budget 30,200``), so that each spends its samples, as on an idle one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Run in a child process of a tree: plays a game, or analyses one with that tree's code.
PLAY = """
import json, random, sys
from durak.bots import Budget, fast, get_bot
from durak.engine import Game, Rules
seed, levels = json.load(sys.stdin)
game, rng = Game.new(Rules(players=2), seed), random.Random(seed)
budget = Budget(iterations=600, reproducible=True)
while not game.is_over:
    seat = fast.decider(game)
    acts = fast.legal(game, seat)
    if len(acts) == 1:
        game.apply(acts[0])
        continue
    bot = get_bot(levels[seat])
    game.apply(bot.choose_action(game.knowledge(seat), rng, budget) or acts[0])
print(json.dumps(game.to_record()))
"""
ANALYSE = """
import json, sys, time
try:
    from durak.bots.analysis import AnalysisBudget, analyse_record
except ImportError:  # a tree from before the rules and bots became a library
    from games.bots.analysis import AnalysisBudget, analyse_record
record, seed, budget = json.load(sys.stdin)
budget = AnalysisBudget(*budget) if budget else AnalysisBudget()
cpu = time.process_time()
result = analyse_record(record, None, budget, seed=seed)
print(json.dumps({"cpu": time.process_time() - cpu, "result": result}))
"""


def kept(keep: Path | None, name: str, make: Callable[[], Any]) -> Any:
    """``make()``, or what an earlier run with the same ``keep`` folder wrote for
    ``name``."""
    if keep is None:
        return make()
    path = keep / f"{name}.json"
    if path.exists():
        return json.loads(path.read_text())
    value = make()
    path.write_text(json.dumps(value))
    return value


def run_in(tree: Path, script: str, payload: object) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tree,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    if done.returncode:
        raise SystemExit(f"a child process in {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout)


BLUNDER, MISTAKE, INACCURACY = 30.0, 20.0, 10.0


def judgement(loss: float) -> str:
    for name, threshold in (("??", BLUNDER), ("?", MISTAKE), ("?!", INACCURACY)):
        if loss >= threshold:
            return name
    return ""


def accuracy(losses: list[float]) -> float | None:
    """docs/analysis.md's accuracy: the mean of the decisions' accuracies."""
    import math

    if not losses:
        return None
    per_move = [min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * x) - 3.1669)) for x in losses]
    return sum(per_move) / len(per_move)


def report(games: list[dict], runs: dict) -> dict:
    """The figures of one tree from ``runs[(game, seed)]``."""
    hard_accuracy, winner_blunders, flips, marked_flips, decisions = [], [], 0, 0, 0
    marked = 0
    step_gap, sum_miss, cpu = [], [], []
    calibration = [[0, 0.0, 0.0] for _ in range(10)]  # positions, predicted, real share
    for g, game in enumerate(games):
        first, second = runs[g, 1]["result"], runs[g, 2]["result"]
        cpu += [runs[g, 1]["cpu"], runs[g, 2]["cpu"]]
        fool = game["record"]["result"]["fool"]
        for seat in game["hard"]:
            losses = [d["loss"] for d in first["decisions"] if d["seat"] == seat]
            value = accuracy(losses)
            if value is not None:
                hard_accuracy.append(value)
        winners = [s for s in (0, 1) if s != fool]
        winner_blunders.append(
            sum(d["loss"] >= BLUNDER for d in first["decisions"] if d["seat"] in winners)
        )
        again = {d["move"]: d for d in second["decisions"]}
        for d in first["decisions"]:
            other = again.get(d["move"])
            if other is None:
                continue
            decisions += 1
            one, two = judgement(d["loss"]), judgement(other["loss"])
            flips += one != two
            if one or two:
                marked += 1
                marked_flips += one != two
        chances = first["chances"]
        for d in first["decisions"]:
            step_gap.append(abs(chances[d["move"]][d["seat"]] - d["before"]))
        for point in chances[:-1]:
            sum_miss.append(abs(sum(point) - 100.0))
            for seat, chance in enumerate(point):
                tenth = min(9, int(chance // 10))
                calibration[tenth][0] += 1
                calibration[tenth][1] += chance
                # A draw (no fool) is half a game for each of the two, as in the chances.
                calibration[tenth][2] += 0.5 if fool is None else float(seat != fool)
    return {
        "hard_accuracy": statistics.mean(hard_accuracy),
        "winner_blunders": statistics.mean(winner_blunders),
        "flips": flips / max(1, decisions),
        "marked_flips": marked_flips / max(1, marked),
        "decisions": decisions,
        "marked": marked,
        "step_gap": statistics.mean(step_gap) if step_gap else 0.0,
        "sum_miss": statistics.mean(sum_miss),
        "cpu": statistics.mean(cpu),
        "calibration": calibration,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games of each pairing")
    parser.add_argument("--jobs", type=int, default=2, help="child processes at a time")
    parser.add_argument("--old", help="a checkout of an older commit to compare with")
    parser.add_argument(
        "--old-budget", default="0.4,30", help="the older tree's budget: seconds,samples"
    )
    parser.add_argument(
        "--new-budget",
        help="this tree's budget, seconds,samples (default: its AnalysisBudget's defaults)",
    )
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="a folder to keep games and analyses in")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    budget = None
    if args.new_budget:
        seconds, samples = args.new_budget.split(",")
        budget = [float(seconds), int(samples)]
    trees = {"this tree": ("new", ROOT, budget)}
    if args.old:
        seconds, samples = args.old_budget.split(",")
        trees[f"old ({args.old})"] = ("old", Path(args.old), [float(seconds), int(samples)])
    pairings = [["hard", "medium"], ["medium", "hard"]]
    wanted = []
    for i in range(args.games):
        wanted.append(pairings[i % 2])  # hard against medium, hard's seat alternating
        wanted.append(["hard", "hard"])
    started = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        records = list(
            pool.map(
                lambda item: kept(
                    args.keep,
                    f"game-{args.first_seed + item[0]}",
                    lambda: run_in(ROOT, PLAY, [args.first_seed + item[0], item[1]]),
                ),
                enumerate(wanted),
            )
        )
    games = [
        {"record": record, "hard": [s for s in (0, 1) if levels[s] == "hard"]}
        for record, levels in zip(records, wanted, strict=True)
    ]
    print(f"{len(games)} games played in {time.perf_counter() - started:.0f} s", flush=True)
    figures = {}
    for name, (short, tree, budget) in trees.items():
        started = time.perf_counter()
        jobs = [(g, seed) for g in range(len(games)) for seed in (1, 2)]
        with ThreadPoolExecutor(args.jobs) as pool:
            done = pool.map(
                lambda job, short=short, tree=tree, budget=budget: kept(
                    args.keep,
                    f"{short}-{args.first_seed + job[0]}-seed{job[1]}",
                    lambda: run_in(tree, ANALYSE, [games[job[0]]["record"], job[1], budget]),
                ),
                jobs,
            )
            runs = dict(zip(jobs, done, strict=True))
        figures[name] = report(games, runs)
        print(f"{name}: analysed in {time.perf_counter() - started:.0f} s", flush=True)
    print_tables(figures, len(games))


def print_tables(figures: dict, games: int) -> None:
    names = list(figures)
    print(f"\n{games} games (half hard against medium, half hard against hard)\n")
    print("| measure | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    rows = [
        ("hard's mean accuracy", lambda f: f"{f['hard_accuracy']:.1f}%"),
        ("winner's blunders per game", lambda f: f"{f['winner_blunders']:.2f}"),
        (
            "judgements changed between two seeds, of all decisions",
            lambda f: f"{100 * f['flips']:.1f}% of {f['decisions']}",
        ),
        (
            "judgements changed, of decisions either seed marked",
            lambda f: f"{100 * f['marked_flips']:.1f}% of {f['marked']}",
        ),
        ("step chance minus best option's, mean", lambda f: f"{f['step_gap']:.1f} points"),
        ("two seats' chances off 100, mean", lambda f: f"{f['sum_miss']:.1f} points"),
        ("CPU per game's analysis", lambda f: f"{f['cpu']:.1f} s"),
    ]
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(figures[n]) for n in names) + " |")
    for name in names:
        print(f"\nCalibration, {name}: positions given a chance, and the share that seat")
        print("really got (1 not the fool, 0 the fool, a half each in a draw)\n")
        print("| chance given | positions | mean chance given | real share |")
        print("| --- | --- | --- | --- |")
        for tenth, (count, total, won) in enumerate(figures[name]["calibration"]):
            if count:
                print(
                    f"| {10 * tenth}-{10 * tenth + 10}% | {count} | {total / count:.0f}% "
                    f"| {100 * won / count:.0f}% |"
                )


if __name__ == "__main__":
    main()
