"""The manager: all live games of one app, created, loaded, acted on, watched and dropped.

Every change to a game goes through its asyncio lock: check the sequence number, the seat and
the action, resolve the chance nodes that follow from the game's seed, store the new actions
(committed before anyone hears of them), then tell the subscribers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from boneyard.ai.levels import LEVEL_NAMES
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import CHANCE, State
from boneyard.web.bots import BotWorkers, bot_move, hint_move
from boneyard.web.catalog import Catalog, parse_params
from boneyard.web.chance import bot_seed, chance_outcome, seed_hash
from boneyard.web.errors import WebError
from boneyard.web.live import LiveGame, LogEntry, Subscriber
from boneyard.web.settings import Settings
from boneyard.web.store import Store, StoredGame

log = logging.getLogger("boneyard.web")

SEND_TIMEOUT = 5.0
"""Seconds a socket may take to accept one message before it is dropped."""


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
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
        """Where game seeds come from (tests may fix it; the server never should)."""
        self._loading: dict[str, asyncio.Lock] = {}
        # SQLite takes one writer at a time: one storage thread keeps commits in order.
        self.store_executor = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="store"
        )
        self.bots = BotWorkers(self.settings.bot_processes)

    async def _in_store(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.store_executor, fn, *args)

    def warm_up(self) -> None:
        """Start the worker processes now (spawning and importing takes seconds)."""
        self.bots.warm_up()

    def shutdown(self) -> None:
        for live in self.games.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        self.bots.shutdown()
        self.store_executor.shutdown(wait=True)

    # ----- creating and loading ---------------------------------------------------------------

    async def create(
        self, name: str, params: dict[str, Any], seats: list[dict[str, Any]]
    ) -> LiveGame:
        game_cls = self.catalog.game_class(name)
        resolved = parse_params(game_cls, params)
        game = game_cls(**resolved)
        count = game.info.num_players
        if len(seats) != count:
            raise WebError(
                400,
                "bad_seats",
                f"{name} with these parameters has {count} seats; {len(seats)} were given",
            )
        seat_rows: list[dict[str, Any]] = []
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
            seat_rows.append(
                {
                    "token": secrets.token_urlsafe(24),
                    "kind": kind,
                    "level": level if kind == "computer" else None,
                }
            )
        game_id = secrets.token_urlsafe(9)
        seed = self.new_seed()
        await self._in_store(
            self.store.create_game, game_id, name, resolved, seed, seed_hash(seed), seat_rows
        )
        stored = await self._in_store(self.store.load, game_id)
        live = LiveGame(game_id, stored, game, game.new_initial_state(), [])
        self._keep(live)
        async with live.lock:
            await self._commit(live, [])  # chance nodes at the start (a shuffle, a set-up)
        self._schedule_bot(live)
        return live

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            self._touch(live)
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.games.get(game_id)
                if live is not None:
                    return live
                stored: StoredGame | None = await self._in_store(self.store.load, game_id)
                if stored is None:
                    raise WebError(404, "unknown_game_id", f"no game with id {game_id!r}")
                live = self._replay(stored)
                self._keep(live)
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)
        self._schedule_bot(live)
        return live

    # ----- memory: the store is the truth, live games are a cache of it ------------------------

    def _touch(self, live: LiveGame) -> None:
        """Mark ``live`` as just used: the games dict runs from least to most recently used."""
        live.last_used = time.monotonic()
        self.games[live.id] = self.games.pop(live.id)

    def _keep(self, live: LiveGame) -> None:
        """Hold ``live`` in memory, dropping idle games beyond ``max_live_games`` first."""
        self.games[live.id] = live
        excess = len(self.games) - self.settings.max_live_games
        if excess <= 0:
            return
        now = time.monotonic()
        for game_id, other in list(self.games.items()):
            if excess <= 0:
                break
            if other is not live and other.is_idle(now, self.settings.live_idle_seconds):
                del self.games[game_id]
                excess -= 1

    def _replay(self, stored: StoredGame) -> LiveGame:
        game = self.catalog.game_class(stored.name)(**stored.params)
        state = game.new_initial_state()
        entries: list[LogEntry] = []
        for seq, (action, player) in enumerate(stored.actions):
            entries.append(LogEntry(seq, player, self._strings(state, action)))
            state.apply_action(action)
        return LiveGame(stored.id, stored, game, state, entries)

    def state_at(self, live: LiveGame, step: int) -> State:
        """The state after the first ``step`` stored actions (for the replay page)."""
        state = live.game.new_initial_state()
        for action, _player in live.stored.actions[:step]:
            state.apply_action(action)
        return state

    def _strings(self, state: State, action: int) -> list[str]:
        seats = state.game.info.num_players
        return [state.action_string_for(s, action) for s in range(seats)] + [
            state.action_string_for(None, action)
        ]

    # ----- acting -------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, seq: int, action: int | str) -> None:
        """Play ``action`` (an id or a string) for ``seat`` on top of sequence number ``seq``."""
        async with live.lock:
            self._check_turn(live, seat, seq)
            assert seat is not None  # _check_turn refuses spectators
            action_id = self._action_id(live.state, action)
            await self._commit(live, [(action_id, seat)])

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
        state = live.state.clone()
        entries: list[LogEntry] = []
        applied: list[tuple[int, int]] = []
        for action, player in actions:
            entries.append(LogEntry(first + len(applied), player, self._strings(state, action)))
            state.apply_action(action)
            applied.append((action, player))
        while state.current_player() == CHANCE:
            seq = first + len(applied)
            outcome = chance_outcome(state, live.stored.seed, seq)
            entries.append(LogEntry(seq, CHANCE, self._strings(state, outcome)))
            state.apply_action(outcome)
            applied.append((outcome, CHANCE))
        if not applied:
            return
        returns = state.returns() if state.is_terminal() else None
        # Committed before anyone is told: an acknowledged move survives a killed server.
        if self.store.is_sqlite:
            # An embedded SQLite commit takes well under a millisecond: cheaper here than the
            # hop to a thread and back. A database over the network gets the thread.
            self.store.append_actions(live.id, first, applied, returns)
        else:
            await self._in_store(self.store.append_actions, live.id, first, applied, returns)
        live.state = state
        live.log.extend(entries)
        live.stored.actions.extend(applied)
        await self._announce(live, first)
        self._schedule_bot(live)

    async def _announce(self, live: LiveGame, log_from: int) -> None:
        """Send every subscriber its new view, with the log entries from ``log_from`` on."""
        views: dict[tuple[int | None, bool], str] = {}
        sends: list[Awaitable[None]] = []
        for subscriber in list(live.subscribers):
            key = (subscriber.seat, subscriber.draw)
            if key not in views:
                view = {"type": "view", **live.view(*key, log_from=log_from)}
                views[key] = json.dumps(view, separators=(",", ":"))
            sends.append(self._send_safely(live, subscriber, views[key]))
        if sends:
            await asyncio.gather(*sends)

    async def _send_safely(self, live: LiveGame, subscriber: Subscriber, text: str) -> None:
        # Sent under the game's lock (so every socket sees the moves in order): a client that
        # stops reading is dropped after a while rather than holding up the game.
        try:
            await asyncio.wait_for(subscriber.send_text(text), timeout=SEND_TIMEOUT)
        except Exception:
            live.subscribers.discard(subscriber)

    # ----- computer seats and hints ------------------------------------------------------------

    def _schedule_bot(self, live: LiveGame) -> None:
        if live.bot_task is not None and not live.bot_task.done():
            return
        player = live.state.current_player()
        if player < 0 or live.stored.seats[player]["kind"] != "computer":
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(live, player))

    async def _bot_turn(self, live: LiveGame, seat: int) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        seq = live.seq
        if live.state.current_player() != seat:
            return
        level = str(live.stored.seats[seat]["level"])
        state = live.state
        try:
            action = await self.bots.run(
                bot_move,
                level,
                seat,
                bot_seed(live.stored.seed, seat, seq),
                self.settings.bot_time_limit,
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
            log.warning("computer move refused in game %s: %s", live.id, error.detail)
            self._schedule_bot(live)

    async def hint(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise WebError(403, "spectator", "a spectator gets no hints: open an invite link")
        if live.state.is_terminal() or live.state.current_player() != seat:
            raise WebError(409, "not_your_turn", "a hint is for the seat to move")
        state = live.state.clone()
        seq = live.seq
        try:
            action = await self.bots.run(hint_move, self.bots.payload(state))
        except ImportError:
            raise WebError(503, "no_hints", "hints are not available") from None
        return {"seq": seq, "action": action, "string": state.action_to_string(action)}
