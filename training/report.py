"""The training report: a Markdown page and the loss curves as a PNG beside it."""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from durak.bots.learned import Network  # noqa: E402

from .strength import FIRST_DEAL  # noqa: E402


def command_line(args: argparse.Namespace) -> str:
    """The options that decide the weights, as the command that wrote them."""
    words = [f"--seed {args.seed}", f"--rounds {args.rounds}", f"--games {args.games}"]
    if args.later_games != args.games:
        words.append(f"--later-games {args.later_games}")
    words += [
        f"--teacher-iterations {args.teacher_iterations}",
        f"--epochs {args.epochs}",
        f"--workers {args.workers}",
        f"--strength-deals {args.strength_deals}",
    ]
    return " ".join(words)


def write_report(
    args: argparse.Namespace, checkpoints: list[dict], network: Network, seconds: float
) -> None:
    png = args.report.with_suffix(".png")
    args.report.parent.mkdir(parents=True, exist_ok=True)
    figure, (losses, agreement) = plt.subplots(1, 2, figsize=(10, 4))
    for c in checkpoints:
        curves, r = c["curves"], c["round"]
        losses.plot(curves["train_policy"], label=f"round {r}: policy, training")
        losses.plot(curves["held_policy"], "--", label=f"round {r}: policy, held out")
        agreement.plot(curves["held_agreement"], label=f"round {r}")
    losses.set(xlabel="epoch", ylabel="cross-entropy", title="Policy loss")
    agreement.set(xlabel="epoch", ylabel="share", title="Held-out positions: search's move on top")
    losses.legend(fontsize=7)
    agreement.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(png, dpi=90)
    rows = "\n".join(
        f"| {c['round']} | {c['games']:,} | {c['positions']:,} | "
        f"{c['curves']['best_epoch']} | "
        f"{c['curves']['held_policy'][c['curves']['best_epoch']]:.3f} | "
        f"{c['curves']['held_agreement'][c['curves']['best_epoch']]:.1%} | "
        f"{c['curves']['held_value'][c['curves']['best_epoch']]:.3f} | "
        f"{c['strength']['rate']:.1%} ({c['strength']['low']:.1%}-{c['strength']['high']:.1%}) "
        f"of {c['strength']['decided']} |"
        for c in checkpoints
    )
    args.report.write_text(
        f"""# Training report: {args.out.name}

Written by `python -m training {command_line(args)}`
in {seconds / 60:.0f} minutes, which played {sum(c["played_now"] for c in checkpoints):,} games
and reused the rest from earlier runs of the same command (kept under `.training/`:
a game depends on its seed alone). The weights take {network.size_bytes / 1024:.0f} KB as float32.

Round 0 plays {args.games:,} games and each later round {args.later_games:,}; the fit after it starts afresh on all positions so
far, and keeps the epoch with the lowest held-out policy loss. "Held out" is a tenth
of the games, never fitted; the figures are the kept epoch's. Strength: duplicate games against
`greedy` on deals {FIRST_DEAL}-{FIRST_DEAL + args.strength_deals - 1}, the learned bot choosing
the action it scores highest (the network alone, without the bot's endgame solver).

| round | games | positions | epoch kept | held-out policy loss | search's move on top | held-out value loss | wins against greedy (95%) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
{rows}

![Loss curves]({png.name})
"""
    )
