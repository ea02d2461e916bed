"""Bots off the web processes: computer moves and hints as jobs in a table of the store.

With ``Settings.bots == "queue"`` a web process does not think: it writes a job (the state as
its ``to_json`` document, the level, the seed, the time budget) to ``bot_jobs`` and waits for its
answer; ``boneyard bots`` processes on any machine that reaches the database claim jobs with
``SELECT ... FOR UPDATE SKIP LOCKED`` (so two workers never take the same job), run them in
worker processes and write the answer back. A claimed job carries a lease (its time budget plus
a margin): a job whose worker died is taken up again by another worker once the lease expires,
at most ``MAX_ATTEMPTS`` times. The answer is played through the manager's accept path, checked
against the sequence number like a person's move (``ComputerSeats._bot_turn``).

On PostgreSQL a new job wakes idle workers (``NOTIFY boneyard_jobs``) and a finished job wakes
the web process waiting for it (``NOTIFY boneyard_done``); every side also polls, so a lost
notice costs at most ``POLL_SECONDS``. On SQLite (one machine) the polling alone carries it.

With ``Settings.bots == "ray://HOST:PORT"`` they are Ray tasks on that cluster instead
(``ray_bots.RayBots``). With ``Settings.bots == "local"`` (the default) the bots run in the web
process's own workers (``bots.BotWorkers``), as a lone ``boneyard serve`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from prometheus_client import Histogram
from sqlalchemy import (
    and_,
    delete,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from boneyard.web.compute.bots import (
    GRACE,
    KIND_OF,
    MAX_ATTEMPTS,
    BotWorkers,
    JobFailed,
    StatePayload,
    state_document,
)
from boneyard.web.compute.fairness import ThinkingBudget
from boneyard.web.networks import network_of
from boneyard.web.settings import Settings
from boneyard.web.store.games import Store
from boneyard.web.store.jobs import CLIENT_LENGTH, JobRow
from boneyard.web.store.keys import keyed_hash

log = logging.getLogger("boneyard.bots")

NEW_CHANNEL = "boneyard_jobs"
"""Notice of a new job (payload: its id), for idle workers."""
DONE_CHANNEL = "boneyard_done"
"""Notice of a finished job (payload: its id), for the web process waiting on it."""
LEASE_MARGIN = 5.0
"""Seconds a claimed job's lease runs past its budget and ``GRACE``: a worker not done by then
is taken for dead and another one takes the job."""
SERVED_WINDOW = 60.0
"""How far back a client's finished jobs count against its turn in the table."""
KEEP_SECONDS = 300.0
"""How long a finished job's answer stays in the table."""
POLL_SECONDS = 0.25
"""How often a waiting side looks at the table on SQLite (no notices there)."""
NOTICED_POLL_SECONDS = 1.0
"""How often it looks on PostgreSQL, where notices carry the news and a look only finds what
a lost notice (a listener reconnecting) or a dead worker's lease left behind."""
UNCLAIMED_SECONDS = 30.0
"""A job waiting this long while no worker holds a lease or finished a job meanwhile: no
``boneyard bots`` worker is running, and ``/readyz`` says so (the computer would never move)."""
RECENT_ANSWERS = 4096
"""Answers heard and kept a moment by each web process, for a job whose answer came before
its asker had noted the job's id (a fast bot)."""

SUBMIT = text(
    "WITH made AS (INSERT INTO bot_jobs (key, kind, priority, client, args, budget, status,"
    " attempts, created) VALUES (:key, :kind, :priority, :client, CAST(:args AS json), :budget,"
    " 'waiting', 0, :created) ON CONFLICT (key) DO NOTHING RETURNING id)"
    " SELECT id, pg_notify(:channel, CAST(id AS text)) FROM made"
)
"""A new job and its notice on PostgreSQL, in one statement (no row: it was asked already).
Fixed texts compiled once: SQLAlchemy cannot cache DML inside WITH."""
FINISH = text(
    "WITH done AS (UPDATE bot_jobs SET status = :status, result = :result, error = :error,"
    " lease_until = NULL, finished = :finished"
    " WHERE id = :id AND worker = :worker AND status = 'running' RETURNING id, result)"
    " SELECT id, pg_notify(:channel, concat(id, ':', result)) FROM done"
)
"""A job's answer and its notice ``<id>:<answer>`` (``<id>:`` for an error) on PostgreSQL."""


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    args: list[Any]
    budget: float
    attempts: int


class JobQueue:
    """The ``bot_jobs`` table: submit, claim, finish, collect. Synchronous (call from threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def submit(
        self, kind: str, priority: int, args: list[Any], budget: float, client: str = ""
    ) -> int:
        """The job answering ``kind(*args)``, asked for ``client``: the one already asked for,
        or a new one."""
        key = f"{kind}:{hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()}"
        job = {
            "key": key, "kind": kind, "priority": priority, "budget": budget,
            # the client's network keyed (store/keys.py): equal for equal networks, which is
            # all the turns need, and no address in the table
            "client": keyed_hash(
                self.store.secret, "job client", network_of(client)
            )[:CLIENT_LENGTH],
        }  # fmt: skip
        for _ in range(3):
            if self.store.is_sqlite:
                with self.engine.begin() as connection:
                    made = connection.execute(
                        sqlite_insert(JobRow)
                        .values(**job, args=args, status="waiting", attempts=0, created=time.time())
                        .on_conflict_do_nothing(index_elements=[JobRow.key])
                        .returning(JobRow.id)
                    ).first()
            else:
                with self.store.alone() as connection:
                    made = connection.execute(
                        SUBMIT,
                        {**job, "args": json.dumps(args), "created": time.time(),
                         "channel": NEW_CHANNEL},
                    ).first()  # fmt: skip
            if made is not None:
                return int(made.id)
            # Asked already (by this process or another holding the same game): share that job.
            with self.store.reads.connect() as connection:
                found = connection.execute(
                    select(JobRow.id, JobRow.status).where(JobRow.key == key)
                ).first()
            if found is not None and found.status != "failed":
                return int(found.id)
            if found is not None:  # a failed job is asked again: a fresh try
                with self.store.alone() as connection:
                    connection.execute(delete(JobRow).where(JobRow.id == found.id))
        raise JobFailed("could not queue the job")

    def claim(self, worker: str, expired: bool = True) -> Job | None:
        """Take the next job, or None: the clients (networks) in turn (a job of the client with
        the fewest jobs running first, so one client's twenty jobs wait behind another client's
        one; then of the client served least in the last ``SERVED_WINDOW``, by the seconds its
        finished jobs took, whichever process asked for them), then
        the most urgent, then the oldest. ``expired``: also one whose worker's lease ran out
        (and fail those whose workers died too often); a worker woken by a new job's notice
        looks only at waiting jobs (a cheaper look: the index on status)."""
        now = time.time()
        takeable: Any = JobRow.status == "waiting"
        if expired:
            with self.store.alone() as connection:
                # Jobs whose workers died too often: failed, for the web process to see.
                connection.execute(
                    update(JobRow)
                    .where(
                        JobRow.status == "running",
                        JobRow.lease_until < now,
                        JobRow.attempts >= MAX_ATTEMPTS,
                    )
                    .values(status="failed", error=f"its bot worker died {MAX_ATTEMPTS} times")
                )
            takeable = or_(takeable, and_(JobRow.status == "running", JobRow.lease_until < now))
        # SKIP LOCKED: a job another worker is claiming right now is passed over, not
        # waited for (PostgreSQL; SQLite has one writer at a time and ignores it). One
        # statement, so one round trip: it needs no transaction of its own.
        # Each client's service lately, every process's jobs together: its jobs running now,
        # then the worker seconds its jobs took in the last ``SERVED_WINDOW`` (deficit
        # round robin over the table: the client served least lately goes first).
        running = (
            select(JobRow.client, func.count().label("jobs"))
            .where(JobRow.status == "running", JobRow.lease_until >= now)
            .group_by(JobRow.client)
            .subquery()
        )
        # A job's service is the seconds it took (an easy reply: milliseconds, though its
        # budget is a second); one finished before the table had ``started``: its budget.
        took = func.coalesce(JobRow.finished - JobRow.started, JobRow.budget)
        served = (
            select(JobRow.client, func.sum(took).label("seconds"))
            .where(JobRow.status == "done", JobRow.finished >= now - SERVED_WINDOW)
            .group_by(JobRow.client)
            .subquery()
        )
        first = (
            select(JobRow.id)
            .outerjoin(running, running.c.client == JobRow.client)
            .outerjoin(served, served.c.client == JobRow.client)
            .where(takeable)
            .order_by(
                func.coalesce(running.c.jobs, 0),
                func.coalesce(served.c.seconds, 0.0),
                JobRow.priority,
                JobRow.id,
            )
            .limit(1)
            .with_for_update(skip_locked=True, of=JobRow)
            .scalar_subquery()
        )
        with self.store.alone() as connection:
            row = connection.execute(
                update(JobRow)
                .where(JobRow.id == first)
                .values(
                    status="running",
                    worker=worker,
                    attempts=JobRow.attempts + 1,
                    started=now,
                    lease_until=now + JobRow.budget + GRACE + LEASE_MARGIN,
                )
                .returning(JobRow.id, JobRow.kind, JobRow.args, JobRow.budget, JobRow.attempts)
            ).first()
        if row is None:
            return None
        return Job(int(row.id), row.kind, list(row.args), float(row.budget), int(row.attempts))

    def finish(self, job: Job, worker: str, result: int | None, error: str | None) -> bool:
        """Record ``job``'s answer (or error); False when another worker took it over meanwhile
        (its lease ran out): then that worker's answer counts. On PostgreSQL the notice carries
        the answer (``<id>:<answer>``, or ``<id>:`` for an error): the web process reads nothing."""
        answer = {
            "status": "done" if error is None else "failed",
            "result": result,
            "error": error,
            "finished": time.time(),
        }
        if not self.store.is_sqlite:
            with self.store.alone() as connection:
                done = connection.execute(
                    FINISH, {**answer, "id": job.id, "worker": worker, "channel": DONE_CHANNEL}
                ).first()
            return done is not None
        with self.engine.begin() as connection:
            return bool(
                connection.execute(
                    update(JobRow)
                    .where(JobRow.id == job.id, JobRow.worker == worker, JobRow.status == "running")
                    .values(**answer, lease_until=None)
                ).rowcount
            )

    def release(self, worker: str) -> int:
        """Hand back the jobs ``worker`` holds (it is stopping): others take them at once."""
        with self.engine.begin() as connection:
            return int(
                connection.execute(
                    update(JobRow)
                    .where(JobRow.worker == worker, JobRow.status == "running")
                    .values(status="waiting", worker=None, lease_until=None)
                ).rowcount
            )

    def collect(self, ids: list[int]) -> dict[int, tuple[int | None, str | None]]:
        """The finished jobs among ``ids``: id -> (answer, error). They stay a while for the
        other processes waiting on them (``clean`` removes them)."""
        if not ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(JobRow.id, JobRow.result, JobRow.error).where(
                    JobRow.id.in_(ids), JobRow.status.in_(("done", "failed"))
                )
            ).all()
        return {int(r.id): (r.result, r.error) for r in rows}

    def clean(self, older: float = KEEP_SECONDS) -> int:
        """Remove the answers finished more than ``older`` seconds ago."""
        with self.engine.begin() as connection:
            return int(
                connection.execute(
                    delete(JobRow).where(
                        JobRow.status.in_(("done", "failed")),
                        JobRow.finished < time.time() - older,
                    )
                ).rowcount
            )

    def depth(self) -> int:
        """Jobs waiting for a worker."""
        with self.store.reads.connect() as connection:
            count = connection.execute(
                select(func.count()).select_from(JobRow).where(JobRow.status == "waiting")
            ).scalar_one()
        return int(count)

    def unclaimed_for(self, seconds: float = UNCLAIMED_SECONDS) -> float | None:
        """How long the oldest waiting job has waited, when that is over ``seconds`` and no
        worker shows a sign of life meanwhile (a lease it holds, a job it finished); None
        otherwise (nothing waits, or the workers are busy: the jobs wait their turn)."""
        now = time.time()
        with self.store.reads.connect() as connection:
            oldest = connection.execute(
                select(func.min(JobRow.created)).where(JobRow.status == "waiting")
            ).scalar_one()
            if oldest is None or now - float(oldest) < seconds:
                return None
            alive = connection.execute(
                select(JobRow.id)
                .where(
                    or_(
                        and_(JobRow.status == "running", JobRow.lease_until >= now),
                        JobRow.finished >= now - seconds,
                    )
                )
                .limit(1)
            ).first()
        return None if alive is not None else now - float(oldest)

    def get(self, job_id: int) -> JobRow | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(JobRow).where(JobRow.id == job_id)).first()
        return None if row is None else JobRow(**row._mapping)


class TimedBotWorkers(BotWorkers):
    """The web process's own bot workers, with the time of each job in the metrics."""

    def __init__(self, processes: int, bot_seconds: Histogram, thinking: ThinkingBudget) -> None:
        super().__init__(processes, thinking)
        self.bot_seconds = bot_seconds

    async def run(self, priority: int, limit: float, fn: Any, *args: Any, client: str = "") -> Any:
        began = time.monotonic()
        try:
            return await super().run(priority, limit, fn, *args, client=client)
        finally:
            kind = KIND_OF.get(fn, "other")
            self.bot_seconds.labels(kind).observe(time.monotonic() - began)


class QueueBots:
    """The web process's side of the job table: the same calls as ``BotWorkers``."""

    def __init__(
        self, store: Store, settings: Settings, bot_seconds: Histogram, thinking: ThinkingBudget
    ) -> None:
        self.queue = JobQueue(store)
        self.store = store
        self.settings = settings
        self.bot_seconds = bot_seconds
        self.thinking = thinking
        """Each client's budget of thinking: a job is charged the seconds from its asking to
        its answer, at most its budget (a worker's own CPU time does not come back through
        the table)."""
        self._threads = ThreadPoolExecutor(2, thread_name_prefix="jobs")
        self._pending: dict[int, tuple[int, asyncio.Future[int]]] = {}
        """Job id -> (priority, its answer); resolved and removed when its answer is heard."""
        self._recent: OrderedDict[int, int] = OrderedDict()
        """The last ``RECENT_ANSWERS`` answers heard (job id -> answer), any process's."""
        self._poll = POLL_SECONDS if store.is_sqlite else NOTICED_POLL_SECONDS
        self._wake: asyncio.Event | None = None
        self._collector: asyncio.Task[None] | None = None
        self._stop_listening: Callable[[], None] | None = None
        self._depth = 0

    def waiting(self, priority: int) -> int:
        """Jobs of ``priority`` this process waits for."""
        return sum(1 for p, _ in self._pending.values() if p == priority)

    def depth(self) -> int:
        """Jobs waiting for a worker, all processes together (as of the last look)."""
        return self._depth

    def payload(self, state: Any) -> StatePayload:
        return state_document(state)

    def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()

        def heard(payload: str) -> None:
            loop.call_soon_threadsafe(self._heard, payload)

        self._stop_listening = self.store.listen_channel(DONE_CHANNEL, heard)
        self._collector = loop.create_task(self._collect_forever())

    def _heard(self, payload: str) -> None:
        """A job was answered (``<id>:<answer>``): its asker here gets the answer from the
        notice itself. An error (``<id>:``) or an unreadable notice: the table is read."""
        job, _, answer = payload.partition(":")
        try:
            job_id, result = int(job), int(answer)
        except ValueError:
            assert self._wake is not None
            self._wake.set()
            return
        self._recent[job_id] = result
        if len(self._recent) > RECENT_ANSWERS:
            self._recent.popitem(last=False)
        self._answer(job_id, result, None)

    def _answer(self, job_id: int, result: int | None, error: str | None) -> None:
        _, future = self._pending.pop(job_id, (0, None))
        if future is None or future.done():
            return
        if error is not None or result is None:
            future.set_exception(JobFailed(error or "no answer"))
        else:
            future.set_result(int(result))

    degraded: str | None = None
    """Why the computer thinks somewhere other than it was set to (never: the queue's workers
    are the only ones)."""

    async def unready(self, timeout: float) -> str | None:
        """Why computer moves cannot run now (``None``: they can): a job has waited past
        ``UNCLAIMED_SECONDS`` with no worker alive. (The database itself the readiness check
        asks about first.)"""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                waited = await loop.run_in_executor(self._threads, self.queue.unclaimed_for)
        except TimeoutError:
            return "the bot job table does not answer"
        if waited is None:
            return None
        return (
            f"no bot worker has claimed a job for {waited:.0f} s: is a `boneyard bots` "
            "worker running on this database?"
        )

    def shutdown(self) -> None:
        if self._collector is not None:
            self._collector.cancel()
        if self._stop_listening is not None:
            self._stop_listening()
        # Jobs asked for stay: a worker answers them and another process may be waiting too.
        for _, future in self._pending.values():
            future.cancel()
        self._pending.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def run(self, priority: int, limit: float, fn: Any, *args: Any, client: str = "") -> int:
        """``fn(*args)`` as a job for a ``boneyard bots`` worker, asked for ``client``; its
        answer, or raises ``JobFailed`` / ``TimeoutError`` (nobody answered within
        ``job_wait_seconds``)."""
        loop = asyncio.get_running_loop()
        kind = KIND_OF[fn]
        began = time.monotonic()
        job_id = await loop.run_in_executor(
            self._threads, self.queue.submit, kind, priority, list(args), limit, client
        )
        entry = self._pending.get(job_id)
        if entry is None:  # (else this process asked the same already: one answer for both)
            entry = self._pending[job_id] = (priority, loop.create_future())
            if job_id in self._recent:  # answered before its id came back here
                self._answer(job_id, self._recent[job_id], None)
        try:
            # Shielded: one asker giving up leaves the answer to the others.
            answer = await asyncio.wait_for(
                asyncio.shield(entry[1]), timeout=self.settings.job_wait_seconds
            )
            self.thinking.charge(client, min(limit, time.monotonic() - began))
            return answer
        finally:
            self.bot_seconds.labels(kind).observe(time.monotonic() - began)

    async def _collect_forever(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._wake is not None
        looked = 0.0
        while True:
            with contextlib.suppress(TimeoutError):  # (not wait_for: see GameManager._in)
                async with asyncio.timeout(self._poll):
                    await self._wake.wait()
            self._wake.clear()
            try:
                if self._pending:
                    found = await loop.run_in_executor(
                        self._threads, self.queue.collect, list(self._pending)
                    )
                    for job_id, (result, error) in found.items():
                        self._answer(job_id, result, error)
                if time.monotonic() - looked > 1.0:
                    looked = time.monotonic()
                    self._depth = await loop.run_in_executor(self._threads, self.queue.depth)
                    if random.random() < 0.02:  # about once a minute per process
                        await loop.run_in_executor(self._threads, self.queue.clean)
            except Exception:  # the database is away for a moment: look again
                log.warning("collecting bot answers failed; trying again", exc_info=True)
                await asyncio.sleep(1.0)
