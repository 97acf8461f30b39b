"""The stop flag of the workers and the launcher: a signal's handler sets it, and the
main thread's wait ends soon after, whatever it was waiting for."""

from __future__ import annotations

import signal
import time

from games.stop_flag import StopFlag


def test_a_signal_ends_the_wait_soon_after():
    flag = StopFlag()
    previous = signal.signal(signal.SIGALRM, lambda *_: flag.set())
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        started = time.monotonic()
        assert flag.wait(10) is True
        assert time.monotonic() - started < 1.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert flag.is_set()


def test_with_no_stop_the_wait_runs_its_time():
    flag = StopFlag()
    started = time.monotonic()
    assert flag.wait(0.2) is False
    assert time.monotonic() - started >= 0.2
    assert not flag.is_set()


def test_a_flag_set_before_the_wait_ends_it_at_once():
    flag = StopFlag()
    flag.set()
    started = time.monotonic()
    assert flag.wait(10) is True
    assert time.monotonic() - started < 0.1
