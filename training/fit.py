"""Fitting the policy and value networks to labelled positions, with PyTorch (CPU).

The model mirrors ``durak.bots.learned.network.Network`` layer for layer, so the
fitted tensors are written out as that class's numpy arrays and the site never needs
PyTorch. The policy's loss is the cross-entropy of the search's choice among each
position's legal actions; the value's, the binary cross-entropy of the seat's outcome.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from durak.bots.learned.features import ACTION_SIZE, STATE_SIZE
from durak.bots.learned.network import ENCODING, Network

HIDDEN = 192
SECOND = 64
VALUE_HIDDEN = 64


class PolicyValue(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.state_in = nn.Linear(STATE_SIZE, HIDDEN)
        self.action_in = nn.Linear(ACTION_SIZE, HIDDEN, bias=False)
        self.hidden = nn.Linear(HIDDEN, SECOND)
        self.out = nn.Linear(SECOND, 1)
        self.value_in = nn.Linear(STATE_SIZE, VALUE_HIDDEN)
        self.value_out = nn.Linear(VALUE_HIDDEN, 1)

    def scores(self, states: torch.Tensor, actions: torch.Tensor, owner: torch.Tensor):
        shared = self.state_in(states)[owner]
        first = torch.relu(self.action_in(actions) + shared)
        return self.out(torch.relu(self.hidden(first))).squeeze(-1)

    def value_logit(self, states: torch.Tensor) -> torch.Tensor:
        return self.value_out(torch.relu(self.value_in(states))).squeeze(-1)

    @classmethod
    def from_network(cls, network: Network) -> PolicyValue:
        """A model holding ``network``'s weights, to train further."""
        model = cls()
        w = {name: torch.from_numpy(array) for name, array in network.arrays.items()}
        pairs = [
            (model.state_in, "state_in", "bias_in"),
            (model.action_in, "action_in", None),
            (model.hidden, "hidden", "bias_hidden"),
            (model.out, "out", "bias_out"),
            (model.value_in, "value_in", "value_bias_in"),
            (model.value_out, "value_out", "value_bias_out"),
        ]
        with torch.no_grad():
            for layer, weight, bias in pairs:
                layer.weight.copy_(w[weight].reshape(layer.weight.T.shape).T)
                if bias is not None:
                    layer.bias.copy_(w[bias].reshape(layer.bias.shape))
        return model

    def to_network(self, meta: dict) -> Network:
        def t(layer: nn.Linear) -> np.ndarray:
            return layer.weight.detach().numpy().T.copy()

        def b(layer: nn.Linear) -> np.ndarray:
            return layer.bias.detach().numpy().copy()

        arrays = {
            "state_in": t(self.state_in),
            "action_in": t(self.action_in),
            "bias_in": b(self.state_in),
            "hidden": t(self.hidden),
            "bias_hidden": b(self.hidden),
            "out": t(self.out)[:, 0],
            "bias_out": b(self.out).reshape(()),
            "value_in": t(self.value_in),
            "value_bias_in": b(self.value_in),
            "value_out": t(self.value_out)[:, 0],
            "value_bias_out": b(self.value_out).reshape(()),
        }
        return Network(arrays, {**meta, "encoding": ENCODING})


@dataclass
class Curves:
    """Per epoch: the training losses and the held-out losses and accuracy."""

    train_policy: list[float] = field(default_factory=list)
    train_value: list[float] = field(default_factory=list)
    held_policy: list[float] = field(default_factory=list)
    held_value: list[float] = field(default_factory=list)
    held_agreement: list[float] = field(default_factory=list)
    best_epoch: int = 0  # the epoch whose model is kept (counted from 0)


def _batch(data: dict[str, np.ndarray], rows: np.ndarray):
    """The tensors of positions ``rows``: their states, all their actions, which
    position owns each action, where each position's actions start, and the labels."""
    offsets = data["offsets"]
    starts, ends = offsets[rows], offsets[rows + 1]
    counts = ends - starts
    take = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)])
    owner = np.repeat(np.arange(len(rows)), counts)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return (
        torch.from_numpy(data["states"][rows]),
        torch.from_numpy(data["actions"][take]),
        torch.from_numpy(owner),
        torch.from_numpy(first),
        torch.from_numpy(counts),
        torch.from_numpy(first + data["labels"][rows]),
        torch.from_numpy(data["outcomes"][rows]),
    )


def _losses(model: PolicyValue, batch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    states, actions, owner, _first, _counts, label_rows, outcomes = batch
    scores = model.scores(states, actions, owner)
    # A softmax per position: log-sum-exp over each position's own actions.
    top = torch.zeros(len(states)).scatter_reduce(0, owner, scores, "amax", include_self=False)
    exp = torch.exp(scores - top[owner])
    norm = torch.zeros(len(states)).index_add(0, owner, exp).log() + top
    policy = (norm - scores[label_rows]).mean()
    best = torch.full((len(states),), -math.inf).scatter_reduce(0, owner, scores, "amax")
    agreement = (scores[label_rows] >= best).float().mean()
    value = nn.functional.binary_cross_entropy_with_logits(model.value_logit(states), outcomes)
    return policy, value, agreement


def fit(
    data: dict[str, np.ndarray],
    seed: int,
    epochs: int = 30,
    batch_size: int = 256,
    held_out_share: float = 0.1,
    learning_rate: float = 1e-3,
) -> tuple[PolicyValue, Curves]:
    """Fit a fresh model; the held-out positions are whole games (by game seed). The
    model returned is the one of the epoch with the lowest held-out policy loss: on a
    few thousand games the net soon learns the training games by heart and plays worse
    (early stopping; the curves show every epoch)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    games = np.unique(data["games"])
    held_games = rng.choice(games, size=max(1, int(len(games) * held_out_share)), replace=False)
    held = np.flatnonzero(np.isin(data["games"], held_games))
    train = np.flatnonzero(~np.isin(data["games"], held_games))
    model = PolicyValue()
    optimiser = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=1e-5)
    curves = Curves()
    held_batch = _batch(data, held)
    best_loss, best_state = math.inf, copy.deepcopy(model.state_dict())
    for _ in range(epochs):
        model.train()
        order = rng.permutation(train)
        totals = [0.0, 0.0]
        for start in range(0, len(order), batch_size):
            batch = _batch(data, order[start : start + batch_size])
            policy, value, _ = _losses(model, batch)
            optimiser.zero_grad()
            (policy + value).backward()
            optimiser.step()
            totals[0] += policy.item() * len(batch[0])
            totals[1] += value.item() * len(batch[0])
        curves.train_policy.append(totals[0] / len(train))
        curves.train_value.append(totals[1] / len(train))
        model.eval()
        with torch.no_grad():
            policy, value, agreement = _losses(model, held_batch)
        curves.held_policy.append(float(policy))
        curves.held_value.append(float(value))
        curves.held_agreement.append(float(agreement))
        if float(policy) < best_loss:
            best_loss, best_state = float(policy), copy.deepcopy(model.state_dict())
    curves.best_epoch = curves.held_policy.index(best_loss)
    model.load_state_dict(best_state)
    return model, curves
