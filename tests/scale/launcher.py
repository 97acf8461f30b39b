"""The launcher of `make run` and `make run-cluster` (``python -m durak_site.cluster``)
as a child of a test, on the test's database, with its output read line by line."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid

from django.db import connection

from durak_site.cluster import ROOT
from tests.redis_db import redis_url_for_tests


def launcher_env(**extra: str) -> dict[str, str]:
    """This process's environment on the test database (and Redis, under a prefix of
    its own), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    name = connection.settings_dict["NAME"]
    env["LOG_LEVEL"] = "WARNING"
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        env["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    if os.environ.get("REDIS_URL"):
        prefix = f"durak-launcher-{uuid.uuid4().hex[:8]}"
        env.update(
            REDIS_URL=redis_url_for_tests(os.environ["REDIS_URL"]),
            CHANNELS_PREFIX=prefix,
            CACHE_PREFIX=prefix,
        )
    env.update(extra)
    return env


class Launcher:
    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        connection.close()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "durak_site.cluster", "--no-migrate", *args],
            cwd=ROOT,
            env=launcher_env(**(env or {})),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"never printed {text!r}:\n{''.join(self.seen)}")

    def printed(self) -> str:
        """Everything its processes printed so far (for a failing test's message)."""
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                return "".join(self.seen)

    def pid_of(self, name: str) -> int:
        line = next(line for line in self.seen if name in line and "(pid" in line)
        return int(line.rsplit("(pid ", 1)[1].rstrip(")\n"))

    def children(self) -> list[int]:
        """The processes it started, as it listed them."""
        return [
            int(line.rsplit("(pid ", 1)[1].rstrip(")\n")) for line in self.seen if "(pid" in line
        ]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)


def serves(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie is gone for our purposes; only its parent can reap it.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ", 1)[1].startswith("Z")
