"""How long a person waits at a big table of bots: one person against six bots at seven
seats, old tree against new, side by side in one run.

Each game runs in a tree of its own (this one, and a git worktree of the old commit)
on a fresh SQLite database: the tree's own bot workers (``manage.py bot_worker``, one
per core as `make run` starts them) play the bots, and a scripted person plays seat 0
through the game services (``games.services.apply_action``) the moment it is their
turn, choosing as the easy bot would.  The table is seeded (``Match.seed``), so with
the same seed both trees deal the same cards and their bots answer the same moves the
same way: the games differ only in how long the bots pause.  It reports each game's
wall time (from the table's start to its end) and the longest wait between two turns
of the person (from their move until their next turn began).

    .venv/bin/python benchmarks/big_table_pace.py --old c83b138 --rounds 2

The old tree is checked out once into a worktree under the system's temporary folder
(``git worktree add --detach``) and this script is copied into it; both trees run with
this tree's virtualenv.  ``--play`` is the child's mode: one game in the tree it runs
in, its figures as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
TREE = HERE.parent.parent


def play_one(args: argparse.Namespace) -> dict:
    """One seeded game of a person against bots in this tree, timed."""
    tmp = tempfile.mkdtemp(prefix="durak-pace-")
    env = {
        **os.environ,
        "SQLITE_PATH": os.path.join(tmp, "pace.sqlite3"),
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
    }
    env.pop("GAMES_BOT_DELAY", None)  # the tree's own default pause
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0", "--skip-checks"],
        cwd=TREE,
        env=env,
        check=True,
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "bot_worker"],
            cwd=TREE,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for _ in range(args.bot_workers)
    ]
    try:
        time.sleep(4)  # the workers load Django before they look for turns
        before = sum(cpu_seconds(worker.pid) for worker in workers)
        figures = _timed_game(args)
        # The search's share: a game the bots' pauses bound, or one their searches bound.
        figures["bot_cpu_s"] = round(sum(cpu_seconds(w.pid) for w in workers) - before, 1)
        return figures
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _timed_game(args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(TREE))
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import bot_runner, services
    from games.models import Match, Move, RuleVariant, Seat
    from games.services.common import load_game

    variant = RuleVariant.objects.get(slug=args.variant)
    person = get_user_model().objects.create(username="pace")
    bots = [args.level] * (args.seats - 1)
    started = time.monotonic()
    match = services.create_match(person, variant, args.seats, bots=bots, seed=args.seed)
    # As if the person's table socket were open: their turn spends no reconnect budget.
    Seat.objects.filter(match=match, number=0).update(disconnected_since=None)
    turns, waits = 0, []
    acted_at = started
    waiting_since = None
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        game = load_game(match)
        action = None
        if 0 in game.to_act() and bot_runner.legal_for(game, 0):
            if waiting_since is None:
                waiting_since = time.monotonic()
                waits.append(waiting_since - acted_at)
            action = bot_runner.choose_action(game.copy(), 0, "easy", seed=args.seed)
        if action is None:
            if 0 not in game.to_act():
                waiting_since = None
            time.sleep(0.01)
            continue
        try:
            services.apply_action(match.pk, person, str(action), version=match.version)
        except services.Refused:
            continue  # a bot moved first: look again
        turns += 1
        acted_at = time.monotonic()
        waiting_since = None
    ended = time.monotonic()
    moves = Move.objects.filter(match=match)
    return {
        "wall_s": round(ended - started, 1),
        "person_moves": turns,
        "longest_wait_s": round(max(waits, default=0.0), 2),
        "mean_wait_s": round(sum(waits) / len(waits), 2) if waits else 0.0,
        "bot_moves": moves.filter(source=Move.Source.BOT).count(),
        "moves": moves.count(),
        "timeouts": moves.filter(source=Move.Source.TIMEOUT).count(),
    }


def old_tree(commit: str) -> Path:
    """A worktree of ``commit`` with this script in it (made once, then reused)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short", commit],
        cwd=TREE,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    path = Path(tempfile.gettempdir()) / f"durak-pace-{sha}"
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), sha], cwd=TREE, check=True)
    shutil.copy(HERE, path / "benchmarks" / HERE.name)
    return path


def run_in(tree: Path, args: argparse.Namespace, seed: str) -> dict:
    command = [sys.executable, str(tree / "benchmarks" / HERE.name), "--play", "--seed", seed]
    command += ["--level", args.level, "--seats", str(args.seats), "--variant", args.variant]
    command += ["--bot-workers", str(args.bot_workers)]
    env = {k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH", "DATABASE_URL")}
    answer = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    return json.loads(answer.stdout.strip().splitlines()[-1])


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="seeds, each played by both")
    parser.add_argument("--level", default="medium", help="the bots' level")
    parser.add_argument("--seats", type=int, default=7)
    parser.add_argument("--variant", default="full-deck-52", help="a variant dealt at 7 seats")
    parser.add_argument("--bot-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", default="pace", help="the seed of round 1 (then -2, -3 ...)")
    parser.add_argument("--play", action="store_true", help="one game in this tree (the child)")
    args = parser.parse_args()
    if args.play:
        print(json.dumps(play_one(args)), flush=True)
        return
    old = old_tree(args.old)
    print(f"nproc {os.cpu_count()}, {cpu_model()}; {args.seats} seats, {args.level} bots")
    print(f"old: {args.old} in {old}; new: {TREE}")
    rows = []
    for n in range(args.rounds):
        seed = args.seed if n == 0 else f"{args.seed}-{n + 1}"
        # Taking turns which tree plays first, so neither always meets a warmer machine.
        order = [("old", old), ("new", TREE)] if n % 2 == 0 else [("new", TREE), ("old", old)]
        for name, tree in order:
            figures = run_in(tree, args, seed)
            rows.append((seed, name, figures))
            print(f"{seed} {name}: {json.dumps(figures)}", flush=True)
    print()
    print(
        "| seed | tree | game wall time | longest wait between turns | mean wait"
        " | person / bot moves | bot workers' CPU |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for seed, name, f in sorted(rows, key=lambda row: (row[0], row[1] != "old")):
        print(
            f"| {seed} | {name} | {f['wall_s']:.0f} s | {f['longest_wait_s']:.1f} s"
            f" | {f['mean_wait_s']:.1f} s | {f['person_moves']} / {f['bot_moves']}"
            f" | {f['bot_cpu_s']:.0f} s |"
        )
    for name in ("old", "new"):
        total = sum(f["wall_s"] for _s, n, f in rows if n == name)
        print(f"{name}: {total:.0f} s over {args.rounds} game(s)")


if __name__ == "__main__":
    main()
