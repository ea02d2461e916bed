"""Bot workers: computer moves and hints off the event loop, in processes or threads.

With ``bot_processes > 0`` the bots run in spawned worker processes (pure Python: there they
never hold the server's GIL) and a state travels as its ``to_json`` document; with 0 they run in
two threads of the server and a state travels as itself (the tests' toy games are not in the
registry a process loads games from). ``BotWorkers.run`` is the one place that choice is made.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from typing import Any

from boneyard.core.game import State

StatePayload = State | tuple[str, dict[str, Any], dict[str, Any]]
"""A state itself (threads) or ``(game name, params, to_json document)`` (processes)."""


def _state_of(payload: StatePayload) -> State:
    if isinstance(payload, State):
        return payload
    from boneyard.core.registry import load_game

    name, params, document = payload
    return load_game(name, **params).state_from_json(document)


def bot_move(level: str, seat: int, seed: int, limit: float | None, payload: StatePayload) -> int:
    """The computer's move for ``seat`` at ``level`` (runs in a worker)."""
    from boneyard.ai import make_bot

    state = _state_of(payload)
    bot = make_bot(level, state.game, seat, seed=seed, time_limit=limit)
    return int(bot.step(state))


def hint_move(payload: StatePayload) -> int:
    """The hint for the seat to move (runs in a worker)."""
    from boneyard.ai import hint

    return int(hint(_state_of(payload)))


def _warm_up() -> int:
    """Import the games and bots in a fresh worker process, before the first computer move."""
    from boneyard.ai import make_bot  # noqa: F401
    from boneyard.core.registry import list_games

    return len(list_games())


class BotWorkers:
    """Where computer moves and hints run: worker processes, or threads when ``processes`` is 0."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.executor: Executor
        if processes > 0:
            self.executor = ProcessPoolExecutor(
                max_workers=processes, mp_context=get_context("spawn")
            )
        else:
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    def payload(self, state: State) -> StatePayload:
        """How ``state`` travels to a worker (a copy: the live game goes on changing)."""
        if self.processes > 0:
            return (state.game.name, dict(state.game.params), state.to_json())
        return state.clone()

    async def run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def warm_up(self) -> None:
        """Start the worker processes now (spawning and importing takes seconds)."""
        for _ in range(self.processes):
            self.executor.submit(_warm_up)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
