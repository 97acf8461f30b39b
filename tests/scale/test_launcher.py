"""The launcher of `make run` and `make run-cluster`: a killed process comes back while
the others keep serving; Ctrl-C, or closing the terminal (SIGHUP), stops every process
it started; a port already taken stops the launch with a word why."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid

import pytest
from django.db import connection

from durak_site.cluster import ROOT, free_port
from tests.redis_db import redis_url_for_tests

pytestmark = pytest.mark.django_db(transaction=True)


def _env() -> dict[str, str]:
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
    return env


class Launcher:
    def __init__(self, *args: str) -> None:
        connection.close()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "durak_site.cluster", "--no-migrate", *args],
            cwd=ROOT,
            env=_env(),
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

    def pid_of(self, name: str) -> int:
        line = next(line for line in self.seen if name in line and "(pid" in line)
        return int(line.rsplit("(pid ", 1)[1].rstrip(")\n"))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)


def _serves(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie is gone for our purposes; only its parent can reap it.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ", 1)[1].startswith("Z")


def test_a_killed_web_process_or_worker_comes_back_and_ctrl_c_stops_all():
    shared = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    ports = [free_port(), free_port()] if shared else [free_port()]
    args = ["--ports", ",".join(map(str, ports)), "--workers", "1"]
    launcher = Launcher(*args) if shared else Launcher("--embedded", *args)
    try:
        launcher.wait_for("Ctrl-C stops them all")
        first, worker = launcher.pid_of(f":{ports[0]}/"), launcher.pid_of("task worker 1")
        os.kill(first, signal.SIGKILL)
        died = launcher.wait_for(f"daphne on port {ports[0]} died")
        if shared:
            assert f"port {ports[1]} keeps serving" in died
            assert _serves(ports[1])
        back = launcher.wait_for(f"daphne on port {ports[0]} is back")
        assert _serves(ports[0])
        second = int(back.rsplit("pid ", 1)[1].rstrip(")\n"))
        assert second != first
        os.kill(worker, signal.SIGKILL)
        launcher.wait_for("task worker 1 died")
        back = launcher.wait_for("task worker 1 is back")
        children = [first, second, worker, int(back.rsplit("pid ", 1)[1].rstrip(")\n"))]
        bots = launcher.pid_of("bot worker 1")
        os.kill(bots, signal.SIGKILL)
        launcher.wait_for("bot worker 1 died")
        back = launcher.wait_for("bot worker 1 is back")
        children += [bots, int(back.rsplit("pid ", 1)[1].rstrip(")\n"))]
        children += [launcher.pid_of(f":{port}/") for port in ports[1:]]
    finally:
        launcher.stop()
    assert launcher.process.returncode == 0
    assert not any(_serves(port) for port in ports)
    assert all(_gone(pid) for pid in children)


def test_closing_the_terminal_stops_every_process_the_launcher_started():
    port = free_port()
    launcher = Launcher("--embedded", "--ports", str(port), "--workers", "1", "--bot-workers", "2")
    try:
        launcher.wait_for("Ctrl-C stops them all")
        names = [f":{port}/", "task worker 1", "bot worker 1", "bot worker 2"]
        children = [launcher.pid_of(name) for name in names]
        assert _serves(port)
        launcher.process.send_signal(signal.SIGHUP)
        launcher.process.wait(timeout=30)
    finally:
        launcher.stop()
    assert launcher.process.returncode == 0
    assert not _serves(port)
    assert all(_gone(pid) for pid in children)


def test_a_launch_on_a_port_in_use_says_so_and_exits():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        launcher = Launcher("--embedded", "--ports", str(port))
        try:
            said = launcher.wait_for("already in use")
            launcher.process.wait(timeout=30)
        finally:
            launcher.stop()
    assert str(port) in said
    assert launcher.process.returncode == 1
    assert not any("(pid" in line for line in launcher.seen)
