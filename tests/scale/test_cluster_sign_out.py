"""A session that ends closes its user's sockets on every process within a second: the
admin's log-out (the admin site's own page), and the session's row deleted (the admin
or a shell).  Two daphne processes on PostgreSQL and Redis; the sockets' heartbeat
(20 s, checking every third beat) is far off."""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from durak_site.cluster import Cluster
from tests.security.realsockets import frames_until_closed

from .conftest import db, in_own_loop, needs_cluster_backends

# The cluster's fixtures: its processes, its Redis prefix, its flush's retries.
from .test_cluster import channels_prefix, cluster, flush_retries, new_table  # noqa: F401
from .wsclient import TableClient

pytestmark = [needs_cluster_backends, pytest.mark.django_db(transaction=True)]


def admin_log_out(user, cookie: str) -> None:
    """A staff member logs out of the admin site, on this process."""
    get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
    client = Client()
    client.cookies["sessionid"] = cookie
    assert client.post(reverse("admin:logout")).status_code == 302


def session_deleted(user, cookie: str) -> None:
    Session.objects.filter(session_key=cookie).delete()


@pytest.mark.parametrize("end", [admin_log_out, session_deleted], ids=["admin", "deleted"])
@in_own_loop
async def test_an_ended_session_closes_the_users_sockets_on_every_process_within_a_second(
    cluster: Cluster,  # noqa: F811  (the fixture imported above)
    end,
) -> None:
    match, users, cookies = await db(new_table)
    sockets = [TableClient(node.url, match.pk, cookies[0]) for node in cluster.nodes]
    for sock in sockets:
        await sock.open()
    loop = asyncio.get_running_loop()
    started = loop.time()
    await db(end, users[0], cookies[0])
    closed = await asyncio.gather(*(frames_until_closed(sock, timeout=5) for sock in sockets))
    took = loop.time() - started
    assert [code for _frames, code in closed] == [4401, 4401]
    assert all(any("session has ended" in f for f in frames) for frames, _code in closed)
    assert took < 1.0, f"the sockets closed {took:.2f} s after the session ended"
