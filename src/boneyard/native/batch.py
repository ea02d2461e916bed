"""``NativeBatch``: many games of one game stepped at once in Rust threads, for learning on the CPU.

>>> from boneyard.native.batch import NativeBatch
>>> batch = NativeBatch("obonto", num_envs=1024, seed=0)
>>> batch.legal_action_mask.shape, batch.current_player.shape, batch.rewards.shape
((1024, 216), (1024,), (1024, 2))
>>> batch.step(actions)            # one int action a game, from the mask

The arrays are those of the JAX batch engines (``boneyard.jax``, after pgx's ``State``): the
legal-action mask (bool, one row a game), whose turn (``-4`` once a game is over), the rewards
of the step (a game's returns on the step it ends, else zeros), the ended flags, and, with
``observe=True`` where the game has a native tensor, the observation tensor of the player to
move. Chance is drawn inside by its odds (game ``i`` from seed ``seed + i``), so every row waits
for a player or has ended. A game that ended starts again on the next step (its action is not
read). Stepping releases the GIL and splits the games over ``threads`` threads; an illegal
action raises ``IllegalActionError`` naming the game, and no game moves.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from boneyard.native import _engine
from boneyard.native.game import NativeGame, NativeState, load_game

__all__ = ["NativeBatch"]


class NativeBatch:
    """``num_envs`` games of ``game`` (a name or a loaded native game), stepped in Rust."""

    def __init__(
        self,
        game: str | NativeGame,
        num_envs: int,
        *,
        seed: int = 0,
        observe: bool = False,
        threads: int | None = None,
        **params: Any,
    ) -> None:
        self.game = load_game(game, **params) if isinstance(game, str) else game
        info = self.game.info
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number of games, at least 1; got {num_envs!r}")
        self.num_envs = num_envs
        self.num_actions = info.num_distinct_actions
        self.num_players = info.num_players
        self.observation_shape: tuple[int, ...] | None = None
        tensor_size = 0
        if observe:
            self.observation_shape = tuple(self.game.observation_tensor_shape())
            tensor_size = math.prod(self.observation_shape)
        self._core = _engine.Batch(
            self.game._core,
            num_envs,
            seed,
            self.num_actions,
            self.num_players,
            tensor_size,
            threads or os.cpu_count() or 1,
        )
        self._mask = np.zeros((num_envs, self.num_actions), np.uint8)
        self.current_player = np.zeros(num_envs, np.int32)
        self.rewards = np.zeros((num_envs, self.num_players), np.float32)
        self._terminated = np.zeros(num_envs, np.uint8)
        self.observation: np.ndarray | None = None
        if self.observation_shape is not None:
            self.observation = np.zeros((num_envs, *self.observation_shape), np.float32)
        self.reset(seed)

    @property
    def legal_action_mask(self) -> np.ndarray:
        """``[num_envs, num_actions]`` bool: the legal actions of the player to move."""
        return self._mask.view(np.bool_)

    @property
    def terminated(self) -> np.ndarray:
        """``[num_envs]`` bool: the game ended (it starts again on the next step)."""
        return self._terminated.view(np.bool_)

    def reset(self, seed: int = 0) -> None:
        """Every game new, game ``i`` drawing its chance from ``seed + i``."""
        self._core.reset(seed)
        self._read()

    def step(self, actions: Any) -> None:
        """Play one action a game (``actions``: ``num_envs`` ints)."""
        self._core.step(np.ascontiguousarray(actions, dtype=np.int64))
        self._read()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action of each game (``int64``, 0 for a game that ended),
        drawn in Rust from each game's generator: a random player with no pass over the masks."""
        actions = np.zeros(self.num_envs, np.int64)
        self._core.random_actions(actions)
        return actions

    def state(self, index: int) -> NativeState:
        """A copy of game ``index`` as a native state (to look at, print or compare)."""
        return self._core.state(self.game, index)

    def _read(self) -> None:
        self._core.read_into(
            self._mask, self.current_player, self.rewards, self._terminated, self.observation
        )
