"""The arena's WebSocket route: its page's socket."""

from django.urls import path

from arena.socket import ArenaSocket

websocket_urlpatterns: list = [
    path("ws/arena/<int:arena_id>/", ArenaSocket.as_asgi()),
]
