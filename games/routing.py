"""WebSocket routes of the games app."""

from django.urls import path

from games import consumers

websocket_urlpatterns: list = [
    path("ws/games/<id:match_id>/", consumers.TableConsumer.as_asgi()),
]
