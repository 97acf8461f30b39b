"""Every search ends: bounded in CPU and memory at any table size, and dropped when its
caller no longer wants the answer.

With the talon empty, three or more players can go round taking each other's cards
for ever; a search that walked such a game to its end never answered (at 7 seats the
hard bot's search ran past a minute and a gigabyte, and held every bot worker).
"""

from __future__ import annotations

import json
import random
import signal
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from durak.bots import Budget, choose, fast, get_bot
from durak.engine import Game, Knowledge, Rules

CPU_SECONDS = 5.0
MEGABYTES = 500
SEVEN_SEATS = Path(__file__).parent / "data" / "seven-seat-hard-search.json"


class TooMuchCpu(Exception):
    pass


@contextmanager
def at_most_cpu(seconds: float) -> Iterator[None]:
    """Fails the block once it has used ``seconds`` of this process's CPU."""

    def over(signum: int, frame: object) -> None:
        raise TooMuchCpu(f"the search used more than {seconds} s of CPU")

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def hard_move(knowledge: Knowledge, seed: int) -> None:
    """The hard bot's live move (playouts, no wall time), within the CPU bound."""
    with at_most_cpu(CPU_SECONDS):
        action = choose("hard", knowledge, random.Random(seed), 600, reproducible=True)
    assert action is not None


def empty_talon_position(players: int, seed: int) -> tuple[Game, int]:
    """A seeded game, played mostly by ``medium``, up to the first lead after the talon
    ran out with three or more players still in it: the lead and the seat to lead."""
    game = Game.new(Rules(players=players, deck_size=52), seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = fast.decider(game)
        if game.talon_count == 0 and game.phase == "attack" and len(game.out_order) <= players - 3:
            return game, seat
        acts = game.legal_actions(seat)
        if rng.random() < 0.8:
            game.apply_legal(fast.medium_move(game, seat, acts, rng))
        else:
            game.apply_legal(acts[rng.randrange(len(acts))])
    raise AssertionError(f"seed {seed} never reached an empty talon with three players left")


def hard_moves_within_bounds(knowledge: Knowledge, seeds: tuple[int, ...]) -> None:
    """The hard bot's move with each of ``seeds``, each within the CPU and memory bounds."""
    tracemalloc.start()
    try:
        for seed in seeds:
            tracemalloc.reset_peak()
            hard_move(knowledge, seed)
            peak = tracemalloc.get_traced_memory()[1]
            assert peak < MEGABYTES * 2**20, f"seed {seed}: {peak / 2**20:.0f} MB"
    finally:
        tracemalloc.stop()


def test_the_seven_seat_position_answers_for_every_seed_within_cpu_and_memory():
    game = Game.from_record(json.loads(SEVEN_SEATS.read_text()))
    assert game.talon_count == 0 and fast.decider(game) == 5
    hard_moves_within_bounds(game.knowledge(5), (1, 2, 3, 4))


# Positions whose search did not end before the bound: 6 seats (seed 0, bot seed 2) and
# 7 seats (seed 2, bot seed 3); 8 seats for the table size whose playouts are longest;
# and other seeded deals at each size.
@pytest.mark.parametrize(
    ("players", "seed", "bot_seeds"),
    [
        (6, 0, (2, 5)),
        (6, 1, (0, 1)),
        (7, 2, (3, 4)),
        (7, 0, (0, 1)),
        (8, 0, (0, 1)),
        (8, 1, (2, 3)),
    ],
)
def test_an_empty_talon_at_six_to_eight_seats_answers_within_cpu_and_memory(
    players, seed, bot_seeds
):
    game, seat = empty_talon_position(players, seed)
    hard_moves_within_bounds(game.knowledge(seat), bot_seeds)


def test_a_search_its_caller_stops_ends_at_the_next_poll():
    game, seat = empty_talon_position(8, 0)
    asked = []

    def stop() -> bool:
        asked.append(time.perf_counter())
        return True

    action = get_bot("hard").choose_action(
        game.knowledge(seat), random.Random(0), Budget(iterations=100_000, stop=stop)
    )
    assert action in game.legal_actions(seat)
    # Asked every fraction of a second while it runs, and the budget is seconds of
    # work: asked once means it ended at the first answer.
    assert len(asked) == 1


def test_a_search_stops_at_its_cpu_cap_whatever_its_playouts():
    game, seat = empty_talon_position(8, 0)
    with at_most_cpu(CPU_SECONDS):
        action = choose("hard", game.knowledge(seat), random.Random(0), 10**8, cpu_seconds=0.3)
    assert action in game.legal_actions(seat)
