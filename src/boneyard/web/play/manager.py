"""The manager: all live games of one app, created, loaded, acted on, watched and dropped.

Every change to a game goes through its asyncio lock: check the sequence number, the seat and
the action, resolve the chance nodes that follow from the game's seed, store the new actions
(committed before anyone hears of them), then hand each subscriber its new view (a queue per
subscriber: nobody waits on a slow reader). Nothing heavy runs on the event loop: setting up and
replaying games run in work threads, commits in the store's thread, bots in ``bots``; each with
a time limit from ``Settings``.

The store is the truth and live games are a cache of it, checked against the store's sequence
number: a copy found behind (another server process moved) is brought up to date, not failed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from boneyard.ai.levels import LEVEL_NAMES, scale_for
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import State
from boneyard.web.compute.chance import seed_hash
from boneyard.web.compute.runners import bot_runner
from boneyard.web.errors import WebError
from boneyard.web.play import drawing, words
from boneyard.web.play.cache import LiveCache
from boneyard.web.play.catalog import Catalog
from boneyard.web.play.clocks import TimeControl, new_record, ticked_clock
from boneyard.web.play.computer import ComputerSeats
from boneyard.web.play.drawing import Lines
from boneyard.web.play.live import LiveGame, LogEntry, Subscriber
from boneyard.web.play.metrics import Metrics
from boneyard.web.play.timers import Timers, WallTimers
from boneyard.web.play.work import WorkPool, advance, replay, set_up, strings_of
from boneyard.web.settings import Settings
from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.games import RELOAD, StaleCopy, Store, StoredGame

log = logging.getLogger("boneyard.web")

T = TypeVar("T")
Seats = list[dict[str, Any]] | Callable[[int], list[dict[str, Any]]] | None
"""Seats of a new game: a list, a function of the seat count, or None (every seat a person)."""


class GameManager:
    """All live games of one app: loading, creating, acting, computer seats and subscribers."""

    def __init__(
        self,
        store: Store,
        catalog: Catalog | None = None,
        settings: Settings | None = None,
        timers: Timers | None = None,
    ) -> None:
        self.store = store
        self.timers: Timers = timers or WallTimers()
        """The time source: moves' receipt times, clocks' timers (tests move it by hand)."""
        self.catalog = catalog or Catalog()
        self.settings = settings or Settings()
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
        """Where game seeds come from (tests may fix it; the server never should)."""
        self._loading: dict[str, asyncio.Lock] = {}
        self.load_hooks: list[Callable[[LiveGame], None]] = []
        """Called on every live game made (created or replayed from the store): the session
        layer (``web/table/sessions.py``) attaches itself and re-applies endings it stored."""
        self.change_hooks: list[Callable[[LiveGame], None]] = []
        """Called on every change announced (locked): the clocks follow the turns by it."""
        # SQLite takes one writer at a time: one storage thread keeps commits in order. Reads
        # have their own threads: in WAL mode a reader never waits for a writer.
        self.writer = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="store")
        # (PostgreSQL answers many reads at once: more threads, or a busy server queues them.)
        self.reader = ThreadPoolExecutor(
            2 if store.is_sqlite else 8, thread_name_prefix="store-read"
        )
        self.work = WorkPool(self.settings.work_processes, self.settings.work_seconds)
        self.metrics = Metrics()
        self.bots = bot_runner(self.settings, store, self.metrics)
        # The services it is composed of: what stays in memory, and the computer seats (which
        # play their answers through this manager's own act, as a person's move is played).
        self.cache = LiveCache(self.settings)
        self.computer = ComputerSeats(self.settings, self.bots, self.act, self.freshen)
        self.metrics.watch(lambda: len(self.games), self.bots.depth)
        self.sockets_by_client: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stop_listening: Callable[[], None] | None = None

    @property
    def games(self) -> dict[str, LiveGame]:
        """The live games, from least to most recently used (``cache``)."""
        return self.cache.games

    @property
    def live_bytes(self) -> int:
        """What the live games and sockets hold, as estimated (``cache``)."""
        return self.cache.live_bytes

    async def hint(
        self, live: LiveGame, seat: int | None, other_tokens: list[str] | None = None
    ) -> dict[str, Any]:
        """The strongest level's move for ``seat`` (``computer``); ``other_tokens``: the other
        seats the asking page plays (one screen), each checked (a wrong one: 403)."""
        others = frozenset(
            held for token in other_tokens or [] if (held := live.seat_of(token)) is not None
        )
        return await self.computer.hint(live, seat, others)

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
            return await asyncio.wait_for(future, timeout=limit)
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
        seat_rows = self._seat_rows(name, game.info.num_players, seats)
        if hints:
            # The choice is the game's; it rides on every seat row (no column to add).
            seat_rows = [row | {"hints": True} for row in seat_rows]
        self.cache.make_room(size)
        record = new_record(game_id, clock, game.info.num_players, len(applied))
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
        )
        stored = StoredGame(
            game_id, name, dict(game.params), seed, seed_hash(seed), seat_rows, time.time(),
            False, list(applied),
        )  # fmt: skip
        live = self._made(LiveGame(game_id, stored, game, state, entries, memory=size))
        self.cache.keep(live)
        self.computer.schedule(live)
        if clock is not None and not clock_waits:
            self.announce(live, live.seq)  # nobody listens yet but the clock: it starts
        return live

    @staticmethod
    def _level_name(name: str, number: int, level: Any) -> str:
        """A computer seat's level as stored: an alias (easy, medium, hard) as it is, a number
        on the game's scale as its digits; anything else is refused naming what is allowed."""
        scale = scale_for(name)
        if isinstance(level, (str, int)) and not isinstance(level, bool):
            text = str(level).strip().lower()
            try:
                scale.number(text)
            except ValueError:
                pass
            else:
                return text if text in LEVEL_NAMES else str(int(text))
        raise WebError(
            400,
            "bad_seats",
            f"seat {number}: a computer level of {name} is {scale.allowed()}, not {level!r}",
        )

    def _seat_rows(self, name: str, count: int, seats: Seats) -> list[dict[str, Any]]:
        if seats is None:
            seats = [{"kind": "human"} for _ in range(count)]
        elif callable(seats):
            seats = seats(count)
        if len(seats) != count:
            raise WebError(
                400,
                "bad_seats",
                f"{name} with these parameters has {count} seats; {len(seats)} were given",
            )
        rows: list[dict[str, Any]] = []
        for number, seat in enumerate(seats):
            kind = seat.get("kind", "human")
            level = seat.get("level")
            if kind not in ("human", "computer"):
                raise WebError(
                    400, "bad_seats", f"seat {number}: kind is 'human' or 'computer', not {kind!r}"
                )
            if kind == "computer":
                level = self._level_name(name, number, level)
            rows.append(
                {
                    "token": secrets.token_urlsafe(24),
                    "kind": kind,
                    "level": level if kind == "computer" else None,
                    "name": _seat_name(seat.get("name")) if kind == "human" else None,
                }
            )
        return rows

    async def get(self, game_id: str, fresh: bool = True) -> LiveGame:
        """The live game ``game_id``, loaded from the store if need be. ``fresh``: check the
        store's sequence number first (another process may have moved it)."""
        live = self.games.get(game_id)
        if live is None:
            live = await self._load(game_id)
        else:
            self.cache.touch(live)
            if fresh:
                await self.freshen(live)
        self.computer.schedule(live)
        return live

    async def _load(self, game_id: str) -> LiveGame:
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
                game_cls = self.catalog.game_class(stored.name)
                game, state, entries, _, size = await self.work.run(
                    None, "loading the game", replay, game_cls, stored
                )
                live = self._made(LiveGame(stored.id, stored, game, state, entries, memory=size))
                self.cache.make_room(live.memory)
                self.cache.keep(live)
                return live
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)

    def _made(self, live: LiveGame) -> LiveGame:
        for hook in self.load_hooks:
            hook(live)
        return live

    def replay_stored(self, stored: StoredGame) -> LiveGame:
        """``stored`` rebuilt here and now (a takeback's shortened log: small and known)."""
        game, state, entries, _, size = replay(self.catalog.game_class(stored.name), stored)
        return self._made(LiveGame(stored.id, stored, game, state, entries, memory=size))

    def state_at(self, live: LiveGame, step: int) -> State:
        """The state after the first ``step`` stored actions (for the replay page)."""
        state = live.game.new_initial_state()
        for action, _player in live.stored.actions[:step]:
            state.apply_action(action)
        return state

    # ----- the store is the truth: catching up with other processes --------------------------

    async def freshen(self, live: LiveGame) -> None:
        """Catch up with the store if another process moved this game (a cheap count)."""
        try:
            count = await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(
                    self.reader, self.store.action_count, live.id
                ),
                timeout=1.0,
            )
        except TimeoutError:
            return  # the store is slow: answer from memory
        if count > live.seq:
            async with live.lock:
                await self._catch_up(live)

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
        _game, state, entries, _, _size = await self.work.run(
            None, "loading the game", replay, self.catalog.game_class(stored.name), stored
        )
        if live.bot_task is not None:
            live.bot_task.cancel()  # chosen, or standing by, for a position that may be gone
            live.bot_task = None
        live.stored, live.state, live.log = stored, state, entries
        words.forget(live)
        self._made(live)  # the session of play read again, its ending re-applied
        self.announce(live, 0)
        self.computer.schedule(live, standby=True)

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
        self.announce(live, first)
        self.computer.schedule(live, standby=True)  # the process that moved asks for the reply

    # ----- subscribers --------------------------------------------------------------------------

    def subscribe(self, live: LiveGame, subscriber: Subscriber, client: str) -> None:
        """Add a socket to ``live``; refused past ``sockets_per_game`` or ``sockets_per_client``."""
        if len(live.subscribers) >= self.settings.sockets_per_game:
            raise WebError(
                503, "too_many_sockets", "this game has as many watchers as it allows",
                retry_after=30,
            )  # fmt: skip
        if self.sockets_by_client[client] >= self.settings.sockets_per_client:
            raise WebError(
                429, "too_many_sockets", "this address has as many sockets open as it may",
                retry_after=30,
            )  # fmt: skip
        if self.sockets_by_client.total() >= self.settings.max_sockets:
            raise WebError(
                503, "too_many_sockets", "this server has as many sockets open as it allows",
                retry_after=30,
            )  # fmt: skip
        self.cache.hold(self.settings.socket_bytes)  # a socket's buffers count as memory
        self.sockets_by_client[client] += 1
        live.subscribers.add(subscriber)
        if live.id in self.games:
            self.cache.touch(live)
        self.computer.schedule(live)  # a game of computers alone goes on while watched

    def unsubscribe(self, live: LiveGame, subscriber: Subscriber, client: str) -> None:
        if subscriber in live.subscribers:
            live.subscribers.discard(subscriber)
            self.cache.release(self.settings.socket_bytes)
            self.sockets_by_client[client] -= 1
            if self.sockets_by_client[client] <= 0:
                del self.sockets_by_client[client]

    def announce(self, live: LiveGame, log_from: int) -> None:
        """Queue every subscriber's new view, with the log entries from ``log_from`` on.

        Encoded once per (seat, drawing) and queued in order under the game's lock; the sending
        happens outside it, so a socket that stops reading holds up nobody (its queue fills and
        it is dropped).
        """
        views: dict[tuple[int | None, bool], tuple[dict[str, Any], Lines | None]] = {}
        encoded: dict[tuple[int | None, bool, Lines | None], str] = {}
        for subscriber in list(live.subscribers):
            key = (subscriber.seat, subscriber.draw)
            if key not in views:
                view = {"type": "view", **live.view(*key, log_from=log_from)}
                views[key] = view, drawing.lines_of(view["svg"])
            view, lines = views[key]
            held = subscriber.drawing
            if (*key, held) not in encoded:
                if held is not None and lines is not None:  # only what changed since then
                    view = {**view, "svg": None, "drawing": drawing.changes(held, lines)}
                encoded[(*key, held)] = json.dumps(view, separators=(",", ":"))
            subscriber.drawing = lines
            if not subscriber.offer(encoded[(*key, held)]):
                live.subscribers.discard(subscriber)
        for hook in self.change_hooks:
            hook(live)

    # ----- acting -------------------------------------------------------------------------------

    async def act_as_person(
        self, live: LiveGame, seat: int | None, seq: int, action: int | str
    ) -> None:
        """``act`` for a person's token: refused once the seat passed to the computer."""
        live.check_person(seat)
        if live.waiting_for_people():
            raise WebError(
                409, "waiting_for_opponent", "the game starts when an opponent takes the free seat"
            )
        await self.act(live, seat, seq, action)

    async def act(self, live: LiveGame, seat: int | None, seq: int, action: int | str) -> None:
        """Play ``action`` (an id or a string) for ``seat`` on top of sequence number ``seq``."""
        began = time.monotonic()
        received = self.timers.now()  # a move is judged by when it came, not when it is stored
        async with live.lock:
            if seq > live.seq:  # the player saw a later move: made through another process
                await self._catch_up(live)
            self._check_turn(live, seat, seq)
            assert seat is not None  # _check_turn refuses spectators
            if live.clock is not None:
                live.clock.refuse_late(seat, received)
            action_id = self._action_id(live.state, action)
            await self._commit(live, [(action_id, seat)], received)
        self.metrics.moves.inc()
        self.metrics.move_seconds.observe(time.monotonic() - began)

    def _check_turn(self, live: LiveGame, seat: int | None, seq: int) -> None:
        if seat is None:
            raise WebError(403, "spectator", "a spectator cannot act: open an invite link")
        if live.over:
            raise WebError(409, "game_over", f"game {live.id} is over: {live.status_text()}")
        if seq != live.seq:
            raise WebError(
                409,
                "stale",
                f"you acted on move {seq} but the game is at move {live.seq}: "
                "someone moved first (or this was sent twice); reload the board",
            )
        player = live.to_move()
        if player != seat:
            raise WebError(409, "not_your_turn", f"it is not your turn: {live.status_text()}")

    def _action_id(self, state: State, action: int | str) -> int:
        if isinstance(action, bool):
            raise WebError(422, "bad_action", "an action is an id (integer) or an action string")
        if isinstance(action, str):
            try:
                action = state.string_to_action(action)
            except BoneyardError as error:
                raise WebError(422, "bad_action", str(error)) from None
            except (ValueError, IndexError, KeyError) as error:
                raise WebError(422, "bad_action", f"cannot read action: {error}") from None
        if action not in state.legal_actions():
            try:
                state.clone().apply_action(action)
            except IllegalActionError as error:
                raise WebError(422, "illegal", str(error)) from None
            raise WebError(422, "illegal", f"illegal action {action!r}")
        return action

    async def _commit(
        self, live: LiveGame, actions: list[tuple[int, int]], received: float | None = None
    ) -> None:
        """Apply ``actions`` (received at ``received``) and the chance outcomes after them;
        store them with the clock's new state; then announce. Locked."""
        first = live.seq
        state, entries, applied = advance(live.state, actions, live.stored.seed, first)
        returns = state.returns() if state.is_terminal() else None
        ticked = ticked_clock(
            live, state, actions, live.seq + len(applied), received or self.timers.now()
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
        self.announce(live, first)
        self.computer.schedule(live)


def _seat_name(name: object) -> str | None:
    """A person's name given with a new game: refused (400) when given but not a name."""
    if name is None or (isinstance(name, str) and not name.strip()):
        return None
    return words.given_name(name)
