from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site as a whole: its worker commands, and how it serves a request."""

    name = "durak_site"

    def ready(self) -> None:
        # Closes each ASGI request's database connections as the request ends.
        from durak_site import request_connections  # noqa: F401
