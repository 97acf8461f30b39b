from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str):
        # Log-in accepts any capitalisation of the registered name.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A registered player.  Usernames are unique regardless of case."""

    objects = CaseInsensitiveUserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            )
        ]
