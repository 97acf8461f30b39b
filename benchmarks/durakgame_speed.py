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

CPU time on a shared virtual machine varies by a quarter from one second to the next.
``--counts`` counts instead, the same on every run, for the games after ``--warm``
(300) games: the machine instructions of a game, with valgrind's callgrind
(``apt install valgrind``), as a run of ``--warm`` plus ``--games`` (1,000) games less
a run of ``--warm``; and the Python bytecodes a game executes, with a trace function.
Neither count is time: a bytecode costs its dispatch (an indirect branch the processor
often mispredicts) on top of its instructions, so a time ratio lies between the two.

    .venv/bin/python benchmarks/durakgame_speed.py --durakgame-python VENV/bin/python \\
        [--old <worktree of another commit>] --counts
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from types import FrameType

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOPS = ("kickoff", "direct")


Play = Callable[[float, int], int]


def ours(seed: int) -> Play:
    """The random games of ``engine_speed.py``, on the engine first on ``sys.path``."""
    from engine_speed import random_games

    from durak.engine import Rules

    rules, rng = Rules(), random.Random(seed)

    def play(seconds: float, games: int) -> int:
        return random_games(rules, rng, seconds=seconds, games=games)[0]

    return play


def durakgame(loop: str, seed: int) -> Play:
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

    def play(seconds: float, games: int) -> int:
        played = 0
        deadline = time.process_time() + seconds
        while True:
            deck = standardDeck()
            rng.shuffle(deck)
            g = dg.Game(deck, AtRandom(), AtRandom())
            if loop == "kickoff":
                g.kickoff()
            else:
                while not g.isFinished:
                    options = g.generateOptions()
                    g.process(options[int(rnd() * len(options))])
            played += 1
            if games:
                if played == games:
                    return played
            elif played % 8 == 0 and time.process_time() > deadline:
                return played

    return play


def run_child(args: argparse.Namespace) -> dict[str, float]:
    play = ours(args.seed) if args.child == "ours" else durakgame(args.child, args.seed)
    if args.bytecodes:
        play(0.0, args.warm)
        return {"bytecodes/game": bytecodes(play, args.games) / args.games}
    start = time.process_time()
    played = play(args.seconds, args.games)
    return {"games/s": played / (time.process_time() - start)}


def bytecodes(play: Play, games: int) -> int:
    """The Python bytecodes that ``games`` games execute, counted by a trace function."""
    count = 0

    def on_call(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return on_opcode

    def on_opcode(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal count
        if event == "opcode":
            count += 1
        return on_opcode

    sys.settrace(on_call)
    try:
        play(0.0, games)
    finally:
        sys.settrace(None)
    return count


def child(
    python: str, tree: str, what: str, seed: int, options: list[str], wrap: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=tree)
    argv = [*wrap, python, os.path.abspath(__file__), "--child", what, "--seed", str(seed)]
    return subprocess.run([*argv, *options], env=env, capture_output=True, text=True, check=True)


CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def counts(python: str, tree: str, what: str, args: argparse.Namespace) -> tuple[float, float]:
    """Machine instructions and Python bytecodes a game once warm.

    Instructions: a run of ``warm + games`` games less one of ``warm``, under callgrind.
    Bytecodes: the ``games`` games after ``warm``, counted by a trace function.
    """
    totals = []
    for n in (args.warm, args.warm + args.games):
        err = child(python, tree, what, args.seed, ["--games", str(n)], CALLGRIND).stderr
        totals.append(int(re.search(r"Collected : (\d+)", err).group(1)))
    options = ["--bytecodes", "--warm", str(args.warm), "--games", str(args.games)]
    traced = json.loads(child(python, tree, what, args.seed, options).stdout)
    return (totals[1] - totals[0]) / args.games, traced["bytecodes/game"]


def label(name: str) -> str:
    """A report's name for a durakgame loop or one of our trees."""
    return f"durakgame 1.0.4, {name}" if name in LOOPS else name


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--durakgame-python", help="a Python with durakgame 1.0.4 installed")
    ap.add_argument("--old", help="a worktree of another commit, measured beside this one")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--counts", action="store_true", help="count instructions and bytecodes")
    ap.add_argument("--warm", type=int, default=300, help="with --counts: games first played")
    ap.add_argument("--games", type=int, default=1000, help="with --counts: games counted")
    ap.add_argument("--child", choices=("ours", *LOOPS), help=argparse.SUPPRESS)
    ap.add_argument("--bytecodes", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_child(args)))
        return
    if not args.durakgame_python:
        ap.error("--durakgame-python is required")
    trees = {"this tree": ROOT}
    if args.old:
        trees["old"] = os.path.abspath(args.old)
    if args.counts:
        if args.warm < 1 or args.games < 1:
            ap.error("--warm and --games must be at least 1")
        report_counts(args, trees)
    else:
        report_times(args, trees)


def report_counts(args: argparse.Namespace, trees: dict[str, str]) -> None:
    got = {loop: counts(args.durakgame_python, "", loop, args) for loop in LOOPS}
    for name, tree in trees.items():
        got[name] = counts(sys.executable, tree, "ours", args)
    print(f"a game once warm: games {args.warm + 1}-{args.warm + args.games} of seed {args.seed}")
    print("| engine | instructions | against kickoff | against direct | bytecodes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, (instructions, bytecodes) in got.items():
        ratios = " | ".join(f"{got[loop][0] / instructions:.2f}x" for loop in LOOPS)
        print(f"| {label(name)} | {instructions:,.0f} | {ratios} | {bytecodes:,.0f} |")


def report_times(args: argparse.Namespace, trees: dict[str, str]) -> None:
    rates: dict[str, list[float]] = {name: [] for name in (*trees, *LOOPS)}
    ratios: dict[tuple[str, str], list[float]] = {(t, lp): [] for t in trees for lp in LOOPS}
    for r in range(args.rounds):
        seed = args.seed + r
        for loop in LOOPS:
            options = ["--seconds", str(args.seconds), "--games", "0"]
            got = json.loads(child(args.durakgame_python, "", loop, seed, options).stdout)
            rates[loop].append(got["games/s"])
        for name, tree in trees.items():
            options = ["--seconds", str(args.seconds), "--games", "0"]
            got = json.loads(child(sys.executable, tree, "ours", seed, options).stdout)
            rates[name].append(got["games/s"])
            for loop in LOOPS:
                ratios[name, loop].append(got["games/s"] / rates[loop][-1])
    print(f"{args.rounds} rounds of {args.seconds} s of CPU a child")
    print("| engine | games/s (median) |")
    print("| --- | ---: |")
    for name in (*LOOPS, *trees):
        print(f"| {label(name)} | {median(rates[name]):,.0f} |")
    print()
    print("| tree | against durakgame | median ratio | range |")
    print("| --- | --- | ---: | --- |")
    for (name, loop), xs in ratios.items():
        print(f"| {name} | {loop} | {median(xs):.2f}x | {min(xs):.2f}-{max(xs):.2f} |")


if __name__ == "__main__":
    main()
