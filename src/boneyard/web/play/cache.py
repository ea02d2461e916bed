"""Live games as a cache of the store, within the server's memory budget.

A service of ``GameManager`` (``manager.py``): which games stay in memory. ``games`` runs from
least to most recently used; each live game carries an estimate of its bytes (``memory.py``),
and sockets hold theirs (``hold``/``release``).
"""

from __future__ import annotations

import asyncio
import time

from boneyard.web.errors import WebError
from boneyard.web.play.live import LiveGame
from boneyard.web.settings import Settings


class LiveCache:
    """The live games of one app and the bytes they hold, within ``live_memory_mb``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.games: dict[str, LiveGame] = {}
        """Live games, from least to most recently used."""
        self.live_bytes = 0

    def touch(self, live: LiveGame) -> None:
        """Mark ``live`` as just used: the games dict runs from least to most recently used."""
        live.last_used = time.monotonic()
        self.games[live.id] = self.games.pop(live.id)

    def keep(self, live: LiveGame) -> None:
        self.games[live.id] = live
        self.live_bytes += live.memory
        excess = len(self.games) - self.settings.max_live_games
        if excess > 0:
            self.drop_idle(excess, self.settings.live_idle_seconds, keep=live)

    def grow(self, live: LiveGame, size: int) -> None:
        """``live`` holds ``size`` bytes more (a stored event): counted in the budget."""
        live.memory += size
        if self.games.get(live.id) is live:
            self.live_bytes += size

    def hold(self, size: int) -> None:
        """Count ``size`` bytes more that are not a game's (a socket's buffers), making room
        for them first (503 when none can be made)."""
        self.make_room(size)
        self.live_bytes += size

    def release(self, size: int) -> None:
        self.live_bytes -= size

    def drop(self, live: LiveGame) -> None:
        if self.games.get(live.id) is live:
            del self.games[live.id]
            self.live_bytes -= live.memory

    def drop_idle(self, count: int, idle_seconds: float, keep: LiveGame | None = None) -> int:
        """Drop up to ``count`` games idle ``idle_seconds``, least recently used first."""
        now = time.monotonic()
        dropped = 0
        for other in list(self.games.values()):
            if dropped >= count:
                break
            if other is not keep and other.is_idle(now, idle_seconds):
                self.drop(other)
                dropped += 1
        return dropped

    def make_room(self, size: int) -> None:
        """Free memory for a game of ``size`` bytes, or refuse (503) if nothing can leave."""
        budget = self.settings.live_memory_mb * 1e6
        now = time.monotonic()
        for other in list(self.games.values()):
            if self.live_bytes + size <= budget:
                return
            if other.is_idle(now, 0.0):
                self.drop(other)
        if self.live_bytes + size > budget:
            raise WebError(
                503,
                "server_full",
                "this server holds as many games as its memory allows, all in play; "
                "try again in a minute",
                retry_after=60,
            )

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            self.drop_idle(len(self.games), self.settings.live_idle_seconds)
