"""An abort from the admin reaches a seated player's open WebSocket."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import reverse

from durak_site.asgi import application
from games import services
from games.models import Match, RuleVariant

from .conftest import PASSWORD, User


def setup_table() -> tuple[Match, str, Client]:
    # A transactional test starts from an empty database: no migrated variants.
    variant = RuleVariant.objects.create(slug="plain", name="Plain")
    ivan = User.objects.create_user("ivan", password=PASSWORD)
    olga = User.objects.create_user("olga", password=PASSWORD)
    match = services.create_match(ivan, variant, 2)
    services.join_match(match, olga)
    player = Client()
    player.force_login(ivan)
    staff = Client()
    staff.force_login(User.objects.create_superuser("root", "", PASSWORD))
    return Match.objects.get(pk=match.pk), player.cookies["sessionid"].value, staff


def abort(staff: Client, match: Match, reason: str) -> None:
    staff.post(
        reverse("admin:games_match_changelist"),
        {"action": "abort", "_selected_action": [match.pk], "_apply": "1", "reason": reason},
    )


@pytest.mark.django_db(transaction=True)
async def test_abort_from_the_admin_reaches_a_connected_seat():
    match, cookie, staff = await sync_to_async(setup_table)()
    assert match.status == Match.Status.PLAYING
    socket = WebsocketCommunicator(
        application,
        f"/ws/games/{match.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
    )
    try:
        connected, _ = await socket.connect(timeout=10)
        assert connected
        assert "stopped" not in await socket.receive_from(timeout=5)

        await sync_to_async(abort)(staff, match, "Server maintenance tonight")

        frames = []
        while not any("Server maintenance tonight" in f for f in frames):
            frames.append(await socket.receive_from(timeout=5))
        assert "This table was stopped" in frames[-1]
        await socket.disconnect()
        match = await Match.objects.aget(pk=match.pk)
        assert match.status == Match.Status.ABORTED and not match.is_rated
    finally:
        # The socket's database work ran in a worker thread; its connection
        # would otherwise keep the test database open after the test.
        await sync_to_async(connections.close_all)()
