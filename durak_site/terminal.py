"""The launcher's output, which must survive the terminal that started it: after
SIGHUP (the terminal closed) every write fails, and the launcher must still stop its
children and say so where it can."""

from __future__ import annotations

import contextlib
import sys
from typing import TextIO


class SafeStream:
    """A text stream that drops what it cannot write: after SIGHUP the terminal is
    gone and every write fails, and the launcher must still stop its children."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()


def say(*args: object, file: TextIO | None = None) -> None:
    """Print a line of the launcher's (to stdout unless ``file``), whether or not the
    terminal is still there."""
    print(*args, file=SafeStream(file or sys.stdout), flush=True)
