"""A policy learned from the search's own decisions, evaluated with numpy.

``features`` turns a seat's Knowledge and its legal actions into numbers, ``network``
holds the weights and scores actions, ``bot`` plays with them. The weights are made by
``training/`` (see docs/bots.md, "The learned policy").
"""

from .bot import LearnedBot, default_network
from .features import covers
from .network import Network, WeightsError

__all__ = ["LearnedBot", "Network", "WeightsError", "covers", "default_network"]
