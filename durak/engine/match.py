"""A match: a series of games at one table, with the fool dealing the next game."""

from __future__ import annotations

import random
from typing import Any

from .config import make_rng
from .game import Game
from .rules import Rules


class Match:
    """Plays games one after another and keeps the fool tally.

    Who deals and leads the next game:

    * the previous fool deals; with ``next_game_lead="left_of_fool"`` the player after
      the fool leads, with ``"fool_defends"`` the player before the fool attacks, so
      the fool defends first;
    * a team game whose losing team still has several players holding cards has no
      single fool: the first of them after the previous dealer deals;
    * after a draw (or a one-winner game with no winner) the previous dealer deals
      again and the lead follows from the dealer as if the dealer were the fool;
    * in a one-winner game the player after the winner deals and the winner leads.
    """

    def __init__(self, rules: Rules, rng_or_seed: random.Random | int | str | None = None) -> None:
        self.rules = rules
        self._rng = make_rng(rng_or_seed)
        self.games: list[Game] = []

    @property
    def current(self) -> Game | None:
        return self.games[-1] if self.games else None

    def new_game(self) -> Game:
        """Deal the next game (the previous one must be over)."""
        if self.games and not self.games[-1].is_over:
            raise ValueError("the current game is not over yet")
        if not self.games:
            g = Game.new(self.rules, self._rng)
        else:
            dealer, lead = self.next_deal()
            g = Game.new(self.rules, self._rng, dealer=dealer, first_attacker=lead)
        self.games.append(g)
        return g

    def next_deal(self) -> tuple[int, int]:
        """(dealer, first attacker) for the game after the last one."""
        prev = self.games[-1]
        r = prev.result
        assert r is not None
        n = self.rules.players
        if self.rules.one_winner and r["winner"] is not None:
            return (r["winner"] + 1) % n, r["winner"]
        dealer = r["fool"]
        if dealer is None and r["fool_team"] is not None:
            holders = [s for s in range(n) if prev.hands[s]]
            for i in range(1, n + 1):
                s = (prev.dealer + i) % n
                if s in holders:
                    dealer = s
                    break
        if dealer is None:
            dealer = prev.dealer
        if self.rules.next_game_lead == "fool_defends":
            return dealer, (dealer - 1) % n
        return dealer, (dealer + 1) % n

    def _tally(self, key: str, size: int) -> list[int]:
        """How many finished games named each seat (or team) as ``result[key]``."""
        counts = [0] * size
        for g in self.games:
            r = g.result
            if r is not None and r[key] is not None:
                counts[r[key]] += 1
        return counts

    @property
    def fool_counts(self) -> list[int]:
        """Games lost per seat (the fool, or the resigning player)."""
        return self._tally("fool", self.rules.players)

    @property
    def team_fool_counts(self) -> list[int] | None:
        return self._tally("fool_team", 2) if self.rules.teams else None

    @property
    def win_counts(self) -> list[int]:
        """One-winner games won per seat."""
        return self._tally("winner", self.rules.players)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.result is not None and g.result["draw"])

    def tally(self) -> dict[str, Any]:
        return {
            "games": len(self.games),
            "finished": sum(1 for g in self.games if g.is_over),
            "fools": self.fool_counts,
            "team_fools": self.team_fool_counts,
            "wins": self.win_counts,
            "draws": self.draws,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: finished games as records, the current one as a snapshot."""
        version, state, gauss = self._rng.getstate()
        games = [g.to_record() for g in self.games if g.is_over]
        cur = self.games[-1] if self.games and not self.games[-1].is_over else None
        return {
            "format": "durak-match/1",
            "rules": self.rules.to_dict(),
            "rng_state": [version, list(state), gauss],
            "games": games,
            "current": cur.snapshot() if cur is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        if not isinstance(data, dict) or data.get("format") != "durak-match/1":
            raise ValueError("match format must be 'durak-match/1'")
        m = cls(Rules.from_dict(data["rules"]))
        version, state, gauss = data["rng_state"]
        m._rng.setstate((version, tuple(state), gauss))
        m.games = [Game.from_record(r) for r in data["games"]]
        if data.get("current") is not None:
            m.games.append(Game.from_snapshot(data["current"]))
        return m
