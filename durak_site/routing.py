"""WebSocket URL routes, gathered from the apps, and a refusal for every other path.

The table's socket is composed here, above every app it draws on: the games app's
table socket, the hints (analysis) and the friends' invite notice.  A lower app
never imports a higher one (tests/layers).
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from analysis.consumers import HintingTableConsumer
from friends.consumers import InviteNotices
from friends.routing import websocket_urlpatterns as friends_websocket_urlpatterns
from matchmaking.routing import websocket_urlpatterns as matchmaking_websocket_urlpatterns

CLOSE_NOT_FOUND = 4404


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any socket path no app serves (``/ws/games/-1/``): refused at the handshake.

    Without it the router raises, and the server logs a traceback for each such request.
    """

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


class TableSocket(InviteNotices, HintingTableConsumer):
    """``/ws/games/<id>/``: the table, its hints, and a friend's invite notice."""


websocket_urlpatterns = [
    path("ws/games/<id:match_id>/", TableSocket.as_asgi()),
    *matchmaking_websocket_urlpatterns,
    *friends_websocket_urlpatterns,
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
