"""Replay frames from snapshots: the position after any step of a long game, at a small cost.

A replay asks for the state after ``step`` stored actions. Walking the log from the start for
each frame costs as many actions as the step (151 ms for step 650 of a 15x15 OYNO game), on
the event loop it stalled every other player. Here a game's states are kept every
``interval`` actions (``snapshot_interval``: 32, more in very long games so that a game keeps
at most ``MOST_SNAPSHOTS``): made once in the work pool, then each frame is the nearest
snapshot at or before the step and at most ``interval - 1`` actions, also in the work pool.
The snapshots of ``GAMES_KEPT`` games are kept, the least recently replayed leaving first, so
their memory is bounded whatever the number of games replayed.

A frame also carries the moves up to its step in words: those of a game nobody has watched
(nobody had them said) are said in the work pool too (``Replays.tell``), once for the game.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from boneyard.core.game import Game, State
from boneyard.web.play import words
from boneyard.web.play.live import LiveGame
from boneyard.web.play.work import WorkPool

SNAPSHOT_EVERY = 32
"""Actions between two kept states of a game (a frame replays fewer than this)."""
MOST_SNAPSHOTS = 64
"""The most states kept of one game: a longer game keeps them further apart."""
GAMES_KEPT = 16
"""Games whose snapshots are kept (the least recently replayed leave first)."""
SAID_ON_LOOP = 32
"""The most unsaid moves a view says on the event loop; more are said in the work pool."""


def snapshot_interval(length: int) -> int:
    """Actions between two kept states of a game of ``length`` actions."""
    return max(SNAPSHOT_EVERY, -(-length // MOST_SNAPSHOTS))


def walk_cost(length: int) -> int:
    """What walking a game of ``length`` actions (loading it, making its snapshots) costs in
    reads beyond the request's own: one for every interval walked."""
    return length // snapshot_interval(length)


def snapshots(
    game_cls: type[Game], params: dict[str, Any], actions: tuple[int, ...], interval: int
) -> list[State]:
    """The states after 0, ``interval``, 2 ``interval``, ... of ``actions`` (a work-pool job)."""
    state = game_cls(**params).new_initial_state()
    states = [state.clone()]
    for played, action in enumerate(actions, start=1):
        state.apply_action(action)
        if played % interval == 0:
            states.append(state.clone())
    return states


def advanced(state: State, actions: tuple[int, ...]) -> State:
    """``state`` after ``actions`` (fewer than an interval; a work-pool job), a new state."""
    state = state.clone()
    for action in actions:
        state.apply_action(action)
    return state


@dataclass
class Snapshots:
    """One game's kept states, and the actions they were made from."""

    actions: tuple[int, ...]
    interval: int
    states: list[State]


class Replays:
    """Reads of a game's past made off the event loop: the snapshots of the games replayed
    last, and the words of moves nobody has had said yet."""

    def __init__(self, work: WorkPool, games: int = GAMES_KEPT) -> None:
        self.work = work
        self.games = games
        self._kept: OrderedDict[str, Snapshots] = OrderedDict()
        self._telling: dict[str, asyncio.Future[None]] = {}

    async def tell(self, live: LiveGame) -> None:
        """Say ``live``'s moves in words in the work pool when more than ``SAID_ON_LOOP`` are
        unsaid (a long game nobody watched): a view or a replay then only looks them up. One
        job per game, however many ask at once."""
        if words.untold(live) <= SAID_ON_LOOP:
            return
        telling = self._telling.get(live.id)
        if telling is None:
            telling = asyncio.ensure_future(self._tell(live))
            self._telling[live.id] = telling
            telling.add_done_callback(lambda _done: self._telling.pop(live.id, None))
        await asyncio.shield(telling)

    async def _tell(self, live: LiveGame) -> None:
        log = live.log
        entries = list(log)
        actions = list(live.stored.actions[: len(entries)])
        names = words.short_names(live.game, live.stored.seats)
        told = await self.work.run(
            None, "saying the moves", words.told, live.game, entries, actions, names
        )
        if live.log is log:  # not rewritten meanwhile (a takeback, a reload)
            words.keep_told(live, told)

    def cost(self, live: LiveGame, step: int) -> int:
        """What a frame at ``step`` costs in reads: one, and one more for every interval of the
        game walked to make its snapshots when none fit."""
        if self._fitting(live, step) is not None:
            return 1
        return 1 + walk_cost(len(live.stored.actions))

    async def state_at(self, live: LiveGame, step: int) -> State:
        """The state after the first ``step`` stored actions of ``live`` (not to be changed)."""
        kept = self._fitting(live, step)
        if kept is None:
            actions = tuple(action for action, _player in live.stored.actions)
            interval = snapshot_interval(len(actions))
            states = await self.work.run(
                None, "replaying the game", snapshots, type(live.game),
                dict(live.stored.params), actions, interval,
            )  # fmt: skip
            kept = Snapshots(actions, interval, states)
            self._kept[live.id] = kept
            while len(self._kept) > self.games:
                self._kept.popitem(last=False)
        self._kept.move_to_end(live.id)
        base = step // kept.interval
        rest = kept.actions[base * kept.interval : step]
        if not rest:
            return kept.states[base]
        state: State = await self.work.run(
            None, "replaying the game", advanced, kept.states[base], rest
        )
        return state

    def _fitting(self, live: LiveGame, step: int) -> Snapshots | None:
        """The kept snapshots of ``live`` if they were made from its first ``step`` actions (a
        takeback rewrites a log; a game played on makes it longer)."""
        kept = self._kept.get(live.id)
        if kept is None or step > len(kept.actions):
            return None
        stored = live.stored.actions
        if len(stored) < step or kept.actions[:step] != tuple(a for a, _p in stored[:step]):
            return None
        return kept
