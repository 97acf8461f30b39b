from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    PasswordResetForm,
    UserChangeForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from accounts.confusables import skeleton
from accounts.notices import suspension_notice
from accounts.ratelimit import LoginThrottle, client_ip, count_one, window_is_full


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


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's password-reset form, sending at most ``PASSWORD_RESET_LIMIT`` mails per
    window for one IP address and for one address asked for. Past that it sends nothing
    and the page reads as always, so it neither floods an inbox nor tells who is
    registered."""

    def save(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        address = self.cleaned_data["email"].casefold()
        keys = [f"password-reset:ip:{client_ip(request)}", f"password-reset:email:{address}"]
        if any(window_is_full(key, settings.PASSWORD_RESET_LIMIT) for key in keys):
            return
        for key in keys:
            count_one(key, settings.PASSWORD_RESET_WINDOW)
        super().save(*args, request=request, **kwargs)


class EmailForm(forms.ModelForm):
    """The account's email address (blank: none), changed only with the password, so
    that a borrowed session cannot send the next password reset elsewhere."""

    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)

    class Meta:
        model = get_user_model()
        fields = ("email",)
        help_texts = {"email": _("Optional. Used only to recover your password.")}

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.instance.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password
