"""Bot workers: computer moves and hints off the event loop, fairly and within time budgets.

With ``bot_processes > 0`` the bots run in spawned worker processes (pure Python: there they
never hold the server's GIL; a job past its hard limit is killed with its process, which is
replaced) and a state travels as its ``to_json`` document. With 0 they run in two threads of the
server and a state travels as itself (the tests' toy games are not in the registry a process
loads games from); a thread cannot be killed, so there only the bot's own budget holds.
``BotWorkers`` is the one place that choice is made.

Fairness: every job waits for a free worker in its client's queue, the clients taken in turn
(``fairness.py``: one client's twenty jobs delay another's by at most one), computer moves
before hints within a client, and a hint takes the last free worker only once a job went
ahead of it, so with two or more workers a computer move mostly finds one at once whatever the
hints do, and a hint waits behind at most one job too. Every job is charged the CPU seconds it
took to its client's thinking budget.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from boneyard.ai.levels import HARD_SECONDS, hint_level, level_for
from boneyard.core.game import Game, State
from boneyard.web.compute.fairness import ClientTurns, ThinkingBudget, Waiting, thinking_of
from boneyard.web.compute.pools import stop_pool, warm_up, worker_pool
from boneyard.web.networks import network_of

StatePayload = State | tuple[str, dict[str, Any], dict[str, Any]]
"""A state itself (threads) or ``(game name, params, to_json document)`` (processes)."""

COMPUTER_MOVE = 0
HINT = 1
"""Job priorities: a lower number gets a free worker first."""

GRACE = 5.0
"""Seconds past twice a job's budget before its worker process is killed. Generous: a killed
worker's replacement takes seconds to start, and the budget itself is kept by the alarm."""


class Overtime(Exception):
    """The exact solver ran past the budget (raised by the alarm in a worker process)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise ``Overtime`` after ``seconds``, in a worker process's main thread (else nothing)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def alarm(_signum: int, _frame: Any) -> None:
        raise Overtime

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def budget_of(game: Game, level: str, limit: float | None) -> float:
    """Seconds a move of ``level`` may think: the server's limit, else the level's own."""
    if limit is not None:
        return limit
    own = level_for(game, level).options.get("time_limit")
    return float(own) if own is not None else HARD_SECONDS


@lru_cache(maxsize=16)
def _load(name: str, params: str) -> Game:
    """A worker's games, kept: building one (an OYNO board's move tables) takes time."""
    from boneyard.core.registry import load_game

    return load_game(name, **json.loads(params))


def state_document(state: State) -> StatePayload:
    """How a state travels to another process or machine: its game and ``to_json`` document."""
    return (state.game.name, dict(state.game.params), state.to_json())


def _state_of(payload: StatePayload) -> State:
    if isinstance(payload, State):
        return payload
    name, params, document = payload
    return _load(name, json.dumps(params, sort_keys=True)).state_from_json(document)


SOLVER_SHARE = 0.6
"""The share of a move's budget an exact solver may take before the bot answers without it."""


def bot_move(
    level: str,
    seat: int,
    seed: int,
    limit: float | None,
    payload: StatePayload,
    avoid: frozenset[int] = frozenset(),
) -> int:
    """The move of ``level`` for ``seat`` within its budget (runs in a worker).

    What ``Bot.step`` does, with a clock on the exact solver (the levels that use one): past
    its share of the budget the level's bot answers without it, keeping to its own budget: the
    best move found in the time. A forced move is played without asking anyone. ``avoid``: the
    bot's ``Bot.avoid`` (moves to play only when clearly best).
    """
    from boneyard import solvers
    from boneyard.ai import make_bot

    state = _state_of(payload)
    legal = state.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    bot = make_bot(level, state.game, seat, seed=seed, time_limit=limit)
    bot.avoid = avoid
    if bot.use_solver and state.game.perfect_information:
        try:
            with _deadline(budget_of(state.game, level, limit) * SOLVER_SHARE):
                action = solvers.best_action(state)
            if action is not None:
                return int(action)
        except Overtime:
            pass
        bot.use_solver = False
    return int(bot.step(state))


def hint_move(limit: float | None, payload: StatePayload) -> int:
    """The hint for the seat to move: the strongest level's move, within its budget, one that
    brings back a position the game has seen only when clearly best (``ai/repetition.py``)."""
    from boneyard.ai.repetition import repeating_actions

    state = _state_of(payload)
    seat = state.current_player()
    if state.is_terminal() or seat < 0:
        raise ValueError("no hint: nobody is to move")
    return bot_move(hint_level(state.game), seat, 0, limit, state, repeating_actions(state))


class BotWorkers:
    """Where computer moves and hints run, one job per worker, the clients in turn.

    A job waits for a free worker in its client's queue (``fairness.ClientTurns``): the client
    served least recently goes first, and of its jobs computer moves before hints. Each job is
    charged to its client's ``ThinkingBudget`` by the CPU seconds it took."""

    def __init__(
        self,
        processes: int,
        thinking: ThinkingBudget | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.processes = processes
        self.clock = clock
        """What counts the time a job holds its worker (its client's turn, ``ClientTurns``)."""
        self.slots = processes if processes > 0 else 2
        self._free = self.slots
        self.reserved = 1 if self.slots > 1 else 0
        """Workers hints leave free for computer moves."""
        self.turns: ClientTurns[asyncio.Future[None]] = ClientTurns(clock=clock)
        """The jobs waiting for a worker, and each client's use (``fairness.ClientTurns``)."""
        self.thinking = thinking or ThinkingBudget(None, 0.0)
        """Each client's budget of thinking, charged by every job it asks for."""
        self._pool, self._threads = worker_pool(processes, self.slots, "bot")

    def waiting(self, priority: int) -> int:
        """Jobs of ``priority`` waiting for a worker."""
        return self.turns.count(priority)

    def depth(self) -> int:
        """Jobs waiting for a worker, every client's."""
        return len(self.turns)

    def jobs_ahead(self, client: str) -> int | None:
        """How many jobs started ahead of ``client``'s last job while it waited (the fairness
        keeps it at most one; None: no job of ``client`` started lately)."""
        return self.turns.ahead.get(network_of(client))

    def payload(self, state: State) -> StatePayload:
        """How ``state`` travels to a worker (a copy: the live game goes on changing)."""
        if self.processes > 0:
            return state_document(state)
        return state.clone()

    async def run(self, priority: int, limit: float, fn: Any, *args: Any, client: str = "") -> Any:
        """``fn(*args)`` in a worker once ``client``'s turn comes and one is free for
        ``priority``; killed past ``limit`` seconds (processes; raises TimeoutError). The CPU
        seconds it took are charged to ``client``."""
        await self._acquire(client, priority)
        began = self.clock()
        # Its turn is charged its budget now (so a client's jobs under way count against its
        # next ones), and what it really held its worker once it ends.
        self.turns.charge(client, limit)
        try:
            if self._pool is not None:
                future = self._pool.schedule(
                    thinking_of, args=(fn, *args), timeout=2 * limit + GRACE
                )
                # A worker still starting up takes the job late: the pool's clock starts then.
                answer, seconds = await asyncio.wrap_future(future)
            else:
                loop = asyncio.get_running_loop()
                answer, seconds = await loop.run_in_executor(self._threads, thinking_of, fn, *args)
        except TimeoutError:
            self.thinking.charge(client, limit)  # killed past its time: it thought that long
            raise
        else:
            self.thinking.charge(client, seconds)
            return answer
        finally:
            self.turns.charge(client, self.clock() - began - limit)
            self._release()

    def _can_start(self, client: str, priority: int, waited_through: int = 0) -> bool:
        # A hint does not take the last free worker, so that a computer move finds one, until a
        # job went ahead of it: then it is that hint's turn (else a client's hint would wait
        # for ever behind another client's stream of computer moves). Nor does a job of a heavy
        # client (much of the workers' time lately, ``ClientTurns.heavy``): the last worker is
        # kept for a light client's move, which starts at once whatever the heavy ones ask.
        hint = priority == HINT and waited_through < 1
        reserve = self.reserved if hint or self.turns.heavy(client) else 0
        return self._free > reserve

    def _may_start(self, job: Waiting[asyncio.Future[None]]) -> bool:
        return self._can_start(job.client, job.priority, self.turns.ahead_of(job))

    async def _acquire(self, client: str, priority: int) -> None:
        if not len(self.turns) and self._can_start(client, priority):
            self._free -= 1
            self.turns.served(client)
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        job = self.turns.add(client, priority, ticket)
        self._wake()  # a worker kept from the others' jobs may be free for this one
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release()  # handed a worker just as it was cancelled: pass it on
            else:
                self.turns.remove(job)
                self._wake()
            raise

    def _release(self) -> None:
        self._free += 1
        self._wake()

    def _wake(self) -> None:
        """Hand free workers to the waiting jobs, the clients in turn."""
        while self._free > 0:
            job = self.turns.take(self._may_start)
            if job is None:
                return
            if job.ticket.done():
                continue  # its caller gave up meanwhile
            self._free -= 1
            job.ticket.set_result(None)

    def warm_up(self) -> None:
        """Start the worker processes now (spawning and importing takes seconds)."""
        if self._pool is not None:
            for _ in range(self.processes):
                self._pool.schedule(warm_up)

    degraded: str | None = None
    """Why the computer thinks somewhere other than it was set to (never: the workers are this
    process's own)."""

    async def unready(self, timeout: float) -> str | None:
        """Why computer moves cannot run now (``None``: they can). The workers are this
        process's own: they always can."""
        return None

    def shutdown(self) -> None:
        """Stop every worker; a worker process still thinking is terminated, not orphaned."""
        stop_pool(self._pool, self._threads)


# ----- bot work as jobs, wherever it runs (a queue in the store, a Ray cluster) -----------------

JOBS: dict[str, Callable[..., int]] = {"move": bot_move, "hint": hint_move}
"""Job kinds and the functions that answer them."""
KIND_OF = {function: kind for kind, function in JOBS.items()}
MAX_ATTEMPTS = 3
"""A job whose workers died this many times fails (its game then plays its first legal move)."""


class JobFailed(Exception):
    """A bot job ended without an answer (its error, or its workers died too often)."""
