from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    """The live table: the lobby and table pages, the table socket, the table's
    renders, and the bot worker that plays its bots."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "table"
    verbose_name = _("Live table")
