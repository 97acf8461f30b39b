"""Arena tournaments: a timed event in which every player who joined is paired again
and again, scoring points for each game (docs/tournaments.md).

Each arena game is an ordinary ``games.Match``; ``ArenaGame`` ties it to its arena
and keeps what it scored, so the standings can always be recomputed from the games.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.chat_rows import ModeratedLine
from games.models import BotLevel
from moderation.models import HandledReport, Report


class ArenaSettings(models.Model):
    """What an arena is, set in the admin: its game, its time, its entry conditions and
    its bots.  ``Arena`` and ``ArenaSchedule`` (which copies them onto each arena it
    makes, ``schedules.COPIED_FIELDS``) both have them; each names its own variant."""

    name = models.CharField(_("name"), max_length=80)
    players_per_table = models.PositiveSmallIntegerField(
        _("players at a table"),
        default=2,
        validators=[MinValueValidator(2), MaxValueValidator(6)],
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("seconds a turn"), default=20, validators=[MinValueValidator(5)]
    )
    minutes = models.PositiveSmallIntegerField(
        _("minutes"), default=30, validators=[MinValueValidator(5), MaxValueValidator(24 * 60)]
    )
    is_rated = models.BooleanField(_("rated"), default=False)
    # Entry conditions (arena.entry): whoever joins must meet each one that is set.
    min_rating = models.PositiveSmallIntegerField(
        _("least rating"),
        null=True,
        blank=True,
        help_text=_(
            "In the arena's rating class (two players, three or more, or teams). Empty: any rating."
        ),
    )
    min_rated_games = models.PositiveSmallIntegerField(
        _("least rated games"),
        default=0,
        help_text=_("Rated games played in the arena's rating class. 0: none needed."),
    )
    min_reliability = models.PositiveSmallIntegerField(
        _("least reliability"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(100)],
        help_text=_("The player's reliability, 0-100 (games finished, not abandoned). Empty: any."),
    )
    password = models.CharField(
        _("password"),
        max_length=64,
        blank=True,
        help_text=_("A private arena: only who types this password may join. Empty: open to all."),
    )
    # Bots fill a wait (arena.bot_fill): on a site with few players, whoever waits this
    # long without an opponent plays a bot of this level in an unrated game that scores.
    bots_allowed = models.BooleanField(
        _("bots fill a wait"),
        default=False,
        help_text=_(
            "A player left without an opponent for the seconds below plays a bot. "
            "The game scores for them, is marked, and never changes ratings."
        ),
    )
    bot_wait_seconds = models.PositiveSmallIntegerField(
        _("seconds before a bot"),
        default=30,
        validators=[MinValueValidator(5), MaxValueValidator(600)],
        help_text=_("How long a player waits for a person before a bot takes the seat."),
    )
    bot_level = models.CharField(
        _("bots' level"), max_length=10, choices=BotLevel.choices, default=BotLevel.MEDIUM
    )

    class Meta:
        abstract = True

    @property
    def is_private(self) -> bool:
        return bool(self.password)

    def clean(self) -> None:
        variant = getattr(self, "variant", None)
        if variant is not None and not (
            variant.min_players <= self.players_per_table <= variant.max_players
        ):
            raise ValidationError({"players_per_table": variant.players_rule()})


class Arena(ArenaSettings):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Starts soon")
        RUNNING = "running", _("Running now")
        FINISHED = "finished", _("Finished")

    variant = models.ForeignKey(
        "games.RuleVariant",
        on_delete=models.PROTECT,
        related_name="arenas",
        verbose_name=_("variant"),
    )
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    # A private arena's invite link (arena.invites): who opens it joins without typing
    # the password.  Made when the arena is saved private, emptied when it is made open.
    invite_token = models.CharField(_("invite token"), max_length=64, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    # The recurring schedule that made the arena (arena.schedules), if one did.
    schedule = models.ForeignKey(
        "ArenaSchedule",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="arenas",
        verbose_name=_("schedule"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    # The last pairing round: the ticker pairs an arena at most once a tick.
    paired_at = models.DateTimeField(_("paired at"), null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        constraints = [
            # A schedule's start makes one arena, however many tickers see it due.
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="one_arena_per_start"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        token = self.invite_token
        if not self.password:
            self.invite_token = ""
        elif not self.invite_token:
            self.invite_token = new_invite_token()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and self.invite_token != token:
            kwargs["update_fields"] = {*update_fields, "invite_token"}  # kept with the rest
        super().save(*args, **kwargs)

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)


def new_invite_token() -> str:
    """A fresh secret for an invite link: too long to guess, safe in a URL."""
    return secrets.token_urlsafe(24)


class WithdrawnFor(models.TextChoices):
    """Why the site withdrew a player (blank: the player withdrew themselves)."""

    ABANDONED = "abandoned", _("Abandoned two games")


class ArenaPlayer(models.Model):
    arena = models.ForeignKey(
        Arena, on_delete=models.CASCADE, related_name="players", verbose_name=_("arena")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arena_entries",
        verbose_name=_("user"),
    )
    points = models.PositiveIntegerField(_("points"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    # Games in a row not the fool: from the second on, each scores double.
    streak = models.PositiveSmallIntegerField(_("games in a row not the fool"), default=0)
    on_fire = models.BooleanField(_("on fire"), default=False)
    # Games scored in which the player went berserk (the standings mark them).
    berserks = models.PositiveIntegerField(_("games berserk"), default=0)
    paused = models.BooleanField(_("paused"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    # Performance over the arena (arena.scoring.performance): the first tie-break.
    # ``performance_total`` is the sum of each game's, ``performance`` its mean.
    performance = models.IntegerField(_("performance"), null=True, blank=True)
    performance_total = models.IntegerField(_("performance total"), default=0)
    # When the player reached their present points: the later, the lower on a tie.
    score_reached_at = models.DateTimeField(_("score reached at"), null=True, blank=True)
    # Games scored against a bot (arena.bot_fill): the standings mark them.
    bot_games = models.PositiveIntegerField(_("games against a bot"), default=0)
    # Since when the player has been free and unpaired, while bots may fill the wait.
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    # Since when the player has had no arena page open (arena.presence): away players
    # are not paired until a page of the arena opens again.
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    # Arena games the player abandoned (their clock ran out on their last turns, or they
    # left the table for good); at ABANDONS_TO_WITHDRAW they are withdrawn.
    abandons = models.PositiveSmallIntegerField(_("games abandoned"), default=0)
    withdrawn_for = models.CharField(
        _("withdrawn for"), max_length=10, choices=WithdrawnFor.choices, blank=True
    )
    # Whom the player met last: not again at once while others wait.
    last_opponents = models.JSONField(_("last opponents"), default=list, blank=True)

    class Meta:
        ordering = ["-points", "-performance", "score_reached_at", "joined_at"]
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_entry_per_arena"),
        ]

    def __str__(self) -> str:
        return f"{self.arena} · {self.user}"


class ArenaGame(models.Model):
    arena = models.ForeignKey(
        Arena, on_delete=models.CASCADE, related_name="games", verbose_name=_("arena")
    )
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="arena_game",
        verbose_name=_("match"),
    )
    # Seat numbers that went berserk before the first move (arena.berserk): their turn
    # time is halved and, not the fool, they score a point more.
    berserk_seats = models.JSONField(_("berserk seats"), default=list, blank=True)
    # Each player's rating (user id: rating in the arena's class) when seated: the
    # performance over the arena is computed from these, so it never changes later.
    ratings = models.JSONField(_("ratings when seated"), null=True, blank=True)
    # Points per user id, written once when the game's first deal ended.
    scored = models.JSONField(_("points scored"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")

    def __str__(self) -> str:
        return f"{self.arena} · #{self.match_id}"


class ArenaPresence(models.Model):
    """One open arena page (its socket) of a player: while none is open, and none is
    held by a live process, the player is away (``arena.presence``)."""

    arena = models.ForeignKey(
        Arena, on_delete=models.CASCADE, related_name="presences", verbose_name=_("arena")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    channel_name = models.CharField(_("channel name"), max_length=200, unique=True)
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)

    class Meta:
        verbose_name = _("open arena page")
        verbose_name_plural = _("open arena pages")
        indexes = [models.Index(fields=["arena", "user"])]

    def __str__(self) -> str:
        return f"{self.arena} · {self.user}"


def validate_time_zone(name: str) -> None:
    """A time zone the site knows by its IANA name (Europe/Moscow, UTC, ...)."""
    from zoneinfo import available_timezones

    if name not in available_timezones():
        raise ValidationError(_("Unknown time zone: %(name)s."), params={"name": name})


class ArenaSchedule(ArenaSettings):
    """A recurring arena (``arena.schedules``): the ticker makes each next arena of it
    ``lead_minutes`` before its start, with the arena's settings copied onto it."""

    variant = models.ForeignKey(
        "games.RuleVariant",
        on_delete=models.PROTECT,
        related_name="arena_schedules",
        verbose_name=_("variant"),
    )
    # The recurrence: every N hours from ``first_start``, or daily at a time of a zone.
    every_hours = models.PositiveSmallIntegerField(
        _("every N hours"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 7)],
        help_text=_("An arena every this many hours, counted from the first start."),
    )
    daily_at = models.TimeField(
        _("daily at"),
        null=True,
        blank=True,
        help_text=_("An arena every day at this time of the time zone below."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="Europe/Moscow",
        validators=[validate_time_zone],
        help_text=_("For the daily time, e.g. Europe/Moscow."),
    )
    first_start = models.DateTimeField(
        _("first start"),
        help_text=_("No arena of the schedule starts before this; every N hours counts from it."),
    )
    lead_minutes = models.PositiveSmallIntegerField(
        _("made minutes ahead"),
        default=60,
        validators=[MinValueValidator(1), MaxValueValidator(7 * 24 * 60)],
        help_text=_("How long before its start each arena appears on the list."),
    )
    active = models.BooleanField(_("active"), default=True)
    # The start of the last arena made: the next one is the first start after it.
    last_start = models.DateTimeField(_("last arena made for"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("arena schedule")
        verbose_name_plural = _("arena schedules")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if (self.every_hours is None) == (self.daily_at is None):
            raise ValidationError(
                _("Set either every N hours or a daily time, not both and not neither.")
            )
        super().clean()


class ArenaChatMessage(ModeratedLine):
    """A line said in an arena's chat (``arena.chat``), under the table chat's rules."""

    arena = models.ForeignKey(
        Arena, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("arena")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arena_chat_messages",
        verbose_name=_("user"),
    )
    text = models.CharField(_("text"), max_length=300)

    class Meta(ModeratedLine.Meta):
        verbose_name = _("arena chat message")
        verbose_name_plural = _("arena chat messages")

    def __str__(self) -> str:
        return f"{self.arena} · {self.user}: {self.text[:40]}"


class ArenaChatReport(HandledReport):
    """A player's report of a line in an arena's chat (``arena.chat_reports``): the
    table's report (``moderation.Report``) for a line that belongs to no table, with
    its categories, statuses and refusals."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arena_chat_reports_made",
        verbose_name=_("reported by"),
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arena_chat_reports_received",
        verbose_name=_("reported player"),
    )
    message = models.ForeignKey(
        ArenaChatMessage,
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    # Kept apart from the line: a hidden or deleted line stays readable here.
    message_text = models.CharField(_("reported text"), max_length=300)
    category = models.CharField(_("category"), max_length=10, choices=Report.Category.choices)

    class Meta(HandledReport.Meta):
        verbose_name = _("arena chat report")
        verbose_name_plural = _("arena chat reports")
