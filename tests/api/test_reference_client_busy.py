"""The reference client sends a move again when the site answers it busy (503), after
the wait the answer asks, and gives up after ``BUSY_RETRIES``; other refusals at once."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import BUSY_RETRIES, ApiError, DurakClient  # noqa: E402


class Site:
    """Answers each POST with the next of ``answers`` (status, code), then 200."""

    def __init__(self, answers: list[tuple[int, str]]) -> None:
        self.answers = list(answers)
        self.posts: list[dict] = []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                site.posts.append(json.loads(self.rfile.read(length)))
                status, code = site.answers.pop(0) if site.answers else (200, "")
                body = {"match_id": 7, "version": 4, "action": "0 take", "is_over": False}
                if status != 200:
                    body = {"code": code, "message": "no"}
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 503:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


@pytest.fixture
def serve() -> Iterator:
    servers = []

    def start(site: Site) -> DurakClient:
        server = ThreadingHTTPServer(("127.0.0.1", 0), site.handler())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return DurakClient(f"http://127.0.0.1:{server.server_port}", "durak_x", timeout=5)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_a_move_answered_busy_is_sent_again_until_it_is_played(serve):
    site = Site([(503, "busy"), (503, "busy")])
    answer = serve(site).play(7, "0 take", 3)
    assert answer["version"] == 4
    assert site.posts == [{"action": "0 take", "version": 3}] * 3


def test_a_site_busy_past_the_retries_is_an_error(serve):
    site = Site([(503, "busy")] * (BUSY_RETRIES + 1))
    with pytest.raises(ApiError) as refused:
        serve(site).play(7, "0 take", 3)
    assert (refused.value.status, refused.value.code) == (503, "busy")
    assert len(site.posts) == BUSY_RETRIES + 1


def test_a_refusal_that_is_not_busy_is_not_sent_again(serve):
    site = Site([(400, "stale")])
    with pytest.raises(ApiError) as refused:
        serve(site).play(7, "0 take", 3)
    assert refused.value.code == "stale"
    assert len(site.posts) == 1
