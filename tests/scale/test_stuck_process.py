"""A process of the site that does not stop when told is named, its threads' stacks are
printed (SIGUSR1), and then it is killed: the launcher never waits on it for ever."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from durak_site.cluster import Process

# A child that ignores SIGTERM and, as the site's processes do, prints its stacks on
# SIGUSR1; it says "ready" once both are in place.
STUCK = """
import faulthandler, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
faulthandler.register(signal.SIGUSR1, all_threads=True)
print("ready", flush=True)
def waiting_for_ever():
    time.sleep(120)
waiting_for_ever()
"""


@dataclass
class Stuck(Process):
    @property
    def name(self) -> str:
        return "stuck worker"

    @property
    def command(self) -> list[str]:
        return [sys.executable, "-c", STUCK]


def test_a_process_that_ignores_the_stop_is_named_dumped_and_killed(tmp_path, capsys):
    stuck = Stuck(env={}, log_path=tmp_path / "stuck.log")
    stuck.start()
    deadline = time.monotonic() + 30
    while "ready" not in (tmp_path / "stuck.log").read_text():
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.05)
    started = time.monotonic()
    stuck.stop(timeout=0.5)
    assert time.monotonic() - started < 10
    assert stuck.process is not None and stuck.process.returncode == -9  # killed
    said = capsys.readouterr().err
    assert f"stuck worker (pid {stuck.process.pid}) did not stop in time" in said
    # Its stacks went to its log: where it hung, by the function's name.
    assert "waiting_for_ever" in (tmp_path / "stuck.log").read_text()
