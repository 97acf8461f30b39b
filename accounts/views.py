from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import CreateView, DetailView

from accounts.forms import SignUpForm
from accounts.ratelimit import client_ip, count_one
from accounts.socket_news import account_changed


class LogoutView(auth_views.LogoutView):
    """Django's log-out, which also closes the sockets of the session it ends."""

    def post(self, request, *args, **kwargs):
        user_id = request.user.pk
        response = super().post(request, *args, **kwargs)
        if user_id is not None:  # the session is gone now: its sockets' check fails
            account_changed(user_id)
        return response


class SignUpView(CreateView):
    form_class = SignUpForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy("games:lobby")

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect(self.success_url)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        # Accounts are free to make, so they are limited per address: a client with
        # many accounts could otherwise take many users' shares (analyses, say).
        key = f"signup:ip:{client_ip(self.request)}"
        if count_one(key, settings.SIGNUP_RATE_LIMIT_WINDOW) > settings.SIGNUP_RATE_LIMIT_ACCOUNTS:
            minutes = max(1, settings.SIGNUP_RATE_LIMIT_WINDOW // 60)
            form.add_error(
                None,
                ngettext(
                    "Too many accounts were made from your network; try again in %(minutes)d minute.",
                    "Too many accounts were made from your network; try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            return self.form_invalid(form)
        # The language the sign-up page was read in follows the new player everywhere.
        form.instance.language = self.request.LANGUAGE_CODE
        response = super().form_valid(form)
        login(self.request, self.object, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, _("Welcome, %(name)s!") % {"name": self.object.username})
        return response


class ProfileView(DetailView):
    template_name = "accounts/profile.html"
    context_object_name = "profile_user"

    def get_object(self, queryset=None):
        return get_object_or_404(get_user_model(), username__iexact=self.kwargs["username"])
