"""Password hashing in a bounded pool, served fairly by client: a crowd cannot choke log-in.

argon2id (``argon2-cffi``) costs each check 64 MiB and four lanes of CPU for tens of
milliseconds, on purpose; a crowd of clients each within its own log-in budget could still ask
for more checks than the machine can make, and every check it waits for slows every other
request of the process. So:

- at most ``Settings.password_slots`` checks (or hashes) run at once in this process (each
  server process has its own pool, as every budget of the guard), in threads of their own,
  never on the event loop;
- the others wait in a short queue (``password_queue``), one line per client (``client_key``:
  an account, else a network), served in turn (round robin: every check costs the same, so
  this is deficit round robin with equal quanta), so a crowd from one network waits behind its
  own tries, not in front of anyone else's; when the queue is full, the client with the most
  tries waiting loses its newest (as a fair queue drops from its longest flow), if it has more
  than the newcomer would (else the newcomer is refused: equal lines keep their places);
- a try from a known device of the account it tries (``signin.known_device``: the owner's own
  browser) waits in a class of its own, served first, and a full queue drops another's try
  for it: a crowd that keeps the queue full never keeps the owner out;
- the hashing threads run at a lower CPU priority (``password_nice``, Linux), so checks take
  the CPU the requests leave: a crowd's checks do not slow the moves;
- a try that has not started within ``password_wait_seconds`` is refused (429 with
  ``Retry-After``), never checked late; a try whose client has gone (the connection closed
  while it waited) leaves the queue at once, unchecked.

Counted: ``started`` checks, the most ever running at once (``most_running``, measured in the
hashing threads themselves) and refusals by reason (in ``/metrics``'
``boneyard_refusals_total`` as ``password_late``, ``password_full``, ``password_gone``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import sys
import threading
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from starlette.requests import Request

from boneyard.web.errors import WebError

T = TypeVar("T")


class _State(Enum):
    WAITING = "waiting"
    GRANTED = "granted"
    """Given a slot: it starts as soon as its coroutine runs."""
    REFUSED = "refused"
    GONE = "gone"


@dataclass(eq=False)
class _Try:
    line: str
    """The line it waits in: its client's, in its class (``_line_of``)."""
    known: bool
    turn: asyncio.Future[None]
    arrived: int
    """Its place in the order of arrival (of all the tries)."""
    state: _State = _State.WAITING
    refusal: WebError | None = field(default=None)


def _behind_requests(nice: int) -> None:
    """Lower this hashing thread's priority by ``nice`` below the thread that started it (the
    event loop's; Linux: per thread, and argon2's lane threads, started from it, inherit
    it), so the CPU goes to the requests first: a check takes the time nobody else wants,
    not the moves' time. Relative: a server started under ``nice -n 10`` has its hashing at
    19, not at 10 with its requests (setting the bare value did that: issue 44 row 1)."""
    if nice and sys.platform == "linux":
        thread = threading.get_native_id()
        with contextlib.suppress(OSError):
            started_at = os.getpriority(os.PRIO_PROCESS, thread)
            os.setpriority(os.PRIO_PROCESS, thread, min(NICEST, started_at + nice))


NICEST = 19
"""The lowest CPU priority Linux gives a thread."""


class PasswordPool:
    """``run(client, fn, ...)``: ``fn`` in one of ``slots`` hashing threads, in the client's
    turn, or a refusal (429, or 499 for a client that has gone)."""

    def __init__(self, slots: int, queue: int, wait_seconds: float, nice: int = 0) -> None:
        self.slots, self.queue, self.wait_seconds = max(1, slots), max(0, queue), wait_seconds
        self._threads = ThreadPoolExecutor(
            self.slots,
            thread_name_prefix="passwords",
            initializer=_behind_requests,
            initargs=(nice,),
        )
        self._lines: dict[str, deque[_Try]] = {}
        """Each client's tries waiting, oldest first (a known device's apart: ``_line_of``)."""
        self._turns: dict[bool, deque[str]] = {True: deque(), False: deque()}
        """The lines with tries waiting, known devices' and the others', each in the order
        they are served (round robin); known devices' lines first."""
        self._arrivals = 0
        self._busy = 0
        """Slots given out (granted or running): never more than ``slots``."""
        self._lock = threading.Lock()
        self._running_now = 0
        self.most_running = 0
        """The most checks ever running at once, counted in the hashing threads."""
        self.started = 0
        """Checks that began, in all."""
        self.refused: Counter[str] = Counter()
        """Tries not checked: ``late`` (no slot within the wait), ``full`` (the queue was full:
        this or the longest line's newest), ``gone`` (the client left)."""

    @property
    def waiting(self) -> int:
        return sum(len(line) for line in self._lines.values())

    async def run(
        self,
        client: str,
        fn: Callable[..., T],
        *args: Any,
        connection: Request | None = None,
        known: bool = False,
    ) -> T:
        """``fn(*args)`` in a hashing thread once ``client``'s turn comes; refused (429) if it
        cannot start within ``wait_seconds`` or the queue is full, dropped (499) if
        ``connection``'s client disconnects before. A ``known`` try (from a known device of
        the account it tries: its owner's browser) is served before the others, and a full
        queue makes room for it."""
        if self._busy < self.slots and not self._turns[True] and not self._turns[False]:
            self._busy += 1
        else:
            await self._wait_turn(client, connection, known)
        return await self._start(fn, *args)

    async def _wait_turn(self, client: str, connection: Request | None, known: bool) -> None:
        line = f"{'known' if known else 'other'} {client}"
        self._arrivals += 1
        entry = _Try(line, known, asyncio.get_running_loop().create_future(), self._arrivals)
        self._enqueue(entry)
        watcher = None
        if connection is not None:
            watcher = asyncio.create_task(self._watch(entry, connection))
        try:
            await asyncio.wait_for(asyncio.shield(entry.turn), self.wait_seconds)
        except TimeoutError:
            if entry.state is _State.WAITING:
                self._refuse(entry, "late")
        except BaseException:
            # the request itself was cancelled: its slot (if it got one) goes to the next
            if entry.state is _State.GRANTED:
                self._release()
            elif entry.state is _State.WAITING:
                self._leave(entry)
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        if entry.state is not _State.GRANTED:
            assert entry.refusal is not None
            raise entry.refusal

    def _enqueue(self, entry: _Try) -> None:
        if self.waiting >= self.queue:
            victim = self._to_drop(entry)
            if victim is None:
                self.refused["full"] += 1
                raise self._busy_refusal()
            self._refuse(victim, "full")
        line = self._lines.get(entry.line)
        if line is None:
            line = self._lines[entry.line] = deque()
            self._turns[entry.known].append(entry.line)
        line.append(entry)

    def _to_drop(self, newcomer: _Try) -> _Try | None:
        """The queue is full: which try gives way to ``newcomer`` (None: the newcomer is
        refused). A known device's try takes the place of another client's; otherwise the
        longest line of the newcomer's class gives up its newest try, if it is longer than
        the newcomer's line would be (so lines of equal length keep their places). Among
        lines as long, the one whose newest try came last."""

        def longest_first(line: deque[_Try]) -> tuple[int, int]:
            return len(line), line[-1].arrived

        others = [self._lines[line] for line in self._turns[False]]
        if newcomer.known and others:
            return max(others, key=longest_first)[-1]
        peers = [self._lines[line] for line in self._turns[newcomer.known]]
        own = len(self._lines.get(newcomer.line, ()))
        longest = max(peers, key=longest_first, default=None)
        if longest is None or len(longest) <= own + 1:
            return None
        return longest[-1]

    async def _watch(self, entry: _Try, connection: Request) -> None:
        """Drop ``entry`` when its client disconnects (the request's body was read already,
        so the next message the server gives is the disconnect)."""
        while entry.state is _State.WAITING:
            try:
                message = await connection.receive()
            except Exception:  # no channel to listen on (a request made up in code): wait
                return
            if message["type"] == "http.disconnect" and entry.state is _State.WAITING:
                self._leave(entry)
                entry.state = _State.GONE
                entry.refusal = WebError(
                    499, "client_gone", "the client left before its password was checked"
                )
                self.refused["gone"] += 1
                entry.turn.set_result(None)

    def _refuse(self, entry: _Try, reason: str) -> None:
        self._leave(entry)
        entry.state = _State.REFUSED
        entry.refusal = self._busy_refusal()
        self.refused[reason] += 1
        if not entry.turn.done():
            entry.turn.set_result(None)

    def _busy_refusal(self) -> WebError:
        wait = max(1.0, self.wait_seconds)
        return WebError(
            429,
            "login_busy",
            "the server is checking many passwords at once and yours could not start within "
            f"{self.wait_seconds:g} seconds; try again in {math.ceil(wait)} seconds",
            retry_after=wait,
        )

    def _leave(self, entry: _Try) -> None:
        line = self._lines.get(entry.line)
        if line is not None and entry in line:
            line.remove(entry)
            if not line:
                del self._lines[entry.line]
                self._turns[entry.known].remove(entry.line)

    def _serve(self) -> None:
        """Give the free slots to the next lines in turn, known devices' first."""
        while self._busy < self.slots and (self._turns[True] or self._turns[False]):
            turns = self._turns[True] or self._turns[False]
            name = turns.popleft()
            line = self._lines[name]
            entry = line.popleft()
            if line:
                turns.append(name)  # its next try waits for every other line's turn
            else:
                del self._lines[name]
            self._busy += 1
            entry.state = _State.GRANTED
            entry.turn.set_result(None)

    def _release(self) -> None:
        self._busy -= 1
        self._serve()

    async def _start(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on the slot this try holds; the slot is free again when the thread is
        done (not when an impatient request stops waiting), so threads never exceed slots."""
        loop = asyncio.get_running_loop()
        try:
            job: Future[T] = self._threads.submit(self._counted, fn, *args)
        except BaseException:
            self._release()
            raise
        job.add_done_callback(lambda _: self._release_from_thread(loop))
        return await asyncio.wrap_future(job)

    def _release_from_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the app has stopped
            loop.call_soon_threadsafe(self._release)

    def _counted(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            self.started += 1
            self._running_now += 1
            self.most_running = max(self.most_running, self._running_now)
        try:
            return fn(*args)
        finally:
            with self._lock:
                self._running_now -= 1
