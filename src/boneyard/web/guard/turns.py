"""Costly requests take turns, fairly by client: a crowd's reads cannot take the moves' time.

Every request is charged to its client's budget (``budgets.py``), but a crowd of clients each
within its budget (issue 44 row 6: ten networks reading views at their full 600 a minute)
still asks the one event loop of a process for more than it has, and every step of an honest
player's move then waits behind the crowd's steps. So the costly requests (what is charged
a ``READ`` or a ``LOOKUP``: views, move logs, replays, the lobby and lists, profiles,
leaderboards, standings) and the interactive ones (a ``MOVE``: an action, not a hint, which
waits at the bot workers; a seat's own view of its game, asked with its token) take turns at
a capacity of ``slots`` requests at once, server-wide (one process):

- the waiting requests are served by client (``client_key``: an account, else a network) in
  start-time fair queueing, the one a kernel's fair queue and a good load balancer use: each
  request is given a start tag, its client's last finish or the queue's virtual time if that
  is later, and the smallest start is served next (ties: the one that came first). A client
  that asks little is served next, not once a round behind every busy client's request; a
  client back from a rest starts level with the others, with no credit saved up;
- interactive work is a class of its own, served first: it starts at once while fewer than
  ``slots`` interactive requests run, whatever the costly ones hold, and no costly request
  starts while an interactive one waits. (A socket's move is no HTTP request: it never waits
  here at all.) Within the class, clients take turns the same way, so a crowd's moves cannot
  crowd out an honest one's either;
- at most ``queue`` requests wait: a full queue drops the newest request of the client with
  the most waiting if it has more than the newcomer would (as a fair queue drops from its
  longest flow), else refuses the newcomer; a request that cannot start within
  ``wait_seconds`` is refused; both 503 ``busy`` with ``Retry-After``, nothing done;
- a request whose client closed its connection while it waited leaves the queue, undone.

A route takes its turn through its payer (``ReadPayer``, ``LookupPayer``, ``MovePayer``: a
``TurnCharge``, after the budget's charge) and gives it back when its work is done (the
payer is a dependency that yields); a route whose class depends on what it reads subclasses
``TurnCharge`` above this room (a seat's own view: ``web/play/own_views.py``), and this
module calls nothing above the guard. Counted: ``started`` requests by class, the most
running at once, refusals by reason (``/metrics``: ``request_full``, ``request_late``,
``request_gone``).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection, Request

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import Charge, Payer, Spend
from boneyard.web.guard.clients import client_key

HOLDS_A_TURN = "holds_a_turn"
"""A request's ``state``: set while it holds a turn, so that a second charge of the same
request takes none."""


class Work(Enum):
    """The class a request waits in."""

    INTERACTIVE = "interactive"
    """An action, a seat's own view of its game: served first."""
    COSTLY = "costly"
    """A read whose work grows with the store (views, lists, replays, profiles, standings)."""


WORK_OF = {Spend.READ: Work.COSTLY, Spend.LOOKUP: Work.COSTLY, Spend.MOVE: Work.INTERACTIVE}
"""The class a route's charge puts its request in; the other kinds (a new game, a log-in, a
page, ...) take no turn: they are bounded by their own budgets and pools."""


class _State(Enum):
    WAITING = "waiting"
    GRANTED = "granted"
    REFUSED = "refused"
    GONE = "gone"


@dataclass(eq=False)
class _Request:
    client: str
    work: Work
    start: float
    """Its start tag (``_FairLine``)."""
    arrived: int
    turn: asyncio.Future[None]
    state: _State = _State.WAITING
    refusal: WebError | None = field(default=None)


class _FairLine:
    """The waiting requests of one class, served by start-time fair queueing by client: every
    request costs one; a client's next request starts where its last finished, or at the
    line's virtual time (the start of the last one served) if that is later; of equal starts
    the one that came first."""

    def __init__(self) -> None:
        self.virtual = 0.0
        self._finish: dict[str, float] = {}
        """Each client's last finish tag (forgotten once the virtual time has passed it)."""
        self._heap: list[tuple[float, int, _Request]] = []
        self.waiting: Counter[str] = Counter()
        """Requests waiting, by client."""
        self._left: set[_Request] = set()
        """Requests that left unserved but are still in the heap."""

    def __len__(self) -> int:
        return sum(self.waiting.values())

    def tag(self, client: str) -> float:
        """The start tag ``client``'s next request would get."""
        return max(self.virtual, self._finish.get(client, 0.0))

    def push(self, request: _Request) -> None:
        self._finish[request.client] = request.start + 1.0
        self.waiting[request.client] += 1
        heapq.heappush(self._heap, (request.start, request.arrived, request))

    def pop(self) -> _Request | None:
        while self._heap:
            request = heapq.heappop(self._heap)[-1]
            if request in self._left:
                self._left.discard(request)
                continue
            self._count_out(request)
            self.served(request)
            return request
        return None

    def served(self, request: _Request) -> None:
        """``request`` starts (from the line, or at once: then it never waited in it)."""
        self.virtual = max(self.virtual, request.start)
        self._finish[request.client] = max(self._finish.get(request.client, 0.0), request.start + 1)
        if len(self._finish) > 4096:  # forget the clients whose finish the line has passed
            self._finish = {c: f for c, f in self._finish.items() if f > self.virtual}

    def remove(self, request: _Request) -> None:
        """``request`` leaves unserved: its place in its client's order is given back when it
        was its client's latest (a client is charged only for what it is served)."""
        self._left.add(request)
        self._count_out(request)
        if self._finish.get(request.client) == request.start + 1.0:
            self._finish[request.client] = request.start

    def newest_of_longest(self) -> _Request | None:
        """The latest request of the client with the most waiting (ties: the latest)."""
        waiting = [entry[-1] for entry in self._heap if entry[-1] not in self._left]
        if not waiting:
            return None
        return max(waiting, key=lambda r: (self.waiting[r.client], r.arrived))

    def _count_out(self, request: _Request) -> None:
        self.waiting[request.client] -= 1
        if self.waiting[request.client] <= 0:
            del self.waiting[request.client]


class RequestTurns:
    """At most ``slots`` costly or interactive requests at once, the others waiting their
    client's turn (module docstring)."""

    def __init__(
        self,
        slots: int,
        queue: int,
        wait_seconds: float,
    ) -> None:
        self.slots, self.queue, self.wait_seconds = max(1, slots), max(0, queue), wait_seconds
        self._lines = {Work.INTERACTIVE: _FairLine(), Work.COSTLY: _FairLine()}
        self._running: Counter[Work] = Counter()
        self._arrivals = itertools.count()
        self.started: Counter[Work] = Counter()
        self.most_running = 0
        self.served: list[str] = []
        """The clients served, in order (the latest ``SERVED_KEPT``): what tests read."""
        self.refused: Counter[str] = Counter()
        """Requests not done: ``full`` (the queue was full), ``late`` (no turn within
        ``wait_seconds``), ``gone`` (its client left while it waited)."""

    SERVED_KEPT = 256

    @property
    def waiting(self) -> int:
        return sum(len(line) for line in self._lines.values())

    @property
    def running(self) -> int:
        return sum(self._running.values())

    async def take(self, request: HTTPConnection, client: str, work: Work) -> None:
        """Wait for ``client``'s turn for ``work``; the turn is ``request``'s until ``end``.
        Refused (503) when it cannot start in time or the queue is full; 499 when its client
        leaves while it waits."""
        line = self._lines[work]
        entry = _Request(
            client,
            work,
            line.tag(client),
            next(self._arrivals),
            asyncio.get_running_loop().create_future(),
        )
        if self._may_start(work) and not len(line):
            line.served(entry)
            self._start(entry)
        else:
            await self._wait(request, line, entry)

    def end(self, work: Work) -> None:
        """A request holding a turn for ``work`` is over: the next in turn starts."""
        self._running[work] -= 1
        self._serve()

    def _may_start(self, work: Work) -> bool:
        if work is Work.INTERACTIVE:
            return self._running[Work.INTERACTIVE] < self.slots
        return self.running < self.slots and not len(self._lines[Work.INTERACTIVE])

    def _start(self, entry: _Request) -> None:
        self._running[entry.work] += 1
        self.started[entry.work] += 1
        self.most_running = max(self.most_running, self.running)
        self.served.append(entry.client)
        del self.served[: -self.SERVED_KEPT]
        entry.state = _State.GRANTED
        if not entry.turn.done():
            entry.turn.set_result(None)

    def _serve(self) -> None:
        for work in (Work.INTERACTIVE, Work.COSTLY):
            line = self._lines[work]
            while len(line) and self._may_start(work):
                entry = line.pop()
                if entry is None:
                    break
                self._start(entry)

    async def _wait(self, request: HTTPConnection, line: _FairLine, entry: _Request) -> None:
        self._enqueue(line, entry)
        watcher = None
        if isinstance(request, Request):
            watcher = asyncio.create_task(self._watch(line, entry, request))
        try:
            await asyncio.wait_for(asyncio.shield(entry.turn), self.wait_seconds)
        except TimeoutError:
            if entry.state is _State.WAITING:
                self._refuse(line, entry, "late")
        except BaseException:
            # the request itself was cancelled: a turn it got goes to the next
            if entry.state is _State.GRANTED:
                self.end(entry.work)
            elif entry.state is _State.WAITING:
                line.remove(entry)
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        if entry.state is not _State.GRANTED:
            assert entry.refusal is not None
            raise entry.refusal

    def _enqueue(self, line: _FairLine, entry: _Request) -> None:
        if self.waiting >= self.queue:
            victim = self._to_drop(entry)
            if victim is None:
                self.refused["full"] += 1
                raise self._busy()
            self._refuse(self._lines[victim.work], victim, "full")
        line.push(entry)

    def _to_drop(self, newcomer: _Request) -> _Request | None:
        """The queue is full: the request that gives way to ``newcomer`` (None: the newcomer
        is refused). An interactive newcomer takes a costly request's place; otherwise the
        client with the most waiting in the newcomer's class gives up its newest, if it has
        more than the newcomer's client would."""
        costly = self._lines[Work.COSTLY]
        if newcomer.work is Work.INTERACTIVE and len(costly):
            return costly.newest_of_longest()
        line = self._lines[newcomer.work]
        longest = line.newest_of_longest()
        if longest is None or line.waiting[longest.client] <= line.waiting[newcomer.client] + 1:
            return None
        return longest

    async def _watch(self, line: _FairLine, entry: _Request, request: Request) -> None:
        """Drop ``entry`` when its client disconnects. The body was read before the charge
        (FastAPI reads it before any dependency), so the next message is the disconnect."""
        while entry.state is _State.WAITING:
            try:
                message = await request.receive()
            except Exception:  # no channel to listen on (a request made up in code): wait
                return
            if message["type"] == "http.disconnect" and entry.state is _State.WAITING:
                line.remove(entry)
                entry.state = _State.GONE
                entry.refusal = WebError(
                    499, "client_gone", "the client left before its request's turn came"
                )
                self.refused["gone"] += 1
                entry.turn.set_result(None)

    def _refuse(self, line: _FairLine, entry: _Request, reason: str) -> None:
        line.remove(entry)
        entry.state = _State.REFUSED
        entry.refusal = self._busy()
        self.refused[reason] += 1
        if not entry.turn.done():
            entry.turn.set_result(None)

    def _busy(self) -> WebError:
        wait = max(1.0, self.wait_seconds)
        return WebError(
            503,
            "busy",
            "the server is answering many requests at once and yours could not start within "
            f"{self.wait_seconds:g} seconds; try again in {math.ceil(wait)} seconds",
            retry_after=wait,
        )


@contextlib.asynccontextmanager
async def turn(request: Request, work: Work) -> AsyncIterator[None]:
    """``request``'s turn for ``work``, held until the block ends however it ends (none where
    the app has no turns, or the request already holds one)."""
    turns: RequestTurns | None = getattr(request.app.state, "turns", None)
    state = request.scope.setdefault("state", {})
    if turns is None or state.get(HOLDS_A_TURN):
        yield
        return
    await turns.take(request, await client_key(request), work)
    state[HOLDS_A_TURN] = True
    try:
        yield
    finally:
        state[HOLDS_A_TURN] = False
        turns.end(work)


class TurnCharge(Charge):
    """A route's charge that then waits its client's turn for ``work`` (by default its
    spend's class, ``WORK_OF``) and holds it while the route works: a dependency that yields,
    so the turn is given back when the route returns or fails (``scope="function"``: before
    its answer is sent)."""

    takes_turn = True

    def __init__(self, spend: Spend, work: Work | None = None) -> None:
        super().__init__(spend)
        self.work = WORK_OF[spend] if work is None else work

    async def __call__(self, request: Request) -> AsyncIterator[Payer]:  # type: ignore[override]
        payer = await super().__call__(request)
        async with turn(request, self.work):
            yield payer


MovePayer = Annotated[Payer, Depends(TurnCharge(Spend.MOVE), scope="function")]
"""A move: its budget, then an interactive turn."""
LookupPayer = Annotated[Payer, Depends(TurnCharge(Spend.LOOKUP), scope="function")]
"""A look-up by name (a profile, a leaderboard): its budget, then a costly turn."""
ReadPayer = Annotated[Payer, Depends(TurnCharge(Spend.READ), scope="function")]
"""A read of a game or of the store: its budget, then a costly turn."""
