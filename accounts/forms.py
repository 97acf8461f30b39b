from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    UserChangeForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from accounts.confusables import skeleton
from accounts.notices import suspension_notice
from accounts.ratelimit import LoginThrottle, client_ip


class DistinctUsernameMixin:
    """Refuses a username that reads like another user's (``аlice`` beside ``alice``)."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        others = get_user_model().objects.exclude(pk=self.instance.pk)
        if others.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("A user with that username already exists."), code="duplicate_username"
            )
        if others.filter(username_skeleton=skeleton(username)).exists():
            raise forms.ValidationError(
                _("That username looks too much like one already taken; please choose another."),
                code="confusable_username",
            )
        return username


class SignUpForm(DistinctUsernameMixin, UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional. Used only to recover your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class AdminSignUpForm(DistinctUsernameMixin, AdminUserCreationForm):
    pass


class AdminUserForm(DistinctUsernameMixin, UserChangeForm):
    pass


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's log-in form, refusing to check passwords after too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _(
            "Too many failed log-in attempts. Please wait %(seconds)s seconds and try again."
        ),
    }

    def clean(self):
        throttle = LoginThrottle(
            ip=client_ip(self.request), username=self.cleaned_data.get("username") or ""
        )
        if throttle.is_blocked():
            raise forms.ValidationError(
                self.error_messages["rate_limited"],
                code="rate_limited",
                params={"seconds": settings.LOGIN_RATE_LIMIT_WINDOW},
            )
        try:
            return super().clean()
        except forms.ValidationError as error:
            if error.code == "invalid_login":
                throttle.record_failure()
            raise

    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        # Checked only after the password matched, so it tells nothing to a guesser.
        if getattr(user, "is_suspended", False):
            raise forms.ValidationError(suspension_notice(user), code="suspended")
