"""The settle sweep of a serving process: at start, then every ``SWEEP_SECONDS``.

Results are settled in the transaction that stores them; the sweep (``store/settling.py``)
catches up whatever was stored without it: by an older process during a rolling upgrade, or by
one killed at the wrong moment. Every process sweeps; the hooks settle each result once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from boneyard.web.play.manager import GameManager
from boneyard.web.store.settling import find_unsettled, settle_games

log = logging.getLogger("boneyard.web")

SWEEP_SECONDS = 60.0
"""How often a process looks for results left unsettled (a minute, as Mastodon's and Gitea's
scheduled jobs run: a result of an old process is rated by the next minute)."""


class SettleSweep:
    def __init__(self, manager: GameManager, every: float = SWEEP_SECONDS) -> None:
        self.manager = manager
        self.every = every
        self.sweeps = 0
        """Sweeps finished (by tests, and a sign of life)."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def sweep(self) -> int:
        """One sweep: how many games it settled. The look on a reader thread, the writes (only
        where it found something) on the store's writer, so moves never wait for the look."""
        store = self.manager.store
        found = await self.manager.read_store(find_unsettled, store)
        settled = await self.manager.in_store(settle_games, store, found) if found else 0
        self.sweeps += 1
        return settled

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: the next sweep tries again
                log.warning("the settle sweep failed; trying again", exc_info=True)
            await asyncio.sleep(self.every)
