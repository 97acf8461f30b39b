"""Random 2-player 36-card games: this engine against PyPI durakgame 1.0.4.

Usage (from the repository root; durakgame lives in a virtualenv of its own, so the
project never depends on it)::

    python3 -m venv VENV && VENV/bin/pip install durakgame==1.0.4
    .venv/bin/python benchmarks/durakgame_speed.py --durakgame-python VENV/bin/python \\
        [--old <worktree of another commit>] --rounds 9

Every round runs one child process per engine and tree, one after another, each playing
whole random games for ``--seconds`` of CPU time:

* this engine (and the ``--old`` tree's), as ``engine_speed.py`` plays random games:
  ``Game.new(Rules(), rng)``, then ``legal_actions()`` and ``apply`` of
  ``acts[int(rng.random() * len(acts))]`` until ``is_over``;
* durakgame, driven two ways: ``kickoff``, its own game loop (which builds the state
  its players are shown before every move), and ``direct``, its cheapest loop
  (``generateOptions`` and ``process`` only). Both players choose
  ``int(rng.random() * len(options))``.

durakgame 1.0.4 leaves a finishing move's cards in the attacker's hand as well as giving
them to the defender, so random games never end; the child mends ``Game.process`` for
that move and nothing else. The report gives each engine's median games per second and,
per durakgame loop, the median (and range) over the rounds of each tree's ratio to it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOPS = ("kickoff", "direct")


def ours(seconds: float, seed: int) -> dict[str, float]:
    """The random games of ``engine_speed.py``, on the engine first on ``sys.path``."""
    from engine_speed import child as engine_child

    return engine_child("random 2p 36 podkidnoy", seconds, seed, {})


def durakgame(loop: str, seconds: float, seed: int) -> dict[str, float]:
    import durakgame.game as dg
    from durakgame.interface import standardDeck
    from durakgame.move import FinishingMove
    from durakgame.player import Player

    process = dg.Game.process

    def mended(self: dg.Game, move: object) -> None:
        if isinstance(move, FinishingMove):
            for card in move.cards:
                self.currentPlayer.hand.remove(card)
        process(self, move)

    dg.Game.process = mended
    rng = random.Random(seed)
    rnd = rng.random

    class AtRandom(Player):
        def nextMove(self, state: object, options: list) -> int:  # noqa: N802 (its API)
            return int(rnd() * len(options))

    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        deck = standardDeck()
        rng.shuffle(deck)
        g = dg.Game(deck, AtRandom(), AtRandom())
        if loop == "kickoff":
            g.kickoff()
            actions += len(g.history.p1Moves) + len(g.history.p2Moves)
        else:
            while not g.isFinished:
                options = g.generateOptions()
                g.process(options[int(rnd() * len(options))])
                actions += 1
        games += 1
        if games % 8 == 0 and time.process_time() > deadline:
            break
    cpu = time.process_time() - start
    return {"games/s": games / cpu, "actions/game": actions / games}


def child(python: str, tree: str, what: str, seconds: float, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=tree)
    argv = [python, os.path.abspath(__file__), "--child", what, "--seconds", str(seconds)]
    out = subprocess.run(
        [*argv, "--seed", str(seed)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--durakgame-python", help="a Python with durakgame 1.0.4 installed")
    ap.add_argument("--old", help="a worktree of another commit, measured beside this one")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--child", choices=("ours", *LOOPS), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.child == "ours":
            result = ours(args.seconds, args.seed)
        else:
            result = durakgame(args.child, args.seconds, args.seed)
        print(json.dumps(result))
        return
    if not args.durakgame_python:
        ap.error("--durakgame-python is required")
    trees = {"this tree": ROOT}
    if args.old:
        trees["old"] = os.path.abspath(args.old)
    rates: dict[str, list[float]] = {name: [] for name in (*trees, *LOOPS)}
    ratios: dict[tuple[str, str], list[float]] = {(t, lp): [] for t in trees for lp in LOOPS}
    for r in range(args.rounds):
        seed = args.seed + r
        for loop in LOOPS:
            got = child(args.durakgame_python, "", loop, args.seconds, seed)
            rates[loop].append(got["games/s"])
        for name, tree in trees.items():
            got = child(sys.executable, tree, "ours", args.seconds, seed)
            rates[name].append(got["games/s"])
            for loop in LOOPS:
                ratios[name, loop].append(got["games/s"] / rates[loop][-1])
    print(f"{args.rounds} rounds of {args.seconds} s of CPU a child")
    print("| engine | games/s (median) |")
    print("| --- | ---: |")
    for name in (*LOOPS, *trees):
        label = f"durakgame 1.0.4, {name}" if name in LOOPS else name
        print(f"| {label} | {median(rates[name]):,.0f} |")
    print()
    print("| tree | against durakgame | median ratio | range |")
    print("| --- | --- | ---: | --- |")
    for (name, loop), xs in ratios.items():
        print(f"| {name} | {loop} | {median(xs):.2f}x | {min(xs):.2f}-{max(xs):.2f} |")


if __name__ == "__main__":
    main()
