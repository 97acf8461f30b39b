from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser's push subscription: where the push service takes this user's pushes,
    and the keys the browser decrypts them with."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("browser's public key"), max_length=100)
    auth = models.CharField(_("authentication secret"), max_length=40)
    # The page's language when subscribing: the pushes' language while the account
    # has chosen none.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"

    def info(self) -> dict:
        """The subscription as the push library takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
