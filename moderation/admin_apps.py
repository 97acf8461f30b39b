"""Installs the site's own admin site in place of Django's default one.

Every ``admin.site.register`` and ``@admin.register`` elsewhere keeps working:
``admin.site`` is this site.
"""

from django.contrib.admin.apps import AdminConfig


class DurakAdminConfig(AdminConfig):
    default_site = "moderation.sites.DurakAdminSite"
