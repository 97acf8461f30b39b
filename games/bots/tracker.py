"""Replay a game's public history: table, hand counts and talon after every action.

A seat's Knowledge holds the public actions but only the present state. Inference needs
the past too (what lay on the table when a player took, how many cards it drew since),
so ``PublicTracker`` replays the actions, keeping counts where the engine keeps cards. The
bout rules themselves (who defends, who may throw in, the limit, when a bout is over, the
drawing order) are the engine's own, from ``games.engine.seats``. It sees only what every
player sees, so it reads nothing hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.engine import Action, Rules
from games.engine.config import config_for
from games.engine.seats import (
    bout_is_over,
    bout_limit,
    drawing_order,
    eligible_attackers,
    next_in_game,
    next_opponent,
)


class PublicTracker:
    """Public state of a game, advanced one action at a time with ``step``."""

    def __init__(self, rules: Rules, first_attacker: int) -> None:
        n = rules.players
        self.rules = rules
        self.config = config_for(rules)
        self.n = n
        self.counts = [rules.hand_size] * n
        self.drawn = [0] * n  # cards each seat drew from the talon after the deal
        self.talon = rules.deck_size - n * rules.hand_size
        self.out: set[int] = set()
        self.table: list[list[str | None]] = []
        self.bout = 0
        self.over = False
        self._start_bout(first_attacker)

    # ------------------------------------------------------------------ seats

    def _mask(self, seats: Iterable[int]) -> int:
        return sum(1 << s for s in seats)

    def _gone(self) -> int:
        """Seats out of the game or holding no cards, as a mask."""
        return self._mask(self.out) | self._mask(s for s in range(self.n) if not self.counts[s])

    def _set_defender(self, att: int) -> None:
        """``att`` attacks; the defender, limit and throw-in seats follow the engine's rules."""
        c = self.config
        self.att = att
        self.dfn = next_opponent(c, self._gone(), att)
        self.cap = bout_limit(c, self.bout, self.counts[self.dfn]) if self.dfn >= 0 else 0
        elig = eligible_attackers(c, self._mask(self.out), att, self.dfn) if self.dfn >= 0 else 0
        self.elig = {s for s in range(self.n) if elig >> s & 1}

    def _start_bout(self, att: int) -> None:
        self._set_defender(att)
        self.phase = "lead"
        self.done: set[int] = set()
        self.joined: list[int] = []
        self.table = []

    # ----------------------------------------------------------------- facts

    @property
    def unbeaten(self) -> list[str]:
        return [a for a, d in self.table if d is None]

    @property
    def table_ranks(self) -> set[str]:
        return {c[0] for pair in self.table for c in pair if c is not None}

    def pending(self) -> set[int]:
        """Attackers who could still add a card or say done."""
        return {s for s in self.elig if s not in self.done and self.counts[s] > 0}

    # ----------------------------------------------------------------- steps

    def step(self, action: Action) -> None:
        if self.over:
            return
        s = action.seat
        kind = action.kind
        if kind == "attack":
            if self.phase == "lead":
                self.phase = "defend"
            self._add(s, action.cards)
            if s not in self.joined:
                self.joined.append(s)
            self._emptied(s)
            if self.phase == "taking" and self._bout_is_over():
                self._end_bout(beaten=False)
        elif kind == "defend":
            a, b = action.cards
            for pair in self.table:
                if pair[0] == a:
                    pair[1] = b
            self.counts[s] -= 1
            self._emptied(s)
            if self._bout_is_over():
                self._end_bout(beaten=True)
        elif kind in ("transfer", "show"):
            if kind == "transfer":
                self._add(s, action.cards)
            if s not in self.joined:
                self.joined.append(s)
            self._set_defender(s)
            self.done = set()
            if kind == "transfer":
                self._emptied(s)
        elif kind == "take":
            self.phase = "taking"
            self.done = set()
            if self._bout_is_over():
                self._end_bout(beaten=False)
        elif kind == "done":
            self.done.add(s)
            if not self.pending():
                self._end_bout(beaten=self.phase == "defend")
        elif kind == "resign":
            self.over = True

    def _bout_is_over(self) -> bool:
        return bout_is_over(
            self.phase == "taking",
            len(self.unbeaten),
            len(self.table),
            self.cap,
            self.counts[self.dfn],
            self._mask(self.pending()),
        )

    def _add(self, s: int, cards: Iterable[str]) -> None:
        for c in cards:
            self.table.append([c, None])
            self.counts[s] -= 1
        self.done = set()

    def _emptied(self, s: int) -> None:
        if self.counts[s] == 0 and self.talon == 0 and s not in self.out:
            self.out.add(s)

    def _end_bout(self, beaten: bool) -> None:
        d = self.dfn
        if not beaten:
            self.counts[d] += sum(1 for pair in self.table for c in pair if c is not None)
        order = drawing_order(self.att, self.joined, d)
        for s in order:
            if not self.talon:
                break
            k = min(max(0, self.rules.hand_size - self.counts[s]), self.talon)
            self.counts[s] += k
            self.drawn[s] += k
            self.talon -= k
        if not self.talon:
            for s in order:
                if self.counts[s] == 0:
                    self.out.add(s)
        alive = [s for s in range(self.n) if s not in self.out]
        team = self.config.team_of
        if len(alive) <= 1 or (team is not None and len({team[s] for s in alive}) <= 1):
            self.over = True
            self.table = []
            return
        att = (
            d
            if beaten and d not in self.out
            else next_in_game(self.config, self._mask(self.out), d)
        )
        self.bout += 1
        self._start_bout(att)


def replay(
    rules: Rules,
    first_attacker: int,
    actions: Iterable[Action],
    before: Callable[[PublicTracker, Action], None] | None = None,
) -> PublicTracker:
    """Replay ``actions``; ``before(tracker, action)`` sees the state before each one."""
    tracker = PublicTracker(rules, first_attacker)
    for action in actions:
        if before is not None:
            before(tracker, action)
        tracker.step(action)
    return tracker
