"""The app's services stop when the app stops: a wait on a thread passes a cancel on.

The clocks' tests hung at shutdown once tournaments ran beside them: the director's loop had
awaited a database read whose answer came as the app cancelled it, and ``asyncio.wait_for``
(on Python 3.11) returned the answer and dropped the cancel, so the loop ran on and the app's
shutdown waited for ever. Every wait on a thread goes through ``GameManager._in``.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from boneyard.web.play.catalog import Catalog
from boneyard.web.play.manager import GameManager
from boneyard.web.store.games import Store
from tests.web.conftest import all_games, app_settings


class AnsweredAtOnce(Executor):
    """A pool whose answer is ready before the caller is next woken: the moment of the race."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_a_cancel_that_meets_the_answer_is_not_dropped(tmp_path: Path) -> None:
    manager = GameManager(
        Store(f"sqlite:///{tmp_path / 'loops.db'}"), Catalog(all_games()), app_settings()
    )

    async def main() -> None:
        waiting = asyncio.create_task(
            manager._in(AnsweredAtOnce(), 5.0, "a read", lambda: "the answer")  # type: ignore[arg-type]
        )
        await asyncio.sleep(0)  # it waits; its answer is on the way to the loop
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(main())
