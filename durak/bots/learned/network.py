"""The learned policy's network, evaluated with numpy alone.

Two small multilayer perceptrons over the encoding of ``features.py``:

- the **policy** scores each legal action: the position and the action go through one
  hidden layer together (the position's part is computed once per decision and shared
  by every action), then a second hidden layer and one output; a softmax over the legal
  actions' scores gives their probabilities;
- the **value** reads the position alone and gives the chance that the seat is not the
  fool.

The weights come from ``training/`` (a development tool the site never imports) as
one ``.npz`` file; its ``meta`` entry says which encoding they were trained for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .features import ACTION_SIZE, STATE_SIZE

# Bumped whenever ``features.py`` changes what a row means: older weights are refused.
ENCODING = 1

POLICY_ARRAYS = ("state_in", "action_in", "bias_in", "hidden", "bias_hidden", "out", "bias_out")
VALUE_ARRAYS = ("value_in", "value_bias_in", "value_out", "value_bias_out")


class WeightsError(ValueError):
    """A weights file that does not fit this encoding."""


@dataclass(frozen=True)
class Network:
    """The policy's and the value's weights, as float32 arrays."""

    arrays: dict[str, np.ndarray]
    meta: dict

    @classmethod
    def load(cls, path: Path | str) -> Network:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name].astype(np.float32) for name in data.files if name != "meta"}
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        if meta.get("encoding") != ENCODING:
            raise WeightsError(
                f"{path}: weights for encoding {meta.get('encoding')!r}, this code reads {ENCODING}"
            )
        missing = [n for n in POLICY_ARRAYS + VALUE_ARRAYS if n not in arrays]
        if missing:
            raise WeightsError(f"{path}: no {', '.join(missing)}")
        if arrays["state_in"].shape[0] != STATE_SIZE or arrays["action_in"].shape[0] != ACTION_SIZE:
            raise WeightsError(f"{path}: input sizes differ from the encoding's")
        return cls(arrays, meta)

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta)), **self.arrays)

    @property
    def size_bytes(self) -> int:
        return sum(a.nbytes for a in self.arrays.values())

    def action_scores(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The policy's score of each action row (higher is better; not normalised)."""
        w = self.arrays
        shared = state @ w["state_in"] + w["bias_in"]
        first = np.maximum(actions @ w["action_in"] + shared, 0.0)
        second = np.maximum(first @ w["hidden"] + w["bias_hidden"], 0.0)
        return second @ w["out"] + w["bias_out"]

    def probabilities(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        scores = self.action_scores(state, actions)
        scores = np.exp(scores - scores.max())
        return scores / scores.sum()

    def value(self, state: np.ndarray) -> float:
        """The chance, as the net sees it, that the seat is not the fool."""
        w = self.arrays
        hidden = np.maximum(state @ w["value_in"] + w["value_bias_in"], 0.0)
        logit = float(hidden @ w["value_out"] + w["value_bias_out"])
        return 1.0 / (1.0 + np.exp(-logit))
