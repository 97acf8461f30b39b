"""The calibration of the review's chances: the slope that makes them mean what they say.

Reads the games and the seed-1 analyses of this tree that ``benchmarks/review_quality.py
--keep DIR`` kept, and fits, on every other pair of games (one of each pairing),
the one number of ``durak.bots.analysis.calibrated``: a chance p shown as
sigmoid(slope x logit(p)), p taken within 1..99 points, by the greatest likelihood of the
share each seat really got (1 not the fool, 0 the fool, a half each in a draw).  Then it
prints, on the other games only, the reliability table of the judge's own chances and of
the chances so calibrated, with the log loss of each.

An analysis made with a slope already (its ``calibration`` field) is taken back to the
judge's own chances first, so a later run refits from the same footing.

    .venv/bin/python benchmarks/review_calibration.py DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from durak.bots.analysis import CALIBRATION_EDGE as EDGE  # noqa: E402


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, EDGE, 1 - EDGE)
    return np.log(p / (1 - p))


def points_of(keep: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's chance at every step but the last (the judge's own, 0..1), the share
    it really got, and the game's seed."""
    chances, shares, order = [], [], []
    for path in sorted(keep.glob("new-*-seed1.json")):
        seed = int(path.name.split("-")[1])
        record = json.loads((keep / f"game-{seed}.json").read_text())
        result = json.loads(path.read_text())["result"]
        slope = result.get("calibration") or 1.0
        fool = record["result"]["fool"]
        share = 0.5 if fool is None else float(fool != 0)
        for point in result["chances"][:-1]:
            shown = np.array(point[0] / 100)
            chance = float(1 / (1 + np.exp(-logit(shown) / slope)))
            # Both seats' points: seat 1's are seat 0's mirrored.
            chances += [chance, 1 - chance]
            shares += [share, 1 - share]
            order += [seed, seed]
    return np.array(chances), np.array(shares), np.array(order)


def fit_slope(x: np.ndarray, y: np.ndarray) -> float:
    """The slope of the greatest likelihood, by Newton's method (one parameter)."""
    slope = 1.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-slope * x))
        gradient = np.sum((y - p) * x)
        curvature = np.sum(p * (1 - p) * x * x)
        slope += gradient / curvature
    return float(slope)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def table(p: np.ndarray, y: np.ndarray) -> None:
    print("| chance given | positions | mean chance given | real share |")
    print("| --- | ---: | ---: | ---: |")
    tenths = np.minimum(9, (p * 100 // 10).astype(int))
    for tenth in range(10):
        band = tenths == tenth
        if band.any():
            print(
                f"| {10 * tenth}-{10 * tenth + 10}% | {int(band.sum())} "
                f"| {100 * p[band].mean():.0f}% | {100 * y[band].mean():.0f}% |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keep", type=Path, help="the folder review_quality.py --keep wrote")
    args = parser.parse_args()
    chances, shares, order = points_of(args.keep)
    seeds = sorted(set(order.tolist()))
    # The games were played in pairs (hard against medium, then hard against hard): every
    # other pair is fitted, so both halves hold both pairings.
    fitting = [seed for i, seed in enumerate(seeds) if i // 2 % 2 == 0]
    fitted = np.isin(order, fitting)
    x = logit(chances)
    slope = fit_slope(x[fitted], shares[fitted])
    held = ~fitted
    print(f"slope {slope:.3f}, fitted on {len(fitting)} games ({int(fitted.sum())} points)")
    print(f"checked on the other {len(seeds) - len(fitting)} games ({int(held.sum())} points)\n")
    mapped = 1 / (1 + np.exp(-slope * x))
    for name, p in (("the judge's own chances", chances), ("calibrated", mapped)):
        print(f"{name}: log loss {log_loss(p[held], shares[held]):.3f}\n")
        table(p[held], shares[held])
        print()


if __name__ == "__main__":
    main()
