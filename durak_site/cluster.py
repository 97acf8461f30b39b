"""Run daphne processes, task workers and bot workers against one database and layer.

``make run-cluster`` uses this module (and ``make run`` its :func:`serve`, with one
daphne, one task worker and one bot worker on the embedded SQLite); the
multi-process tests and the load benchmark reuse :class:`Cluster` to start, kill and
restart the processes.

Usage::

    python -m durak_site.cluster [--host 127.0.0.1] [--ports 8001,8002] [--workers 1]
                                 [--bot-workers 1] [--no-migrate]

Every web process is a plain ``daphne durak_site.asgi:application``, every task
worker ``manage.py task_worker`` (django-tasks' ``db_worker`` at a lower CPU priority)
and every bot worker ``manage.py bot_worker``: the processes share nothing but the
database and the channel layer, so any of them may serve any request or socket, and
no load balancer needs sticky sessions.  A process that dies is started again while
the others keep serving.  SIGINT, SIGTERM and SIGHUP (the terminal closed) stop them
all; a port that is already taken stops the launch before anything starts.

A stock process manager was weighed: honcho stops everything when one process
dies, and supervisord and circus take SIGHUP as "reload", not "stop", so neither
gives the restart and the terminal's close this launcher gives.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from durak_site.terminal import SafeStream, say
from games.stop_flag import StopFlag

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PORTS = (8001, 8002)
# How long a stop waits for a process to exit by itself before it kills it (each stops
# within 2 s: benchmarks/stop_time.py).
STOP_GRACE_SECONDS = 10.0


class ClusterError(RuntimeError):
    pass


# Below Linux's ephemeral range (32768-60999): a port the kernel hands out for an
# outgoing connection (to Redis, PostgreSQL, a test's client) could otherwise be taken
# between picking it here and daphne listening on it.
PICKED_PORTS = range(20000, 32768)


def free_port(host: str = "127.0.0.1") -> int:
    """A port outside the ephemeral range that was free a moment ago (tests and
    benchmarks pick ports this way)."""
    for _attempt in range(100):
        port = random.choice(PICKED_PORTS)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    raise ClusterError(f"no free port in {PICKED_PORTS.start}-{PICKED_PORTS.stop - 1}")


def require_shared_backends(env: Mapping[str, str]) -> None:
    """Several processes only make one site when they share the database and the layer."""
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not env.get(name)]
    if missing:
        raise ClusterError(
            f"{' and '.join(missing)} must be set: several daphne processes need a shared "
            "PostgreSQL database (DATABASE_URL) and a shared Redis channel layer (REDIS_URL), "
            "e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/durak "
            "REDIS_URL=redis://127.0.0.1:6379/0"
        )
    if not env["DATABASE_URL"].startswith(("postgres://", "postgresql://")):
        raise ClusterError("DATABASE_URL must point at PostgreSQL for a cluster")


def migrate(env: Mapping[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=dict(env),
        check=True,
    )


@dataclass
class Process:
    """One child process of the cluster, in a session of its own (Ctrl-C reaches only
    the launcher, which stops the children itself)."""

    env: dict[str, str]
    log_path: Path | None = None
    process: subprocess.Popen | None = None
    _log_file: object | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        raise NotImplementedError

    @property
    def command(self) -> list[str]:
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        if self.alive:
            return
        command = self.command
        if self.log_path is not None:
            self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - lives as long as the process
            out = err = self._log_file
        else:
            out = err = None
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=out, stderr=err, start_new_session=True
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        if not self.alive:
            raise ClusterError(f"{self.name} exited early{self._log_tail()}")

    def _log_tail(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n" + self.log_path.read_text(errors="replace")[-2000:]

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run, exactly as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = STOP_GRACE_SECONDS) -> None:
        self.terminate()
        self.wait_stopped(timeout)

    def terminate(self) -> None:
        """SIGTERM: the process finishes or gives back the work in hand, then exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait_stopped(self, timeout: float) -> None:
        """Wait for the process to exit after ``terminate``; SIGKILL it past ``timeout``."""
        if self.process is not None and self.process.poll() is None:
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                # Say whom, and where it hung: every process of the site prints its
                # threads' stacks on SIGUSR1 (to its log, or the launcher's output).
                say(
                    f"  {self.name} (pid {self.process.pid}) did not stop in time: "
                    "its stacks, then a kill",
                    file=sys.stderr,
                )
                self.process.send_signal(signal.SIGUSR1)
                time.sleep(0.5)
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log_file is not None:
            self._log_file.close()  # type: ignore[attr-defined]
            self._log_file = None


@dataclass
class Node(Process):
    """One daphne process of the cluster."""

    host: str = "127.0.0.1"
    port: int = 0

    @property
    def name(self) -> str:
        return f"daphne on port {self.port}"

    @property
    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            self.host,
            "-p",
            str(self.port),
            "durak_site.asgi:application",
        ]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until /healthz answers 200 (database and channel layer reachable)."""
        deadline = time.monotonic() + timeout
        last_error = ""
        while time.monotonic() < deadline:
            super().wait_ready()
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except urllib.error.HTTPError as error:
                last_error = f"{error.code} {error.read()[:200]!r}"
            except OSError as error:
                last_error = str(error)
            time.sleep(0.1)
        raise ClusterError(
            f"daphne on port {self.port} not ready after {timeout:.0f}s: {last_error}"
            f"{self._log_tail()}"
        )


@dataclass
class Worker(Process):
    """One task worker: runs queued analyses, one at a time."""

    number: int = 1

    @property
    def name(self) -> str:
        return f"task worker {self.number}"

    @property
    def command(self) -> list[str]:
        return [
            sys.executable,
            "manage.py",
            "task_worker",
            "--no-reload",
            "--worker-id",
            f"{socket.gethostname()}-{os.getpid()}-{self.number}"[-64:],
        ]


@dataclass
class BotWorker(Process):
    """One bot worker: plays due bot moves and answers hints, one at a time."""

    number: int = 1

    @property
    def name(self) -> str:
        return f"bot worker {self.number}"

    @property
    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "bot_worker"]


class Cluster:
    """Daphne processes, task workers and bot workers with one environment (database,
    Redis, prefix)."""

    def __init__(
        self,
        ports: Sequence[int] = DEFAULT_PORTS,
        *,
        host: str = "127.0.0.1",
        env: Mapping[str, str] | None = None,
        log_dir: Path | None = None,
        workers: int = 0,
        bot_workers: int = 0,
    ) -> None:
        base = dict(os.environ if env is None else env)
        self.env = base
        self.nodes = [
            Node(
                host=host,
                port=port,
                env=dict(base),
                log_path=(log_dir / f"daphne-{port}.log") if log_dir is not None else None,
            )
            for port in ports
        ]
        self.workers = [
            Worker(
                number=number,
                env=dict(base),
                log_path=(log_dir / f"worker-{number}.log") if log_dir is not None else None,
            )
            for number in range(1, workers + 1)
        ]
        self.bot_workers = [
            BotWorker(
                number=number,
                env=dict(base),
                log_path=(log_dir / f"bot-worker-{number}.log") if log_dir is not None else None,
            )
            for number in range(1, bot_workers + 1)
        ]

    @property
    def processes(self) -> list[Process]:
        return [*self.nodes, *self.workers, *self.bot_workers]

    def busy_ports(self) -> list[int]:
        """The web processes' ports that something else already listens on."""
        busy = []
        for node in self.nodes:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                try:
                    sock.bind((node.host, node.port))
                except OSError:
                    busy.append(node.port)
        return busy

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    def start(self, timeout: float = 30.0) -> Cluster:
        busy = self.busy_ports()
        if busy:
            raise ClusterError(
                f"port {', '.join(map(str, busy))} is already in use (is another server "
                "running?); stop it, or pick another port (make run PORT=8010)"
            )
        for process in self.processes:
            process.start()
        try:
            for process in self.processes:
                process.wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def restart(self, index: int, timeout: float = 30.0) -> Node:
        node = self.nodes[index]
        node.stop()
        node.start()
        node.wait_ready(timeout)
        return node

    def revive(self, out: TextIO = sys.stdout, timeout: float = 30.0) -> list[Process]:
        """Start again every process that died; the others keep serving meanwhile."""
        revived = []
        for process in self.processes:
            if process.alive or process.process is None:
                continue
            code = process.process.returncode
            serving = [node.port for node in self.nodes if node.alive]
            still = (
                f"; port {', '.join(map(str, serving))} keeps serving"
                if serving and isinstance(process, Node)
                else ""
            )
            print(f"  {process.name} died (exit code {code}){still}; restarting it", file=out)
            process.stop()
            process.start()
            try:
                process.wait_ready(timeout)
            except ClusterError as error:
                print(f"  {process.name} did not come back: {error}", file=out, flush=True)
                continue
            pid = process.process.pid  # type: ignore[union-attr]
            print(f"  {process.name} is back (pid {pid})", file=out, flush=True)
            revived.append(process)
        return revived

    def stop(self, timeout: float = STOP_GRACE_SECONDS) -> None:
        """Stop every process, all at once: each stops within a second or two, and
        stopping them one after another would add their times up."""
        for process in self.processes:
            process.terminate()
        deadline = time.monotonic() + timeout
        for process in self.processes:
            process.wait_stopped(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def parse_ports(text: str) -> list[int]:
    ports = [int(part) for part in text.split(",") if part.strip()]
    if len(ports) < 1 or len(set(ports)) != len(ports):
        raise argparse.ArgumentTypeError("give distinct ports, e.g. 8001,8002")
    return ports


def serve(cluster: Cluster, title: str) -> int:
    """Start ``cluster``, say where it serves, restart what dies; stop all on Ctrl-C,
    SIGTERM or SIGHUP (the terminal that ran it closed)."""
    stopping = StopFlag()

    def on_signal(signum: int, frame: object) -> None:
        stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, on_signal)
    try:
        cluster.start()
    except ClusterError as error:
        say(f"{title}: {error}", file=sys.stderr)
        return 1
    try:
        say()
        say(f"  {title} is running:")
        for node in cluster.nodes:
            say(f"    {node.url}/   (pid {node.process.pid})")  # type: ignore[union-attr]
        for worker in [*cluster.workers, *cluster.bot_workers]:
            say(f"    {worker.name}   (pid {worker.process.pid})")  # type: ignore[union-attr]
        say(f"  Health: {json.dumps([f'{url}/healthz' for url in cluster.urls])}")
        say("  Ctrl-C stops them all.")
        say()
        while not stopping.is_set():
            cluster.revive(out=SafeStream(sys.stdout))  # type: ignore[arg-type]
            stopping.wait(0.5)
    finally:
        # First the children, then a word: a closed terminal fails every write.
        cluster.stop()
        say("  Stopped.")
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument(
        "--ports",
        type=parse_ports,
        default=list(DEFAULT_PORTS),
        help="comma-separated ports, one daphne process each (default 8001,8002)",
    )
    parser.add_argument("--workers", type=int, default=1, help="task worker processes (default 1)")
    parser.add_argument(
        "--bot-workers", type=int, default=1, help="bot worker processes (default 1)"
    )
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="allow the embedded SQLite and in-memory layer (one port: `make run`)",
    )
    parser.add_argument("--no-migrate", action="store_true", help="skip `manage.py migrate`")
    args = parser.parse_args(list(argv) if argv is not None else None)

    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    try:
        if args.embedded:
            if len(args.ports) != 1 and not (env.get("DATABASE_URL") and env.get("REDIS_URL")):
                raise ClusterError("the embedded database and layer serve one port only")
        else:
            require_shared_backends(env)
    except ClusterError as error:
        say(f"run-cluster: {error}", file=sys.stderr)
        return 2
    if not args.no_migrate:
        migrate(env)
    cluster = Cluster(
        args.ports, host=args.host, env=env, workers=args.workers, bot_workers=args.bot_workers
    )
    return serve(cluster, "Durak Online" if args.embedded else "Durak Online cluster")


if __name__ == "__main__":
    sys.exit(main())
