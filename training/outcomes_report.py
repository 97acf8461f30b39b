"""The report of the outcome stage: a Markdown page and its curve as a PNG beside it."""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from durak.bots.learned import Network  # noqa: E402

from .strength import FIRST_DEAL  # noqa: E402


def command_line(args: argparse.Namespace) -> str:
    """The options that decide the weights, as the command that wrote them."""
    return " ".join(
        [
            f"--start {args.start}",
            f"--seed {args.seed}",
            f"--rounds {args.rounds}",
            f"--games {args.games}",
            f"--steps {args.steps}",
            f"--learning-rate {args.learning_rate}",
            f"--workers {args.workers}",
        ]
    )


def write_report(args: argparse.Namespace, history: dict, network: Network, seconds: float) -> None:
    png = args.report.with_suffix(".png")
    args.report.parent.mkdir(parents=True, exist_ok=True)
    means = np.array(history["mean_outcome"])
    window = min(20, len(means))
    smooth = np.convolve(means, np.ones(window) / window, mode="valid")
    figure, (outcome, strength) = plt.subplots(1, 2, figsize=(10, 4))
    outcome.plot(range(1, len(means) + 1), means, alpha=0.3, label="each round")
    outcome.plot(range(window, len(means) + 1), smooth, label=f"mean of {window} rounds")
    outcome.set(xlabel="round", ylabel="mean outcome", title="The learner's games")
    outcome.legend(fontsize=7)
    checks = history["checkpoints"]
    strength.errorbar(
        [c["round"] for c in checks],
        [c["strength"]["rate"] for c in checks],
        yerr=[
            [c["strength"]["rate"] - c["strength"]["low"] for c in checks],
            [c["strength"]["high"] - c["strength"]["rate"] for c in checks],
        ],
        fmt="o-",
    )
    strength.set(xlabel="round", ylabel="share of decided games", title="Against greedy")
    figure.tight_layout()
    figure.savefig(png, dpi=90)
    rows = "\n".join(
        f"| {c['round']} | {c['strength']['rate']:.1%} "
        f"({c['strength']['low']:.1%}-{c['strength']['high']:.1%}) | {c['strength']['decided']} |"
        for c in checks
    )
    args.report.write_text(
        f"""# Training report: {args.out.name}, the outcome stage

Written by `python -m training.outcomes {command_line(args)}`
in {seconds / 60:.0f} minutes: {len(means):,} rounds of {args.games:,} games,
{sum(history["moves"]):,} moves drawn by the policy and learnt from. The weights take
{network.size_bytes / 1024:.0f} KB as float32.

The mean outcome is the learner's (1 not the fool, 0 the fool) over a round's games
against itself, `medium` and `easy`, with the moves drawn by the policy's
probabilities. Strength: duplicate games against `greedy` on deals
{FIRST_DEAL}-{FIRST_DEAL + args.strength_deals - 1}, the network alone choosing the action it
scores highest (without the bot's endgame solver), after the round.

| round | wins against greedy (95%) | decided |
| ---: | --- | ---: |
{rows}

![Mean outcome and strength]({png.name})
"""
    )
