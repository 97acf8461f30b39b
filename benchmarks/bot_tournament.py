"""Duplicate tournament between bot levels, and an Elo ladder from its results.

Every deal is played once per seating: with 2 players twice (seats swapped), with 3
players once per rotation of (A, B, B) and of (B, A, A). Luck of the deal then hits both
levels alike. Results go to a JSON-lines file as games finish, so a partial run still
gives a table (``--report-only``). ``greedy`` is the outside baseline (durak/bots/greedy.py).

The ladder fits one Elo rating per level to every 2-player podkidnoy pair in the file
(maximum likelihood over decided games, ``random`` anchored at 1000).

    nice -n 5 .venv/bin/python benchmarks/bot_tournament.py --pairs hard:greedy \
        --deals 550 --workers 1 --out FILE
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

from durak.bots import BASELINES, DEFAULT_BUDGET, LEVELS, TRIALS, Budget  # noqa: E402
from durak.bots.play import play_game  # noqa: E402
from durak.engine import Game, Rules  # noqa: E402

ORDER = LEVELS + BASELINES + TRIALS
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
        cpu: dict[str, list[float]] = defaultdict(list)
        game = Game.new(rules, f"{config}:{deal}")

        def record(
            seat: int,
            action: object,
            wall: float,
            used: float,
            levels: tuple = levels,
            times: dict = times,
            cpu: dict = cpu,
        ) -> None:
            times[levels[seat]].append(round(wall, 5))
            cpu[levels[seat]].append(round(used, 5))

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
                "times": dict(times),
                "cpu": dict(cpu),
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


def hard_score(row: dict) -> float:
    """``hard``'s score in a row of the strength scripts (``deal``, ``hard``'s seat,
    ``fool``'s seat): 1 not the fool, 0 the fool, a half for a draw."""
    if row["fool"] is None:
        return 0.5
    return float(row["fool"] != row["hard"])


def paired(rows: list[dict], base: list[dict]) -> tuple[int, float, float]:
    """``rows`` against ``base`` game by game on the same deal and ``hard`` seat: the
    games both played, and what ``rows`` scored more and less (a draw counts half)."""
    base_scores = {(r["deal"], r["hard"]): hard_score(r) for r in base}
    games = 0
    better = worse = 0.0
    for r in rows:
        other = base_scores.get((r["deal"], r["hard"]))
        if other is None:
            continue
        games += 1
        diff = hard_score(r) - other
        better += max(diff, 0.0)
        worse += max(-diff, 0.0)
    return games, better, worse


def elo_ladder(rows: list[dict], config: str = "2p-podkidnoy") -> dict[str, float]:
    """Elo ratings that best explain the decided games of ``config`` (random = 1000).

    Each pair also gets one virtual win for each side, so that a level that won every
    game still has a finite rating.
    """
    wins: dict[tuple[str, str], float] = defaultdict(float)
    for r in rows:
        if r["config"] != config or r["fool"] is None:
            continue
        a, b = r["levels"]
        loser = r["fool"]
        winner = b if loser == a else a
        wins[(winner, loser)] += 1
    pairs = {tuple(sorted(k)) for k in wins}
    for a, b in pairs:
        wins[(a, b)] += 1
        wins[(b, a)] += 1
    levels = sorted({lv for k in wins for lv in k}, key=ORDER.index)
    if not levels:
        return {}
    # Minorization-maximization for Bradley-Terry strengths, then Elo's scale.
    gamma = dict.fromkeys(levels, 1.0)
    for _ in range(2000):
        new = {}
        for lv in levels:
            won = sum(w for (x, _), w in wins.items() if x == lv)
            den = 0.0
            for (x, y), w in wins.items():
                if lv in (x, y):
                    other = y if x == lv else x
                    den += w / (gamma[lv] + gamma[other])
            new[lv] = won / den if den else gamma[lv]
        gamma = new
    rating = {lv: 400 * math.log10(gamma[lv]) for lv in levels}
    anchor = rating.get("random", rating[levels[0]])
    return {lv: 1000 + rating[lv] - anchor for lv in levels}


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
                "| A vs B | A wins, of decided (95% CI) | games | decided "
                "| A CPU ms/move mean / p99 | B CPU ms/move mean / p99 |"
            )
        else:
            lines.append(
                "| A vs B | A alone vs 2 B: A fool rate (95% CI) | B alone vs 2 A: B fool rate "
                "(95% CI) | games | decided | A CPU ms/move mean / p99 | B CPU ms/move mean / p99 |"
            )
        lines.append("|" + " --- |" * (6 if players == 2 else 7))
        for key in sorted(keys, key=lambda k: (ORDER.index(k[1][0]), ORDER.index(k[1][1]))):
            a, b = key[1]
            rs = groups[key]
            times: dict[str, list[float]] = defaultdict(list)
            for r in rs:
                # CPU seconds of the deciding process where recorded: on a shared machine
                # that is the cost on one core; wall time there includes waiting for a core.
                for lv, ts in r.get("cpu", r["times"]).items():
                    times[lv].extend(ts)

            def t(lv: str, times: dict = times) -> str:
                ts = times[lv]
                if not ts:
                    return "-"
                return f"{1000 * sum(ts) / len(ts):.1f} / {1000 * p99(ts):.1f}"

            decided = [r for r in rs if r["fool"] is not None]
            if players == 2:
                p, lo, hi = wilson(sum(r["fool"] == b for r in decided), len(decided))
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
        if players == 2:
            ladder = elo_ladder(rows, config)
            if ladder:
                lines.append(f"Elo ladder, {config} (random = 1000):")
                lines.append("")
                lines.append("| level | Elo |")
                lines.append("| --- | ---: |")
                for lv, r in sorted(ladder.items(), key=lambda x: -x[1]):
                    lines.append(f"| {lv} | {r:.0f} |")
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
    ap.add_argument("--levels", default=",".join(ORDER))
    ap.add_argument("--pairs", default=None, help="explicit pairs, e.g. hard:greedy,medium:greedy")
    ap.add_argument("--with-level", default=None, help="only pairs that include this level")
    ap.add_argument("--workers", type=int, default=1, help="1: play in this process")
    ap.add_argument("--out", default="/tmp/bot_tournament.jsonl")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    if not args.report_only:
        budget = DEFAULT_BUDGET
        if args.hard_seconds is not None or args.hard_iterations is not None:
            budget = Budget(seconds=args.hard_seconds, iterations=args.hard_iterations)
        if args.pairs:
            pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
        else:
            pairs = list(itertools.combinations(args.levels.split(","), 2))
        tasks = []
        for config in args.configs.split(","):
            for a, b in pairs:
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
        with open(args.out, "a") as out:
            if args.workers == 1:
                results = map(run_deal, tasks)
                pool = None
            else:
                pool = mp.Pool(args.workers)
                results = pool.imap_unordered(run_deal, tasks, chunksize=1)
            for i, rows in enumerate(results):
                for r in rows:
                    out.write(json.dumps(r) + "\n")
                out.flush()
                if i % 50 == 0:
                    print(
                        f"{i + 1}/{len(tasks)} deals, {time.time() - start:.0f}s", file=sys.stderr
                    )
            if pool is not None:
                pool.close()
    print(report(args.out))


if __name__ == "__main__":
    main()
