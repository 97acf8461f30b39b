from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language
from durak_site.health import healthz

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("history.urls")),
    path("", include("moderation.urls")),
    path("", include("analysis.urls")),
]
