"""Puzzles found in finished games, each player's puzzle rating, and every attempt.

Puzzles and players are rated against each other with Glicko-2, as lichess rates its
puzzles: a solved puzzle is a win for the player and a loss for the puzzle.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from history import glicko2


class Puzzle(models.Model):
    class Goal(models.TextChoices):
        NOT_FOOL = "not_fool", _("Don't be the fool")
        OUT_FIRST = "out_first", _("Go out first")

    # The game it comes from; a puzzle outlives a deleted game (its position is its own).
    deal = models.ForeignKey(
        "games.Deal",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deal"),
    )
    move = models.PositiveIntegerField(
        help_text=_("Moves played in the game before the puzzle."), verbose_name=_("move")
    )
    seat = models.PositiveSmallIntegerField(
        help_text=_("The seat the solver plays."), verbose_name=_("seat")
    )
    goal = models.CharField(max_length=10, choices=Goal.choices, verbose_name=_("goal"))
    # The engine snapshot of the position: server side only, it holds every hand.
    position = models.JSONField(verbose_name=_("position"))
    # Equal for two puzzles of the same position, seat and goal: each is stored once.
    position_hash = models.CharField(max_length=64, unique=True, verbose_name=_("position hash"))
    # Engine notation, never shown: every first move that reaches the goal, every legal
    # one, and the whole line (games.bots.puzzles.step_data: each decision's options
    # and answers, and after each answer the replies played and the next decision).
    answers = models.JSONField(verbose_name=_("answers"))
    options = models.JSONField(verbose_name=_("answer options"))
    line = models.JSONField(verbose_name=_("solution line"))
    player_moves = models.PositiveSmallIntegerField(
        default=1,
        help_text=_("The solver's moves on the longest branch of the line."),
        verbose_name=_("player moves"),
    )
    played = models.CharField(
        max_length=64,
        help_text=_("The move played at this point of the game."),
        verbose_name=_("move played in the game"),
    )
    from_swing = models.BooleanField(
        default=False,
        help_text=_("The move played in the game here missed the goal."),
        verbose_name=_("found at a swing"),
    )
    rating = models.FloatField(
        default=glicko2.DEFAULT_RATING, db_index=True, verbose_name=_("rating")
    )
    rd = models.FloatField(default=glicko2.DEFAULT_RD, verbose_name=_("rating deviation"))
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY, verbose_name=_("volatility"))
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    solved = models.PositiveIntegerField(default=0, verbose_name=_("times solved"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.goal}, {self.rating:.0f})"

    @property
    def player(self) -> glicko2.Player:
        return glicko2.Player(self.rating, self.rd, self.volatility)

    def step_after(self, moves: list[str]) -> dict | None:
        """The line's decision after the player's right ``moves`` (None past its end)."""
        step = self.line
        for move in moves:
            step = step["next"][move]["step"]
        return step


class PuzzleRating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_rating",
        verbose_name=_("user"),
    )
    rating = models.FloatField(default=glicko2.DEFAULT_RATING, verbose_name=_("rating"))
    rd = models.FloatField(default=glicko2.DEFAULT_RD, verbose_name=_("rating deviation"))
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY, verbose_name=_("volatility"))
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    solved = models.PositiveIntegerField(default=0, verbose_name=_("times solved"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")

    def __str__(self) -> str:
        return f"{self.user_id} puzzles {self.rating:.0f}"

    @property
    def player(self) -> glicko2.Player:
        return glicko2.Player(self.rating, self.rd, self.volatility)


class PuzzleAttempt(models.Model):
    """One player's try at one puzzle: opened when shown, answered once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_attempts",
        verbose_name=_("user"),
    )
    puzzle = models.ForeignKey(
        Puzzle, on_delete=models.CASCADE, related_name="attempt_rows", verbose_name=_("puzzle")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))
    # The player's moves so far (engine notation), right ones then maybe a wrong last one.
    path = models.JSONField(default=list, blank=True, verbose_name=_("moves made"))
    action = models.CharField(max_length=64, blank=True, verbose_name=_("action"))
    is_solved = models.BooleanField(null=True, verbose_name=_("solved"))
    rating_before = models.FloatField(null=True, blank=True, verbose_name=_("rating before"))
    rating_after = models.FloatField(null=True, blank=True, verbose_name=_("rating after"))
    puzzle_rating_before = models.FloatField(
        null=True, blank=True, verbose_name=_("puzzle rating before")
    )
    puzzle_rating_after = models.FloatField(
        null=True, blank=True, verbose_name=_("puzzle rating after")
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle"),
        ]
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")

    def __str__(self) -> str:
        return f"attempt {self.pk} of puzzle {self.puzzle_id} by {self.user_id}"

    @property
    def is_answered(self) -> bool:
        return self.answered_at is not None

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class PuzzleScan(models.Model):
    """A finished deal searched for puzzles: each deal is searched once."""

    deal = models.OneToOneField(
        "games.Deal", on_delete=models.CASCADE, related_name="+", verbose_name=_("deal")
    )
    found = models.PositiveSmallIntegerField(default=0, verbose_name=_("puzzles found"))
    scanned_at = models.DateTimeField(auto_now_add=True, verbose_name=_("scanned at"))

    class Meta:
        verbose_name = _("puzzle scan")
        verbose_name_plural = _("puzzle scans")

    def __str__(self) -> str:
        return f"deal {self.deal_id}: {self.found} puzzles"
