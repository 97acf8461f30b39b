"""The second stage: the distilled policy learns from how its own games end.

``python -m training.outcomes --start DISTILLED.npz --seed 1`` plays rounds of games in
which the policy draws its moves by its own probabilities, against itself, ``medium``
or ``easy`` (never ``greedy``, the yardstick its strength is measured against), and
after each round takes policy-gradient steps: every move it drew is made more likely
by how much better the game ended for its seat than the value head expected (the
value is the baseline, and learns the outcomes too). Positions the bot's endgame solver
plays are not learned. Every round depends on its seeds and the weights before it, so
the same start, seed and options give the same weights.

Writes the weights (``--out``) and a report (``--report``, a Markdown page and a PNG):
the learner's mean outcome per round, and the network alone against ``greedy`` at
checkpoints.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from pathlib import Path

import numpy as np
import torch

from durak.bots import endgame, fast, get_bot
from durak.bots.base import rebuild
from durak.bots.learned import LearnedBot, Network
from durak.bots.learned.bot import WEIGHTS
from durak.bots.learned.features import encode_actions, encode_state
from durak.engine import Game

from .fit import PolicyValue
from .outcomes_report import write_report
from .selfplay import RULES, outcome_for
from .strength import against_greedy

OPPONENTS = ("self", "medium", "easy")
# Game seeds of this stage start here (the distillation's are seed * 10**7 + round * 10**6).
FIRST_GAME = 5_000_000


def play_games(task: tuple[str, int, int]) -> dict[str, np.ndarray]:
    """Games ``first``..``first + count - 1`` with the weights at ``path``: every move
    the policy drew (its position, its legal actions, which one) and how the game ended
    for that seat."""
    path, first, count = task
    network = Network.load(path)
    solver = LearnedBot(network)
    states, actions, counts, chosen, outcomes = [], [], [], [], []
    for game_seed in range(first, first + count):
        pick = random.Random(game_seed)
        mode = pick.choice(sorted(RULES))
        opponent = pick.choice(OPPONENTS)
        learners = {0, 1} if opponent == "self" else {pick.randrange(2)}
        rng = random.Random(game_seed * 7919 + 3)
        game = Game.new(RULES[mode], f"outcomes:{game_seed}")
        drawn: list[tuple[np.ndarray, np.ndarray, int, int]] = []
        for _ in range(5000):
            if game.is_over:
                break
            seat = fast.decider(game)
            knowledge = game.knowledge(seat)
            if seat not in learners:
                action = get_bot(opponent).choose_action(knowledge, rng)
            else:
                view = rebuild(knowledge)
                legal = fast.legal(view, seat)
                if len(legal) < 2 or endgame.applicable(view):
                    action = solver.choose_action(knowledge, rng)
                else:
                    state = encode_state(knowledge, view)
                    rows = encode_actions(legal, view.trump_suit_index)
                    p = network.probabilities(state, rows)
                    index = rng.choices(range(len(legal)), weights=p.tolist())[0]
                    drawn.append((state, rows, index, seat))
                    action = legal[index]
            game.apply(action)
        if not game.is_over:  # cut off by the move cap: no outcome to learn from
            continue
        for state, rows, index, seat in drawn:
            states.append(state)
            actions.append(rows)
            counts.append(len(rows))
            chosen.append(index)
            outcomes.append(outcome_for(game, seat))
    return {
        "states": np.stack(states).astype(np.float32),
        "actions": np.concatenate(actions).astype(np.float32),
        "counts": np.array(counts, dtype=np.int64),
        "chosen": np.array(chosen, dtype=np.int64),
        "outcomes": np.array(outcomes, dtype=np.float32),
    }


def gradient_step(model: PolicyValue, optimiser: torch.optim.Optimizer, data: dict) -> None:
    """One step on a round's moves: the policy gradient with the value as baseline,
    and the value's binary cross-entropy."""
    counts = torch.from_numpy(data["counts"])
    n = len(counts)
    owner = torch.repeat_interleave(torch.arange(n), counts)
    first = torch.cumsum(counts, 0) - counts
    states = torch.from_numpy(data["states"])
    scores = model.scores(states, torch.from_numpy(data["actions"]), owner)
    top = torch.zeros(n).scatter_reduce(0, owner, scores, "amax", include_self=False)
    norm = torch.zeros(n).index_add(0, owner, torch.exp(scores - top[owner])).log() + top
    log_p = scores[first + torch.from_numpy(data["chosen"])] - norm
    outcomes = torch.from_numpy(data["outcomes"])
    value_logit = model.value_logit(states)
    advantage = (outcomes - torch.sigmoid(value_logit)).detach()
    value_loss = torch.nn.functional.binary_cross_entropy_with_logits(value_logit, outcomes)
    loss = -(advantage * log_p).mean() + value_loss
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=Path, required=True, help="the distilled weights")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=370)
    parser.add_argument("--games", type=int, default=400, help="games a round")
    parser.add_argument("--steps", type=int, default=2, help="gradient steps a round")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--check-every", type=int, default=50)
    parser.add_argument("--strength-deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work-dir", type=Path, default=Path(".training"))
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--report", type=Path, default=Path("docs/training/outcomes-2p-36.md"))
    args = parser.parse_args()
    started = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    network = Network.load(args.start)
    model = PolicyValue.from_network(network)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    current = args.work_dir / f"seed{args.seed}" / "outcomes-current.npz"
    current.parent.mkdir(parents=True, exist_ok=True)
    network.save(current)
    latest = network
    meta = {**network.meta, "outcome_rounds": args.rounds, "outcome_seed": args.seed}
    history: dict[str, list] = {"mean_outcome": [], "moves": [], "checkpoints": []}
    checkpoint = {
        "round": 0,
        "strength": against_greedy(str(current), args.strength_deals, args.workers),
    }
    history["checkpoints"].append(checkpoint)
    print(checkpoint, flush=True)
    first_game = args.seed * 10_000_000 + FIRST_GAME
    share = -(-args.games // args.workers)
    with mp.get_context("fork").Pool(args.workers) as pool:
        for round_number in range(1, args.rounds + 1):
            start = first_game + (round_number - 1) * args.games
            tasks = [
                (str(current), s, min(share, start + args.games - s))
                for s in range(start, start + args.games, share)
            ]
            parts = pool.map(play_games, tasks)
            data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            for _ in range(args.steps):
                gradient_step(model, optimiser, data)
            latest = model.to_network({**meta, "outcome_round": round_number})
            latest.save(current)
            history["mean_outcome"].append(float(data["outcomes"].mean()))
            history["moves"].append(len(data["chosen"]))
            if round_number % args.check_every == 0 or round_number == args.rounds:
                strength = against_greedy(str(current), args.strength_deals, args.workers)
                history["checkpoints"].append({"round": round_number, "strength": strength})
                print(history["checkpoints"][-1], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    latest.save(args.out)
    write_report(args, history, latest, time.time() - started)


if __name__ == "__main__":
    main()
