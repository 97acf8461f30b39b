"""Running this interpreter in a child process, from the repository root, for tests."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_python(
    *args: str,
    drop: Iterable[str] = (),
    env: dict[str, str] | None = None,
    timeout: float = 120,
    new_session: bool = False,
) -> subprocess.CompletedProcess:
    """``python *args`` with this process's environment, less ``drop``, plus ``env``;
    ``new_session`` starts it in a session of its own, as the launcher starts its processes."""
    environ = {k: v for k, v in os.environ.items() if k not in set(drop)}
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        start_new_session=new_session,
    )
