"""The clock keeper: each timed game's clock follows its turns, and a seat out of time loses.

A service of the app beside the session of play (``sessions.py``), subscribed to the game owner's
events (``play/events.py``, wired in ``web/app.py``) as the sessions are: it gives each live game
its ``GameClock`` when the game is made (``GameLoaded``), follows every change stored
(``GameChanged``: a move, a takeback, a stand-in, an ending, a seat taken in an open game, a move
made through another process), and
keeps one timer per running clock on the owner's time source (``manager.timers``), whether or
not anyone watches the game or the game is in memory.

When a clock runs out, the keeper ends it under the game's lock, in one transaction with a
conditional write of the clock (``store/clocks.py``): the first process to get there ends the
game, any other finds the clock's version moved on and reads the game again. A move judged
by its receipt time stays safe: the timer falls ``clock_grace_seconds`` after the deadline.

- two seats: the seat out of time loses ("flag", as lichess);
- three or more: the computer takes that seat and the others play on, as when one resigns;
- a person who never made a first move: the game is called off, unrated ("abort").

Every process reads the running clocks from the store at start (a restart finds each clock
where the store left it) and those due soon every ``clock_sweep_seconds`` (clocks another
process started, or kept before it was killed).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError

from boneyard.web.errors import WebError
from boneyard.web.play.clocks import (
    GameClock,
    deadline_of,
    stopped_at_flag,
    switched,
)
from boneyard.web.play.events import GameChanged, GameLoaded, SeatOpened
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.play.timers import Timer
from boneyard.web.store.clocks import ClockRecord, ClockStore
from boneyard.web.store.games import StaleCopy
from boneyard.web.table.endings import ending_of, seat_name
from boneyard.web.table.sessions import STAND_IN_LEVEL, SessionManager

log = logging.getLogger("boneyard.web")


class ClockKeeper:
    """The clocks of one app: attached to its games, their timers, their flags."""

    def __init__(self, manager: GameManager, sessions: SessionManager, store: ClockStore) -> None:
        self.manager = manager
        self.sessions = sessions
        self.store = store
        self.settings = manager.settings
        self.timers = manager.timers
        self._timers: dict[str, tuple[float, Timer]] = {}
        self._arrivals: dict[str, tuple[float, set[int]]] = {}
        """Games whose first moves wait for their people's pages (``hold_first_move``): until
        when, and the seats whose page opened the game (as this process heard)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweep: Timer | None = None
        self.flags = 0
        """Clocks this process ended (a flag, a first move missed): for tests and metrics."""

    # ----- attaching and following -----------------------------------------------------------

    async def attach(self, event: GameLoaded) -> None:
        """Give the game made its clock as stored (none for an untimed game)."""
        live = event.live
        record = await self.manager.read_store(self.store.read, live.id)
        live.clock = None if record is None else self._clock(record)
        if record is not None:
            self._schedule(record)

    def _clock(self, record: ClockRecord) -> GameClock:
        return GameClock(record, self.timers.now, self.settings.clock_first_move_seconds)

    async def changed(self, event: GameChanged) -> None:
        """After any change stored, before it is sent: the clock runs for the seat now to move,
        or it is brought in line (in a task: it writes to the store)."""
        live = event.live
        clock = live.clock
        if clock is None:
            return
        running = live.running_seat()
        if clock.record.at_seq < live.seq:
            # Moved elsewhere (caught up): the store has the clock that move wrote. Read now
            # (off the loop), so that the view about to be sent shows it.
            try:
                read: ClockRecord | None = await self.manager.read_store(self.store.read, live.id)
            except WebError:  # the store is slow: the settling task reads it again
                self._spawn(self._settle_game(live.id))
                return
            clock.record = read or clock.record
        if clock.record.at_seq == live.seq and clock.record.running == running:
            self._schedule(clock.record)
        else:
            self._spawn(self._settle_game(live.id))
        if live.id in self._arrivals:
            self._hold_next_seat(live)

    async def start(self) -> None:
        """At start-up: every running clock in the store gets its timer (those run out while
        no server ran fall due at once); then the store is swept every so often."""
        await self._read_running(None)

    def stop(self) -> None:
        for _deadline, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._arrivals.clear()
        if self._sweep is not None:
            self._sweep.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def settled(self) -> None:
        """Wait until every check and flag started so far is done (for tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    @property
    def timed(self) -> int:
        """Running clocks with a timer in this process."""
        return len(self._timers)

    # ----- a first move held for its person to arrive ----------------------------------------

    async def hold_first_move(self, live: LiveGame, seconds: float) -> None:
        """The seat to move's first-move time starts once their page opens the game
        (``arrived``), or in ``seconds`` at the latest: a game its players were sent to (an
        arena's pairing) is not called off while its pages load, and a player who never comes
        holds the other for at most ``seconds`` more."""
        until = self.timers.now() + seconds
        self._arrivals[live.id] = (until, set())
        async with live.lock:
            record = await self._settle(live)
            if record is None or record.running is None or record.started[record.running]:
                self._arrivals.pop(live.id, None)  # untimed, or moved already: nothing to hold
                return
            await self._first_move_from(live, record, until)

    def _hold_next_seat(self, live: LiveGame) -> None:
        """After a change (the first seat's first move): the next seat's first move waits for
        their page too, until the hold's end. Locked (``changed``)."""
        until = self._arrivals[live.id][0]
        record = None if live.clock is None else live.clock.record
        if record is None or live.over or all(record.started) or self.timers.now() >= until:
            del self._arrivals[live.id]
            return
        if record.running is not None and self._waits_for(live, record.running):
            self._spawn(self._hold_seat(live.id, record.running, until))

    def _waits_for(self, live: LiveGame, seat: int) -> bool:
        """Whether ``seat``'s first move is to wait for their page, which has not opened it."""
        held = self._arrivals.get(live.id)
        record = None if live.clock is None else live.clock.record
        if held is None or record is None or live.over or seat in held[1]:
            return False
        running = record.running == seat and not record.started[seat]
        return running and record.at_seq == live.seq and record.since < held[0]

    async def _hold_seat(self, game_id: str, seat: int, until: float) -> None:
        live = self.manager.games.get(game_id)
        if live is None:
            return
        async with live.lock:
            if live.clock is not None and self._waits_for(live, seat):
                await self._first_move_from(live, live.clock.record, until)

    async def arrived(self, event: SeatOpened) -> None:
        """A person's page opened their seat: a first move held for them starts now. Never
        later than the hold said (a page opened again and again gains nothing)."""
        live, seat = event.live, event.seat
        if live.id in self._arrivals:
            self._arrivals[live.id][1].add(seat)
        if not self._held_for(live, seat):
            return  # the usual case, answered from memory: no lock, no store
        async with live.lock:
            if self._held_for(live, seat):
                assert live.clock is not None
                await self._first_move_from(live, live.clock.record, self.timers.now())

    def _held_for(self, live: LiveGame, seat: int) -> bool:
        record = None if live.clock is None else live.clock.record
        return (
            record is not None
            and record.running == seat
            and not record.started[seat]
            and record.since > self.timers.now()
        )

    async def _first_move_from(self, live: LiveGame, record: ClockRecord, since: float) -> None:
        """The running seat's first-move time counted from ``since``; told to the pages. Locked."""
        moved = replace(record, since=since, version=record.version + 1)
        new = replace(moved, deadline=deadline_of(moved, self.settings.clock_first_move_seconds))
        if not await self.manager.in_store(self.store.replace, record.version, new):
            await self._settle(live)  # another process changed the clock first
            return
        assert live.clock is not None
        live.clock.record = new
        self._schedule(new)
        await self.manager.announce(live, live.seq)

    # ----- timers ------------------------------------------------------------------------------

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule(self, record: ClockRecord) -> None:
        """One timer per running clock, at its deadline (and the grace); none once stopped."""
        if record.deadline is not None:
            self._arm(record.game_id, record.deadline)
        elif (held := self._timers.pop(record.game_id, None)) is not None:
            held[1].cancel()

    def _arm(self, game_id: str, deadline: float, earlier_only: bool = False) -> None:
        """Set ``game_id``'s timer for ``deadline`` (``earlier_only``: unless it falls sooner:
        a deadline read from the store may be older than this process's news)."""
        due = deadline + self.settings.clock_grace_seconds
        held = self._timers.get(game_id)
        if held is not None:
            if held[0] == due or (earlier_only and held[0] < due):
                return
            held[1].cancel()
        self._timers[game_id] = (due, self.timers.call_at(due, partial(self._fall_due, game_id)))

    def _fall_due(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        self._spawn(self.check(game_id))

    async def _read_running(self, until: float | None) -> None:
        try:
            found = await self.manager._in(
                self.manager.reader, self.settings.store_seconds, "reading the clocks",
                self.store.running, until,
            )  # fmt: skip
        except Exception:  # the store is away: the next sweep tries again
            log.warning("reading the running clocks failed", exc_info=True)
            found = []
        for game_id, deadline in found:
            self._arm(game_id, deadline, earlier_only=True)
        every = self.settings.clock_sweep_seconds
        self._sweep = self.timers.call_at(
            self.timers.now() + every,
            lambda: self._spawn(self._read_running(self.timers.now() + every)),
        )

    # ----- checking and ending -----------------------------------------------------------------

    async def check(self, game_id: str) -> None:
        """A clock fell due: end the game if its time ran out, else wait for the new deadline."""
        try:
            await self._check(game_id)
        except WebError as error:  # gone from the store, or the store is slow: the sweep
            log.warning("checking the clock of game %s: %s", game_id, error.detail)  # retries

    async def _check(self, game_id: str) -> None:
        live = await self.manager.get(game_id)
        async with live.lock:
            record = await self._settle(live)
            if record is None or record.deadline is None:
                return
            if record.deadline > self.timers.now():
                self._schedule(record)
                return
            await self._flag(live, record)

    async def _settle_game(self, game_id: str) -> None:
        live = self.manager.games.get(game_id)
        if live is None:
            return
        try:
            async with live.lock:
                await self._settle(live)
        except WebError as error:  # the store is slow: the timer or the sweep settles it later
            log.warning("settling the clock of game %s: %s", game_id, error.detail)

    async def _settle(self, live: LiveGame) -> ClockRecord | None:
        """Bring ``live``'s clock in line with the store and with whose turn it is. Locked."""
        stored = await self.manager.in_store(self.store.read, live.id)
        if stored is None:
            live.clock = None
            return None
        running = live.running_seat()
        if stored.at_seq != live.seq or stored.running != running:
            if stored.at_seq > live.seq and await self._behind(live):
                self._schedule(stored)  # moved elsewhere: the move's notice follows
                return None
            new = switched(
                stored, running, self.timers.now(), live.seq,
                self.settings.clock_first_move_seconds,
            )  # fmt: skip
            if await self.manager.in_store(self.store.replace, stored.version, new):
                stored = new
            else:
                stored = await self.manager.in_store(self.store.read, live.id) or stored
        if live.clock is None:
            live.clock = self._clock(stored)
        else:
            live.clock.record = stored
        self._schedule(stored)
        return stored

    async def _behind(self, live: LiveGame) -> bool:
        """Whether the store has moves this copy lacks (else its moves were taken back)."""
        count: int = await self.manager.in_store(self.manager.store.action_count, live.id)
        return count > live.seq

    async def _flag(self, live: LiveGame, record: ClockRecord) -> None:
        """``record``'s running seat is out of time: end its game, or hand the seat to the
        computer, once across processes (the clock's write is conditional). Locked."""
        seat = record.running
        assert seat is not None
        stopped = stopped_at_flag(record)
        write = ClockStore.replacing(record.version, stopped)
        label = seat_name(live, seat)
        seats = None
        if not record.started[seat]:
            kind = "abort"
            returns = [0.0] * live.num_seats
            detail: dict[str, Any] = {"returns": returns, "reason": "no_first_move"}
        elif live.num_seats == 2:
            kind = "flag"
            returns = [1.0 if s != seat else -1.0 for s in range(live.num_seats)]
            detail = {"returns": returns}
        else:
            kind, returns = "flag_left", []
            detail = {"label": label, "target": seat}
            seats = [dict(info) for info in live.stored.seats]
            seats[seat].update(kind="computer", level=STAND_IN_LEVEL, was="human")
        detail["at"] = record.deadline
        changes: dict[str, Any] = {"also": write}
        if returns:
            changes["returns"] = returns
        if seats is not None:
            changes["seats"] = seats
        try:
            event = await self.sessions.record(live, kind, seat, detail, **changes)
        except (StaleCopy, IntegrityError):
            # Another process ended this clock (or changed the game) first: read it again.
            await self.manager.rebuild(live)
            return
        self.flags += 1
        assert live.clock is not None
        live.clock.record = stopped
        if seats is not None:
            live.stored.seats[:] = seats
        else:
            live.ending = ending_of(live, event)
        log.info("game %s: %s's clock ran out (%s)", live.id, label, kind)
        await self.manager.announce(live, live.seq)
