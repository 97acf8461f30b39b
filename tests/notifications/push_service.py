"""A push service of the tests' own: it takes pushes as a browser's push service does,
keeps them, and answers as it is told."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakePushService(ThreadingHTTPServer):
    """Takes pushes as a push service does, keeps them, answers ``status``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), PushHandler)
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class PushHandler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the server's name for it)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        # Header names are case-insensitive: kept in lower case.
        headers = {name.lower(): value for name, value in self.headers.items()}
        self.server.received.append((self.path, headers, body))
        self.send_response(self.server.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@contextmanager
def running_push_service() -> Iterator[FakePushService]:
    server = FakePushService()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
