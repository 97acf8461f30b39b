"""The learned bot: one pass of the policy network a decision, and an exact endgame.

It plays the rules the weights were trained for (``features.covers``); at any other
table it plays as its fallback level does, and ``covers`` says so beforehand. Once
every hidden card is in the one opponent's hand (``endgame.applicable``) it asks the
exact solver first, as the hard search does, within a node cap that keeps the move
cheap; a position the cap does not settle, or a lost one, is left to the network.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from durak.engine import Action, Knowledge

from .. import endgame, fast
from ..base import Budget, rebuild
from ..levels import PolicyBot
from .features import covers, encode_actions, encode_state
from .network import Network

WEIGHTS = Path(__file__).with_name("weights") / "policy-2p-36.npz"
FALLBACK = "medium"
# Positions the exact solver may visit for one move: about 20 ms of CPU at most.
SOLVER_NODES = 1_000


@cache
def default_network() -> Network:
    """The committed weights, read once per process."""
    return Network.load(WEIGHTS)


class LearnedBot:
    """Chooses the legal action the policy scores highest (``sample=True``: draws one by
    the policy's probabilities instead); ``solver_nodes`` caps the exact endgame (0: the
    network alone)."""

    level = "learned"

    def __init__(
        self,
        network: Network | None = None,
        *,
        sample: bool = False,
        solver_nodes: int = SOLVER_NODES,
    ) -> None:
        self._network = network
        self.sample = sample
        self.solver_nodes = solver_nodes
        self.fallback = PolicyBot(FALLBACK)

    @property
    def network(self) -> Network:
        return self._network or default_network()

    def covers(self, knowledge: Knowledge) -> bool:
        return covers(knowledge.rules)

    def choose_action(
        self, knowledge: Knowledge, rng: random.Random, budget: Budget | None = None
    ) -> Action | None:
        if not covers(knowledge.rules):
            return self.fallback.choose_action(knowledge, rng, budget)
        game = rebuild(knowledge)
        seat = knowledge.seat
        if fast.decider(game) != seat:
            return None
        actions = fast.legal(game, seat)
        if len(actions) <= 1:
            return actions[0] if actions else None
        if self.solver_nodes and endgame.applicable(game):
            solved = endgame.solve(game, seat, max_nodes=self.solver_nodes)
            if solved is not None and solved[0] is not None:
                return solved[0]
        state = encode_state(knowledge, game)
        rows = encode_actions(actions, game.trump_suit_index)
        if self.sample:
            p = self.network.probabilities(state, rows)
            return actions[rng.choices(range(len(actions)), weights=p.tolist())[0]]
        return actions[int(self.network.action_scores(state, rows).argmax())]

    def __repr__(self) -> str:
        return "<learned bot>"
