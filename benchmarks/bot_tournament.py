"""Duplicate tournament between bot levels.

Every deal is played once per seating: with 2 players twice (seats swapped), with 3
players once per rotation of (A, B, B) and of (B, A, A). Luck of the deal then hits both
levels alike. Results go to a JSON-lines file as games finish, so a partial run still
gives a table (``--report-only``).

    .venv/bin/python benchmarks/bot_tournament.py --deals 300 --hard-iterations 150
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing as mp
import os
import random
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import LEVELS, Budget  # noqa: E402
from games.bots.play import play_game  # noqa: E402
from games.engine import Game, Rules  # noqa: E402

CONFIGS = {
    "2p-podkidnoy": Rules(players=2),
    "2p-perevodnoy": Rules(players=2, mode="perevodnoy"),
    "3p-podkidnoy": Rules(players=3),
}


def seatings(players: int, a: str, b: str) -> list[tuple[str, ...]]:
    if players == 2:
        return [(a, b), (b, a)]
    out = []
    for lone, other in ((a, b), (b, a)):
        base = (lone,) + (other,) * (players - 1)
        out += [base[-r:] + base[:-r] if r else base for r in range(players)]
    return out


def run_deal(task: tuple) -> list[dict]:
    config, a, b, deal, hard_budget = task
    rules = CONFIGS[config]
    budgets = {"hard": hard_budget}
    rows = []
    for levels in seatings(rules.players, a, b):
        times: dict[str, list[float]] = defaultdict(list)
        game = Game.new(rules, f"{config}:{deal}")

        def record(
            seat: int, action: object, dt: float, levels: tuple = levels, times: dict = times
        ) -> None:
            times[levels[seat]].append(dt)

        play_game(game, levels, random.Random(deal), budgets, on_move=record)
        fool = game.result["fool"]
        rows.append(
            {
                "config": config,
                "pair": [a, b],
                "deal": deal,
                "levels": list(levels),
                "fool": None if fool is None else levels[fool],
                "lone": levels[0] if rules.players == 2 else _lone(levels),
                "times": {k: v for k, v in times.items()},
            }
        )
    return rows


def _lone(levels: tuple[str, ...]) -> str:
    return min(set(levels), key=levels.count)


def wilson(k: int, n: int) -> tuple[float, float, float]:
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = k / n
    z = 1.96
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, mid - half, mid + half


def p99(xs: list[float]) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(math.ceil(0.99 * len(s))) - 1)]


def report(path: str) -> str:
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["config"], tuple(r["pair"]))].append(r)
    lines = []
    for config in CONFIGS:
        keys = [k for k in groups if k[0] == config]
        if not keys:
            continue
        players = CONFIGS[config].players
        lines.append(f"### {config}")
        if players == 2:
            lines.append(
                "| A vs B | A fool rate (95% CI) | games | decided | A ms/move mean / p99 "
                "| B ms/move mean / p99 |"
            )
        else:
            lines.append(
                "| A vs B | A alone vs 2 B: A fool rate (95% CI) | B alone vs 2 A: B fool rate "
                "(95% CI) | games | decided | A ms/move mean / p99 | B ms/move mean / p99 |"
            )
        lines.append("|" + " --- |" * (6 if players == 2 else 7))
        for key in sorted(keys, key=lambda k: (LEVELS.index(k[1][0]), LEVELS.index(k[1][1]))):
            a, b = key[1]
            rs = groups[key]
            times: dict[str, list[float]] = defaultdict(list)
            for r in rs:
                for lv, ts in r["times"].items():
                    times[lv].extend(ts)

            def t(lv: str, times: dict = times) -> str:
                ts = times[lv]
                if not ts:
                    return "-"
                return f"{1000 * sum(ts) / len(ts):.1f} / {1000 * p99(ts):.1f}"

            decided = [r for r in rs if r["fool"] is not None]
            if players == 2:
                p, lo, hi = wilson(sum(r["fool"] == a for r in decided), len(decided))
                lines.append(
                    f"| {a} vs {b} | {100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) | {len(rs)} "
                    f"| {len(decided)} | {t(a)} | {t(b)} |"
                )
            else:
                cells = []
                for lone in (a, b):
                    ds = [r for r in decided if r["lone"] == lone]
                    p, lo, hi = wilson(sum(r["fool"] == lone for r in ds), len(ds))
                    cells.append(f"{100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}), n={len(ds)}")
                lines.append(
                    f"| {a} vs {b} | {cells[0]} | {cells[1]} | {len(rs)} | {len(decided)} "
                    f"| {t(a)} | {t(b)} |"
                )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=300, help="deals per pair (non-hard pairs)")
    ap.add_argument("--hard-deals", type=int, default=None, help="deals per pair with hard")
    ap.add_argument("--first-deal", type=int, default=0, help="deal numbers start here")
    ap.add_argument("--hard-seconds", type=float, default=None)
    ap.add_argument("--hard-iterations", type=int, default=None)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--with-level", default=None, help="only pairs that include this level")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="/tmp/bot_tournament.jsonl")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    if not args.report_only:
        budget = Budget(seconds=args.hard_seconds, iterations=args.hard_iterations)
        if budget.seconds is None and budget.iterations is None:
            budget = Budget(seconds=0.6)
        levels = args.levels.split(",")
        tasks = []
        for config in args.configs.split(","):
            for a, b in itertools.combinations(levels, 2):
                if args.with_level and args.with_level not in (a, b):
                    continue
                n = args.deals
                if "hard" in (a, b) and args.hard_deals is not None:
                    n = args.hard_deals
                first = args.first_deal
                tasks += [(config, a, b, d, budget) for d in range(first, first + n)]
        # Cheap pairs first, so their rows exist early.
        tasks.sort(key=lambda t: ("hard" in t[1:3], t[3], t[0]))
        print(f"hard budget: {budget}; {len(tasks)} deals", file=sys.stderr)
        start = time.time()
        with open(args.out, "a") as out, mp.Pool(args.workers) as pool:
            for i, rows in enumerate(pool.imap_unordered(run_deal, tasks, chunksize=1)):
                for r in rows:
                    out.write(json.dumps(r) + "\n")
                out.flush()
                if i % 50 == 0:
                    print(
                        f"{i + 1}/{len(tasks)} deals, {time.time() - start:.0f}s", file=sys.stderr
                    )
    print(report(args.out))


if __name__ == "__main__":
    main()
