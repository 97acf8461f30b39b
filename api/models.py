"""Personal API tokens: a program acts for its player with one, within its scopes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("Read: account, profiles, games")
    PLAY = "play", _("Play: move, resign and follow your games")
    BOT = "bot", _("Bot: open tables against the site's bots")


class ApiToken(models.Model):
    """One token of a player.  Only the SHA-256 of the secret is kept: the secret is
    shown once, when it is made, and a leaked table of digests opens nothing."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=40)
    # Space-separated ``Scope`` values.
    scopes = models.CharField(_("scopes"), max_length=40)
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    # The secret's first characters, so a player can tell their tokens apart.
    prefix = models.CharField(_("prefix"), max_length=16)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user_id} {self.name} {self.prefix}…"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    def allows(self, scope: str) -> bool:
        return scope in self.scope_list
