"""``hard`` against the ``greedy`` baseline, this tree and an older one on the same deals.

Usage (from the repository root)::

    .venv/bin/python benchmarks/strength_side_by_side.py --old /work/wt-ca1 \
        --first-deal 975000 --deals 550 --old-deals 250 --out-dir DIR

``--old PATH`` is a worktree of an older commit (``git worktree add PATH ca1bc24``). Each
tree plays in a child process of its own (``--child``), the two at once, so that both
see the same load; each child has that tree first on ``sys.path``. Both face this
tree's ``durak/bots/greedy.py``, loaded from its file, so the baseline is the same code
whatever the tree. 2-player 36-card podkidnoy, every deal played twice (seats
swapped), ``hard`` at ``--playouts`` a move, the deal and the bot's random numbers
seeded as ``bot_tournament.py`` seeds them, so this tree's games are that script's.

Rows go to ``DIR/<tree>.jsonl`` as games end; ``--report-only`` prints the table from
them: ``hard``'s share of decided games with a 95% Wilson interval, and its CPU time
a move (the deciding process's, on one core), mean and 99th percentile; with an old
tree, also the games the new one did better and worse in, deal and seat alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "games" / "bots" / "greedy.py"


def child(tree: str, first: int, deals: int, playouts: int, out: str) -> None:
    sys.path.insert(0, tree)
    from durak.bots import Budget, get_bot
    from durak.bots.fast import decider, legal
    from durak.engine import Game, Rules

    spec = importlib.util.spec_from_file_location("baseline_greedy", GREEDY)
    assert spec is not None and spec.loader is not None
    greedy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(greedy)

    rules = Rules(players=2)
    budget = Budget(iterations=playouts)
    with open(out, "a") as f:
        for deal in range(first, first + deals):
            for hard_seat in (0, 1):
                game = Game.new(rules, f"2p-podkidnoy:{deal}")
                rng = random.Random(deal)
                cpu = []
                while not game.is_over:
                    seat = decider(game)
                    if seat == hard_seat:
                        start = time.process_time()
                        action = get_bot("hard").choose_action(game.knowledge(seat), rng, budget)
                        cpu.append(round(time.process_time() - start, 5))
                    else:
                        acts = legal(game, seat)
                        action = (
                            acts[0] if len(acts) == 1 else greedy.greedy_move(game, seat, acts, rng)
                        )
                    game.apply(action)
                row = {"deal": deal, "hard": hard_seat, "fool": game.result["fool"], "cpu": cpu}
                f.write(json.dumps(row) + "\n")
                f.flush()


def report(out_dir: Path) -> str:
    """A line per tree over all its games, then, if the trees played different numbers
    of deals, a line per tree over the deals every tree played."""
    rows = {
        path.stem: [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for path in sorted(out_dir.glob("*.jsonl"))
    }
    lines = [
        "| tree | deals | hard wins, of decided (95% CI) | games | decided "
        "| hard CPU ms a move, mean / p99 |",
        "| --- | --- | --- | ---: | ---: | --- |",
    ]
    for name, tree_rows in rows.items():
        lines.append(_line(name, tree_rows))
    shared = set.intersection(*({r["deal"] for r in rs} for rs in rows.values())) if rows else set()
    if any({r["deal"] for r in rs} != shared for rs in rows.values()):
        for name, tree_rows in rows.items():
            lines.append(_line(name, [r for r in tree_rows if r["deal"] in shared]))
    if set(rows) == {"new", "old"}:
        lines.append(_paired(rows["new"], rows["old"]))
    return "\n".join(lines)


def _paired(new: list[dict], old: list[dict]) -> str:
    """Game by game on the same deal and seat: what the new tree won more and lost more
    (a draw counts half), and the sign test's z of the difference."""
    from bot_tournament import paired  # see ``_line`` for why here

    games, better, worse = paired(new, old)
    z = (better - worse) / math.sqrt(better + worse) if better + worse else 0.0
    return (
        f"\nGame by game over {games} games played by both: new better in {better:g}, "
        f"worse in {worse:g} (z = {z:+.1f})"
    )


def _line(name: str, rows: list[dict]) -> str:
    decided = [r for r in rows if r["fool"] is not None]
    if not decided:
        return f"| {name} | - | no decided games | {len(rows)} | 0 | - |"
    deals = sorted({r["deal"] for r in rows})
    won = sum(r["fool"] != r["hard"] for r in decided)
    # Imported here, not at the top: a child must import ``games`` from its own tree,
    # and bot_tournament imports this tree's.
    from bot_tournament import p99, wilson

    p, lo, hi = wilson(won, len(decided))
    cpu = [c for r in rows for c in r["cpu"]]
    mean = 1000 * sum(cpu) / len(cpu)
    slow = 1000 * p99(cpu)
    return (
        f"| {name} | {deals[0]}-{deals[-1]} | {100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) "
        f"| {len(rows)} | {len(decided)} | {mean:.1f} / {slow:.1f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--old", help="a worktree of an older commit, played alongside")
    ap.add_argument("--first-deal", type=int, default=975000)
    ap.add_argument("--deals", type=int, default=550, help="deals for this tree")
    ap.add_argument("--old-deals", type=int, default=None, help="deals for the old tree")
    ap.add_argument("--playouts", type=int, default=600)
    ap.add_argument("--out-dir", default="/tmp/strength")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        tree, first, deals, out = args.child
        child(tree, int(first), int(deals), args.playouts, out)
        return
    out_dir = Path(args.out_dir)
    if not args.report_only:
        out_dir.mkdir(parents=True, exist_ok=True)
        trees = {"new": (ROOT, args.deals)}
        if args.old:
            trees["old"] = (Path(args.old).resolve(), args.old_deals or args.deals)
        children = []
        for name, (tree, deals) in trees.items():
            cmd = [sys.executable, __file__, "--playouts", str(args.playouts), "--child"]
            cmd += [str(tree), str(args.first_deal), str(deals), str(out_dir / f"{name}.jsonl")]
            children.append(subprocess.Popen(cmd, cwd=tree))
        for proc in children:
            if proc.wait():
                sys.exit(f"a child failed: {proc.args}")
    print(report(out_dir))


if __name__ == "__main__":
    main()
