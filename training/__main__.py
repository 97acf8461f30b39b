"""Distil the learned policy from the hard search: ``python -m training --seed 1``.

This is the first stage; the second, ``training.outcomes``, goes on from its weights
(``make train-policy`` runs both).

Round 0 keeps the hard search's own games; each later round plays the policy fitted so
far and asks the search about the positions it reaches, adds them to the data, and fits
a fresh model on everything (see ``selfplay.py``). Games are made on ``--workers``
processes and kept per chunk under ``--work-dir``, so a run that stops picks up where
it was; the same seed and options give the same data, the same weights and the same
report. Writes the weights (``--out``) and the report (``--report``: a Markdown page
and the loss curves as a PNG).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import time
from pathlib import Path

import numpy as np

from .fit import fit
from .report import write_report
from .selfplay import HARD_ITERATIONS, Samples, play_one
from .strength import against_greedy

CHUNK = 20
# The distilled policy, where the outcome stage (``training.outcomes``) starts from.
DISTILLED = Path(".training/distilled-2p-36.npz")


def round_dir(
    work_dir: Path, seed: int, round_number: int, network: str | None, teacher: int
) -> Path:
    """Where a round's games are kept: they depend on the teacher's playouts, and a later
    round's on the policy that played them, so the folder is named by those too."""
    name = f"round{round_number}"
    if teacher != HARD_ITERATIONS:
        name += f"-teacher{teacher}"
    if network is not None:
        name += "-" + hashlib.sha256(Path(network).read_bytes()).hexdigest()[:12]
    return work_dir / f"seed{seed}" / name


def chunk_path(folder: Path, start: int) -> Path:
    return folder / f"games-{start:09d}.npz"


def make_chunk(task: tuple[int, int, str | None, int]) -> Samples:
    start, count, network, teacher = task
    samples = Samples.empty()
    for game_seed in range(start, start + count):
        samples.extend(play_one(game_seed, network, teacher))
    return samples


def games_of_round(
    args: argparse.Namespace, round_number: int, network: str | None
) -> tuple[Path, int]:
    """Play the round's games (those not already on disk) on the worker processes;
    the round's folder and how many games this run played."""
    folder = round_dir(args.work_dir, args.seed, round_number, network, args.teacher_iterations)
    first = args.seed * 10_000_000 + round_number * 1_000_000
    games = games_in_round(args, round_number)
    tasks = [
        (start, min(CHUNK, first + games - start), network, args.teacher_iterations)
        for start in range(first, first + games, CHUNK)
        if not chunk_path(folder, start).exists()
    ]
    with mp.get_context("fork").Pool(args.workers) as pool:
        for task, samples in zip(tasks, pool.imap(make_chunk, tasks), strict=True):
            path = chunk_path(folder, task[0])
            path.parent.mkdir(parents=True, exist_ok=True)
            if samples.labels:
                np.savez_compressed(path, **samples.arrays())
            else:
                np.savez_compressed(path, empty=np.zeros(0))
            print(
                f"round {round_number}: games {task[0]}..{task[0] + task[1] - 1} done", flush=True
            )
    return folder, sum(task[1] for task in tasks)


def games_in_round(args: argparse.Namespace, round_number: int) -> int:
    return args.games if round_number == 0 else args.later_games


def load_rounds(folders: list[Path], games: list[int]) -> dict[str, np.ndarray]:
    """The positions of the first ``games[i]`` games of round ``i``'s folder."""
    parts = []
    for folder, count in zip(folders, games, strict=True):
        for path in sorted(folder.glob("games-*.npz"))[: -(-count // CHUNK)]:
            with np.load(path) as data:
                if "states" in data.files:
                    parts.append({name: data[name] for name in data.files})
    offsets, shift = [np.array([0])], 0
    for part in parts:
        offsets.append(part["offsets"][1:] + shift)
        shift += int(part["offsets"][-1])
    return {
        "states": np.concatenate([p["states"] for p in parts]),
        "actions": np.concatenate([p["actions"] for p in parts]),
        "offsets": np.concatenate(offsets),
        "labels": np.concatenate([p["labels"] for p in parts]),
        "outcomes": np.concatenate([p["outcomes"] for p in parts]),
        "games": np.concatenate([p["games"] for p in parts]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--games", type=int, default=300, help="games of round 0")
    parser.add_argument(
        "--later-games", type=int, help="games of each later round (default: --games)"
    )
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument(
        "--teacher-iterations",
        type=int,
        default=HARD_ITERATIONS,
        help="the hard search's playouts for each label",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strength-deals", type=int, default=200)
    parser.add_argument("--work-dir", type=Path, default=Path(".training"))
    parser.add_argument("--out", type=Path, default=DISTILLED)
    parser.add_argument("--report", type=Path, default=Path("docs/training/distilled-2p-36.md"))
    args = parser.parse_args()
    if args.later_games is None:
        args.later_games = args.games
    started = time.time()
    checkpoints = []
    network_path: str | None = None
    folders: list[Path] = []
    for round_number in range(args.rounds):
        folder, played = games_of_round(args, round_number, network_path)
        folders.append(folder)
        data = load_rounds(folders, [games_in_round(args, r) for r in range(len(folders))])
        model, curves = fit(data, seed=args.seed + round_number, epochs=args.epochs)
        meta = {
            "seed": args.seed,
            "round": round_number,
            "played_now": played,
            "positions": int(len(data["labels"])),
            "games": int(len(np.unique(data["games"]))),
        }
        network = model.to_network(meta)
        checkpoint = folders[-1] / "policy.npz"
        network.save(checkpoint)
        network_path = str(checkpoint)
        strength = against_greedy(network_path, args.strength_deals, args.workers)
        checkpoints.append({**meta, "curves": curves.__dict__, "strength": strength})
        print(json.dumps({k: v for k, v in checkpoints[-1].items() if k != "curves"}), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    network.save(args.out)
    write_report(args, checkpoints, network, time.time() - started)


if __name__ == "__main__":
    main()
