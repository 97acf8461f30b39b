"""Speed of the rules engine, side by side with an older checkout in the same run.

Usage (from the repository root)::

    .venv/bin/python benchmarks/engine_speed.py [--old /work/wt-ca1] [--rounds 5]
        [--seconds 1.0]

``--old PATH`` is a worktree of an older commit (``git worktree add PATH ca1bc24``).
Each measurement runs in a child process per tree (``--child``), the two trees taking
turns round after round so that load from other processes falls on both alike; the
figures are medians over the rounds of CPU time (``time.process_time``) per unit.

Measured, each on its own:

* ``copy``: one ``game.copy()`` of a mid-game state;
* ``apply``: one ``apply`` of the action played next from a mid-game state (the cost
  of the copy it is applied to is measured alongside and taken off);
* ``legal_actions``: one ``legal_actions()`` call on a mid-game state;
* random playouts: whole 2-player 36-card podkidnoy games from a fresh deal, every
  step picking uniformly among ``legal_actions()`` (and three other variants);
* bot playouts: ``durak.bots.fast.playout`` with the medium policy from a fresh deal,
  per step (2-player podkidnoy, 4-player perevodnoy);
* endgame solver: ``durak.bots.endgame.Solver`` on 40 two-player endgames (at most
  4,000 nodes each), per node.

The mid-game states and endgames are the same for both trees: this tree plays them
and hands them to each child as records (deal and actions), which both replay.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PLAYOUT_VARIANTS = {
    "random 2p 36 podkidnoy": {},
    "random 4p 36 perevodnoy": {"players": 4, "mode": "perevodnoy"},
    "random 6p 36 podkidnoy": {"players": 6},
    "random 2x2 teams 36": {"players": 4, "teams": "2x2"},
}
BOT_VARIANTS = {
    "bot playout 2p podkidnoy": {},
    "bot playout 4p perevodnoy": {"players": 4, "mode": "perevodnoy"},
}
# The solver's budget per endgame: some take minutes to solve in full.
SOLVER_NODES = 4000
# Unit of each metric, and whether more is better.
UNITS = {"copy": "us/copy", "apply": "us/apply", "legal_actions": "us/call"}


# ----------------------------------------------------------------- fixtures


def fixtures(seed: int = 7) -> dict[str, Any]:
    """Records of mid-game states (with the next action) and of two-player endgames."""
    from durak.bots import endgame, fast
    from durak.engine import Game, Rules

    rng = random.Random(seed)
    mid = []
    for variant in ({}, {"players": 4, "mode": "perevodnoy"}):
        rules = Rules(**variant)
        while len(mid) < (200 if not variant else 400):
            g = Game.new(rules, rng)
            for _ in range(rng.randrange(5, 80)):
                acts = g.legal_actions()
                if g.is_over:
                    break
                g.apply(rng.choice(acts))
            if not g.is_over:
                mid.append((g.to_record(), str(rng.choice(g.legal_actions()))))
    ends = []
    rules = Rules()
    while len(ends) < 40:
        g = Game.new(rules, rng)
        while not g.is_over and not endgame.applicable(g):
            s = fast.decider(g)
            g.apply(fast.medium_move(g, s, g.legal_actions(s), rng))
        if not g.is_over and len(g.legal_actions(fast.decider(g))) > 1:
            ends.append(g.to_record())
    return {"mid": mid, "ends": ends}


# ------------------------------------------------------------------ a child


def child(what: str, seconds: float, seed: int, data: dict[str, Any]) -> dict[str, float]:
    """Measure ``what`` with whichever ``games`` package is first on sys.path."""
    from durak.engine import Game, Rules

    out: dict[str, float] = {}
    if what == "units":
        states = [Game.from_record(r) for r, _ in data["mid"]]
        nexts = [a for _, a in data["mid"]]
        from durak.engine import Action

        actions = [Action.parse(a) for a in nexts]
        reps = max(1, int(seconds * 150))
        gc.collect()
        start = time.process_time()
        for _ in range(reps):
            for g in states:
                g.copy()
        copy = (time.process_time() - start) / (reps * len(states))
        start = time.process_time()
        for _ in range(reps):
            for g, a in zip(states, actions, strict=True):
                g.copy().apply(a)
        both = (time.process_time() - start) / (reps * len(states))
        start = time.process_time()
        for _ in range(reps):
            for g in states:
                g.legal_actions()
        legal = (time.process_time() - start) / (reps * len(states))
        out = {"copy": copy * 1e6, "apply": (both - copy) * 1e6, "legal_actions": legal * 1e6}
    elif what in PLAYOUT_VARIANTS:
        gc.collect()
        start = time.process_time()
        games, actions = random_games(
            Rules(**PLAYOUT_VARIANTS[what]), random.Random(seed), seconds=seconds
        )
        cpu = time.process_time() - start
        out = {"games/s": games / cpu, "actions/s": actions / cpu}
    elif what in BOT_VARIANTS:
        from durak.bots import fast

        rules = Rules(**BOT_VARIANTS[what])
        rng = random.Random(seed)
        steps = 0
        gc.collect()
        start = time.process_time()
        deadline = start + seconds
        games = 0
        while True:
            g = Game.new(rules, rng)
            fast.playout(g, fast.medium_move, rng)
            steps += len(g.history)
            games += 1
            if games % 8 == 0 and time.process_time() > deadline:
                break
        out = {"us/step": (time.process_time() - start) / steps * 1e6}
    elif what == "solver":
        from durak.bots import endgame, fast

        positions = [Game.from_record(r) for r in data["ends"]]
        nodes = 0
        gc.collect()
        start = time.process_time()
        for g in positions:
            endgame._TABLE.clear()  # every tree starts each position from nothing
            seat = fast.decider(g)
            solver = endgame.Solver(seat, float("inf"), SOLVER_NODES)
            try:
                for a in fast.legal(g, seat):
                    child_game = g.copy()
                    child_game.apply(a)
                    solver.wins(child_game)
            except endgame.OutOfBudget:
                pass
            nodes += min(solver.nodes, SOLVER_NODES)
        out = {"us/node": (time.process_time() - start) / nodes * 1e6, "nodes": nodes}
    return out


def random_games(
    rules: Any, rng: random.Random, *, seconds: float = 0.0, games: int = 0
) -> tuple[int, int]:
    """Play whole games from fresh deals, every step picking uniformly among
    ``legal_actions()``, until ``games`` are played or ``seconds`` of CPU time have
    passed; return the games and actions played. Uses the engine first on sys.path.
    """
    from durak.engine import Game

    rnd = rng.random
    deadline = time.process_time() + seconds
    played = actions = 0
    while True:
        g = Game.new(rules, rng)
        legal = g.legal_actions
        apply = g.apply
        n = 0
        while not g.is_over:
            acts = legal()
            apply(acts[int(rnd() * len(acts))])
            n += 1
        played += 1
        actions += n
        if games:
            if played == games:
                return played, actions
        elif played % 8 == 0 and time.process_time() > deadline:
            return played, actions


def run_child(root: Path, what: str, seconds: float, seed: int, data_path: str) -> dict[str, float]:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        what,
        "--root",
        str(root),
        "--seconds",
        str(seconds),
        "--seed",
        str(seed),
        "--data",
        data_path,
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=root)
    return json.loads(res.stdout)


# ------------------------------------------------------------------ parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--old", help="a worktree of an older commit, measured alongside")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        sys.path.insert(0, args.root)
        data = json.loads(Path(args.data).read_text()) if args.data else {}
        print(json.dumps(child(args.child, args.seconds, args.seed, data)))
        return

    sys.path.insert(0, str(ROOT))
    trees = {"new": ROOT}
    if args.old:
        trees["old"] = Path(args.old).resolve()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(fixtures(), f)
    data_path = f.name
    try:
        whats = ["units", *PLAYOUT_VARIANTS, *BOT_VARIANTS, "solver"]
        results: dict[str, dict[str, dict[str, list[float]]]] = {}
        for r in range(args.rounds):
            for what in whats:
                order = list(trees.items()) if r % 2 == 0 else list(reversed(trees.items()))
                for name, root in order:
                    got = run_child(root, what, args.seconds, 100 + r, str(data_path))
                    for key, value in got.items():
                        results.setdefault(what, {}).setdefault(key, {}).setdefault(
                            name, []
                        ).append(value)
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    finally:
        os.unlink(data_path)

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.rounds} rounds,")
    print(
        f"medians of CPU-time figures; trees: {', '.join(f'{k}={v}' for k, v in trees.items())}\n"
    )
    head = f"{'metric':36} {'unit':10} {'new':>10}"
    if "old" in trees:
        head += f" {'old':>10} {'new/old':>8}"
    print(head)
    for what, metrics in results.items():
        for key, per in metrics.items():
            if key == "nodes":
                continue
            name = key if what == "units" else what
            unit = UNITS.get(key, key)
            new = statistics.median(per["new"])
            line = f"{name:36} {unit:10} {new:10.2f}"
            if "old" in per:
                old = statistics.median(per["old"])
                line += f" {old:10.2f} {new / old:8.2f}"
            print(line)
    if "solver" in results:
        nodes = results["solver"]["nodes"]
        print(f"\nsolver nodes per run: {', '.join(f'{k} {v[0]:.0f}' for k, v in nodes.items())}")


if __name__ == "__main__":
    main()
