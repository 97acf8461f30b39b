"""Installs the site's own admin site in place of Django's default one, and names the
task queue's app in the admin's language.

Every ``admin.site.register`` and ``@admin.register`` elsewhere keeps working:
``admin.site`` is this site.
"""

from django.contrib.admin.apps import AdminConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_tasks_db.apps import TasksAppConfig

# Names the task queue's admin shows through gettext: listed so they reach the catalogue.
TASK_QUEUE_NAMES = [gettext_noop("Task Result"), gettext_noop("Task Results")]


class DurakAdminConfig(AdminConfig):
    default_site = "moderation.sites.DurakAdminSite"


class TaskQueueConfig(TasksAppConfig):
    """The task queue's database app, as its admin section is titled."""

    verbose_name = _("Background tasks")
