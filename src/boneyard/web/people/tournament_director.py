"""The running of arena tournaments in a server process: pairing, making the games, the end,
and the news to the pages that watch.

Each process runs one director (started with the app). It looks at the tournaments that have
started every ``TICK_SECONDS``, and at once when this process ends a game or someone joins
(``wake``): it pairs the free players (``TournamentStore.claim_pairs``, which pairs each
player once however many processes pair at the same moment), makes each pair's game, and ends
a tournament whose time is up once its last games are over. Results reach the tournament in
the transaction that stores them (the store's ``on_finish``), whichever process ends a game; the
director hears of an end in this process from the manager's ``GameEnded``.
Pages watching a tournament (its socket) are told whenever its version changes, on any process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from boneyard.web.play.clocks import TimeControl
from boneyard.web.play.events import GameEnded
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.store.accounts import AccountStore
from boneyard.web.store.ratings import RatingStore
from boneyard.web.store.tournaments import Pairing, Tournament, TournamentStore
from boneyard.web.table.clocks import ClockKeeper

log = logging.getLogger("boneyard.web")

TICK_SECONDS = 0.5
"""How often the director looks even when nothing woke it (results stored by other processes,
the start and the end of a tournament)."""


async def create_tournament_game(
    manager: GameManager, tournament: Tournament, seats: list[dict[str, Any]], client: str
) -> LiveGame:
    """Make one tournament game, timed by the tournament's clock: the one place where the
    tournament's clock goes to its games."""
    clock = TimeControl.from_json(tournament.clock)
    return await manager.create(tournament.game, {}, seats, client=client, clock=clock)


class Director:
    def __init__(
        self,
        manager: GameManager,
        tournaments: TournamentStore,
        accounts: AccountStore,
        ratings: RatingStore,
        clocks: ClockKeeper,
    ) -> None:
        self.manager = manager
        self.clocks = clocks
        self.tournaments = tournaments
        self.accounts = accounts
        self.ratings = ratings
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._versions: dict[str, int] = {}

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def game_ended(self, _event: GameEnded) -> None:
        """A game of this process ended, its result stored (subscribed to the manager's
        ``GameEnded`` by ``web/app.py``): its players may be free for the next pairing."""
        self.wake()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._woken.set()

    def watch(self, tournament_id: str) -> asyncio.Event:
        """An event set whenever the tournament changes (``unwatch`` it when done)."""
        event = asyncio.Event()
        self._watchers.setdefault(tournament_id, set()).add(event)
        return event

    def unwatch(self, tournament_id: str, event: asyncio.Event) -> None:
        watchers = self._watchers.get(tournament_id)
        if watchers is not None:
            watchers.discard(event)
            if not watchers:
                del self._watchers[tournament_id]
                self._versions.pop(tournament_id, None)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):  # (not wait_for: see GameManager._in)
                async with asyncio.timeout(TICK_SECONDS):
                    await self._woken.wait()
            self._woken.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: look again on the next tick
                log.warning("running the tournaments failed; trying again", exc_info=True)

    async def tick(self) -> None:
        """Pair, make the games and end what is due, then tell the watchers what changed."""
        now = time.time()
        for tournament_id, ends, free in await self.manager.read_store(self.tournaments.due, now):
            # the writes (and the tournament's lock) only where a read says there is work
            if free >= 2 and now < ends:
                pairings = await self.manager.in_store(
                    self.tournaments.claim_pairs, tournament_id, now
                )
                for pairing in pairings:
                    await self._start(pairing)
            if time.time() >= ends:
                await self.manager.in_store(self.tournaments.finish, tournament_id, time.time())
        await self._tell_watchers()

    async def _start(self, pairing: Pairing) -> None:
        """Make a pairing's game (none after the end: its players are free again)."""
        if time.time() >= pairing.tournament.ends:
            await self.manager.in_store(self.tournaments.unpair, pairing)
            return
        seats = [{"kind": "human", "name": name} for name in pairing.names]
        try:
            live = await create_tournament_game(
                self.manager, pairing.tournament, seats, f"tournament:{pairing.tournament.id}"
            )
            for seat, account_id in enumerate(pairing.accounts):
                if await self.manager.in_store(self.accounts.own_seat, live.id, seat, account_id):
                    await self.manager.seat_named(live.id, seat, pairing.names[seat])
            # arena games are rated, as on lichess (each seat its own account)
            await self.manager.in_store(self.ratings.note_rated, live.id, live.game.name)
            live.rated = True
            # the players' pages open the game by themselves: the first move waits for them
            # (before ``started``, which is when the pages hear of the game)
            await self.clocks.hold_first_move(live, self.manager.settings.arena_arrival_seconds)
        except Exception:
            log.warning("a tournament game could not be made", exc_info=True)
            await self.manager.in_store(self.tournaments.unpair, pairing)
            return
        await self.manager.in_store(self.tournaments.started, pairing, live.id)

    async def _tell_watchers(self) -> None:
        if not self._watchers:
            return
        versions = await self.manager.read_store(self.tournaments.versions, list(self._watchers))
        for tournament_id, version in versions.items():
            if self._versions.get(tournament_id) != version:
                self._versions[tournament_id] = version
                for event in self._watchers.get(tournament_id, ()):
                    event.set()
