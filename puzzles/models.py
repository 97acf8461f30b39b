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
        _("move"), help_text=_("Moves played in the game before the puzzle.")
    )
    seat = models.PositiveSmallIntegerField(_("seat"), help_text=_("The seat the solver plays."))
    goal = models.CharField(_("goal"), max_length=10, choices=Goal.choices)
    # The engine snapshot of the position: server side only, it holds every hand.
    position = models.JSONField(_("position"))
    # Equal for two puzzles of the same position, seat and goal: each is stored once.
    position_hash = models.CharField(_("position hash"), max_length=64, unique=True)
    # Engine notation, never shown: every first move that reaches the goal, every legal
    # one, and the whole line (durak.bots.puzzles.step_data: each decision's options
    # and answers, and after each answer the replies played and the next decision).
    answers = models.JSONField(_("answers"))
    options = models.JSONField(_("answer options"))
    line = models.JSONField(_("solution line"))
    player_moves = models.PositiveSmallIntegerField(
        _("player moves"),
        default=1,
        help_text=_("The solver's moves on the longest branch of the line."),
    )
    played = models.CharField(
        _("move played in the game"),
        max_length=64,
        help_text=_("The move played at this point of the game."),
    )
    from_swing = models.BooleanField(
        _("found at a swing"),
        default=False,
        help_text=_("The move played in the game here missed the goal."),
    )
    rating = models.FloatField(_("rating"), default=glicko2.DEFAULT_RATING, db_index=True)
    rd = models.FloatField(_("rating deviation"), default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(_("volatility"), default=glicko2.DEFAULT_VOLATILITY)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solved = models.PositiveIntegerField(_("times solved"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

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
    rating = models.FloatField(_("rating"), default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(_("rating deviation"), default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(_("volatility"), default=glicko2.DEFAULT_VOLATILITY)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solved = models.PositiveIntegerField(_("times solved"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

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
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    # The player's moves so far (engine notation), right ones then maybe a wrong last one.
    path = models.JSONField(_("moves made"), default=list, blank=True)
    action = models.CharField(_("action"), max_length=64, blank=True)
    is_solved = models.BooleanField(_("solved"), null=True)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    puzzle_rating_before = models.FloatField(_("puzzle rating before"), null=True, blank=True)
    puzzle_rating_after = models.FloatField(_("puzzle rating after"), null=True, blank=True)

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
    found = models.PositiveSmallIntegerField(_("puzzles found"), default=0)
    scanned_at = models.DateTimeField(_("scanned at"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle scan")
        verbose_name_plural = _("puzzle scans")

    def __str__(self) -> str:
        return f"deal {self.deal_id}: {self.found} puzzles"
