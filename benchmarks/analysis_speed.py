"""Worker CPU of a full post-game analysis: a game of about 60 moves and one of about 300.

Plays each game from a fixed seed (a 2-player podkidnoy deal by the medium bot; the
long one a 6-player 52-card perevodnoy deal of random legal moves, as bots never play
that long), then analyses every seat's
decisions and every step's chances exactly as the task worker does
(``durak.bots.analysis.analyse_record`` with the site's default budget), and prints
CPU seconds (``time.process_time``, this process only) in total, per decision and per
move, with the wall time beside them.  With ``--write`` the table replaces the
"Post-game analysis" section of docs/performance.md.

    .venv/bin/python benchmarks/analysis_speed.py [--seconds S] [--samples N] [--write]
        [--old PATH] [--old-budget 0.4,30]

The budget is the site's (``ANALYSIS_SECONDS``, ``ANALYSIS_SAMPLES``) unless given.
``--old PATH`` also analyses the same games with the checkout at PATH (a worktree of an
older commit) at ``--old-budget`` (its site's budget), each game right after the new
code's run, in a child process that reports its own CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECTION = "## Post-game analysis"


def play(rules, seed: int, policy: str):
    from durak.bots import fast
    from durak.engine import Game

    game = Game.new(rules, seed)
    fast.playout(game, fast.POLICIES[policy], random.Random(seed))
    return game


def find_game(rules, policy: str, target: int, tolerance: int, seeds: range):
    """The first game from ``seeds`` whose length is within ``tolerance`` of ``target``."""
    for seed in seeds:
        game = play(rules, seed, policy)
        if abs(len(game.history) - target) <= tolerance:
            return seed, game
    raise SystemExit(f"no game of {target}±{tolerance} moves in seeds {seeds}")


def measure(record: dict, seconds: float, samples: int) -> dict:
    from durak.bots.analysis import AnalysisBudget, analyse_record

    budget = AnalysisBudget(seconds=seconds, samples=samples)
    cpu, wall = time.process_time(), time.perf_counter()
    result = analyse_record(record, None, budget)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    decisions = result["decisions"]
    return {
        "moves": len(record["actions"]),
        "decisions": len(decisions),
        "exact": sum(d["exact"] for d in decisions),
        "samples": sum(d["samples"] for d in decisions if not d["exact"])
        / max(1, sum(not d["exact"] for d in decisions)),
        "cpu": cpu,
        "wall": wall,
    }


OLD_RUN = """
import json, sys, time
try:
    from durak.bots.analysis import AnalysisBudget, analyse_record
except ImportError:  # a tree from before the rules and bots became a library
    from games.bots.analysis import AnalysisBudget, analyse_record
record, seconds, samples = json.load(sys.stdin)
cpu = time.process_time()
result = analyse_record(record, None, AnalysisBudget(seconds=seconds, samples=samples))
print(json.dumps({"cpu": time.process_time() - cpu, "decisions": len(result["decisions"])}))
"""


def measure_old(path: str, record: dict, seconds: float, samples: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", OLD_RUN],
        cwd=path,
        input=json.dumps([record, seconds, samples]),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": path},
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, help="the budget's seconds (default: site's)")
    parser.add_argument("--samples", type=int, help="the budget's samples (default: site's)")
    parser.add_argument("--old-budget", default="0.4,30", help="the old tree's: seconds,samples")
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    parser.add_argument("--old", help="a checkout of an older commit to compare with")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()
    from django.conf import settings

    from durak.engine import Rules

    args.seconds = args.seconds or settings.ANALYSIS_SECONDS
    args.samples = args.samples or settings.ANALYSIS_SAMPLES
    old_seconds, old_samples = args.old_budget.split(",")

    games = [
        ("2p podkidnoy, medium bots", Rules(players=2), "medium", 60, 4, range(500)),
        (
            "6p 52 perevodnoy, random",
            Rules(players=6, deck_size=52, mode="perevodnoy"),
            "random",
            300,
            10,
            range(500),
        ),
    ]
    lines = [
        f"Python {platform.python_version()}, {os.cpu_count()} cores, budget {args.seconds} s "
        f"and {args.samples} samples (old tree: {args.old_budget}).",
        "CPU is this process's time.process_time; every seat's decisions and every step's chances.",
        "",
        f"{'game':34} {'moves':>5} {'decisions':>9} {'exact':>5} {'deals':>5} "
        f"{'CPU s':>7} {'ms/decision':>11} {'ms/move':>7} {'wall s':>7}",
    ]
    for label, rules, policy, target, tolerance, seeds in games:
        seed, game = find_game(rules, policy, target, tolerance, seeds)
        figures = measure(game.to_record(), args.seconds, args.samples)
        lines.append(
            f"{label + f' (seed {seed})':34} {figures['moves']:5d} {figures['decisions']:9d} "
            f"{figures['exact']:5d} {figures['samples']:5.1f} {figures['cpu']:7.1f} "
            f"{1000 * figures['cpu'] / max(1, figures['decisions']):11.0f} "
            f"{1000 * figures['cpu'] / figures['moves']:7.0f} {figures['wall']:7.1f}"
        )
        print(lines[-1], flush=True)
        if args.old:
            old = measure_old(args.old, game.to_record(), float(old_seconds), int(old_samples))
            lines.append(
                f"{'  old code, same game':34} {figures['moves']:5d} {old['decisions']:9d} "
                f"{'':5} {'':5} {old['cpu']:7.1f} "
                f"{1000 * old['cpu'] / max(1, old['decisions']):11.0f} "
                f"{1000 * old['cpu'] / figures['moves']:7.0f} {'':>7}"
            )
            lines.append(f"{'  new/old CPU':34} {figures['cpu'] / old['cpu']:5.2f}x")
            print(lines[-2], lines[-1], sep="\n", flush=True)
    table = "\n".join(lines)
    print()
    print(table)
    if args.write:
        write(table)


def write(table: str) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text()
    section = (
        f"{SECTION}\n\n"
        "Command (from the repository root), with an older commit checked out beside it:\n\n"
        "    git worktree add /tmp/analysis-old <old commit>\n"
        "    nice -n 5 .venv/bin/python benchmarks/analysis_speed.py "
        "--old /tmp/analysis-old --write\n\n"
        "The task worker's CPU for a full analysis (`manage.py db_worker` runs the same\n"
        '`analyse_record`). "deals" is the mean number of sampled deals per decision\n'
        "(the judge's search iterations per option) that was not solved exactly;\n"
        '"exact" counts decisions solved exactly. This tree judges every step by the\n'
        "hard bot's tree on each option (docs/analysis.md); the old tree played each\n"
        "option out by the medium bot, with 0.4 s a decision as its cap. The old code\n"
        "ran each game right after the new, under the same load.\n\n"
        f"```\n{table}\n```\n"
    )
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(section + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text)
    print(f"updated {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
