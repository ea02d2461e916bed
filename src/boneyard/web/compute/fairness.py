"""A fair share of the computer for every client: its thinking budget and its turn at a worker.

The computer's thinking is the costliest thing a client can ask for (a computer move at the top
level is a second of a worker's CPU; a person's move is a millisecond), so it is charged by what
it costs, not by count:

- ``ThinkingBudget``: each client (address) has a budget of CPU seconds of thinking, refilled
  continuously (``Settings.thinking_seconds_per_minute``, bursts of ``thinking_seconds_burst``).
  A job is charged what it really took once it is done (the worker's CPU time), so a budget may
  run into debt by a job or two; while a client is in debt its computer moves wait (the move it
  made is stored: nothing is lost, the computer only answers later) and its hints are refused
  with the seconds to wait. A person playing the top level at a human pace never meets it.
- ``ClientTurns``: the jobs waiting for a worker are queued per client and served by deficit
  round robin in its virtual-time form (start-time fair queueing): each client's worker seconds
  are counted as its jobs end, and the waiting client that has had the least is served first
  (ties: the one served least recently). A client that comes back after a rest starts level
  with the others (no credit saved up while away). A person whose computer moves take
  milliseconds is served before a client whose twenty games take a second each, every time,
  not once in every round.
- A heavy client (more than ``HEAVY_SECONDS`` of the workers' time lately) leaves the last
  free worker to lighter ones (``BotWorkers``): a light client's reply never waits for a search.
- The client is the network, not the address (``web/networks.py``: an IPv4 /24, an IPv6
  /64): five addresses of one attacker are one client, with one budget and one turn.
- ``FairGate``: the same turns in front of workers this process does not run (a Ray cluster):
  at most ``slots`` jobs are handed over at once, the rest wait here, clients in turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from boneyard.web.networks import network_of

T = TypeVar("T")

HEAVY_SECONDS = 3.0
"""Worker seconds a client may have had lately (``RECENT_HALF_LIFE``) before its jobs leave
the last free worker to lighter clients (``ClientTurns.heavy``)."""
RECENT_HALF_LIFE = 20.0
"""Seconds in which a client's recent worker time halves."""
REMEMBERED = 10_000
"""Clients a budget or a turn order keeps at most before it forgets those it owes nothing."""


class ThinkingBudget:
    """CPU seconds of the computer's thinking per client: a token bucket that may run into debt.

    ``rate`` seconds a second refill it up to ``burst``; ``charge`` takes what a job took,
    ``wait`` says how long a client's next job must wait (0: at once). ``rate`` of ``None``:
    no budget (every wait is 0)."""

    def __init__(
        self, rate: float | None, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._balances: dict[str, tuple[float, float]] = {}
        """Client -> (seconds left, when counted)."""

    def balance(self, client: str) -> float:
        """The seconds of thinking ``client`` has left now (negative: in debt)."""
        if self.rate is None:
            return self.burst
        now = self.clock()
        left, then = self._balances.get(network_of(client), (self.burst, now))
        return min(self.burst, left + (now - then) * self.rate)

    def wait(self, client: str) -> float:
        """Seconds until ``client`` may have the computer think again (0: now)."""
        left = self.balance(client)
        if left > 0 or self.rate is None:
            return 0.0
        return (-left) / self.rate if self.rate > 0 else 60.0

    def charge(self, client: str, seconds: float) -> None:
        """Take ``seconds`` of thinking (a job done) from ``client``'s budget."""
        if self.rate is None or seconds <= 0:
            return
        now = self.clock()
        self._balances[network_of(client)] = (self.balance(client) - seconds, now)
        if len(self._balances) > REMEMBERED:  # forget clients whose budgets are full again
            full = [known for known in self._balances if self.balance(known) >= self.burst]
            for known in full:
                del self._balances[known]


def thinking_of(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``(fn(*args), the CPU seconds it took)``, in a worker: what a job is charged. The
    thread's own CPU time, so a job is charged its own work, not its neighbours' (threads) nor
    its process's start-up (processes)."""
    began = time.thread_time()
    answer = fn(*args)
    return answer, time.thread_time() - began


@dataclass
class Waiting(Generic[T]):
    """A job waiting for its turn: its client, its priority and what the caller waits on."""

    client: str
    priority: int
    ticket: T
    order: int = 0
    started_before: int = 0
    """How many jobs had started when this one came: the jobs started ahead of it follow."""


@dataclass
class ClientTurns(Generic[T]):
    """Jobs waiting for a worker, a queue per client (network), the clients taken fairly.

    ``take`` picks, among the clients with a job that may start, the one that had the fewest
    worker seconds (``charge``; deficit round robin's virtual time), then the one served least
    recently (a client never served, or forgotten, first; ties by who came first), and of its
    jobs the most urgent (the lowest priority number), first come first served.
    """

    _queues: dict[str, deque[Waiting[T]]] = field(default_factory=dict)
    _served: dict[str, int] = field(default_factory=dict)
    """Client -> the turn it was last given a worker at."""
    _used: dict[str, float] = field(default_factory=dict)
    """Client -> its virtual time: the worker seconds its jobs held, counted from the level of
    the clients waiting when it came (``charge``, ``add``)."""
    _level: float = 0.0
    """The virtual time of the last client served: where a client coming back starts."""
    clock: Callable[[], float] = time.monotonic
    _recent: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Client -> (its worker seconds lately, decaying by half each ``RECENT_HALF_LIFE``, and
    when counted): what ``heavy`` reads."""
    _turns: Any = field(default_factory=itertools.count)
    _arrivals: Any = field(default_factory=itertools.count)
    started: int = 0
    """Jobs given a worker so far."""
    ahead: dict[str, int] = field(default_factory=dict)
    """Client -> how many jobs started ahead of its last job while that one waited (what the
    fairness promises to keep at most one a client; tests and benchmarks read it)."""

    def __len__(self) -> int:
        return sum(len(queue) for queue in self._queues.values())

    def count(self, priority: int) -> int:
        """Jobs of ``priority`` waiting."""
        return sum(1 for q in self._queues.values() for job in q if job.priority == priority)

    def clients(self) -> int:
        """Clients with a job waiting."""
        return len(self._queues)

    def add(self, client: str, priority: int, ticket: T) -> Waiting[T]:
        client = network_of(client)
        if client not in self._queues:  # back after a rest: level with the others, no credit
            self._used[client] = max(self._used.get(client, 0.0), self._level)
        job = Waiting(client, priority, ticket, next(self._arrivals), self.started)
        self._queues.setdefault(client, deque()).append(job)
        return job

    def remove(self, job: Waiting[T]) -> None:
        """Take ``job`` out of the queue (its caller gave up)."""
        queue = self._queues.get(job.client)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[job.client]

    def charge(self, client: str, seconds: float) -> None:
        """``client``'s job holds a worker ``seconds`` (its budget when it starts; what it held
        beyond that, or less, when it ends): its virtual time moves on by as much."""
        client = network_of(client)
        now = self.clock()
        self._recent[client] = (max(0.0, self.recent(client) + seconds), now)
        if seconds < 0:  # it held less than it was charged at its start: the rest back
            self._used[client] = self._used.get(client, self._level) + seconds
        else:
            self._used[client] = max(self._used.get(client, 0.0), self._level) + seconds

    def recent(self, client: str) -> float:
        """``client``'s worker seconds lately (halving each ``RECENT_HALF_LIFE``)."""
        seconds, then = self._recent.get(network_of(client), (0.0, 0.0))
        return seconds * 0.5 ** ((self.clock() - then) / RECENT_HALF_LIFE) if seconds else 0.0

    def heavy(self, client: str) -> bool:
        """Whether ``client`` had more than ``HEAVY_SECONDS`` of worker time lately: its jobs
        leave the last free worker to lighter clients (``BotWorkers``), so a light client's
        reply starts at once whatever the heavy ones keep asking. Relative to nothing but its
        own use: five attackers each under the thinking budget's rate are heavy all the same."""
        return self.recent(client) > HEAVY_SECONDS

    def used(self, client: str) -> float:
        """``client``'s virtual time (tests and benchmarks read it)."""
        return self._used.get(network_of(client), self._level)

    def served(self, client: str, ahead: int = 0) -> None:
        """``client`` was given a worker (a job that never waited, too), ``ahead`` jobs having
        started while it waited."""
        client = network_of(client)
        self.started += 1
        self._served[client] = next(self._turns)
        self._level = max(self._level, self._used.get(client, self._level))
        self.ahead[client] = ahead
        if len(self._served) > REMEMBERED:
            for known in [c for c in self._served if c not in self._queues]:
                del self._served[known]
                self.ahead.pop(known, None)
                self._used.pop(known, None)
                self._recent.pop(known, None)

    def ahead_of(self, job: Waiting[T]) -> int:
        """How many jobs started while ``job`` waited."""
        return self.started - job.started_before

    def take(self, may_start: Callable[[Waiting[T]], bool]) -> Waiting[T] | None:
        """The next job to start, out of the queue (None: none may start now)."""
        best: tuple[float, int, int] | None = None
        chosen: Waiting[T] | None = None
        for client, queue in self._queues.items():
            startable = [job for job in queue if may_start(job)]
            if not startable:
                continue
            job = min(startable, key=lambda waiting: (waiting.priority, waiting.order))
            rank = (self.used(client), self._served.get(client, -1), queue[0].order)
            if best is None or rank < best:
                best, chosen = rank, job
        if chosen is not None:
            self.remove(chosen)
            self.served(chosen.client, self.ahead_of(chosen))
        return chosen


class FairGate:
    """At most ``slots`` jobs at once, on the event loop; the others wait in ``ClientTurns``
    and start in turn, the client served least recently first. For workers that take whatever
    they are given first come, first served (a Ray cluster): handing them only as many jobs as
    they have CPUs keeps the order of service here."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        """Jobs handed over at once (a cluster's CPUs; it may be changed once known)."""
        self.turns: ClientTurns[asyncio.Future[None]] = ClientTurns()
        self.running = 0

    @contextlib.asynccontextmanager
    async def turn(self, client: str, priority: int) -> AsyncIterator[None]:
        """Wait for ``client``'s turn, hold a slot meanwhile, give it back after."""
        await self._enter(client, priority)
        began = time.monotonic()
        try:
            yield
        finally:
            self.turns.charge(client, time.monotonic() - began)
            self._leave()

    async def _enter(self, client: str, priority: int) -> None:
        if self.running < self.slots and not len(self.turns):
            self.running += 1
            self.turns.served(client)
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        job = self.turns.add(client, priority, ticket)
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._leave()  # its turn came as it gave up: the next one's now
            else:
                self.turns.remove(job)
            raise

    def _leave(self) -> None:
        self.running -= 1
        while self.running < self.slots:
            job = self.turns.take(lambda waiting: not waiting.ticket.done())
            if job is None:
                return
            self.running += 1
            job.ticket.set_result(None)
