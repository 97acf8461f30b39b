"""The site as an installable app: its web app manifest, its service worker, and the
page the worker shows when the network is gone.

The worker keeps nothing of the game: every page and push comes from the server as
before. It only stores the offline page (and the stylesheet it uses) when it installs,
and answers a page load that cannot reach the server with it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The header's green: the phone's status bar and the splash screen match the site.
THEME_COLOUR = "#164a30"
BACKGROUND_COLOUR = "#f6f4ef"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the language the request asks for."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    data = {
        "name": _("Durak Online"),
        "short_name": _("Durak"),
        "description": _(
            "Play podkidnoy and perevodnoy Durak with friends or bots, in teams or alone, "
            "and replay every game move by move."
        ),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


# A browser checks for a new worker on every visit; it must never take an old one from
# a cache, or the site's new stylesheet would wait for the cache to expire.
@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "offline_url": "/offline/",
        "stylesheet": static("css/site.css"),
        "icon": static("icons/icon-192.png"),
    }
    response = render(request, "pwa/sw.js", context, content_type="text/javascript")
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html", {"stylesheet": static("css/site.css")})
