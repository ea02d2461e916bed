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
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from boneyard.ai.levels import LEVEL_NAMES
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import CHANCE, Game, State
from boneyard.web import words
from boneyard.web.bots import COMPUTER_MOVE, HINT, bot_move, budget_of, hint_move
from boneyard.web.catalog import Catalog, parse_params
from boneyard.web.chance import bot_seed, chance_outcome, seed_hash
from boneyard.web.errors import WebError
from boneyard.web.jobs import JobFailed, bot_runner
from boneyard.web.live import LiveGame, LogEntry, Subscriber
from boneyard.web.memory import estimate_bytes
from boneyard.web.metrics import Metrics
from boneyard.web.settings import Settings
from boneyard.web.store import Store, StoredGame

log = logging.getLogger("boneyard.web")

T = TypeVar("T")
Seats = list[dict[str, Any]] | Callable[[int], list[dict[str, Any]]] | None
"""Seats of a new game: a list, a function of the seat count, or None (every seat a person)."""


class RateLimit:
    """A token bucket per key: ``rate`` a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """0 when allowed (one token taken); else the seconds until one is free."""
        now = time.monotonic()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
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
        return (1 - tokens) / self.rate if self.rate > 0 else 60.0


def advance(
    state: State, actions: list[tuple[int, int]], seed: str, first: int
) -> tuple[State, list[LogEntry], list[tuple[int, int]]]:
    """``state`` after ``actions`` and the chance outcomes that follow (a new state)."""
    state = state.clone()
    entries: list[LogEntry] = []
    applied: list[tuple[int, int]] = []
    for action, player in actions:
        entries.append(LogEntry(first + len(applied), player, strings_of(state, action)))
        state.apply_action(action)
        applied.append((action, player))
    while state.current_player() == CHANCE:
        seq = first + len(applied)
        outcome = chance_outcome(state, seed, seq)
        entries.append(LogEntry(seq, CHANCE, strings_of(state, outcome)))
        state.apply_action(outcome)
        applied.append((outcome, CHANCE))
    return state, entries, applied


def strings_of(state: State, action: int) -> list[str]:
    """How ``action`` looks to each seat, then to a spectator."""
    seats = state.game.info.num_players
    return [state.action_string_for(s, action) for s in range(seats)] + [
        state.action_string_for(None, action)
    ]


class GameManager:
    """All live games of one app: loading, creating, acting, computer seats and subscribers."""

    def __init__(
        self,
        store: Store,
        catalog: Catalog | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog or Catalog()
        self.settings = settings or Settings()
        self.games: dict[str, LiveGame] = {}
        """Live games, from least to most recently used."""
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
        # Set-ups and replays; one set-up per client at a time (``_one_each``) keeps a client
        # whose set-ups run past their limit from holding more than one of these threads.
        self.work = ThreadPoolExecutor(4, thread_name_prefix="work")
        self._setting_up: Counter[str] = Counter()
        self._work_lock = threading.Lock()
        self.metrics = Metrics()
        self.bots = bot_runner(self.settings, store, self.metrics)
        self.metrics.watch(lambda: len(self.games), self.bots.depth)
        self.live_bytes = 0
        self.sockets_by_client: Counter[str] = Counter()
        per_minute = self.settings.games_per_minute
        self.creations = RateLimit(per_minute / 60.0, max(1, per_minute))
        self._game_bytes: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stop_listening: Callable[[], None] | None = None

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

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def warm_up(self) -> None:
        """At start-up: worker processes, the sweeper of idle games, the store's move notices."""
        self.bots.warm_up()
        loop = asyncio.get_running_loop()
        self._spawn(self._sweep_forever())

        def heard(game_id: str, seq: int) -> None:
            loop.call_soon_threadsafe(self._heard, game_id, seq)

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
        self.work.shutdown(wait=False, cancel_futures=True)
        self.reader.shutdown(wait=False, cancel_futures=True)
        self.writer.shutdown(wait=True)

    # ----- creating and loading ---------------------------------------------------------------

    def check_creation_rate(self, client: str) -> None:
        wait = self.creations.take(client)
        if wait > 0:
            raise WebError(
                429,
                "too_many_games",
                f"this address created {self.settings.games_per_minute} games in the last "
                f"minute, the most this server allows; try again in {wait:.0f} seconds",
                retry_after=wait,
            )

    async def create(
        self, name: str, params: dict[str, Any], seats: Seats = None, client: str | None = None
    ) -> LiveGame:
        """A new game, stored with its opening chance outcomes. ``client`` (an address) counts
        against ``games_per_minute``. Refused (nothing stored) past a budget."""
        if client is not None:
            self.check_creation_rate(client)
        game_cls = self.catalog.game_class(name)
        limits = self.settings.param_limits.get(name, {})
        seed = self.new_seed()
        game_id = secrets.token_urlsafe(9)

        def set_up() -> tuple[Game, State, list[LogEntry], list[tuple[int, int]], int]:
            resolved = parse_params(game_cls, params, limits)
            game = game_cls(**resolved)
            state, entries, applied = advance(game.new_initial_state(), [], seed, 0)
            return game, state, entries, applied, self._estimate(game, state)

        game, state, entries, applied, size = await self._in(
            self.work,
            self.settings.work_seconds,
            "setting up this game",
            self._one_each(client, set_up),
        )
        seat_rows = self._seat_rows(name, game.info.num_players, seats)
        self._make_room(size)
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
        )
        stored = StoredGame(
            game_id, name, dict(game.params), seed, seed_hash(seed), seat_rows, time.time(),
            False, list(applied),
        )  # fmt: skip
        live = LiveGame(game_id, stored, game, state, entries, memory=size)
        self._keep(live)
        self._schedule_bot(live)
        return live

    def _one_each(self, client: str | None, job: Callable[[], T]) -> Callable[[], T]:
        """``job`` counted against ``client``: one set-up each at a time, counted until its
        thread ends (a set-up past its time limit answers 503 but goes on running)."""
        if client is None:
            return job
        with self._work_lock:
            if self._setting_up[client] >= 1:
                raise WebError(
                    429,
                    "busy",
                    "your previous game is still being set up; try again in a few seconds",
                    retry_after=5,
                )
            self._setting_up[client] += 1

        def counted() -> T:
            try:
                return job()
            finally:
                with self._work_lock:
                    self._setting_up[client] -= 1
                    if self._setting_up[client] <= 0:
                        del self._setting_up[client]

        return counted

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
            if kind == "computer" and level not in LEVEL_NAMES:
                raise WebError(
                    400,
                    "bad_seats",
                    f"seat {number}: a computer level is one of {', '.join(LEVEL_NAMES)}, "
                    f"not {level!r}",
                )
            rows.append(
                {
                    "token": secrets.token_urlsafe(24),
                    "kind": kind,
                    "level": level if kind == "computer" else None,
                    "name": words.clean_name(seat.get("name")) if kind == "human" else None,
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
            self._touch(live)
            if fresh:
                await self.freshen(live)
        self._schedule_bot(live)
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
                live = await self._in(
                    self.work, self.settings.work_seconds, "loading the game", self._replay, stored
                )
                self._make_room(live.memory)
                self._keep(live)
                return live
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)

    def _replay(self, stored: StoredGame) -> LiveGame:
        game = self.catalog.game_class(stored.name)(**stored.params)
        state = game.new_initial_state()
        entries: list[LogEntry] = []
        for seq, (action, player) in enumerate(stored.actions):
            entries.append(LogEntry(seq, player, strings_of(state, action)))
            state.apply_action(action)
        return LiveGame(stored.id, stored, game, state, entries, memory=self._estimate(game, state))

    def _estimate(self, game: Game, state: State) -> int:
        """Bytes a live game holds: its game (once per kind and parameters) and its state."""
        key = f"{game.name}:{json.dumps(dict(game.params), sort_keys=True)}"
        if key not in self._game_bytes:
            self._game_bytes[key] = estimate_bytes(game)
        return self._game_bytes[key] + estimate_bytes(state, limit=200_000)

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

    def _heard(self, game_id: str, seq: int) -> None:
        """Another process stored move ``seq`` of ``game_id`` (PostgreSQL notices)."""
        live = self.games.get(game_id)
        if live is not None and live.seq < seq:
            self._spawn(self._catch_up_to(live, seq))

    async def _catch_up_to(self, live: LiveGame, seq: int) -> None:
        """Catch up to ``seq`` (a notice said the store has it): no count to ask first."""
        async with live.lock:
            if live.seq < seq:
                await self._catch_up(live)

    async def _catch_up(self, live: LiveGame) -> None:
        """Replay the actions stored past ``live.seq`` and announce them. Locked."""
        first = live.seq
        new: list[tuple[int, int]] = await self._in(
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
        self._announce(live, first)
        self._schedule_bot(live)

    # ----- memory: live games are a cache of the store ------------------------------------------

    def _touch(self, live: LiveGame) -> None:
        """Mark ``live`` as just used: the games dict runs from least to most recently used."""
        live.last_used = time.monotonic()
        self.games[live.id] = self.games.pop(live.id)

    def _keep(self, live: LiveGame) -> None:
        self.games[live.id] = live
        self.live_bytes += live.memory
        excess = len(self.games) - self.settings.max_live_games
        if excess > 0:
            self._drop_idle(excess, self.settings.live_idle_seconds, keep=live)

    def _drop(self, live: LiveGame) -> None:
        if self.games.get(live.id) is live:
            del self.games[live.id]
            self.live_bytes -= live.memory

    def _drop_idle(self, count: int, idle_seconds: float, keep: LiveGame | None = None) -> int:
        """Drop up to ``count`` games idle ``idle_seconds``, least recently used first."""
        now = time.monotonic()
        dropped = 0
        for other in list(self.games.values()):
            if dropped >= count:
                break
            if other is not keep and other.is_idle(now, idle_seconds):
                self._drop(other)
                dropped += 1
        return dropped

    def _make_room(self, size: int) -> None:
        """Free memory for a game of ``size`` bytes, or refuse (503) if nothing can leave."""
        budget = self.settings.live_memory_mb * 1e6
        now = time.monotonic()
        for other in list(self.games.values()):
            if self.live_bytes + size <= budget:
                return
            if other.is_idle(now, 0.0):
                self._drop(other)
        if self.live_bytes + size > budget:
            raise WebError(
                503,
                "server_full",
                "this server holds as many games as its memory allows, all in play; "
                "try again in a minute",
                retry_after=60,
            )

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            self._drop_idle(len(self.games), self.settings.live_idle_seconds)

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
        self.sockets_by_client[client] += 1
        live.subscribers.add(subscriber)
        if live.id in self.games:
            self._touch(live)
        self._schedule_bot(live)  # a game of computers alone goes on while watched

    def unsubscribe(self, live: LiveGame, subscriber: Subscriber, client: str) -> None:
        if subscriber in live.subscribers:
            live.subscribers.discard(subscriber)
            self.sockets_by_client[client] -= 1
            if self.sockets_by_client[client] <= 0:
                del self.sockets_by_client[client]

    def _announce(self, live: LiveGame, log_from: int) -> None:
        """Queue every subscriber's new view, with the log entries from ``log_from`` on.

        Encoded once per (seat, drawing) and queued in order under the game's lock; the sending
        happens outside it, so a socket that stops reading holds up nobody (its queue fills and
        it is dropped).
        """
        views: dict[tuple[int | None, bool], str] = {}
        for subscriber in list(live.subscribers):
            key = (subscriber.seat, subscriber.draw)
            if key not in views:
                view = {"type": "view", **live.view(*key, log_from=log_from)}
                views[key] = json.dumps(view, separators=(",", ":"))
            if not subscriber.offer(views[key]):
                live.subscribers.discard(subscriber)

    # ----- acting -------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, seq: int, action: int | str) -> None:
        """Play ``action`` (an id or a string) for ``seat`` on top of sequence number ``seq``."""
        began = time.monotonic()
        async with live.lock:
            if seq > live.seq:  # the player saw a later move: made through another process
                await self._catch_up(live)
            self._check_turn(live, seat, seq)
            assert seat is not None  # _check_turn refuses spectators
            action_id = self._action_id(live.state, action)
            await self._commit(live, [(action_id, seat)])
        self.metrics.moves.inc()
        self.metrics.move_seconds.observe(time.monotonic() - began)

    def _check_turn(self, live: LiveGame, seat: int | None, seq: int) -> None:
        if seat is None:
            raise WebError(403, "spectator", "a spectator cannot act: open an invite link")
        if live.state.is_terminal():
            raise WebError(409, "game_over", f"game {live.id} is over: {live.status_text()}")
        if seq != live.seq:
            raise WebError(
                409,
                "stale",
                f"you acted on move {seq} but the game is at move {live.seq}: "
                "someone moved first (or this was sent twice); reload the board",
            )
        player = live.state.current_player()
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

    async def _commit(self, live: LiveGame, actions: list[tuple[int, int]]) -> None:
        """Apply ``actions`` and the chance outcomes after them; store; then announce. Locked."""
        first = live.seq
        state, entries, applied = advance(live.state, actions, live.stored.seed, first)
        returns = state.returns() if state.is_terminal() else None
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
            )
        except IntegrityError:
            # Another process stored this move number first: our copy was stale.
            await self._catch_up(live)
            raise WebError(
                409,
                "stale",
                f"the game moved on elsewhere; it is now at move {live.seq}: reload the board",
            ) from None
        live.state = state
        live.log.extend(entries)
        live.stored.actions.extend(applied)
        self._announce(live, first)
        self._schedule_bot(live)

    # ----- computer seats and hints ------------------------------------------------------------

    def _watched(self, live: LiveGame) -> bool:
        recently = time.monotonic() - live.last_used < self.settings.watch_seconds
        return bool(live.subscribers) or recently

    def _schedule_bot(self, live: LiveGame) -> None:
        if live.bot_task is not None and not live.bot_task.done():
            return
        player = live.state.current_player()
        if player < 0 or live.stored.seats[player]["kind"] != "computer":
            return
        if live.computers_only and not self._watched(live):
            return  # nobody is watching: it goes on when someone looks
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(live, player))

    def _pause_before(self, live: LiveGame, seat: int) -> float:
        """The full delay at a new turn; a short one between steps of the same computer."""
        moved = [entry.player for entry in live.log if entry.player != CHANCE]
        same_turn = bool(moved) and moved[-1] == seat
        if same_turn or len(live.state.legal_actions()) == 1:
            return min(self.settings.bot_step_delay, self.settings.bot_delay)
        return self.settings.bot_delay

    async def _bot_turn(self, live: LiveGame, seat: int) -> None:
        await asyncio.sleep(self._pause_before(live, seat))
        seq = live.seq
        if live.state.current_player() != seat:
            return
        if live.computers_only and not self._watched(live):
            live.bot_task = None
            return
        level = str(live.stored.seats[seat]["level"])
        state = live.state
        limit = self.settings.bot_time_limit
        try:
            action = await self.bots.run(
                COMPUTER_MOVE,
                budget_of(live.game.name, level, limit),
                bot_move,
                level,
                seat,
                bot_seed(live.stored.seed, seat, seq),
                limit,
                self.bots.payload(state),
            )
        except Exception:
            log.exception(
                "the %s bot failed in game %s; it plays its first legal move", level, live.id
            )
            action = state.legal_actions()[0]
        live.bot_task = None
        try:
            await self.act(live, seat, seq, action)
        except WebError as error:
            # Stale: another process holding this game played the same computer move first.
            level_of = logging.INFO if error.code == "stale" else logging.WARNING
            log.log(level_of, "computer move refused in game %s: %s", live.id, error.detail)
            self._schedule_bot(live)

    async def hint(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise WebError(403, "spectator", "a spectator gets no hints: open an invite link")
        if live.state.is_terminal() or live.state.current_player() != seat:
            raise WebError(409, "not_your_turn", "a hint is for the seat to move")
        now = time.monotonic()
        wait = live.hint_at.get(seat, -1e9) + self.settings.hint_interval - now
        if wait > 0:
            raise WebError(
                429,
                "too_many_hints",
                f"one hint every {self.settings.hint_interval:g} seconds; "
                f"ask again in {wait:.1f} seconds",
                retry_after=wait,
            )
        if self.bots.waiting(HINT) >= self.settings.hints_waiting:
            raise WebError(503, "busy", "the computer is busy; ask again soon", retry_after=5)
        live.hint_at[seat] = now
        state = live.state.clone()
        seq = live.seq
        limit = self.settings.bot_time_limit
        try:
            action = await self.bots.run(
                HINT,
                budget_of(live.game.name, "hard", limit),
                hint_move,
                limit,
                self.bots.payload(state),
            )
        except ImportError:
            raise WebError(503, "no_hints", "hints are not available") from None
        except TimeoutError:
            raise WebError(
                503, "busy", "the hint took too long; ask again", retry_after=5
            ) from None
        except JobFailed:
            raise WebError(
                503, "busy", "the computer could not answer; ask again", retry_after=5
            ) from None
        return {"seq": seq, "action": action, "string": state.action_to_string(action)}
