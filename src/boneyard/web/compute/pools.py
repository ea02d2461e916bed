"""Worker processes or threads: the one place the web app chooses between them.

Processes (``pebble``, so a job past its time limit can be stopped by ending its process) keep
pure-Python work off the server's GIL; threads (``processes=0``) are for tests and small
machines, where a job runs to its own end.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from multiprocessing import get_context
from typing import Any


def warm_up() -> int:
    """Import the games and bots in a fresh worker process, before its first job."""
    from boneyard.ai import make_bot  # noqa: F401
    from boneyard.core.registry import list_games

    return len(list_games())


def worker_pool(processes: int, threads: int, name: str) -> tuple[Any, ThreadPoolExecutor | None]:
    """``(process pool, None)`` with ``processes`` workers, or ``(None, threads)`` when
    ``processes`` is 0."""
    if processes > 0:
        from pebble import ProcessPool

        # Each worker (a replacement for a killed one too) imports the games and bots before it
        # takes a job: start-up never counts against a job's time limit.
        pool = ProcessPool(max_workers=processes, initializer=warm_up, context=get_context("spawn"))
        return pool, None
    return None, ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)


def stop_pool(pool: Any, threads: ThreadPoolExecutor | None) -> None:
    """Stop a ``worker_pool``: a worker process still at work is terminated, not orphaned."""
    if pool is not None:
        pool.stop()
        pool.join(timeout=5)
    if threads is not None:
        threads.shutdown(wait=False, cancel_futures=True)
