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
"""

from __future__ import annotations

import gc


def parse_thresholds(text: str) -> tuple[int, ...] | None:
    """``"50000,20,1000"`` -> (50000, 20, 1000); an empty text keeps Python's defaults."""
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
