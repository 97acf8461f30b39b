"""The launcher of `make run` and `make run-cluster`: a killed process comes back while
the others keep serving; Ctrl-C, or closing the terminal (SIGHUP), stops every process
it started; a port already taken stops the launch with a word why."""

from __future__ import annotations

import os
import signal
import socket

import pytest

from durak_site.cluster import free_port

from .launcher import Launcher, gone, serves

pytestmark = pytest.mark.django_db(transaction=True)


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
            assert serves(ports[1])
        back = launcher.wait_for(f"daphne on port {ports[0]} is back")
        assert serves(ports[0])
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
    assert not any(serves(port) for port in ports)
    assert all(gone(pid) for pid in children)


def test_closing_the_terminal_stops_every_process_the_launcher_started():
    port = free_port()
    launcher = Launcher("--embedded", "--ports", str(port), "--workers", "1", "--bot-workers", "2")
    try:
        launcher.wait_for("Ctrl-C stops them all")
        names = [f":{port}/", "task worker 1", "bot worker 1", "bot worker 2"]
        children = [launcher.pid_of(name) for name in names]
        assert serves(port)
        launcher.process.send_signal(signal.SIGHUP)
        launcher.process.wait(timeout=30)
    finally:
        launcher.stop()
    assert launcher.process.returncode == 0
    assert not serves(port)
    assert all(gone(pid) for pid in children)


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
