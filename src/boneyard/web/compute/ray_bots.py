"""Bots on a Ray cluster: computer moves and hints as Ray tasks (``--bots ray://ADDRESS``).

With ``Settings.bots == "ray://HOST:PORT"`` a web process connects to that cluster's Ray Client
server and runs each computer move and hint (``bots.bot_move`` / ``bots.hint_move`` on the
state's ``to_json`` document) as a task there, on whichever machine of the cluster has a free
CPU. Every node of the cluster must have boneyard installed (the same version as the web
processes, e.g. the same image), as Ray workers import the bots by name.

- A task whose worker process (or machine) dies is run again by Ray (``max_retries``), at most
  ``MAX_ATTEMPTS`` times in all, as a queued job is. Its answer comes back to the one web
  process that asked, which plays it through the manager's accept path checked against the
  sequence number like a person's move (``ComputerSeats._bot_turn``): a second answer for the
  same turn (another process holding the game asked too) is refused by the store's unique
  ``(game, seq)``, as with the queue.
- A task not answered within twice its budget and ``slack`` seconds is cancelled (its worker
  process is killed, as the local pool kills one) and the caller gets ``TimeoutError``: the
  computer then plays its first legal move, a hint answers 503.
- A cluster that cannot be reached (its head gone, the network down) or lost mid-task degrades
  to this process's own workers (``local``, made when first needed): the computer goes on
  thinking at its level, here, instead of playing its first legal move; while a new
  connection is tried (Ray Client waits some 30 s before it gives up) the moves do not wait for
  it. A cluster that refuses this process's authentication says so, not "connection timeout".
- Ray serves tasks first come, first served, without priorities: so this process hands the
  cluster at most as many tasks at once as it has CPUs, and the rest wait here, a queue per
  client taken in turn (``fairness.FairGate``, the local workers' ``ClientTurns``): one
  client's twenty tasks delay another's by at most one. Each web process keeps its own turns
  (several processes share the cluster's CPUs between them as Ray schedules them). Hints are
  kept from crowding out computer moves by the server's ``hints_waiting`` budget
  (``waiting`` counts this process's tasks of each kind, waiting or running), and the clients'
  thinking budgets (``fairness.ThinkingBudget``) bound what one client asks of the cluster.

Each ``RayBots`` has its own client connection (``ray.init(..., allow_multiple=True)``), used
from its own threads only; nothing here changes the process's global Ray state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from prometheus_client import Histogram

from boneyard.web.compute.bots import (
    GRACE,
    KIND_OF,
    MAX_ATTEMPTS,
    JobFailed,
    StatePayload,
    state_document,
)
from boneyard.web.compute.fairness import FairGate, ThinkingBudget
from boneyard.web.compute.pools import warm_up
from boneyard.web.settings import Settings

log = logging.getLogger("boneyard.bots")

START_SECONDS = 30.0
"""Seconds on top of ``GRACE`` a task may wait before it thinks: for a free CPU of the cluster,
and for a new Ray worker process to start and import the games (the local pool's clock starts
only when a worker takes the job; a Ray task's cannot be seen to start from here)."""


def require_ray_client(address: str) -> None:
    """Raise ``RuntimeError`` saying what to install when Ray Client cannot be imported."""
    try:
        import grpc  # noqa: F401  (Ray Client's transport: the 'ray' extra has it)
        import ray  # noqa: F401
    except ImportError as error:
        raise RuntimeError(
            f"--bots {address} needs Ray Client ({error.name} is missing): "
            "pip install 'boneyard[ray]'"
        ) from None


class ClusterLost(JobFailed):
    """The cluster cannot be reached, or lost a task other than by the bot's own error."""


AUTH_WORDS = ("unauthenticated", "authentication", "auth token", "invalid token", "token")
"""What Ray Client's refusals of a connection's token say (each try logged at debug level)."""


class _Heard(logging.Filter):
    """Keeps Ray Client's debug lines of one connection attempt (the reason of each failed
    try, which its final "connection timeout" drops) instead of logging them."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.DEBUG:
            self.lines.append(record.getMessage())
            return False
        return True


def _refused_authentication(lines: list[str]) -> bool:
    said = " ".join(line.lower() for line in lines if "received" in line.lower())
    return any(word in said for word in AUTH_WORDS)


class RayBots:
    """The web process's side of a Ray cluster: the same calls as ``BotWorkers``."""

    def __init__(
        self,
        address: str,
        settings: Settings,
        bot_seconds: Histogram,
        thinking: ThinkingBudget,
        local: Callable[[], Any] | None = None,
    ) -> None:
        require_ray_client(address)
        self.address = address
        self.settings = settings
        self.bot_seconds = bot_seconds
        self.thinking = thinking
        """Each client's budget of thinking: a task is charged the seconds from its asking to
        its answer, at most its budget (Ray's workers do not tell their CPU time)."""
        self.slack = GRACE + START_SECONDS
        """Seconds past twice a task's budget before it is cancelled."""
        self.retries = MAX_ATTEMPTS - 1
        # Ray Client calls block on the network: they run here, never on the event loop. One
        # thread keeps this connection's calls in order; the answers arrive on Ray's own thread.
        self._threads = ThreadPoolExecutor(1, thread_name_prefix="ray")
        self._context: Future[Any] | None = None
        self._remote: dict[Any, Any] = {}
        self._running: Counter[int] = Counter()
        self.gate = FairGate(1)
        """Clients in turn: as many tasks at once as the cluster has CPUs (known once
        connected), the others waiting here."""
        self._pinging: Future[None] | None = None
        """The readiness check's question to the cluster, while it is asked."""
        self._make_local = local
        self._local: Any = None
        """This process's own workers, made when the cluster is first lost (``local``)."""
        self.degraded: str | None = None
        """Why the cluster cannot take the computer's moves, while this process's own workers
        take them instead (set by ``unready``)."""
        self._lost = False
        """The cluster was lost and not found again yet."""
        self.local_runs = 0
        """Moves and hints thought here because the cluster was lost."""

    def waiting(self, priority: int) -> int:
        """Tasks of ``priority`` this process waits for."""
        return self._running[priority]

    def depth(self) -> int:
        """Tasks this process waits for (queued in the cluster or running)."""
        return sum(self._running.values())

    def payload(self, state: Any) -> StatePayload:
        return state_document(state)

    # ----- the connection -------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Connect now (seconds), off the event loop."""
        self._connection()

    def _connection(self) -> Future[Any]:
        """The connection, made once; made again after one failed."""
        context = self._context
        if context is None or (context.done() and context.exception() is not None):
            if context is not None:
                self._lost = True  # (the last try failed: moves do not wait for this one)
            context = self._context = self._threads.submit(self._connect)
        return context

    def _connect(self) -> Any:
        import ray

        began = time.monotonic()
        self._remote.clear()  # (registered with the connection before, if any)
        ray_client = logging.getLogger("ray.util.client.worker")
        heard, level = _Heard(), ray_client.level
        ray_client.addFilter(heard)
        ray_client.setLevel(logging.DEBUG)
        try:
            context = ray.init(self.address, allow_multiple=True, log_to_driver=False)
        except ConnectionError as error:
            if _refused_authentication(heard.lines):
                raise ConnectionError(
                    "it refused this process's authentication token: give the web processes "
                    "the cluster's token (RAY_AUTH_MODE=token, RAY_AUTH_TOKEN=...)"
                ) from error
            raise
        finally:
            ray_client.removeFilter(heard)
            ray_client.setLevel(level)
        with context:
            cpus = int(ray.cluster_resources().get("CPU", 0))
            self.gate.slots = max(1, cpus)
            # Every worker imports the games and bots before the first real task needs them.
            prepare = ray.remote(warm_up)
            for _ in range(cpus):
                prepare.remote()
        log.info(
            "connected to the Ray cluster at %s (%d CPUs) in %.1f s",
            self.address, cpus, time.monotonic() - began,
        )  # fmt: skip
        return context

    async def unready(self, timeout: float) -> str | None:
        """Why computer moves cannot run now (``None``: they can). The cluster still
        connecting, its last connection failed (the next try begins now) or not answering
        within ``timeout`` seconds is a reason only without this process's own workers to fall
        back on; with them the computer goes on thinking here, and the reason is kept in
        ``degraded`` for the readiness answer to tell."""
        lost, here = await self._lost_because(timeout)
        self.degraded = lost if here and self._make_local is not None else None
        return None if self.degraded is not None else lost

    async def _lost_because(self, timeout: float) -> tuple[str | None, bool]:
        """Why the cluster cannot take a move now, and whether ``run`` would then think here
        (a failed connection, or a reconnection after a loss; a first connection is waited
        for)."""
        connection = self._context
        if connection is None or not connection.done():
            self._connection()
            return f"connecting to the Ray cluster at {self.address}", self._lost
        failed = connection.exception()
        if failed is not None:
            self._connection()  # the next try begins
            return f"the Ray cluster at {self.address} cannot be reached ({failed})", True
        # One question at a time: a probe that keeps asking a lost cluster waits for the one
        # under way rather than queueing more behind it on the connection's thread.
        ping = self._pinging
        if ping is None or ping.done():
            ping = self._pinging = self._threads.submit(self._ping, connection.result())
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(ping)), timeout)
        except Exception as error:
            reason = "no answer" if isinstance(error, TimeoutError) else str(error)
            return f"the Ray cluster at {self.address} does not answer ({reason})", self._lost
        return None, False

    def _ping(self, context: Any) -> None:
        import ray

        with context:
            ray.cluster_resources()

    def shutdown(self) -> None:
        """Disconnect (the cluster goes on; tasks still running are cancelled by their callers)."""
        context = self._context
        if context is not None and context.done() and context.exception() is None:
            # Waited for: a client left connected keeps a thread trying to reconnect.
            with contextlib.suppress(Exception):
                self._threads.submit(context.result().disconnect).result(timeout=10)
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._local is not None:
            self._local.shutdown()

    # ----- tasks ----------------------------------------------------------------------------------

    def _submit(self, context: Any, fn: Any, args: tuple[Any, ...]) -> tuple[Any, Future[Any]]:
        """``fn(*args)`` as a task: (its reference, a future of its answer)."""
        import ray

        with context:
            remote = self._remote.get(fn)
            if remote is None:
                # Ray retries a task whose worker died; an error the bot raised is final.
                remote = self._remote[fn] = ray.remote(fn).options(
                    max_retries=self.retries, retry_exceptions=False, num_cpus=1
                )
            reference = remote.remote(*args)
            return reference, reference.future()

    def _cancel(self, context: Any, reference: Any) -> None:
        """Stop a task: its worker process is killed (Ray starts another) and not retried."""
        import ray

        with context, contextlib.suppress(Exception):
            ray.cancel(reference, force=True)

    async def run(self, priority: int, limit: float, fn: Any, *args: Any, client: str = "") -> int:
        """``fn(*args)`` as a task on the cluster, asked for ``client``; its answer. Raises
        ``TimeoutError`` past ``2 * limit + slack`` seconds (the task is cancelled),
        ``JobFailed`` when the cluster cannot be reached or the task's workers died too often,
        and the bot's own error. It waits for its client's turn (``gate``) once connected."""
        loop = asyncio.get_running_loop()
        kind = KIND_OF.get(fn, "other")
        began = time.monotonic()
        self._running[priority] += 1
        try:
            connection = self._connection()
            if self._lost and self._make_local is not None and not connection.done():
                # Reconnecting after a loss: this move does not wait for it (Ray Client takes
                # some 30 s to give up on a head that is gone).
                return await self._here("reconnecting", priority, limit, fn, args, client)
            try:
                context = await asyncio.wrap_future(connection)
            except Exception as error:  # no cluster there
                lost = self._unreachable(connection, error)
                return await self._here(str(lost), priority, limit, fn, args, client)
            self._lost = False
            try:
                async with self.gate.turn(client, priority):
                    return await self._task(loop, context, connection, limit, fn, args, client)
            except ClusterLost as lost:
                return await self._here(str(lost), priority, limit, fn, args, client)
        finally:
            self._running[priority] -= 1
            self.bot_seconds.labels(kind).observe(time.monotonic() - began)

    async def _here(
        self, why: str, priority: int, limit: float, fn: Any, args: tuple[Any, ...], client: str
    ) -> int:
        """``fn(*args)`` on this process's own workers, the cluster being lost; without them
        (none given) the caller's fallback: ``JobFailed``."""
        self._lost = True
        if self._make_local is None:
            raise JobFailed(why)
        if self._local is None:
            self._local = self._make_local()
        log.warning("the Ray cluster is lost (%s): this process's own workers think instead", why)
        self.local_runs += 1
        return int(await self._local.run(priority, limit, fn, *args, client=client))

    def _unreachable(self, connection: Future[Any], error: Exception) -> ClusterLost:
        if self._context is connection:
            self._context = None  # the next task connects again
        return ClusterLost(f"the Ray cluster at {self.address} cannot be reached: {error}")

    async def _task(
        self,
        loop: asyncio.AbstractEventLoop,
        context: Any,
        connection: Future[Any],
        limit: float,
        fn: Any,
        args: tuple[Any, ...],
        client: str,
    ) -> int:
        """``fn(*args)`` submitted as a task in its client's turn; its answer (see ``run``)."""
        from ray.exceptions import RayError, RayTaskError

        began = time.monotonic()
        try:
            reference, answer = await loop.run_in_executor(
                self._threads, self._submit, context, fn, args
            )
        except Exception as error:  # the connection is lost
            raise self._unreachable(connection, error) from None
        wait = 2 * limit + self.slack
        try:
            # Shielded: Ray's thread sets the answer's future, which must stay uncancelled.
            waited = asyncio.wrap_future(answer)
            waited.add_done_callback(_consume)
            result = int(await asyncio.wait_for(asyncio.shield(waited), wait))
            self.thinking.charge(client, min(limit, time.monotonic() - began))
            return result
        except RayTaskError:
            raise  # the bot's own error (an instance of its class too), as locally
        except (ConnectionError, RayError) as error:
            raise ClusterLost(f"the bot's task failed on the Ray cluster: {error}") from None
        except (TimeoutError, asyncio.CancelledError) as error:
            # Past its time, or nobody waits any more (the game left, the server stops):
            # the cluster stops thinking about it.
            with contextlib.suppress(RuntimeError):  # (shut down: the job ends anyway)
                self._threads.submit(self._cancel, context, reference)
            if isinstance(error, TimeoutError):
                raise TimeoutError(f"the bot took longer than {wait:g} seconds") from None
            raise


def _consume(answer: asyncio.Future[Any]) -> None:
    """Take a task's error also when nobody waits for it any more (a cancelled task's)."""
    if not answer.cancelled():
        answer.exception()
