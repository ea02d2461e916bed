"""Heavy work off the event loop: setting up a new game, replaying a stored one and saying its
moves in words (``replays.py`` makes replay frames here too).

Each can take seconds (an OYNO puzzle of some ``difficulty`` solves thousands of set-ups to
deal one; a long game replays every action). ``WorkPool`` runs them in worker processes, where a
job past its time limit is killed (``pebble``) and never competes with the server for its GIL;
the game and state come back pickled. With ``processes=0`` (the tests' toy games, which a fresh
process cannot import) they run in threads, where a job past its limit is answered 503 but runs
on to its end. Either way one client has at most one set-up running at a time.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from boneyard.core.game import CHANCE, Game, State
from boneyard.web.compute.chance import chance_outcome
from boneyard.web.compute.pools import stop_pool, warm_up, worker_pool
from boneyard.web.errors import WebError
from boneyard.web.play import words
from boneyard.web.play.catalog import parse_params
from boneyard.web.play.live import LogEntry
from boneyard.web.play.memory import estimate_bytes
from boneyard.web.store.games import StoredGame

Built = tuple[Game, State, list[LogEntry], list[tuple[int, int]], int]
"""A game, its state, the log entries and actions that led there, and its estimated bytes."""


def strings_of(state: State, action: int) -> list[str]:
    """How ``action`` looks to each seat, then to a spectator."""
    seats = state.game.info.num_players
    return [state.action_string_for(s, action) for s in range(seats)] + [
        state.action_string_for(None, action)
    ]


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


def estimate(game: Game, state: State) -> int:
    return estimate_bytes(game) + estimate_bytes(state, limit=200_000)


def set_up(
    game_cls: type[Game], params: dict[str, Any], limits: dict[str, int], seed: str
) -> Built:
    """A new game with ``params`` (checked against the server's ``limits``), dealt from ``seed``."""
    game = game_cls(**parse_params(game_cls, params, limits))
    state, entries, applied = advance(game.new_initial_state(), [], seed, 0)
    return game, state, entries, applied, estimate(game, state)


def check_rules_version(game_cls: type[Game], stored: StoredGame) -> None:
    """Refuse a stored game played under another version of its rules: its action numbers may
    mean other moves now, and replaying them would show another game (409, nothing changed)."""
    if stored.rules_version != game_cls.rules_version:
        raise WebError(
            409,
            "rules_changed",
            f"this game of {game_cls.title} was played under version {stored.rules_version} "
            f"of its rules, and this server plays version {game_cls.rules_version}: it cannot "
            "be replayed without becoming another game. Its record stays stored as it was.",
        )


def replay(game_cls: type[Game], stored: StoredGame) -> Built:
    """A stored game rebuilt from its actions (refused when its rules' version is not
    ``game_cls``'s: ``check_rules_version``)."""
    check_rules_version(game_cls, stored)
    game = game_cls(**stored.params)
    state = game.new_initial_state()
    entries: list[LogEntry] = []
    for seq, (action, player) in enumerate(stored.actions):
        entries.append(LogEntry(seq, player, strings_of(state, action)))
        state.apply_action(action)
    return game, state, entries, list(stored.actions), estimate(game, state)


def replay_told(game_cls: type[Game], stored: StoredGame) -> tuple[Built, object]:
    """A stored game rebuilt from its actions, with every action said in words (``words.told``):
    the views and replays that follow only look the words up."""
    built = replay(game_cls, stored)
    game, _state, entries, actions, _size = built
    return built, words.told(game, entries, actions, words.short_names(game, stored.seats))


class WorkPool:
    def __init__(
        self, processes: int, limit: float, refuse: Callable[[str], None] = lambda reason: None
    ) -> None:
        self.limit = limit
        self.refuse = refuse
        """Counts a refusal by its reason (``Metrics.refuse``: ``/metrics``, not the log)."""
        self._pool, self._threads = worker_pool(processes, 4, "work")
        self._running: Counter[str] = Counter()
        self._lock = threading.Lock()

    async def run(self, client: str | None, what: str, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` off the loop; 503 past the time limit; 429 while ``client`` has a
        set-up running (counted until its job really ends)."""
        self._claim(client)
        try:
            future: Future[Any]
            if self._pool is not None:
                future = self._pool.schedule(fn, args=args, timeout=self.limit)
            else:
                assert self._threads is not None
                future = self._threads.submit(fn, *args)
        except BaseException:
            self._release(client)
            raise
        future.add_done_callback(lambda _done: self._release(client))
        # A process job is timed by the pool from when a worker takes it; the wait here only
        # guards against a pool that never answers. Cancelling a process job kills its worker;
        # a thread runs on to its end.
        wait = self.limit + 1 if self._pool is None else 2 * self.limit + 30
        try:
            async with asyncio.timeout(wait):  # (not wait_for: see GameManager._in)
                return await asyncio.wrap_future(future)
        except TimeoutError:
            self.refuse("work_seconds")
            raise WebError(
                503,
                "busy",
                f"{what} took longer than {self.limit:g} seconds on this server; "
                "try again later, or choose smaller settings",
                retry_after=max(1.0, self.limit),
            ) from None

    def _claim(self, client: str | None) -> None:
        if client is None:
            return
        with self._lock:
            if self._running[client] >= 1:
                self.refuse("set_up_running")
                raise WebError(
                    429,
                    "busy",
                    "your previous game is still being set up; try again in a few seconds",
                    retry_after=5,
                )
            self._running[client] += 1

    def _release(self, client: str | None) -> None:
        if client is None:
            return
        with self._lock:
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]

    def warm_up(self) -> None:
        """Start the worker processes now (spawning and importing takes seconds)."""
        if self._pool is not None:
            self._pool.schedule(warm_up)

    def shutdown(self) -> None:
        stop_pool(self._pool, self._threads)
