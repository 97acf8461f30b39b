from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Before any urls or routing module is read: their routes use <id:...>.
        from games import converters

        converters.register()
        # Connects the receiver that tells a user's open sockets of account news.
        from games import socket_guard  # noqa: F401
