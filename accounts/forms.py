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
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.confusables import skeleton
from accounts.notices import suspension_notice
from accounts.ratelimit import LoginThrottle, client_ip, count_one, window_is_full
from accounts.tasks import send_password_reset_mail


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
    registered.

    The mail goes from the task worker (``accounts.tasks``), queued for any address:
    the request never looks the address up, so a known one answers as fast as an
    unknown one however slow the mail server is, and a mail waits in the task table
    while no worker runs.
    """

    def save(
        self,
        domain_override: str | None = None,
        subject_template_name: str = "registration/password_reset_subject.txt",
        email_template_name: str = "registration/password_reset_email.html",
        use_https: bool = False,
        token_generator: PasswordResetTokenGenerator = default_token_generator,
        from_email: str | None = None,
        request: HttpRequest | None = None,
        html_email_template_name: str | None = None,
        extra_email_context: dict[str, Any] | None = None,
    ) -> None:
        # The worker makes the token with Django's default generator, the one
        # PasswordResetView passes; another would be quietly ignored.
        if token_generator is not default_token_generator:
            raise ValueError("the queued reset mail makes its token with Django's default")
        address = self.cleaned_data["email"]
        keys = [
            f"password-reset:ip:{client_ip(request)}",
            f"password-reset:email:{address.casefold()}",
        ]
        if any(window_is_full(key, settings.PASSWORD_RESET_LIMIT) for key in keys):
            return
        for key in keys:
            count_one(key, settings.PASSWORD_RESET_WINDOW)
        if domain_override:
            domain = site_name = domain_override
        else:
            site = get_current_site(request)
            domain, site_name = site.domain, site.name
        send_password_reset_mail.enqueue(
            address=address,
            # The page's language, as Django's own form renders the mail in the request.
            language=translation.get_language(),
            domain=domain,
            site_name=site_name,
            use_https=use_https,
            subject_template_name=subject_template_name,
            email_template_name=email_template_name,
            from_email=from_email,
            html_email_template_name=html_email_template_name,
            extra_email_context=extra_email_context,
        )


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
