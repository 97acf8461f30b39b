"""The open-data page and its files, served by the site itself (streamed from disk)."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from opendata import files


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "opendata/index.html", {"month_files": files.month_files()})


@require_GET
def download(request: HttpRequest, year: int, month: int) -> FileResponse:
    if not 1 <= month <= 12:
        raise Http404("no such month")
    described = files.month_file(year, month)
    if described is None:
        raise Http404("no file for this month")
    # Sent as the .gz file it is (no Content-Encoding): what is saved is what the page's
    # SHA-256 is of.
    return FileResponse(
        files.data_path(described).open("rb"),
        as_attachment=True,
        filename=described.filename,
        content_type="application/gzip",
    )
