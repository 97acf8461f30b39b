"""Speed of the rules engine: random legal games, copies, state size.

Usage (from the repository root)::

    .venv/bin/python benchmarks/engine_speed.py [--seconds 3] [--no-durakgame]

Every game picks uniformly among ``legal_actions()`` until the game is over. If
``durakgame`` 1.0.4 is importable (``pip install -r benchmarks/requirements.txt``) it is
measured in the same run with the same random policy, and the ratio is printed.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.engine import Game, Rules  # noqa: E402

CONFIGS = [
    ("2 players, 36, podkidnoy", Rules()),
    ("4 players, 36, perevodnoy", Rules(players=4, mode="perevodnoy")),
    ("6 players, 36, podkidnoy", Rules(players=6)),
    ("2x2 teams, 36, podkidnoy", Rules(players=4, teams="2x2")),
]


def run_engine(rules: Rules, seconds: float, seed: int = 1) -> tuple[int, int, float, float]:
    """Play random games for about ``seconds``; return (games, actions, wall s, CPU s)."""
    rng = random.Random(seed)
    rnd = rng.random
    new = Game.new
    games = actions = 0
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        g = new(rules, rng)
        legal = g.legal_actions
        apply = g.apply
        n = 0
        while not g.is_over:
            acts = legal()
            apply(acts[int(rnd() * len(acts))])
            n += 1
        games += 1
        actions += n
        if games % 16 == 0 and time.perf_counter() > deadline:
            break
    return games, actions, time.perf_counter() - start, time.process_time() - cpu


def run_durakgame(seconds: float, seed: int = 1) -> tuple[int, int, float, float] | None:
    try:
        import durakgame as dg
        from durakgame.game import Game as DG
        from durakgame.move import FinishingMove
    except ImportError:
        return None

    class FixedGame(DG):
        # durakgame 1.0.4 gives the extra cards of a FinishingMove to the defender but
        # leaves them in the attacker's hand too; random play then duplicates cards and
        # blows up. This one fix keeps its games finite and does not speed it up.
        def process(self, move):  # type: ignore[no-untyped-def]
            if isinstance(move, FinishingMove):
                for c in move.cards:
                    self.currentPlayer.hand.remove(c)
            super().process(move)

    rng = random.Random(seed)
    rnd = rng.random

    class RandomPlayer(dg.Player):
        def nextMove(self, state, options):  # type: ignore[no-untyped-def]  # noqa: N802
            return int(rnd() * len(options))

    games = actions = 0
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        deck = dg.standardDeck()
        rng.shuffle(deck)
        g = FixedGame(deck, RandomPlayer(), RandomPlayer())
        g.kickoff()
        games += 1
        actions += len(g.history.p1Moves) + len(g.history.p2Moves)
        if games % 16 == 0 and time.perf_counter() > deadline:
            break
    return games, actions, time.perf_counter() - start, time.process_time() - cpu


def mid_game_states(rules: Rules, count: int, seed: int = 7) -> list[Game]:
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        g = Game.new(rules, rng)
        steps = rng.randrange(10, 60)
        for _ in range(steps):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            states.append(g)
    return states


def copy_cost(rules: Rules) -> float:
    """CPU microseconds per copy() of a mid-game state."""
    states = mid_game_states(rules, 200)
    reps = 50
    start = time.process_time()
    for _ in range(reps):
        for g in states:
            g.copy()
    return (time.process_time() - start) / (reps * len(states)) * 1e6


def state_memory(rules: Rules) -> float:
    """Bytes allocated by one copied mid-game state (shared rules/tables excluded)."""
    states = mid_game_states(rules, 200)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    copies = [g.copy() for g in states for _ in range(5)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    total = sum(s.size_diff for s in after.compare_to(before, "filename"))
    return total / len(copies)


def calibration() -> float:
    """CPU ms of an empty million-step loop: a yardstick for how fast this machine is now."""
    best = 1e9
    for _ in range(5):
        start = time.process_time()
        for _ in range(1_000_000):
            pass
        best = min(best, time.process_time() - start)
    return best * 1e3


def line(name: str, games: int, actions: int, wall: float, cpu: float) -> str:
    return (
        f"{name:34} {games / cpu:9.0f} {actions / cpu:10.0f} {actions / games:8.1f}"
        f" {cpu / actions * 1e6:8.2f} {games / wall:11.0f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    ap.add_argument("--rounds", type=int, default=6, help="interleaved rounds for the comparison")
    ap.add_argument("--no-durakgame", action="store_true")
    args = ap.parse_args()

    print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per configuration, one core.")
    print(f"Calibration: an empty 1e6-step Python loop takes {calibration():.1f} ms CPU here.")
    print("Rates use CPU time (time.process_time); the last column uses wall time.\n")
    head = f"{'configuration':34} {'games/s':>9} {'actions/s':>10} {'act/game':>8} {'us/step':>8}"
    print(head + f" {'wall games/s':>11}")
    for name, rules in CONFIGS:
        print(line(name, *run_engine(rules, args.seconds)))

    if not args.no_durakgame:
        if run_durakgame(0.05) is None:
            print("\ndurakgame not installed: pip install -r benchmarks/requirements.txt")
        else:
            # Interleave short runs of both engines so that load from other processes on
            # a shared machine falls on both alike.
            ours = [0, 0, 0.0, 0.0]
            theirs = [0, 0, 0.0, 0.0]
            per = args.seconds / 2
            for r in range(args.rounds):
                for acc, res in (
                    (ours, run_engine(CONFIGS[0][1], per, seed=100 + r)),
                    (theirs, run_durakgame(per, seed=100 + r)),
                ):
                    assert res is not None
                    for i in range(4):
                        acc[i] += res[i]
            print(f"\nside by side, {args.rounds} interleaved rounds of {per:g} s each:")
            print(line("ours: 2 players, 36, podkidnoy", *ours))  # type: ignore[arg-type]
            print(line("durakgame 1.0.4 (2p, 36, throw-in)", *theirs))  # type: ignore[arg-type]
            ratio_cpu = (ours[1] / ours[3]) / (theirs[1] / theirs[3])
            ratio_wall = (ours[1] / ours[2]) / (theirs[1] / theirs[2])
            print(
                f"actions/s ratio ours/durakgame: {ratio_cpu:.2f}x (CPU), {ratio_wall:.2f}x (wall)"
            )
            games_cpu = (ours[0] / ours[3]) / (theirs[0] / theirs[3])
            games_wall = (ours[0] / ours[2]) / (theirs[0] / theirs[2])
            print(
                f"games/s ratio ours/durakgame:   {games_cpu:.2f}x (CPU), {games_wall:.2f}x (wall)"
            )
    print()
    print(f"copy(): {copy_cost(Rules()):.2f} us per copy (2 players, mid-game)")
    print(f"copy(): {copy_cost(Rules(players=6)):.2f} us per copy (6 players, mid-game)")
    print(
        f"state memory: {state_memory(Rules()):.0f} bytes per game state (2 players, tracemalloc)"
    )
    print(f"state memory: {state_memory(Rules(players=6)):.0f} bytes per game state (6 players)")


if __name__ == "__main__":
    main()
