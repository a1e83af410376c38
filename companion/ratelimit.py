"""Per-socket rate limiting: a token bucket for every socket id.

A phone taps a few times a second at most; a script flooding the server gets
an error per dropped message (to that socket only) and the table does not
notice.  Guessing seat codes or the host PIN goes through a second, much
slower bucket per socket (:meth:`RateLimiter.allow_guess`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass
class Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    def __init__(self, rate: float = 20.0, burst: int = 60, guess_rate: float = 0.2, guess_burst: int = 5):
        self.rate, self.burst = rate, burst
        self.guess_rate, self.guess_burst = guess_rate, guess_burst
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self._lock = threading.Lock()

    def _take(self, key: tuple[str, str], rate: float, burst: int) -> bool:
        now = time.monotonic()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = Bucket(float(burst), now)
            bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.stamp) * rate)
            bucket.stamp = now
            if bucket.tokens < 1.0:
                return False
            bucket.tokens -= 1.0
            return True

    def allow(self, sid: str) -> bool:
        """One more message from this socket?"""
        return self._take(("msg", sid), self.rate, self.burst)

    def allow_guess(self, who: str) -> bool:
        """One more secret guessed (a PIN, a typed code) by this socket or address?"""
        return self._take(("guess", who), self.guess_rate, self.guess_burst)

    def forget(self, sid: str) -> None:
        with self._lock:
            self._buckets.pop(("msg", sid), None)
