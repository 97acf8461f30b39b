"""The arena's points: pure functions of a game's outcome and the player's streak.

Not the fool scores 2, a draw 1, the fool 0.  After two games in a row without
being the fool a player is on fire: each further such game scores double, until
they are the fool.  A player who went berserk (halved their own turn time before the
first move) scores one point more if they are not the fool; the bonus is never
doubled and does not depend on the fire.  The same functions score a game as it ends and recompute the
standings from the stored games, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

POINTS = {"not_fool": 2, "draw": 1, "fool": 0}
# Games in a row not the fool after which the next such game scores double.
FIRE_AFTER = 2
# What berserk adds to a game the berserker ends not the fool.
BERSERK_BONUS = 1
# A game's performance: the opponents' mean rating, this much more for a game not the
# fool and this much less for the fool (FIDE's linear rule of 400), as at lichess.
PERFORMANCE_SPREAD = 400
# The rating of an opponent whose rating was not stored: Glicko-2's start.
UNRATED = 1500


class Outcome(StrEnum):
    NOT_FOOL = "not_fool"
    DRAW = "draw"
    FOOL = "fool"


@dataclass(frozen=True)
class Scored:
    points: int
    streak: int  # games in a row not the fool, this one counted

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


def score(outcome: Outcome, streak: int, *, berserk: bool = False) -> Scored:
    """What a game ending in ``outcome`` scores for a player with ``streak`` games in a
    row not the fool before it, who went berserk in it or not."""
    if outcome is Outcome.FOOL:
        return Scored(0, 0)
    base = POINTS[outcome.value]
    points = base * 2 if streak >= FIRE_AFTER else base
    if berserk and outcome is Outcome.NOT_FOOL:
        points += BERSERK_BONUS
    return Scored(points, streak + 1)


def game_performance(outcome: Outcome, opponent_ratings: list[float]) -> int:
    """One game's performance: the opponents' mean rating, plus the spread for a game
    not the fool, minus it for the fool, the mean itself for a draw."""
    mean = sum(opponent_ratings) / len(opponent_ratings) if opponent_ratings else UNRATED
    sign = {Outcome.NOT_FOOL: 1, Outcome.DRAW: 0, Outcome.FOOL: -1}[outcome]
    return round(mean + sign * PERFORMANCE_SPREAD)


def opponent_ratings(
    ratings: dict[str, float] | None, user_id: int, seated: list[int | str]
) -> list:
    """The stored ratings of ``user_id``'s opponents among ``seated`` (a bot's key has
    none: it counts as unrated)."""
    return [(ratings or {}).get(str(other), UNRATED) for other in seated if other != user_id]


def berserk_seconds(turn_seconds: int) -> int:
    """A berserker's turn time: half the arena's, rounded up (never below a second)."""
    return max(1, (turn_seconds + 1) // 2)


def outcome_of(deal: object, seat_number: int, team: int | None) -> Outcome:
    """How the player in ``seat_number`` (of ``team``) ended the finished ``deal``."""
    if deal.is_draw:
        return Outcome.DRAW
    if deal.fool_seat is not None:
        return Outcome.FOOL if deal.fool_seat == seat_number else Outcome.NOT_FOOL
    if deal.fool_team is not None and team is not None:
        return Outcome.FOOL if deal.fool_team == team else Outcome.NOT_FOOL
    return Outcome.DRAW
