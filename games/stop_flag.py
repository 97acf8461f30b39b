"""A stop asked for by a signal, for a process's main loop to wait on."""

from __future__ import annotations

import time

# How often a waiting loop looks whether a stop was asked for.
LOOK_SECONDS = 0.05


class StopFlag:
    """Set from a signal handler, looked at and waited on by the main thread.

    ``threading.Event``'s shape, without its lock: a handler runs between two steps of
    the code it interrupts, and an Event's ``set()`` there waited forever for the lock
    that the same Event's ``wait()`` had just taken back as it woke.
    """

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, less once the flag is set; whether it is."""
        until = time.monotonic() + seconds
        while not self._set and (left := until - time.monotonic()) > 0:
            time.sleep(min(left, LOOK_SECONDS))
        return self._set
