"""Exact solver for two-player endgames with an empty talon (or only the trump left).

Once the talon is empty and only two players hold cards, every unseen card is in the
opponent's hand, so the position has perfect information; in a two-player game that
holds one draw earlier too, when the talon's last card is the face-up trump everybody
saw. The solver answers one question, "can ``seat`` avoid being the fool against any
defence?", by depth-first search with a transposition table; a yes/no value makes every
node an alpha-beta cut as soon as one winning (or refuting) move is found.
"""

from __future__ import annotations

import random
import time

from durak.engine import Action, Game, Rules

from . import fast

_RNG = random.Random(0)
# Solved positions: (variant number, seat, position key) -> does seat avoid being the fool.
_TABLE: dict[tuple, bool] = {}
# About 440 bytes an entry: at most some 110 MB of a worker's memory, then it starts over.
_MAX_TABLE = 250_000
_VARIANTS: dict[Rules, int] = {}


class OutOfBudget(Exception):
    """The search hit its node or time limit before finishing."""


def applicable(g: Game) -> bool:
    """True when every hidden card is in the one opponent's hand: two seats from opposing
    sides still play and the talon is empty, or (two players) holds only the face-up trump.
    """
    if g.is_over or g.talon_count > (1 if g.players == 2 else 0):
        return False
    out = g.out_order
    alive = [s for s in range(g.players) if s not in out]
    if len(alive) != 2:
        return False
    team = g.team_of(alive[0])
    return team is None or team != g.team_of(alive[1])


def _ordered(g: Game, s: int, acts: list[Action]) -> list[Action]:
    """The policy's move first: it is usually the winning or the refuting one."""
    if len(acts) > 1:
        i = acts.index(fast.medium_move(g, s, acts, _RNG))
        if i:
            acts = [acts[i], *acts[:i], *acts[i + 1 :]]
    return acts


class Solver:
    def __init__(
        self, seat: int, deadline: float, max_nodes: int | None, table: dict | None = None
    ) -> None:
        self.seat = seat
        # Solved positions: the process's shared table unless the caller gives one.
        self.table = _TABLE if table is None else table
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        # Per search, not global: bots may search in several threads at once.
        self.in_progress: set[tuple] = set()
        self.variant: int | None = None  # numbered once per search: hashing Rules is slow
        self.team: tuple[int, ...] | None = None

    def _mine(self, s: int) -> bool:
        team = self.team
        return s == self.seat or (team is not None and team[s] == team[self.seat])

    def wins(self, g: Game) -> bool:
        """True if ``seat`` is not the fool with best play from here by both sides."""
        if g.is_over:
            return fast.not_fool(g, self.seat) > 0.5
        if self.variant is None:
            self.variant = _VARIANTS.setdefault(g.rules, len(_VARIANTS))
            self.team = g.rules.team_of
        key = (self.variant, self.seat, g.position_key())
        hit = self.table.get(key)
        if hit is not None:
            return hit
        if key in self.in_progress:
            # A repeated position (transfers can cycle): score it as lost for us,
            # so the solver never relies on going round in circles.
            return False
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        if not self.nodes & 63 and time.perf_counter() > self.deadline:
            raise OutOfBudget
        s = fast.decider(g)
        if s is None:
            return fast.not_fool(g, self.seat) > 0.5
        acts = _ordered(g, s, fast.legal(g, s))
        mine = self._mine(s)
        self.in_progress.add(key)
        try:
            res = not mine
            for a in acts:
                child = g.copy()
                child.apply_legal(a)
                w = self.wins(child)
                if mine and w:
                    res = True
                    break
                if not mine and not w:
                    res = False
                    break
        finally:
            self.in_progress.discard(key)
        if len(self.table) > _MAX_TABLE:
            self.table.clear()
        self.table[key] = res
        return res


def solve(
    g: Game,
    seat: int,
    deadline: float = float("inf"),
    max_nodes: int | None = None,
    all_values: bool = False,
    table: dict | None = None,
) -> tuple[Action | None, dict[Action, bool]] | None:
    """Exact values of ``seat``'s actions; ``(winning action or None, values)``.

    Stops at the first winning action unless ``all_values``. Returns None when the
    limits ran out first. ``g`` must be a position where ``applicable`` holds and
    ``seat`` decides.  ``table`` keeps this search's solved positions apart from the
    process's shared table.
    """
    solver = Solver(seat, deadline, max_nodes, table)
    acts = _ordered(g, seat, fast.legal(g, seat))
    values: dict[Action, bool] = {}
    best = None
    try:
        for a in acts:
            child = g.copy()
            child.apply_legal(a)
            values[a] = solver.wins(child)
            if values[a] and best is None:
                best = a
                if not all_values:
                    break
    except OutOfBudget:
        return None
    return best, values


def solve_all(
    g: Game, seat: int, deadline: float = float("inf"), max_nodes: int | None = None
) -> dict[Action, bool] | None:
    """Exact value of every action (no early stop), for analysis."""
    out = solve(g, seat, deadline, max_nodes, all_values=True)
    return None if out is None else out[1]
