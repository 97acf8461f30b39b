from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arena"
    verbose_name = _("Arena tournaments")

    def ready(self) -> None:
        from arena import profile, receivers  # noqa: F401
