"""WebSocket routes of the matchmaking app: the lobby's socket."""

from django.urls import path

from matchmaking.consumers import LobbyConsumer

websocket_urlpatterns: list = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
