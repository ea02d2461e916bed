"""``boneyard bots``: a worker that claims computer moves and hints from the job queue (the
``bot_jobs`` table) and answers them in worker processes, on any machine that reaches the
database."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time

from boneyard.web.compute.bots import (
    GRACE,
    JOBS,
)
from boneyard.web.compute.jobs import (
    NEW_CHANNEL,
    NOTICED_POLL_SECONDS,
    POLL_SECONDS,
    Job,
    JobQueue,
)
from boneyard.web.compute.pools import warm_up, worker_pool
from boneyard.web.store.games import Store

log = logging.getLogger("boneyard.bots")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Worker:
    """Claims jobs and answers them in ``processes`` worker processes, until stopped."""

    def __init__(self, store: Store, processes: int, name: str | None = None) -> None:
        self.queue = JobQueue(store)
        self.store = store
        self.name = name or worker_name()
        self.processes = processes
        self.pool, _ = worker_pool(processes, processes, "jobs")
        self.stop = threading.Event()
        self.notices = threading.Semaphore(0)
        """One permit a new job's notice: one claimer wakes for it, not all of them."""
        self.poll = POLL_SECONDS if store.is_sqlite else NOTICED_POLL_SECONDS
        self.answered = 0
        self.free = threading.BoundedSemaphore(processes)
        """One permit a worker process with no job: a claimer claims only with one in hand,
        so a claimed job starts at once. (Claimed ahead of a free process, it would wait in
        the pool's own first-come line, behind jobs the table's turns had put after it.)"""

    def _run_one(self, job: Job) -> None:
        """Think ``job`` in a worker process (whose ``free`` permit its claimer holds, and
        which is given back once the thinking is over), then record its answer."""
        from concurrent.futures import TimeoutError as FutureTimeout

        began = time.monotonic()
        function = JOBS.get(job.kind)
        result: int | None = None
        error: str | None = None
        try:
            if function is None:
                error = f"unknown job kind {job.kind!r}"
            else:
                future = self.pool.schedule(function, args=job.args, timeout=job.budget + GRACE)
                try:
                    result = int(future.result())
                except FutureTimeout:
                    error = f"the bot took longer than {job.budget + GRACE:g} seconds"
                except Exception as failure:
                    if self.stop.is_set():
                        return  # stopping: the job is handed back, not failed
                    error = f"the bot failed: {failure!r}"
        finally:
            self.free.release()  # the answer's round trip overlaps the next job's thinking
        if self.queue.finish(job, self.name, result, error):
            self.answered += 1
        log.info(
            "job %d (%s, attempt %d) answered in %.3f s%s",
            job.id, job.kind, job.attempts, time.monotonic() - began,
            f": {error}" if error else "",
        )  # fmt: skip

    def _claim_forever(self, looks: bool) -> None:
        """Claim and answer jobs until stopped: one for each notice taken. ``looks``: this
        claimer also looks at the table when no notice came for a while (one a worker)."""
        while not self.stop.is_set():
            noticed = self.notices.acquire(timeout=self.poll if looks else None)
            if self.stop.is_set():
                return
            # A notice: one new job, taken unless another worker was quicker. No notice for a
            # while: look at everything (a lost notice, a dead worker's lease) until it is
            # empty, with another claimer woken for each job found.
            while not self.stop.is_set():
                self.free.acquire()
                if self.stop.is_set():
                    self.free.release()
                    return
                try:
                    job = self.queue.claim(self.name, expired=not noticed)
                except Exception:
                    self.free.release()
                    log.warning("claiming a job failed; trying again", exc_info=True)
                    self.stop.wait(1.0)
                    break
                if job is None:
                    self.free.release()
                    break
                if not noticed:
                    self.notices.release()
                self._run_one(job)
                if noticed:
                    break

    def run(self) -> None:
        """Work until ``stop`` is set; then hand back the jobs still held."""
        stop_listening = self.store.listen_channel(
            NEW_CHANNEL, lambda _payload: self.notices.release()
        )
        # Two claimers a process: one job's database round trips overlap another's thinking.
        threads = [
            threading.Thread(
                target=self._claim_forever, args=(n == 0,), name=f"claim-{n}", daemon=True
            )
            for n in range(2 * self.processes)
        ]
        for thread in threads:
            thread.start()
        try:
            self.stop.wait()
        finally:
            self.notices.release(len(threads))  # the claimers see the stop at once
            if stop_listening is not None:
                stop_listening()
            self.pool.stop()
            self.pool.join(timeout=5)
            with contextlib.suppress(Exception):
                released = self.queue.release(self.name)
                if released:
                    log.info("handed back %d unfinished jobs", released)

    def warm_up(self) -> None:
        """Start the worker processes and wait until they have imported the games."""
        started = [self.pool.schedule(warm_up) for _ in range(self.processes)]
        for future in started:  # ready once the games and bots are imported (seconds)
            future.result(timeout=120)
