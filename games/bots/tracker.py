"""Replay a game's public history: table, hand counts and talon after every action.

A seat's Knowledge holds the public actions but only the present state. Inference needs
the past too (what lay on the table when a player took, how many cards it drew since),
so ``PublicTracker`` replays the actions with the bout rules: bouts end when every
attacker said done, when the attack limit is reached, or when nobody can add a card, and
players draw up to the hand size (principal attacker first, defender last). It sees only
what every player sees, so it reads nothing hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.engine import Action, Rules

MAX_ATTACK = 6


class PublicTracker:
    """Public state of a game, advanced one action at a time with ``step``."""

    def __init__(self, rules: Rules, first_attacker: int) -> None:
        n = rules.players
        self.rules = rules
        self.n = n
        self.team = rules.team_of
        self.scope = rules.effective_throw_in
        self.counts = [rules.hand_size] * n
        self.drawn = [0] * n  # cards each seat drew from the talon after the deal
        self.talon = rules.deck_size - n * rules.hand_size
        self.out: set[int] = set()
        self.table: list[list[str | None]] = []
        self.bout = 0
        self.over = False
        self._start_bout(first_attacker)

    # ------------------------------------------------------------------ seats

    def _gone(self, s: int) -> bool:
        return s in self.out or self.counts[s] == 0

    def _next_opp(self, s: int) -> int:
        for k in range(1, self.n):
            t = (s + k) % self.n
            if not self._gone(t) and (self.team is None or self.team[t] != self.team[s]):
                return t
        return -1

    def _next_active(self, s: int) -> int:
        for k in range(1, self.n):
            t = (s + k) % self.n
            if t not in self.out:
                return t
        return -1

    def _eligible(self) -> set[int]:
        att, d = self.att, self.dfn
        if self.scope == "attacker":
            return {att}

        def ok(s: int) -> bool:
            return (
                s != d and s not in self.out and (self.team is None or self.team[s] != self.team[d])
            )

        if self.scope == "all":
            return {att} | {s for s in range(self.n) if ok(s)}
        out = {att}
        for step in (1, -1):
            for k in range(1, self.n):
                s = (d + step * k) % self.n
                if ok(s):
                    out.add(s)
                    break
        return out

    def _start_bout(self, att: int) -> None:
        self.att = att
        self.dfn = self._next_opp(att)
        limit = self.rules.first_bout_limit if self.bout == 0 else None
        self.cap = min(limit or MAX_ATTACK, self.counts[self.dfn]) if self.dfn >= 0 else 0
        self.elig = self._eligible()
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
            if self.phase == "taking" and (len(self.table) >= self.cap or not self.pending()):
                self._end_bout(beaten=False)
        elif kind == "defend":
            a, b = action.cards
            for pair in self.table:
                if pair[0] == a:
                    pair[1] = b
            self.counts[s] -= 1
            self._emptied(s)
            if not self.unbeaten and (
                len(self.table) >= self.cap or self.counts[s] == 0 or not self.pending()
            ):
                self._end_bout(beaten=True)
        elif kind in ("transfer", "show"):
            if kind == "transfer":
                self._add(s, action.cards)
            if s not in self.joined:
                self.joined.append(s)
            self.att = s
            self.dfn = self._next_opp(s)
            limit = self.rules.first_bout_limit if self.bout == 0 else None
            self.cap = min(limit or MAX_ATTACK, self.counts[self.dfn])
            self.elig = self._eligible()
            self.done = set()
            if kind == "transfer":
                self._emptied(s)
        elif kind == "take":
            self.phase = "taking"
            self.done = set()
            if len(self.table) >= self.cap or not self.pending():
                self._end_bout(beaten=False)
        elif kind == "done":
            self.done.add(s)
            if not self.pending():
                self._end_bout(beaten=self.phase == "defend")
        elif kind == "resign":
            self.over = True

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
        order = [self.att] + [s for s in self.joined if s not in (self.att, d)] + [d]
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
        if len(alive) <= 1 or (self.team is not None and len({self.team[s] for s in alive}) <= 1):
            self.over = True
            self.table = []
            return
        att = d if beaten and d not in self.out else self._next_active(d)
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
