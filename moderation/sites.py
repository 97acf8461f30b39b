"""The admin site: Django's, plus the statistics dashboard."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, path
from django.utils.translation import gettext_lazy as _


class DurakAdminSite(admin.AdminSite):
    site_header = _("Durak Online administration")
    site_title = _("Durak Online admin")
    index_title = _("Site administration")

    def get_urls(self) -> list[URLPattern | URLResolver]:
        from moderation.views import dashboard

        return [
            path("dashboard/", self.admin_view(dashboard), name="dashboard"),
            *super().get_urls(),
        ]
