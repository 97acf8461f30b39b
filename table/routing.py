"""The live table's WebSocket routes: the table socket and the lobby's."""

from django.urls import path

from table.consumers import TableSocket
from table.lobby_socket import LobbySocket

websocket_urlpatterns: list = [
    path("ws/games/<id:match_id>/", TableSocket.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
]
