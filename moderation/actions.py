"""Admin actions that ask for something (a reason, a duration) before acting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

APPLY = "_apply"


def with_form(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet,
    *,
    form_class: type[forms.Form],
    title: str,
    submit_label: str,
    apply: Callable[[dict[str, Any]], None],
) -> TemplateResponse | None:
    """Show ``form_class`` for the selected objects; once it is valid, call
    ``apply(cleaned_data)`` and go back to the list (by returning None)."""
    if APPLY in request.POST:
        form = form_class(request.POST)
        if form.is_valid():
            apply(form.cleaned_data)
            return None
    else:
        form = form_class()
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "subtitle": None,
        "form": form,
        "objects": list(queryset[:200]),
        "count": queryset.count(),
        "action": request.POST.get("action", ""),
        "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
        "select_across": request.POST.get("select_across", "0"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "apply_name": APPLY,
        "submit_label": submit_label,
        "opts": opts,
        "app_label": opts.app_label,
        "media": modeladmin.media + form.media,
    }
    return TemplateResponse(request, "admin/moderation/action_form.html", context)
