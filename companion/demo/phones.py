"""Simulated phones: real Socket.IO clients that join a seat by its link's token and send moves."""

from __future__ import annotations

import threading
import time
from typing import Any

import socketio


class SimPhone:
    """One seat's phone.  Keeps every message it received (``illegal``, ``view``, ``over``, …)."""

    def __init__(self, url: str, table: str, token: str, name: str | None = None):
        self.table = table
        self.messages: list[tuple[str, Any]] = []
        self._lock = threading.Lock()
        self.client = socketio.Client(reconnection=True)
        self.client.on("*", self._any)
        self.client.connect(url, transports=["websocket"], wait_timeout=10)
        answer = self.client.call("join", {"table": table, "token": token, **({"name": name} if name else {})},
                                  timeout=15)
        if not answer or not answer.get("ok"):
            raise RuntimeError(f"the phone could not join: {answer}")
        self.seat: int = answer["seat"]

    def _any(self, event: str, data: Any = None) -> None:
        with self._lock:
            self.messages.append((event, data))

    def play(self, move: dict) -> dict:
        """Send a move as the phone's page does; the answer carries the verdict."""
        return self.client.call("play", {"table": self.table, "move": move}, timeout=15)

    def received(self, event: str) -> list[Any]:
        with self._lock:
            return [d for e, d in self.messages if e == event]

    def wait_for(self, event: str, timeout: float = 15.0) -> Any:
        """The latest ``event`` received, waiting up to ``timeout`` seconds for one; TimeoutError without."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.received(event)
            if got:
                return got[-1]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {event!r} message within {timeout} s")
            time.sleep(0.05)

    def close(self) -> None:
        self.client.disconnect()
