"""A token bucket per key: what per-client and per-socket rates are counted with."""

from __future__ import annotations

import time


class RateLimit:
    """A token bucket per key: ``rate`` a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str, cost: float = 1.0) -> float:
        """0 when allowed (``cost`` tokens taken); else the seconds until they are free."""
        now = time.monotonic()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens >= cost:
            self._buckets[key] = (tokens - cost, now)
            if len(self._buckets) > 10_000:  # forget clients whose buckets are full again
                full = [
                    k
                    for k, (t, w) in self._buckets.items()
                    if t + (now - w) * self.rate >= self.burst
                ]
                for k in full:
                    del self._buckets[k]
            return 0.0
        self._buckets[key] = (tokens, now)
        return (cost - tokens) / self.rate if self.rate > 0 else 60.0

    def wait(self, key: str, cost: float = 1.0) -> float:
        """0 when ``cost`` tokens are there (none taken); else the seconds until they are."""
        now = time.monotonic()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens >= cost:
            return 0.0
        return (cost - tokens) / self.rate if self.rate > 0 else 60.0
