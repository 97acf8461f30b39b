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
        # Connect their receivers: one tells a user's open sockets of account news,
        # the other closes each ASGI request's database connections as it ends.
        from games import request_connections, socket_guard  # noqa: F401
