from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from accounts.language import set_language
from analysis import replay_page
from daily import leaderboards
from durak_site import pwa
from durak_site.health import healthz
from games.urls import urlpatterns as games_urlpatterns
from history.urls import urlpatterns as history_urlpatterns
from matchmaking import pages


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    # Browsers ask for /favicon.ico whatever the page links to.
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# A page that shows an app's things with what the apps above it add keeps its
# place in the lower app's URL namespace, but its view lives in the higher app:
# a lower app never imports a higher one (tests/layers).  The routes are joined here.
games_routes = [
    path("", pages.lobby, name="lobby"),
    path("games/new/", pages.create_table, name="create"),
    path("games/live/", pages.live_games, name="live"),
    path("games/<id:match_id>/", pages.table, name="table"),
    *games_urlpatterns,
]
history_routes = [
    path("games/<id:pk>/replay/", replay_page.replay, name="replay"),
    path("leaderboard/", leaderboards.leaderboard, name="leaderboard"),
    *history_urlpatterns,
]

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("accounts.urls")),
    path("", include((games_routes, "games"))),
    path("", include("matchmaking.urls")),
    path("", include("friends.urls")),
    path("", include((history_routes, "history"))),
    path("", include("moderation.urls")),
    path("", include("analysis.urls")),
    path("", include("puzzles.urls")),
    path("", include("daily.urls")),
]

handler400 = "durak_site.errors.bad_request"
handler403 = "durak_site.errors.permission_denied"
handler404 = "durak_site.errors.page_not_found"
