"""How much of the opponent's hidden hand ``hard``'s dealer gets right, in seconds.

Usage (from the repository root)::

    .venv/bin/python benchmarks/inference_quality.py --first-deal 990000 --deals 40

A strength run takes an hour and moves by a point at most; this asks the dealer
directly. ``medium`` plays ``greedy`` in 2-player 36-card podkidnoy, every deal twice
(seats swapped). At each of ``medium``'s decisions while the talon lasts and the
opponent holds cards nobody has seen, every dealer deals ``--samples`` games from
``medium``'s Knowledge, and the report gives the share of the opponent's hidden cards
(and of its hidden trumps) that the dealt games put in its hand, averaged over the
positions:

* ``uniform``: hidden cards dealt at random (``Knowledge.determinize``);
* ``inference``: dealt by ``Inference``, as ``hard`` deals them.

Dealing the real hand would score 100%. ``benchmarks/strength_bounds.py`` gives what
that would be worth in games.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from strength_bounds import AtRandom  # noqa: E402

from durak.bots import fast  # noqa: E402
from durak.bots.greedy import greedy_move  # noqa: E402
from durak.bots.inference import Inference  # noqa: E402
from durak.bots.search import Sampler  # noqa: E402
from durak.engine import SUIT_MASK, SUITS, Game, Knowledge, Rules  # noqa: E402

DEALERS: dict[str, Callable[[Knowledge], Sampler]] = {
    "uniform": AtRandom,
    "inference": Inference.of,
}


def positions(first: int, deals: int) -> list[tuple[Knowledge, int, int]]:
    """(medium's Knowledge, the opponent, the opponent's hidden cards as a mask)."""
    rules = Rules(players=2)
    out = []
    for deal in range(first, first + deals):
        for me in (0, 1):
            game = Game.new(rules, f"2p-podkidnoy:{deal}")
            rng = random.Random(deal)
            while not game.is_over:
                seat = fast.decider(game)
                acts = fast.legal(game, seat)
                if seat == me:
                    knowledge = game.knowledge(me)
                    opponent = 1 - me
                    hidden = game.hand_mask(opponent) & ~knowledge.known[opponent]
                    if game.talon_count and len(acts) > 1 and hidden:
                        out.append((knowledge, opponent, hidden))
                    action = fast.medium_move(game, seat, acts, rng)
                elif len(acts) == 1:
                    action = acts[0]
                else:
                    action = greedy_move(game, seat, acts, rng)
                game.apply(action)
    return out


def shares(
    found: list[tuple[Knowledge, int, int]],
    dealer: Callable[[Knowledge], Sampler],
    samples: int,
    seed: int,
) -> tuple[float, float, float]:
    """Mean share of hidden cards placed right, of hidden trumps, and CPU ms a position."""
    rng = random.Random(seed)
    cards = trumps = 0.0
    with_trumps = 0
    start = time.process_time()
    for knowledge, opponent, hidden in found:
        sampler = dealer(knowledge)
        hidden_trumps = hidden & SUIT_MASK[SUITS.index(knowledge.trump[1])]
        right = right_trumps = 0
        for _ in range(samples):
            hand = sampler.deal(rng).hand_mask(opponent)
            right += (hand & hidden).bit_count()
            right_trumps += (hand & hidden_trumps).bit_count()
        cards += right / samples / hidden.bit_count()
        if hidden_trumps:
            trumps += right_trumps / samples / hidden_trumps.bit_count()
            with_trumps += 1
    cpu = 1000 * (time.process_time() - start) / len(found)
    return cards / len(found), trumps / max(1, with_trumps), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first-deal", type=int, default=990000)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--samples", type=int, default=30, help="dealt games a position")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    found = positions(args.first_deal, args.deals)
    last = args.first_deal + args.deals - 1
    print(f"{len(found)} positions, deals {args.first_deal}-{last}, {args.samples} deals each")
    print("| dealer | hidden cards placed right | hidden trumps placed right | CPU ms a position |")
    print("| --- | ---: | ---: | ---: |")
    for name, dealer in DEALERS.items():
        cards, trumps, cpu = shares(found, dealer, args.samples, args.seed)
        print(f"| {name} | {100 * cards:.1f}% | {100 * trumps:.1f}% | {cpu:.1f} |")


if __name__ == "__main__":
    main()
