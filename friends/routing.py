"""WebSocket routes of the friends app: the notice socket of pages without their own."""

from django.urls import path

from friends.consumers import NoticeConsumer

websocket_urlpatterns: list = [
    path("ws/notices/", NoticeConsumer.as_asgi()),
]
