"""The manager: all live games of one app, created, loaded, acted on, watched and dropped.

Every change to a game goes through its asyncio lock: check the sequence number, the seat and
the action, resolve the chance nodes that follow from the game's seed, store the new actions
(committed before anyone hears of them), then publish the change (``events``: the services the
app wired around the manager bring their part in line) and hand each socket its new view (a
queue per socket: nobody waits on a slow reader). The manager calls only downwards: it knows
nothing of who listens to its events. Nothing heavy runs on the event loop: setting up and
replaying games run in work threads, commits in the store's thread, bots in ``bots``; each with
a time limit from ``Settings``.

The store is the truth and live games are a cache of it, checked against the store's sequence
number: a copy found behind (another server process moved) is brought up to date, not failed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from boneyard.core.game import State
from boneyard.web.compute.chance import seed_hash
from boneyard.web.compute.runners import bot_runner
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import Payer, Spend
from boneyard.web.guard.connections import note_known
from boneyard.web.play import words
from boneyard.web.play.broadcast import send_views
from boneyard.web.play.cache import LiveCache
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.checks import action_id, check_turn
from boneyard.web.play.clocks import TimeControl, new_record, ticked_clock
from boneyard.web.play.computer import ComputerSeats
from boneyard.web.play.events import GameChanged, GameEnded, GameEvents, GameLoaded, SeatOpened
from boneyard.web.play.live import LiveGame, LogEntry, Subscriber
from boneyard.web.play.metrics import Metrics
from boneyard.web.play.replays import Replays, walk_cost
from boneyard.web.play.seats import Seats, rows_for_seats
from boneyard.web.play.socket_counts import SocketCounts
from boneyard.web.play.timers import Timers, WallTimers
from boneyard.web.play.work import WorkPool, advance, replay_told, set_up, strings_of
from boneyard.web.settings import Settings
from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.games import RELOAD, StaleCopy, Store, StoredGame

log = logging.getLogger("boneyard.web")

T = TypeVar("T")


class GameManager:
    """All live games of one app: loading, creating, acting, computer seats and subscribers."""

    def __init__(
        self,
        store: Store,
        catalog: Catalog | None = None,
        settings: Settings | None = None,
        timers: Timers | None = None,
        events: GameEvents | None = None,
    ) -> None:
        self.store = store
        self.events = events or GameEvents()
        """Where this manager publishes what happens to its games (``events.py``): the app
        subscribes its services at construction (``web/app.py``)."""
        self.timers: Timers = timers or WallTimers()
        """The time source: moves' receipt times, clocks' timers (tests move it by hand)."""
        self.catalog = catalog or Catalog()
        self.settings = settings or Settings()
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
        """Where game seeds come from (tests may fix it; the server never should)."""
        self._loading: dict[str, asyncio.Lock] = {}
        # SQLite takes one writer at a time: one storage thread keeps commits in order. Reads
        # have their own threads: in WAL mode a reader never waits for a writer.
        self.writer = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="store")
        # (PostgreSQL answers many reads at once: more threads, or a busy server queues them.)
        self.reader = ThreadPoolExecutor(
            2 if store.is_sqlite else 8, thread_name_prefix="store-read"
        )
        self.metrics = Metrics()
        self.work = WorkPool(
            self.settings.work_processes, self.settings.work_seconds, self.metrics.refuse
        )
        self.replays = Replays(self.work)
        self.bots = bot_runner(self.settings, store, self.metrics.bot_seconds)
        # The services it is composed of: what stays in memory, and the computer seats (when and
        # how the computer thinks; the manager plays its answers, as a person's moves).
        self.cache = LiveCache(self.settings)
        self.computer = ComputerSeats(self.settings, self.bots, self.metrics)
        self.metrics.watch(lambda: len(self.games), self.bots.depth)
        self.metrics.thinking_waiting.set_function(
            lambda: sum(live.resting for live in self.games.values())
        )
        self.sockets = SocketCounts(self.settings, self.cache)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stop_listening: Callable[[], None] | None = None
        self.metrics.watch_sockets(lambda: len(self.sockets))

    @property
    def games(self) -> dict[str, LiveGame]:
        """The live games, from least to most recently used (``cache``)."""
        return self.cache.games

    @property
    def live_bytes(self) -> int:
        """What the live games and sockets hold, as estimated (``cache``)."""
        return self.cache.live_bytes

    async def hint(
        self,
        live: LiveGame,
        seat: int | None,
        other_tokens: list[str] | None = None,
        client: str | None = None,
    ) -> dict[str, Any]:
        """The strongest level's move for ``seat`` (``computer``); ``other_tokens``: the other
        seats the asking page plays (one screen), each checked (a wrong one: 403). Charged to
        ``client`` (by default the client the seat last played from)."""
        others = frozenset(
            held for token in other_tokens or [] if (held := live.seat_of(token)) is not None
        )
        return await self.computer.hint(live, seat, others, client)

    def grow(self, live: LiveGame, size: int) -> None:
        """``live`` holds ``size`` bytes more (``cache``)."""
        self.cache.grow(live, size)

    # ----- threads and time limits ---------------------------------------------------------------

    async def _in(
        self, pool: ThreadPoolExecutor, limit: float, what: str, fn: Callable[..., T], *args: Any
    ) -> T:
        """``fn(*args)`` in ``pool``; 503 past ``limit`` seconds (its late result is dropped)."""
        future = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for returns a result that comes as the
            # caller is cancelled and drops the cancel (a service's loop would never stop)
            async with asyncio.timeout(limit):
                return await future
        except TimeoutError:
            raise WebError(
                503,
                "busy",
                f"{what} took longer than {limit:g} seconds on this server; try again later",
                retry_after=max(1.0, limit),
            ) from None

    async def in_store(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store's writer thread, within the store's time limit."""
        return await self._in(self.writer, self.settings.store_seconds, "the database", fn, *args)

    async def read_store(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a read) on the store's reader threads: reads wait for no commit."""
        return await self._in(self.reader, self.settings.store_seconds, "the database", fn, *args)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def warm_up(self) -> None:
        """At start-up: worker processes, the sweeper of idle games, the store's move notices."""
        self.bots.warm_up()
        self.work.warm_up()
        loop = asyncio.get_running_loop()
        self._spawn(self.cache.sweep_forever())

        def heard(game_id: str, seq: int, actions: list[tuple[int, int]] | None) -> None:
            loop.call_soon_threadsafe(self._heard, game_id, seq, actions)

        self._stop_listening = self.store.listen(heard)

    def shutdown(self) -> None:
        for live in self.games.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._stop_listening is not None:
            self._stop_listening()
        self.bots.shutdown()
        self.work.shutdown()
        self.reader.shutdown(wait=False, cancel_futures=True)
        self.writer.shutdown(wait=True)

    # ----- creating and loading ---------------------------------------------------------------

    async def create(
        self,
        name: str,
        params: dict[str, Any],
        seats: Seats = None,
        client: str | None = None,
        hints: bool = False,
        clock: TimeControl | None = None,
        clock_waits: bool = False,
    ) -> LiveGame:
        """A new game, stored with its opening chance outcomes, set up in the work pool with the
        server's parameter limits. ``client`` (an address, charged by the route's guard: see
        ``budgets.py``) has one set-up running at a time. Refused (nothing stored) past the
        memory budget. ``hints``: people playing each other may ask for hints (fair play: off
        unless chosen; see ``LiveGame.hints_for``). ``clock``: its time control, stored with it;
        the clock starts now, or with ``clock_waits`` at the next change announced (an open
        game: once its seats are taken; ``web/table/clocks.py``)."""
        game_cls = self.catalog.game_class(name)
        limits = self.settings.param_limits.get(name, {})
        seed = self.new_seed()
        game_id = secrets.token_urlsafe(9)

        game, state, entries, applied, size = await self.work.run(
            client, "setting up this game", set_up, game_cls, params, limits, seed
        )
        seat_rows = rows_for_seats(game_cls, game.info.num_players, seats)
        if hints:
            # The choice is the game's; it rides on every seat row (no column to add).
            seat_rows = [row | {"hints": True} for row in seat_rows]
        self.cache.make_room(size)
        record = new_record(game_id, clock, game.info.num_players, len(applied))
        created = time.time()  # one time for the row and the live game: a reload shows the same
        await self._in(
            self.writer,
            self.settings.store_seconds,
            "storing the new game",
            self.store.create_game,
            game_id,
            name,
            dict(game.params),
            seed,
            seed_hash(seed),
            seat_rows,
            applied,
            None if record is None else ClockStore.inserting(record),
            created,
            game_cls.rules_version,
        )
        stored = StoredGame(
            game_id, name, dict(game.params), seed, seed_hash(seed), seat_rows, created,
            False, list(applied), game_cls.rules_version,
        )  # fmt: skip
        live = await self._made(
            LiveGame(game_id, stored, game, state, entries, memory=size, payer=client or "")
        )
        self.cache.keep(live)
        self._start_computer(live)
        if clock is not None and not clock_waits:
            await self.announce(live, live.seq)  # nobody listens yet but the clock: it starts
        return live

    async def get(self, game_id: str, fresh: bool = True, payer: Payer | None = None) -> LiveGame:
        """The live game ``game_id``, loaded from the store if need be (``payer``, the client
        that asks, pays the load by the game's length: ``replays.walk_cost``). ``fresh``: check
        the store's sequence number first (another process may have moved it)."""
        live = self.games.get(game_id)
        if live is None:
            live = await self._load(game_id, payer)
        else:
            self.cache.touch(live)
            if fresh:
                await self.freshen(live)
        self._start_computer(live)
        await self.replays.tell(live)
        return live

    async def _load(self, game_id: str, payer: Payer | None) -> LiveGame:
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.games.get(game_id)
                if live is not None:
                    return live
                stored: StoredGame | None = await self._in(
                    self.reader, self.settings.store_seconds, "reading the game", self.store.load,
                    game_id,
                )  # fmt: skip
                if stored is None:
                    raise WebError(404, "unknown_game_id", f"no game with id {game_id!r}")
                if payer is not None and walk_cost(len(stored.actions)):
                    payer.charge(Spend.READ, walk_cost(len(stored.actions)))
                game_cls = self.catalog.game_class(stored.name)
                (game, state, entries, _, size), told = await self.work.run(
                    None, "loading the game", replay_told, game_cls, stored
                )
                live = await self._made(
                    LiveGame(stored.id, stored, game, state, entries, memory=size)
                )
                words.keep_told(live, told)
                self.cache.make_room(live.memory)
                self.cache.keep(live)
                return live
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)

    async def _made(self, live: LiveGame) -> LiveGame:
        """``live`` with each service's part (its session, its clock: ``GameLoaded``)."""
        await self.events.publish(GameLoaded(live))
        return live

    async def replay_stored(self, stored: StoredGame) -> LiveGame:
        """``stored`` rebuilt in the work pool (a takeback's shortened log), its moves said."""
        (game, state, entries, _, size), told = await self.work.run(
            None, "replaying the game", replay_told, self.catalog.game_class(stored.name), stored
        )
        live = await self._made(LiveGame(stored.id, stored, game, state, entries, memory=size))
        words.keep_told(live, told)
        return live

    async def state_at(self, live: LiveGame, step: int) -> State:
        """The state after the first ``step`` stored actions (the replay page's), made in the
        work pool from the nearest snapshot (``replays.py``); not to be changed."""
        return await self.replays.state_at(live, step)

    # ----- the store is the truth: catching up with other processes --------------------------

    async def freshen(self, live: LiveGame) -> None:
        """Catch up with the store if another process moved or ended this game (one query)."""
        try:
            async with asyncio.timeout(1.0):
                count, finished = await asyncio.get_running_loop().run_in_executor(
                    self.reader, self.store.progress, live.id
                )
        except TimeoutError:
            return  # the store is slow: answer from memory
        ended_elsewhere = finished and not live.over  # SQLite: no notice tells of it
        if ended_elsewhere or count > live.seq:
            async with live.lock:
                await (self.rebuild(live) if ended_elsewhere else self._catch_up(live))

    def _heard(self, game_id: str, seq: int, actions: list[tuple[int, int]] | None) -> None:
        """Another process stored ``actions`` of ``game_id``, up to ``seq``, or changed it
        otherwise (``RELOAD``) (PostgreSQL notices)."""
        live = self.games.get(game_id)
        if live is None:
            return
        if seq == RELOAD:
            self._spawn(self._reload(live))
        elif live.seq < seq:
            self._spawn(self._catch_up_to(live, seq, actions))

    async def seat_named(self, game_id: str, seat: int, name: str) -> None:
        """The store gave ``seat`` of ``game_id`` a new name (the account it now belongs to):
        the game, if this process holds it, shows it to its pages."""
        live = self.games.get(game_id)
        if live is None:
            return
        async with live.lock:
            live.stored.seats[seat] = {**live.stored.seats[seat], "name": name, "account": True}
            await self.announce(live, live.seq)

    async def _reload(self, live: LiveGame) -> None:
        async with live.lock:
            await self.rebuild(live)

    async def rebuild(self, live: LiveGame, stored: StoredGame | None = None) -> None:
        """Make ``live`` again from ``stored`` (by default: read from the store, where another
        process changed the game other than by a move) and show it to its sockets. Locked."""
        if stored is None:
            stored = await self._in(
                self.reader, self.settings.store_seconds, "reading the game", self.store.load,
                live.id,
            )  # fmt: skip
            if stored is None:
                return
        (_game, state, entries, _, _size), told = await self.work.run(
            None, "loading the game", replay_told, self.catalog.game_class(stored.name), stored
        )
        if live.bot_task is not None:
            live.bot_task.cancel()  # chosen, or standing by, for a position that may be gone
            live.bot_task = None
        live.stored, live.state, live.log = stored, state, entries
        words.forget(live)
        words.keep_told(live, told)
        await self._made(live)  # the session of play read again, its ending re-applied
        await self.announce(live, 0, elsewhere=True)

    async def _catch_up_to(
        self, live: LiveGame, seq: int, actions: list[tuple[int, int]] | None
    ) -> None:
        """Catch up to ``seq`` (a notice said the store has it): no count to ask first, and
        nothing to read when the notice brought every action this copy lacks."""
        async with live.lock:
            if live.seq < seq:
                if actions is None or live.seq != seq - len(actions):
                    actions = None  # the copy missed more than this notice: read the store
                await self._catch_up(live, actions)

    async def _catch_up(self, live: LiveGame, new: list[tuple[int, int]] | None = None) -> None:
        """Replay the actions stored past ``live.seq`` (``new``: they are known, as committed
        by another process; else read) and announce them. Locked."""
        first = live.seq
        if new is None:
            new = await self._in(
                self.reader, self.settings.store_seconds, "reading the game",
                self.store.actions_from, live.id, first,
            )  # fmt: skip
        if not new:
            return
        state = live.state.clone()
        entries: list[LogEntry] = []
        for seq, (action, player) in enumerate(new, start=first):
            entries.append(LogEntry(seq, player, strings_of(state, action)))
            state.apply_action(action)
        live.state = state
        live.log.extend(entries)
        live.stored.actions.extend(new)
        log.info("game %s caught up from move %d to %d (moved elsewhere)", live.id, first, live.seq)
        # (the computer only stands by: the process that moved asks for the reply)
        await self.announce(live, first, elsewhere=True)

    # ----- subscribers --------------------------------------------------------------------------

    def subscribe(self, live: LiveGame, subscriber: Subscriber, client: str) -> None:
        """Add a socket to ``live``, counted against ``client``'s sockets, the server's and the
        memory budget until ``unsubscribe`` (``SocketCounts``: refused past its limits)."""
        self.sockets.count_in(live, subscriber, client)
        live.subscribers.add(subscriber)
        if subscriber.seat is not None:  # a person's seat: its moves and hints are charged here
            live.seat_clients[subscriber.seat] = live.payer = client
        elif not live.payer:  # a game loaded from the store: whoever watches it first pays
            live.payer = client
        self.watching(live)

    async def seat_opened(self, live: LiveGame, seat: int) -> None:
        """A person's page opened ``seat`` of ``live`` (``SeatOpened``)."""
        await self.events.publish(SeatOpened(live, seat))

    def watching(self, live: LiveGame) -> None:
        """Someone looks at ``live`` now (a socket opened, or a page that is seen says so): a
        game of computers alone goes on (``ComputerSeats.watched``)."""
        if live.id in self.games:
            self.cache.touch(live)
        self._start_computer(live)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Take a socket out of every count ``subscribe`` put it in, once, whatever happened to
        it meanwhile (``announce`` may have stopped sending to it)."""
        self.sockets.count_out(subscriber)

    @property
    def open_sockets(self) -> int:
        """Sockets subscribed now, server-wide (each counted until ``unsubscribe``)."""
        return len(self.sockets)

    @property
    def sockets_by_client(self) -> Counter[str]:
        """Sockets subscribed now per client address."""
        return self.sockets.by_client

    async def _show_status(self, live: LiveGame) -> None:
        """Send every subscriber its view again: the status changed, no move was made."""
        await self.announce(live, live.seq)

    async def announce(self, live: LiveGame, log_from: int, elsewhere: bool = False) -> None:
        """Publish a stored change of ``live`` (``GameChanged``: moves from ``log_from`` on;
        ``elsewhere``: made through another process), then queue every socket's new view, then
        the computer's turn (only standing by for a change made elsewhere). Locked.

        Views are encoded once per (seat, drawing) and queued in order under the game's lock;
        the sending happens outside it, so a socket that stops reading holds up nobody (its
        queue fills and it is dropped).
        """
        await self.events.publish(GameChanged(live, log_from, elsewhere))
        send_views(live, log_from)
        if live.over and not live.ended_told:
            live.ended_told = True
            await self.events.publish(GameEnded(live))
        self._start_computer(live, standby=elsewhere)

    # ----- the computer's turns ---------------------------------------------------------------

    def _start_computer(self, live: LiveGame, standby: bool = False) -> None:
        """Start the computer's turn if a computer is to move (``ComputerSeats.turn_to_start``;
        ``standby``: only stand by for the reply another process plays)."""
        seat = self.computer.turn_to_start(live, standby)
        if seat is not None:
            live.bot_task = asyncio.get_running_loop().create_task(
                self._computer_turn(live, seat, standby)
            )

    async def _computer_turn(self, live: LiveGame, seat: int, standby: bool) -> None:
        """Think (``computer``) while the pace's pause runs, and play the computer's answer as
        a person's move."""
        if standby:
            seq = live.seq
            await self.computer.stand_by(live, seat)
            await self.freshen(live)  # a notice missed: the store has the reply
            if live.seq != seq:
                live.bot_task = None
                self._start_computer(live, standby=True)
                return
        if self.computer.must_rest(live):
            await self._show_status(live)  # the status says why the computer does not answer yet
            await self.computer.rest(live)
        if standby:
            chosen = await self.computer.choose(live, seat)
        else:
            chosen = await self.computer.choose_while_pausing(live, seat)
        if chosen is None:
            return
        seq, action = chosen
        live.bot_task = None
        try:
            await self.act(live, seat, seq, action)
        except WebError as error:
            # Stale: another process holding this game played the same computer move first.
            level_of = logging.INFO if error.code == "stale" else logging.WARNING
            log.log(level_of, "computer move refused in game %s: %s", live.id, error.detail)
            self._start_computer(live)

    # ----- acting -------------------------------------------------------------------------------

    async def act_as_person(
        self, live: LiveGame, seat: int | None, seq: int, action: int | str, client: str = ""
    ) -> None:
        """``act`` for a person's token: refused once the seat passed to the computer. The
        computer's answer is charged to ``client`` (by default the client the seat last played
        from)."""
        live.check_person(seat)
        if live.waiting_for_people():
            raise WebError(
                409, "waiting_for_opponent", "the game starts when an opponent takes the free seat"
            )
        if seat is not None:
            if client:
                live.seat_clients[seat] = client
            live.payer = live.seat_clients.get(seat, live.payer)
        await self.act(live, seat, seq, action)
        if client:
            note_known(client)  # a person played from its network: it may use the reserve

    async def act(self, live: LiveGame, seat: int | None, seq: int, action: int | str) -> None:
        """Play ``action`` (an id or a string) for ``seat`` on top of sequence number ``seq``."""
        began = time.monotonic()
        received = self.timers.now()  # a move is judged by when it came, not when it is stored
        async with live.lock:
            if seq > live.seq:  # the player saw a later move: made through another process
                await self._catch_up(live)
            check_turn(live, seat, seq)
            assert seat is not None  # _check_turn refuses spectators
            if live.clock is not None:
                live.clock.refuse_late(seat, received)
            chosen = action_id(live.state, action)
            await self._commit(live, [(chosen, seat)], received)
        self.metrics.moves.inc()
        self.metrics.move_seconds.observe(time.monotonic() - began)

    async def _commit(
        self, live: LiveGame, actions: list[tuple[int, int]], received: float | None = None
    ) -> None:
        """Apply ``actions`` (received at ``received``) and the chance outcomes after them;
        store them with the clock's new state; then announce. Locked."""
        first = live.seq
        state, entries, applied = advance(live.state, actions, live.stored.seed, first)
        returns = state.returns() if state.is_terminal() else None
        ticked = ticked_clock(
            live.clock,
            live.running_seat(state),
            actions,
            live.seq + len(applied),
            received or self.timers.now(),
        )
        # Committed before anyone is told: an acknowledged move survives a killed server.
        try:
            await self._in(
                self.writer,
                self.settings.store_seconds,
                "storing the move",
                self.store.append_actions,
                live.id,
                first,
                applied,
                returns,
                None if ticked is None else ticked[1],
            )
        except (IntegrityError, StaleCopy) as error:
            # Another process stored this move number first, or took moves back or ended the
            # game: our copy was stale.
            if isinstance(error, StaleCopy):
                await self.rebuild(live)
            else:
                await self._catch_up(live)
            raise WebError(
                409,
                "stale",
                f"the game moved on elsewhere; it is now at move {live.seq}: reload the board",
            ) from None
        live.state = state
        live.log.extend(entries)
        live.stored.actions.extend(applied)
        if live.clock is not None and ticked is not None:
            live.clock.record = ticked[0]
        await self.announce(live, first)
