"""The time source of a game's owner: what time it is, and a call at a later time.

A service the manager is given (``GameManager(timers=...)``), like boardgame.io's storage: the
server uses the wall clock and the event loop (``WallTimers``); tests and benchmarks move a
``ManualTimers`` on by hand, so a clock runs out at once and no test sleeps.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Timers(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (the store's times are these)."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` (on the event loop) once it is ``when``; cancel to call it off."""
        ...


class WallTimers:
    """The wall clock and the running event loop."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualTimers:
    """A time that moves only when told (``advance``), calling what fell due in order."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self._due: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        heapq.heappush(self._due, (when, next(self._order), timer, callback))
        return timer

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, calling every callback due by then."""
        until = self.time + seconds
        while self._due and self._due[0][0] <= until:
            when, _order, timer, callback = heapq.heappop(self._due)
            self.time = max(self.time, when)
            if not timer.cancelled:
                callback()
        self.time = until

    @property
    def pending(self) -> int:
        """Calls waiting to fall due (not called off)."""
        return sum(1 for entry in self._due if not entry[2].cancelled)
