"""Ratings, rating history and one result row per player per finished deal.

``PlayerGame`` is written when a deal finishes (in the same transaction), so the
game lists, filters and profile statistics read one indexed table instead of
joining seats, deals and matches and comparing seat numbers with results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from history import glicko2


class RatingClass(models.TextChoices):
    TWO_PLAYER = "two_player", _("Two players")
    MULTI = "multi", _("Three or more players")
    TEAMS = "teams", _("Teams")
    # Games between bot accounts only: a rating of their own, never mixed with people's.
    BOTS = "bots", _("Bot accounts")


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("user"),
    )
    rating_class = models.CharField(_("rating class"), max_length=12, choices=RatingClass.choices)
    rating = models.FloatField(_("rating"), default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(_("rating deviation"), default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(_("volatility"), default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(_("games played"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rating_class"], name="unique_rating_per_class")
        ]
        indexes = [models.Index(fields=["rating_class", "-rating"], name="rating_board_idx")]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.rating_class} {self.rating:.0f}"

    @property
    def player(self) -> glicko2.Player:
        return glicko2.Player(self.rating, self.rd, self.volatility)


class RatingChange(models.Model):
    """One rating update: the values before and after a deal (the chart reads these)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    rating_class = models.CharField(_("rating class"), max_length=12, choices=RatingClass.choices)
    deal = models.ForeignKey(
        "games.Deal", on_delete=models.CASCADE, related_name="+", verbose_name=_("deal")
    )
    rating_before = models.FloatField(_("rating before"))
    rd_before = models.FloatField(_("rating deviation before"))
    volatility_before = models.FloatField(_("volatility before"))
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("volatility"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["deal", "user"], name="unique_rating_change_per_deal")
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="rating_change_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rating_class} {self.rating_before:.0f}->{self.rating:.0f}"

    @property
    def delta(self) -> float:
        return self.rating - self.rating_before


class PlayerGame(models.Model):
    """A finished deal as one player saw it."""

    class Result(models.TextChoices):
        FOOL = "fool", _("Fool")
        SAFE = "safe", _("Safe")
        DRAW = "draw", _("Draw")
        WINNER = "winner", _("Winner")
        LOST = "lost", _("Not the winner")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player_games",
        verbose_name=_("user"),
    )
    deal = models.ForeignKey(
        "games.Deal", on_delete=models.CASCADE, related_name="player_games", verbose_name=_("deal")
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    variant = models.ForeignKey(
        "games.RuleVariant", on_delete=models.PROTECT, related_name="+", verbose_name=_("variant")
    )
    players = models.PositiveSmallIntegerField(_("players"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    result = models.CharField(_("result"), max_length=8, choices=Result.choices)
    # 1 for the first player out; None for the fool, or when nobody went out.
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    move_count = models.PositiveIntegerField(_("move count"))
    duration_seconds = models.PositiveIntegerField(_("duration (s)"), default=0)
    finished_at = models.DateTimeField(_("finished at"))
    is_private = models.BooleanField(_("private table"), default=False)
    rating_class = models.CharField(_("rating class"), max_length=12, choices=RatingClass.choices)
    is_rated = models.BooleanField(_("rated game"), default=False)
    rating_delta = models.FloatField(_("rating delta"), null=True, blank=True)

    class Meta:
        verbose_name = _("player game")
        verbose_name_plural = _("player games")
        ordering = ["-finished_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["deal", "user"], name="unique_player_game")]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="player_game_recent_idx"),
            models.Index(fields=["user", "variant", "players"], name="player_game_stats_idx"),
            models.Index(fields=["user", "result", "-finished_at"], name="player_game_result_idx"),
            # This week's boards read every player's games since Monday.
            models.Index(fields=["finished_at"], name="player_game_week_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.deal_id} {self.result}"
