"""A table's chat: each line said at a table, to its players or its spectators.
(Kept apart from games/models.py only for length; a model of the games app like any
other.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("match"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("user"),
    )
    channel = models.CharField(
        _("channel"), max_length=10, choices=Channel.choices, default=Channel.PLAYERS
    )
    text = models.CharField(_("text"), max_length=300)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    is_hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"
