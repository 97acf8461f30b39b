from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from accounts.language import set_language
from api.endpoints import api
from durak_site import pwa
from durak_site.health import healthz


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    # Browsers ask for /favicon.ico whatever the page links to.
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("accounts.urls")),
    path("", include("table.urls")),
    path("", include("matchmaking.urls")),
    path("", include("friends.urls")),
    path("", include("history.urls")),
    path("", include("moderation.urls")),
    path("", include("analysis.urls")),
    path("", include("puzzles.urls")),
    path("", include("daily.urls")),
    path("", include("api.urls")),
    path("", include("opendata.urls")),
    path("", include("arena.urls")),
    path("api/", api.urls),
    path("", include("notifications.urls")),
]

handler400 = "durak_site.errors.bad_request"
handler403 = "durak_site.errors.permission_denied"
handler404 = "durak_site.errors.page_not_found"
