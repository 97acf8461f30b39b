"""Seeks: a player's "Play now" request, waiting in the database until it is seated.

A seek names the table it wants (game, players, deck, speed, rated); seeks with the
same wishes form one pool, and the pairing seats compatible seeks of a pool at one
table (``matchmaking.pairing``).  The database holds them, so every server process
pairs from the same pool.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Game(models.TextChoices):
    """The two games, by the short names players use (a variant's mode)."""

    PODKIDNOY = "podkidnoy", _("Podkidnoy")
    PEREVODNOY = "perevodnoy", _("Perevodnoy")


class Speed(models.TextChoices):
    FAST = "fast", _("Fast")
    NORMAL = "normal", _("Normal")
    SLOW = "slow", _("Slow")


# Seconds a player has for each move at each speed.
TURN_SECONDS = {Speed.FAST: 15, Speed.NORMAL: 30, Speed.SLOW: 60}

# The fields that must be equal for two seeks to sit at one table.
POOL_FIELDS = ("mode", "players", "deck_size", "speed", "is_rated")


class Seek(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        SEATED = "seated", _("Seated")
        CANCELLED = "cancelled", _("Cancelled")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seeks",
        verbose_name=_("user"),
    )
    mode = models.CharField(_("game"), max_length=12, choices=Game.choices)
    players = models.PositiveSmallIntegerField(_("players"))
    deck_size = models.PositiveSmallIntegerField(_("deck"))
    speed = models.CharField(_("speed"), max_length=8, choices=Speed.choices)
    is_rated = models.BooleanField(_("rated"), default=True)
    allow_bots = models.BooleanField(_("bots may fill the table"), default=True)
    # The player's rating and reliability when the seek was made (the pairing compares these).
    rating = models.FloatField(_("rating"))
    reliability = models.PositiveSmallIntegerField(_("reliability"), default=100)
    min_reliability = models.PositiveSmallIntegerField(_("least reliability"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("created at"), db_index=True)
    # When bots may take the seats nobody took (a seek that allows them): soon for a
    # seek nobody else was making when it was made, later when others were looking.
    bots_at = models.DateTimeField(_("bots may join at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # One waiting seek per player: a player is never looking for two tables.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="one_waiting_seek_per_user",
            ),
        ]
        indexes = [models.Index(fields=["status", *POOL_FIELDS], name="seek_pool_idx")]
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode} {self.players}p {self.deck_size} ({self.status})"

    def pool(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in POOL_FIELDS}

    def wishes(self) -> dict[str, object]:
        """Everything the seek asked for, as ``services.create_seek`` takes it."""
        return {
            **self.pool(),
            "allow_bots": self.allow_bots,
            "min_reliability": self.min_reliability,
        }


class HouseRuleBounds(models.Model):
    """What a table's creator may change in one variant ("house rules").

    The variant's own values are the defaults; a variant without bounds lets the
    creator change the turn time only (within the default limits below).
    """

    variant = models.OneToOneField(
        "games.RuleVariant",
        on_delete=models.CASCADE,
        related_name="house_rule_bounds",
        verbose_name=_("variant"),
    )
    deck_24 = models.BooleanField(_("may deal 24 cards"), default=False)
    deck_36 = models.BooleanField(_("may deal 36 cards"), default=False)
    deck_52 = models.BooleanField(_("may deal 52 cards"), default=False)
    may_choose_throw_in = models.BooleanField(
        _("may choose who throws in"),
        default=False,
        help_text=_("Everyone, or only the defender's neighbours."),
    )
    may_choose_transfer = models.BooleanField(
        _("may choose the transfer"),
        default=False,
        help_text=_("No transfer (podkidnoy), transfer, or transfer also by showing a trump."),
    )
    may_choose_first_bout_limit = models.BooleanField(
        _("may limit the first bout to five cards"), default=False
    )
    may_choose_trump_six_swap = models.BooleanField(
        _("may choose the trump six swap"), default=False
    )
    min_turn_seconds = models.PositiveSmallIntegerField(_("shortest turn timer"), default=15)
    max_turn_seconds = models.PositiveSmallIntegerField(_("longest turn timer"), default=60)

    class Meta:
        verbose_name = _("house rule bounds")
        verbose_name_plural = _("house rule bounds")

    def __str__(self) -> str:
        return str(self.variant)

    def decks(self) -> set[int]:
        return {size for size in (24, 36, 52) if getattr(self, f"deck_{size}")}


class TableMinimum(models.Model):
    """The least reliability a table's creator asks of the players who join."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="reliability_minimum", verbose_name=_("match")
    )
    minimum = models.PositiveSmallIntegerField(_("least reliability"))

    class Meta:
        verbose_name = _("table minimum")
        verbose_name_plural = _("table minimums")

    def __str__(self) -> str:
        return f"{self.match_id} >= {self.minimum}"
