"""``/healthz``: is this process able to serve games?

It checks the two things every process shares with the others: the database
(a trivial query) and the channel layer (a message sent to a fresh channel and
received back, which goes through Redis when channels-redis is configured).
200 with ``{"database": "ok", "channel_layer": "ok"}`` when both work, else 503
naming the failing part. No details of the error leave the process: they go to
the log.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

# A load balancer marks a process dead when this is exceeded, so keep it short.
CHECK_TIMEOUT = 3.0


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    if row is None or row[0] != 1:
        raise RuntimeError(f"SELECT 1 returned {row!r}")


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError(f"unexpected message {message!r}")


async def _run(name: str, check) -> str:
    try:
        await asyncio.wait_for(check(), timeout=CHECK_TIMEOUT)
    except Exception:
        logger.exception("health check failed: %s", name)
        return "error"
    return "ok"


@never_cache
@require_safe
async def healthz(request: HttpRequest) -> JsonResponse:
    # thread_sensitive keeps the query on the thread that owns Django's connections.
    database = await _run("database", sync_to_async(_check_database, thread_sensitive=True))
    channel_layer = await _run("channel_layer", _check_channel_layer)
    body = {"database": database, "channel_layer": channel_layer}
    status = 200 if database == "ok" and channel_layer == "ok" else 503
    return JsonResponse(body, status=status)
