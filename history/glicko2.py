"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): pure Python, no Django.

Each finished deal is one rating period for the players in it.  Ratings are on the
Glicko scale (1500 / 350); the internal Glicko-2 scale divides by 173.7178.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
# The system constant: how much the volatility may change in one period.
TAU = 0.5
EPSILON = 0.000001
# RD never falls below this, so a regular player's rating can still move.
MIN_RD = 30.0


@dataclass(frozen=True)
class Player:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Outcome:
    """One game against ``opponent``: score 1 win, 0.5 draw, 0 loss."""

    opponent: Player
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    # Step 5 of the paper: the Illinois variant of regula falsi on f(x) = 0.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Player, outcomes: Iterable[Outcome], tau: float = TAU, min_rd: float = 0.0
) -> Player:
    """The player's rating after one period with these games (none: only RD grows)."""
    games = list(outcomes)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Player(player.rating, min(DEFAULT_RD, phi_star * SCALE), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for game in games:
        mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = game.opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (game.score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    new_rd = max(min_rd, min(DEFAULT_RD, new_phi * SCALE))
    return Player(new_mu * SCALE + DEFAULT_RATING, new_rd, new_sigma)


def composite(players: Iterable[Player]) -> Player:
    """A team as one player: the mean rating, the root mean square RD and the mean volatility."""
    members = list(players)
    if not members:
        raise ValueError("a team needs at least one player")
    n = len(members)
    return Player(
        sum(p.rating for p in members) / n,
        math.sqrt(sum(p.rd * p.rd for p in members) / n),
        sum(p.volatility for p in members) / n,
    )
