"""What the hidden cards cost ``hard``: its search dealing its sampled games four ways.

Usage (from the repository root)::

    .venv/bin/python benchmarks/strength_bounds.py --first-deal 960000 --deals 300 \\
        --samplers inference,hand,deal --workers 2 --out-dir DIR

``hard`` (600 playouts a move) plays ``greedy`` in 2-player 36-card podkidnoy, every
deal twice (seats swapped), seeded as ``bot_tournament.py`` seeds them. Only where the
search gets its sampled games differs (``HardBot(samplers=...)``):

* ``uniform``: hidden cards dealt at random (``Knowledge.determinize``);
* ``inference``: dealt by what each player did in public, as ``hard`` plays;
* ``hand``: the opponent's real hand, the talon dealt at random: the most any inference
  of the hand could give;
* ``deal``: the real game, talon order and all: no hidden information at all.

The last two read the real game, so they are yardsticks, not bots. Rows go to
``DIR/<sampler>.jsonl`` as games end; the report gives each sampler's share of decided
games (95% Wilson interval) and, paired game by game with ``inference`` on the same
deals and seats, how many games it won that ``inference`` lost and the other way round.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot_tournament import paired, wilson  # noqa: E402

from durak.bots import Budget  # noqa: E402
from durak.bots.fast import decider, legal  # noqa: E402
from durak.bots.greedy import greedy_move  # noqa: E402
from durak.bots.inference import Inference  # noqa: E402
from durak.bots.search import HardBot, Sampler  # noqa: E402
from durak.engine import Game, Knowledge, Rules  # noqa: E402

SAMPLERS = ("uniform", "inference", "hand", "deal")


class AtRandom:
    """Deals every card ``knowledge`` does not place at random."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge

    def deal(self, rng: random.Random) -> Game:
        return self.knowledge.determinize(rng)


class _RealDeal:
    def __init__(self, real: Game) -> None:
        self.real = real

    def deal(self, rng: random.Random) -> Game:
        return self.real.copy()


def sampler_for(name: str, real: Game, knowledge: Knowledge) -> Sampler:
    if name == "uniform":
        return AtRandom(knowledge)
    if name == "inference":
        return Inference.of(knowledge)
    if name == "hand":
        # Every hand known: only the talon is left to deal at random.
        hands = tuple(real.hand_mask(s) for s in range(real.players))
        return AtRandom(dataclasses.replace(knowledge, known=hands))
    return _RealDeal(real)


def play_deal(task: tuple[str, int, int]) -> list[dict]:
    name, deal, playouts = task
    rules = Rules(players=2)
    budget = Budget(iterations=playouts)
    rows = []
    for hard_seat in (0, 1):
        game = Game.new(rules, f"2p-podkidnoy:{deal}")
        bot = HardBot(samplers=lambda k, game=game: sampler_for(name, game, k))
        rng = random.Random(deal)
        cpu = 0.0
        moves = 0
        while not game.is_over:
            seat = decider(game)
            if seat == hard_seat:
                start = time.process_time()
                action = bot.choose_action(game.knowledge(seat), rng, budget)
                cpu += time.process_time() - start
                moves += 1
            else:
                acts = legal(game, seat)
                action = acts[0] if len(acts) == 1 else greedy_move(game, seat, acts, rng)
            game.apply(action)
        fool = game.result["fool"]
        rows.append({"deal": deal, "hard": hard_seat, "fool": fool, "cpu": cpu, "moves": moves})
    return rows


def report(out_dir: Path) -> str:
    runs = {
        path.stem: [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for path in sorted(out_dir.glob("*.jsonl"))
    }
    base = runs.get("inference", [])
    lines = [
        "| sampler | deals | hard wins, of decided (95% CI) | games | decided "
        "| won where inference lost / lost where it won | CPU ms a move |",
        "| --- | --- | --- | ---: | ---: | --- | ---: |",
    ]
    for name in SAMPLERS:
        rows = runs.get(name)
        if not rows:
            continue
        decided = [r for r in rows if r["fool"] is not None]
        won = sum(r["fool"] != r["hard"] for r in decided)
        p, lo, hi = wilson(won, len(decided))
        _games, better, worse = paired(rows, base)
        against = "-" if name == "inference" or not base else f"{better:g} / {worse:g}"
        deals = sorted({r["deal"] for r in rows})
        cpu = 1000 * sum(r["cpu"] for r in rows) / max(1, sum(r["moves"] for r in rows))
        lines.append(
            f"| {name} | {deals[0]}-{deals[-1]} | {100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            f" | {len(rows)} | {len(decided)} | {against} | {cpu:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--first-deal", type=int, default=960000)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--samplers", default="inference,hand,deal")
    ap.add_argument("--playouts", type=int, default=600)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out-dir", default="/tmp/strength_bounds")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        names = args.samplers.split(",")
        unknown = set(names) - set(SAMPLERS)
        if unknown:
            ap.error(f"unknown samplers {sorted(unknown)}; expected some of {SAMPLERS}")
        deals = range(args.first_deal, args.first_deal + args.deals)
        for name in names:
            tasks = [(name, d, args.playouts) for d in deals]
            with mp.Pool(args.workers) as pool, open(out_dir / f"{name}.jsonl", "w") as f:
                for rows in pool.imap_unordered(play_deal, tasks):
                    for row in rows:
                        f.write(json.dumps(row) + "\n")
                    f.flush()
    print(report(out_dir))


if __name__ == "__main__":
    main()
