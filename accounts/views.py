from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Case, When
from django.db.models.functions import Lower
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.generic import CreateView, DetailView, ListView, UpdateView

from accounts.forms import EmailForm, SignUpForm
from accounts.guests import too_many_accounts
from accounts.profile_sections import rendered_sections
from accounts.ratelimit import client_ip


class LogoutView(auth_views.LogoutView):
    """Django's log-out; its ``user_logged_out`` signal closes the sockets of the
    session it ends (``accounts.socket_news``), as every log-out's does."""


class SignUpView(CreateView):
    """Sign up; from a guest's session, the guest's own account becomes the player's
    (name, password, email), so the games it played stay theirs."""

    form_class = SignUpForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy(settings.LOGIN_REDIRECT_URL)

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not request.user.is_guest:
            return redirect(self.success_url)
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        if self.request.user.is_authenticated:  # a guest
            # A copy: a refused name must not show in the page's header meanwhile.
            kwargs["instance"] = get_user_model().objects.get(pk=self.request.user.pk)
            # The guest's generated name is no suggestion: they choose their own.
            kwargs["initial"] = {"username": ""}
        return kwargs

    def form_valid(self, form):
        guest = form.instance.pk is not None
        # Accounts are free to make, so they are limited per address: a client with
        # many accounts could otherwise take many users' shares (analyses, say).  A
        # guest signing up makes no new account: it was counted as a guest.
        refusal = None if guest else too_many_accounts(client_ip(self.request))
        if refusal:
            form.add_error(None, refusal)
            return self.form_invalid(form)
        form.instance.is_guest = False
        if not guest:
            # The language the sign-up page was read in follows the new player everywhere.
            form.instance.language = self.request.LANGUAGE_CODE
        response = super().form_valid(form)
        login(self.request, self.object, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, _("Welcome, %(name)s!") % {"name": self.object.username})
        return response


# The fewest letters a search needs: one letter would match most of the players.
SEARCH_MIN_LETTERS = 2
SEARCH_RESULTS = 20


class PlayerSearchView(ListView):
    """Find a player by name: the name itself first, then names starting with it,
    then names holding it, each group in alphabetical order."""

    template_name = "accounts/players.html"
    context_object_name = "players"

    def get_queryset(self):
        self.query = " ".join(self.request.GET.get("q", "").split())[:150]
        if len(self.query) < SEARCH_MIN_LETTERS:
            return get_user_model().objects.none()
        found = get_user_model().objects.filter(
            is_active=True, is_guest=False, username__icontains=self.query
        )
        closeness = Case(
            When(username__iexact=self.query, then=0),
            When(username__istartswith=self.query, then=1),
            default=2,
        )
        return found.order_by(closeness, Lower("username"))[:SEARCH_RESULTS]

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            query=self.query, min_letters=SEARCH_MIN_LETTERS, most=SEARCH_RESULTS, **kwargs
        )


class ProfileView(DetailView):
    """A player's page: the sections the apps above register (``profile_sections``)."""

    template_name = "accounts/profile.html"
    context_object_name = "profile_user"

    def get_object(self, queryset=None):
        return get_object_or_404(get_user_model(), username__iexact=self.kwargs["username"])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        user = self.object
        return super().get_context_data(
            sections=rendered_sections(self.request, user),
            below_card=rendered_sections(self.request, user, below_card=True),
            **kwargs,
        )


class EmailView(LoginRequiredMixin, UpdateView):
    """The signed-in player's email address, where a forgotten password's link goes."""

    form_class = EmailForm
    template_name = "accounts/email.html"
    success_url = reverse_lazy("accounts:email")

    def get_object(self, queryset: Any = None) -> Any:
        return self.request.user

    def form_valid(self, form: EmailForm) -> HttpResponse:
        messages.success(self.request, _("Your email address is saved."))
        return super().form_valid(form)
