"""The error pages a visitor may meet, in the site's frame and the visitor's language.

Django's own pages for these are bare English text; the server error page is
``templates/500.html``, which Django renders with no context.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _page(request: HttpRequest, status: int, heading: str, explanation: str) -> HttpResponse:
    context = {"heading": heading, "explanation": explanation}
    return render(request, "errors/page.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, 400, _("Bad request"), _("The server could not read that request."))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, 403, _("Not allowed"), _("This page is not open to you."))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(
        request,
        404,
        _("Page not found"),
        _("There is no such page, or it is not open to you: a private table, say."),
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the cross-site request check (``CSRF_FAILURE_VIEW``)."""
    return _page(
        request,
        403,
        _("The form was out of date"),
        _(
            "The page was open for long, or you signed in or out in another tab. "
            "Go back, reload the page and try again."
        ),
    )
