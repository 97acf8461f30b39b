"""Installs the site's own admin site in place of Django's default one.

Every ``admin.site.register`` and ``@admin.register`` elsewhere keeps working:
``admin.site`` is this site.
"""

from django.contrib.admin.apps import AdminConfig
from django.utils.translation import gettext_noop

# Names the task queue's admin shows through gettext: listed so they reach the catalogue.
TASK_QUEUE_NAMES = [gettext_noop("Task Result"), gettext_noop("Task Results")]


class DurakAdminConfig(AdminConfig):
    default_site = "moderation.sites.DurakAdminSite"
