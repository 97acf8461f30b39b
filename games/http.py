"""A response every app's views share."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect


def go(request: HttpRequest, url: str) -> HttpResponse:
    """Send the browser to ``url``: htmx's client redirect when htmx asked (buttons of
    pushed panels post with htmx), a plain redirect otherwise."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
