"""Positions for the learned policy, each labelled with the hard search's choice.

A game is played to its end; at each decision of a *learner* seat that has two or more
legal actions the hard search (at the live bot's budget, reproducible) is asked what
it would play, and the position, the legal actions and that choice are kept. Who
plays the learner seat's moves depends on the round: in the first round the search's
own choice (the search's games), in later rounds the policy trained so far, drawing by
its probabilities (so the positions are the ones the policy itself reaches: dataset
aggregation). Every kept position also gets the game's outcome for that seat, which
trains the value.

Each game depends on its seed alone, so a run is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from durak.bots import Budget, fast, get_bot
from durak.bots.base import rebuild
from durak.bots.learned import LearnedBot, Network
from durak.bots.learned.features import encode_actions, encode_state
from durak.engine import Game, Rules

# The teacher: the hard search at the live bot's playouts, unless a run asks for fewer
# (cheaper labels, so more games in the same hours).
HARD_ITERATIONS = 600
OPPONENTS = ("hard", "medium", "greedy", "easy")
RULES = {"podkidnoy": Rules(players=2), "perevodnoy": Rules(players=2, mode="perevodnoy")}


@dataclass
class Samples:
    """Kept positions: rows of states, the legal actions' rows (``offsets`` says where
    each position's start), the label's index among them, and the seat's outcome."""

    states: list[np.ndarray]
    actions: list[np.ndarray]
    labels: list[int]
    outcomes: list[float]
    games: list[int]

    @classmethod
    def empty(cls) -> Samples:
        return cls([], [], [], [], [])

    def extend(self, other: Samples) -> None:
        self.states += other.states
        self.actions += other.actions
        self.labels += other.labels
        self.outcomes += other.outcomes
        self.games += other.games

    def arrays(self) -> dict[str, np.ndarray]:
        counts = np.array([len(a) for a in self.actions], dtype=np.int64)
        return {
            "states": np.stack(self.states).astype(np.float32),
            "actions": np.concatenate(self.actions).astype(np.float32),
            "offsets": np.concatenate([[0], np.cumsum(counts)]),
            "labels": np.array(self.labels, dtype=np.int64),
            "outcomes": np.array(self.outcomes, dtype=np.float32),
            "games": np.array(self.games, dtype=np.int64),
        }


def outcome_for(game: Game, seat: int) -> float:
    fool = game.result["fool"]
    if fool is None:
        return 0.5
    return 0.0 if fool == seat else 1.0


def play_one(
    game_seed: int, network_path: str | None, teacher_iterations: int = HARD_ITERATIONS
) -> Samples:
    """One game of seed ``game_seed``: the learner at a seat the seed picks, against an
    opponent level the seed picks (in later rounds the learner may face itself)."""
    pick = random.Random(game_seed)
    mode = pick.choice(sorted(RULES))
    learner_seat = pick.randrange(2)
    opponent = pick.choice(OPPONENTS)
    rng = random.Random(game_seed * 7919 + 1)
    search_budget = Budget(iterations=teacher_iterations, reproducible=True)
    hard = get_bot("hard")
    policy = LearnedBot(Network.load(network_path), sample=True) if network_path else None
    learners = {learner_seat} | ({1 - learner_seat} if opponent == "hard" else set())
    game = Game.new(RULES[mode], f"training:{game_seed}")
    kept = Samples.empty()
    seats: list[int] = []
    for _ in range(5000):
        if game.is_over:
            break
        seat = fast.decider(game)
        knowledge = game.knowledge(seat)
        if seat in learners:
            # The legal actions as the policy lists them (on the game rebuilt from the
            # seat's knowledge), so a label's index means the same at play time.
            view = rebuild(knowledge)
            legal = fast.legal(view, seat)
            label = hard.choose_action(knowledge, rng, search_budget)
            if len(legal) > 1 and label in legal:
                kept.states.append(encode_state(knowledge, view))
                kept.actions.append(encode_actions(legal, view.trump_suit_index))
                kept.labels.append(legal.index(label))
                kept.games.append(game_seed)
                seats.append(seat)
            action = label if policy is None else policy.choose_action(knowledge, rng)
        else:
            action = get_bot(opponent).choose_action(knowledge, rng, search_budget)
        game.apply(action)
    if not game.is_over:  # cut off by the move cap: no outcome to learn from
        return Samples.empty()
    kept.outcomes = [outcome_for(game, s) for s in seats]
    return kept
