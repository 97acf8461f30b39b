"""The API's errors: JSON ``{"code": ..., "message": ...}`` with a stable code, whatever
refused the request (the token, the body, or a service's ``Refused``)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.services import Refused

logger = logging.getLogger(__name__)


class Error(Schema):
    code: str
    message: str


# The refusals an endpoint may answer with, for its schema.
ERRORS = {
    400: Error, 401: Error, 403: Error, 404: Error, 413: Error, 422: Error, 429: Error, 503: Error
}  # fmt: skip
# Seconds a client is asked to wait before sending a request the database was too busy for.
BUSY_RETRY_AFTER = 1


class ApiError(Exception):
    """A request the API itself refuses; nothing was changed."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra  # more fields of the body (``errors``: the fields at fault)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def install_error_handlers(api: NinjaAPI) -> None:
    """Every refusal of ``api`` answers as ``{"code", "message"}``."""

    def refused(request: HttpRequest, exc: Refused) -> HttpResponse:
        return api.create_response(request, error_body(exc.code, exc.message), status=exc.status)

    def api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        body = error_body(exc.code, exc.message, **exc.extra)
        return api.create_response(request, body, status=exc.status)

    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        message = _("Send a valid API token: Authorization: Bearer durak_…")
        return api.create_response(request, error_body("unauthorized", message), status=401)

    def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        # Pydantic's own words name the fields at fault; they are for programmers.
        details = [
            {"loc": [str(part) for part in error.get("loc", ())], "msg": str(error.get("msg", ""))}
            for error in exc.errors
        ]
        body = error_body("malformed", _("The request is not well formed."), errors=details)
        return api.create_response(request, body, status=422)

    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        code = {400: "malformed", 404: "not_found", 429: "rate_limited"}.get(
            exc.status_code, "refused"
        )
        return api.create_response(request, error_body(code, str(exc)), status=exc.status_code)

    def busy(request: HttpRequest, exc: OperationalError) -> HttpResponse:
        # The database could not serve the request in time: no free connection in the
        # pool, or its write lock held past the timeout.  The request may be sent again;
        # an action that went through before the failure is then refused as stale, and
        # the stream shows it.
        logger.warning("API request %s answered busy: %s", request.path, exc)
        message = _("The site is busy; try again in a moment.")
        response = api.create_response(request, error_body("busy", message), status=503)
        response["Retry-After"] = str(BUSY_RETRY_AFTER)
        return response

    api.add_exception_handler(Refused, refused)
    api.add_exception_handler(ApiError, api_error)
    api.add_exception_handler(AuthenticationError, unauthenticated)
    api.add_exception_handler(ValidationError, invalid)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(OperationalError, busy)
