"""A table's chat: each line said at a table, to its players or its spectators.
(Kept apart from games/models.py only for length; a model of the games app like any
other.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ModeratedLine(models.Model):
    """When a chat line was said, and whether a moderator hid it: what every chat's
    lines share (``ChatMessage`` at a table, ``arena.ArenaChatMessage`` in an arena)."""

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
        abstract = True
        ordering = ["created_at"]


class ChatMessage(ModeratedLine):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    class Phrase(models.TextChoices):
        """Said with one click, and read by each reader in their own language."""

        GOOD_LUCK = "good_luck", _("Good luck!")
        GOOD_GAME = "good_game", _("Good game!")
        WELL_PLAYED = "well_played", _("Well played!")
        THANKS = "thanks", _("Thanks!")
        OOPS = "oops", _("Oops!")
        ONE_MORE = "one_more", _("One more game?")

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
    text = models.CharField(_("text"), max_length=300, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=12, choices=Phrase.choices, blank=True)

    class Meta(ModeratedLine.Meta):
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.user}: {self.words[:40]}"

    @property
    def words(self) -> str:
        """What the line says, a quick phrase in the active language."""
        return str(self.get_phrase_display()) if self.phrase else self.text
