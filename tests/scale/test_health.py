"""/healthz reports the database and the channel layer, and fails loudly when either is down."""

import json

import pytest
from django.test import Client

from durak_site import health
from tests.subprocesses import run_python

pytestmark = pytest.mark.django_db


def test_healthy_process_answers_200_with_both_parts_ok(client: Client, monkeypatch) -> None:
    # The shared test machine can be slow; the timeout has its own test below.
    monkeypatch.setattr(health, "CHECK_TIMEOUT", 30.0)
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"database": "ok", "channel_layer": "ok"}
    # A load balancer must never get a cached answer.
    assert "no-cache" in response.get("Cache-Control", "")


def test_database_failure_gives_503_naming_the_database(client: Client, monkeypatch) -> None:
    def broken() -> None:
        raise RuntimeError("connection refused")

    monkeypatch.setattr(health, "_check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content) == {"database": "error", "channel_layer": "ok"}


def test_channel_layer_failure_gives_503_naming_the_layer(client: Client, monkeypatch) -> None:
    class DeadLayer:
        async def new_channel(self, prefix: str = "") -> str:
            raise ConnectionError("redis down")

    monkeypatch.setattr(health, "get_channel_layer", lambda: DeadLayer())
    response = client.get("/healthz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body == {"database": "ok", "channel_layer": "error"}
    # The error text stays in the log; the body names only the failing part.
    assert "redis" not in response.content.decode()


def test_channel_layer_that_hangs_times_out_as_503(client: Client, monkeypatch) -> None:
    import asyncio

    class HangingLayer:
        async def new_channel(self, prefix: str = "") -> str:
            return "healthz.x"

        async def send(self, channel: str, message: dict) -> None:
            return None

        async def receive(self, channel: str) -> dict:
            await asyncio.sleep(60)
            return {}

    monkeypatch.setattr(health, "CHECK_TIMEOUT", 0.2)
    monkeypatch.setattr(health, "get_channel_layer", lambda: HangingLayer())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content)["channel_layer"] == "error"


def test_healthz_refuses_writes(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


def test_healthz_in_production_mode_behind_a_proxy() -> None:
    """With DJANGO_DEBUG=0 the check answers through the proxy headers documented in deploy.md."""
    code = (
        "import django, json; django.setup();"
        "from django.test.utils import setup_test_environment; setup_test_environment();"
        "from django.test import Client; c = Client();"
        "ok = c.get('/healthz', HTTP_HOST='durak.example.org', HTTP_X_FORWARDED_PROTO='https');"
        "plain = c.get('/healthz', HTTP_HOST='durak.example.org');"
        "print(json.dumps([ok.status_code, ok.json()['channel_layer'], plain.status_code]))"
    )
    result = run_python(
        "-c",
        code,
        drop={"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"},
        env={
            "DJANGO_SETTINGS_MODULE": "durak_site.settings",
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": "q8#vK2!mZp0@rT5^wX9&yB3*nC7(eF1)hJ4_lM6+sA8=dG2?uI0",
            "ALLOWED_HOSTS": "durak.example.org",
            "SQLITE_PATH": ":memory:",
        },
    )
    assert result.returncode == 0, result.stderr[-2000:]
    status, layer, plain = json.loads(result.stdout.strip().splitlines()[-1])
    # SELECT 1 works on an empty database, so the proxied check is fully healthy.
    assert (status, layer) == (200, "ok")
    assert plain == 301
