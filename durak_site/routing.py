"""WebSocket URL routes, gathered from the apps, and a refusal for every other path."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from arena.routing import websocket_urlpatterns as arena_websocket_urlpatterns
from friends.routing import websocket_urlpatterns as friends_websocket_urlpatterns
from table.routing import websocket_urlpatterns as table_websocket_urlpatterns

CLOSE_NOT_FOUND = 4404


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any socket path no app serves (``/ws/games/-1/``): refused at the handshake.

    Without it the router raises, and the server logs a traceback for each such request.
    """

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    *table_websocket_urlpatterns,
    *friends_websocket_urlpatterns,
    *arena_websocket_urlpatterns,
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
