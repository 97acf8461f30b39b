from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import RateLimitedAuthenticationForm, ThrottledPasswordResetForm

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.SignUpView.as_view(), name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            authentication_form=RateLimitedAuthenticationForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("accounts/logout/", views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(
            success_url=reverse_lazy("accounts:password_change_done")
        ),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        # Back to where a signed-in player lands (the site's LOGIN_REDIRECT_URL).
        auth_views.PasswordChangeDoneView.as_view(
            extra_context={"home_url": reverse_lazy(settings.LOGIN_REDIRECT_URL)}
        ),
        name="password_change_done",
    ),
    # Forgotten passwords, by Django's own views: a link by mail, a new password.
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=ThrottledPasswordResetForm,
            email_template_name="registration/password_reset_email.txt",
            success_url=reverse_lazy("accounts:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("accounts:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/email/", views.EmailView.as_view(), name="email"),
    path("players/", views.PlayerSearchView.as_view(), name="players"),
    path("u/<str:username>/", views.ProfileView.as_view(), name="profile"),
]
