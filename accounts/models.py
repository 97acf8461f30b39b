from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.confusables import skeleton
from accounts.socket_news import account_changed


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str):
        # Log-in accepts any capitalisation of the registered name.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A registered player.  Usernames are unique regardless of case."""

    objects = CaseInsensitiveUserManager()

    # Moderation.  A suspension with no end date and ``suspended_forever``
    # unset is not active; see ``is_suspended``.
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    suspended_forever = models.BooleanField(_("suspended for good"), default=False)
    suspension_reason = models.TextField(_("suspension reason"), blank=True)
    muted_until = models.DateTimeField(_("muted in chat until"), null=True, blank=True)
    # How the username reads (accounts.confusables), kept so that sign-up can refuse
    # a name that looks like one already taken with one indexed lookup.
    username_skeleton = models.CharField(
        _("name for telling look-alikes apart"),
        max_length=600,
        db_index=True,
        editable=False,
        default="",
    )
    # The player's reliability score (0-100), kept by the history app whenever a
    # finished game changes it (history.reliability.store_reliability).  It lives on
    # this row, not only in history, so that the table read, which already joins
    # each seat's user, shows it by the seat names at no extra query: the games app
    # sits below history and may not import it.
    reliability = models.PositiveSmallIntegerField(_("reliability"), default=100, editable=False)
    # Blank until they pick one: the browser's language applies meanwhile.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    # A guest plays at once without signing up (accounts.guests): unrated games only,
    # on no leaderboard, removed when idle; signing up clears it and keeps the games.
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True, editable=False)
    # A bot account plays through the API only (its owner turned it, once and for good,
    # while it had no games: matchmaking.bot_accounts); it is badged as a bot wherever its name
    # shows and is kept out of the pools where people are paired.
    is_bot = models.BooleanField(_("bot account"), default=False, db_index=True, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            )
        ]

    # Set by ``set_password`` on a saved user: the save tells their open sockets.
    password_replaced = False

    def set_password(self, raw_password: str | None) -> None:
        super().set_password(raw_password)
        self.password_replaced = self.pk is not None

    def save(self, *args, **kwargs) -> None:
        self.username_skeleton = skeleton(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        super().save(*args, **kwargs)
        if self.password_replaced:
            # Sessions signed in with the old password end: so do their sockets.
            self.password_replaced = False
            account_changed(self.pk)

    @property
    def is_suspended(self) -> bool:
        if self.suspended_forever:
            return True
        return self.suspended_until is not None and self.suspended_until > timezone.now()

    @property
    def is_muted(self) -> bool:
        return self.muted_until is not None and self.muted_until > timezone.now()
