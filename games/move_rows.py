"""The moves of a table: each applied action in the engine's text notation.
(Kept apart from games/models.py only for length; a model of the games app like any
other.)"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Move(models.Model):
    """One applied action, in the engine's text notation."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        TIMEOUT = "timeout", _("Turn timer")
        FORFEIT = "forfeit", _("Reconnect budget")

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="moves", verbose_name=_("match")
    )
    deal = models.ForeignKey(
        "games.Deal", on_delete=models.CASCADE, related_name="moves", verbose_name=_("deal")
    )
    seq = models.PositiveIntegerField(
        _("move number"), help_text=_("Position in the match, without gaps.")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.CharField(_("action"), max_length=64)
    source = models.CharField(
        _("source"), max_length=8, choices=Source.choices, default=Source.PLAYER
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    think_ms = models.PositiveIntegerField(_("thinking time (ms)"), default=0)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="unique_move_seq"),
        ]
        indexes = [models.Index(fields=["deal", "seq"])]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq}"
