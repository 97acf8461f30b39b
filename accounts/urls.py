from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import RateLimitedAuthenticationForm

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
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("players/", views.PlayerSearchView.as_view(), name="players"),
    path("u/<str:username>/", views.ProfileView.as_view(), name="profile"),
]
