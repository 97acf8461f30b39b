"""The daily deal: one fixed deal a day per game type, and each player's one try at it.

The game itself is an ordinary ``games.Match`` (the player in seat 0, the hard bot
in seat 1) whose ``seed`` fixes the deck and the bot's choices, so replay, analysis
and records work on it as on any game.  These rows say which match was whose try
at which day's deal, and keep what the day's board ranks by.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DailyDeal(models.Model):
    """The deal of one day for one variant: everyone plays it with the same seed."""

    day = models.DateField(_("day"), db_index=True)
    variant = models.ForeignKey(
        "games.RuleVariant",
        on_delete=models.PROTECT,
        related_name="daily_deals",
        verbose_name=_("variant"),
    )
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    bot_level = models.CharField(_("bot level"), max_length=8, default="hard")
    # Server-side only: whoever knows it knows the deck.
    seed = models.CharField(_("seed"), max_length=64)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-day", "variant__ordering"]
        verbose_name = _("daily deal")
        verbose_name_plural = _("daily deals")
        constraints = [
            models.UniqueConstraint(fields=["day", "variant"], name="one_daily_deal_per_variant")
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.variant}"


class DailyEntry(models.Model):
    """One player's one try at a day's deal."""

    class Result(models.TextChoices):
        OUT_FIRST = "out_first", _("Out first")
        NOT_FOOL = "not_fool", _("Not the fool")
        FOOL = "fool", _("The fool")

    # The board's order of results: best first.
    RESULT_RANK = {Result.OUT_FIRST: 1, Result.NOT_FOOL: 2, Result.FOOL: 3}

    daily = models.ForeignKey(
        DailyDeal, on_delete=models.CASCADE, related_name="entries", verbose_name=_("daily deal")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="daily_entries",
        verbose_name=_("user"),
    )
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="daily_entry", verbose_name=_("match")
    )
    result = models.CharField(_("result"), max_length=10, choices=Result.choices, blank=True)
    result_rank = models.PositiveSmallIntegerField(_("result rank"), null=True, blank=True)
    # The player's accuracy from the post-game analysis, once it has run.
    accuracy = models.FloatField(_("accuracy"), null=True, blank=True)
    # Days in a row the player has played a daily deal, up to this try's day and
    # counting it: the leaderboard reads everyone's current streak from it in one query.
    streak = models.PositiveIntegerField(_("days in a row"), default=1)
    # The player's own thinking time, bots' delays left out.
    think_seconds = models.PositiveIntegerField(_("time taken (seconds)"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # A table stopped by a moderator or the site: the try does not count, the player may
    # try again, and the row stays as the record of what happened.
    aborted = models.BooleanField(_("aborted"), default=False)

    class Meta:
        ordering = ["result_rank", "-accuracy", "think_seconds"]
        verbose_name = _("daily deal try")
        verbose_name_plural = _("daily deal tries")
        constraints = [
            # Each player plays a day's deal once, however many requests race.
            models.UniqueConstraint(
                fields=["daily", "user"],
                condition=models.Q(aborted=False),
                name="one_daily_try_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.daily} {self.user}"

    @property
    def is_finished(self) -> bool:
        return bool(self.result)

    @property
    def think_time(self) -> str:
        """The time taken as minutes and seconds, "2:05"."""
        seconds = self.think_seconds or 0
        return f"{seconds // 60}:{seconds % 60:02d}"
