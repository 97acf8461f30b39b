from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "history"
    verbose_name = _("History and ratings")

    def ready(self) -> None:
        from history import profile, receivers  # noqa: F401
