"""Polling for what another thread or process does on its own time (#2, #7)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(predicate: Callable[[], object], timeout: float, interval: float = 0.005) -> bool:
    """Whether ``predicate()`` holds within ``timeout`` seconds, asked every
    ``interval`` and once more at the end: for a server's, a board's or a
    link's thread, which a test cannot join, after the side it can see."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
