from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpendataConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "opendata"
    verbose_name = _("Open game data")

    def ready(self) -> None:
        from opendata import receivers  # noqa: F401
