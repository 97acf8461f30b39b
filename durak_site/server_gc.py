"""Garbage-collector settings for a long-running server process.

A process holding a thousand open sockets tracks a few hundred thousand container
objects. With CPython's default thresholds (700, 10, 10) a full collection then runs
every few seconds under load and stops the event loop for 100-300 ms on a small
machine: that was the whole latency tail of the live tables (docs/performance.md,
"Cluster load"). Two changes remove it:

- what exists once the site is loaded (Django, the apps, the URLconf) lives as long
  as the process, so ``gc.freeze()`` takes it out of every later collection;
- the youngest generation is collected after tens of thousands of allocations
  instead of 700, so short-lived cycles still die young, far fewer objects are
  promoted, and full collections become rare.

That alone left pauses of 20-120 ms (docs/performance.md).  The youngest generation
is collected when allocations outnumber deallocations by the threshold, but in a
busy server they nearly balance: each move frees the previous version's cached rows
and makes new ones that live for seconds.  The young generation then grew to tens of
thousands of live objects before a collection came, and that collection walked them
all.  So the server also collects on a timer (``collect_on_a_timer``): the young
generation every half second, holding at most what half a second left alive, and an
older generation when its count is due, as the collector itself would.  What
outlives half a second is mostly that cached state and the sockets' tasks, alive
until the table's next move, so a collection of the middle generation walks about
the same fifty thousand live objects however often it runs: it runs after 200 young
collections instead of 20.
"""

from __future__ import annotations

import gc
import sys


def parse_thresholds(text: str) -> tuple[int, ...] | None:
    """``"50000,200,100"`` -> (50000, 200, 100); an empty text keeps Python's defaults."""
    if not text.strip():
        return None
    values = tuple(int(part) for part in text.split(","))
    if not 1 <= len(values) <= 3 or any(value < 0 for value in values):
        raise ValueError(f"expected one to three non-negative integers, got {text!r}")
    return values


def tune_for_server(thresholds: tuple[int, ...] | None) -> None:
    """Freeze what is loaded so far and apply ``thresholds`` (None: leave the collector be)."""
    if thresholds is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def collect_due_generation() -> int:
    """Collect the youngest generation, or the oldest one whose count is due; which one."""
    counts, limits = gc.get_count(), gc.get_threshold()
    generation = 0
    for older in (1, 2):
        if counts[older] > limits[older]:
            generation = older
    gc.collect(generation)
    return generation


def collect_on_a_timer(interval: float) -> None:
    """Under daphne, once its reactor runs: ``collect_due_generation`` every ``interval`` s."""
    if interval <= 0 or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor, task

    collections = task.LoopingCall(collect_due_generation)
    reactor.callWhenRunning(collections.start, interval, now=False)
