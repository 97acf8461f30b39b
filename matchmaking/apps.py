from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"
    verbose_name = _("Matchmaking")

    def ready(self) -> None:
        from matchmaking import receivers  # noqa: F401
