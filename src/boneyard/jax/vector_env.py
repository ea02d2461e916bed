"""A Gymnasium ``VectorEnv`` over a batch engine: ``num_envs`` games stepped in one jitted call.

>>> from boneyard.jax.vector_env import BoneyardVectorEnv
>>> envs = BoneyardVectorEnv("obonto", num_envs=1024, seat=0)      # a random opponent
>>> observations, infos = envs.reset(seed=0)
>>> actions = envs.action_space.sample(mask=...)                   # or from infos["action_mask"]

The agent plays ``seat`` against the loop's opponent (``boneyard.jax.loop.BatchLoop``), or every
seat with ``seat=None``. Observations are the agent's seat's tensors (the rules engine's
``observation_tensor``), the legal actions are ``infos["action_mask"]`` (bool, one row a game),
and the reward is the agent's. Auto-reset is Gymnasium's same-step mode: a game that ends is
started again within the step; the step returns the new game's observation, with the ended
game's in ``infos["final_obs"]`` (rows marked by ``infos["_final_obs"]``). Each game has its own
seed (``reset(seed=s)`` gives game ``i`` the seed ``s + i``; a list gives one a game).
Needs the ``jax`` and ``rl`` extras.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import jax
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

import boneyard.jax
from boneyard.jax.core import reset_ended
from boneyard.jax.loop import BatchLoop, LoopState


class BoneyardVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` for an agent on ``seat``; game parameters as keywords."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        seat: int | None = 0,
        opponent: str = "random",
        **params: Any,
    ) -> None:
        self.engine = boneyard.jax.make(game, **params)
        self.loop = BatchLoop(self.engine, num_envs, seat=seat, opponent=opponent)
        self.num_envs = num_envs
        shape = self.engine.observation_shape
        self.single_observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, shape, dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.engine.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._state: LoopState | None = None
        self._agent_observations = jax.jit(self._observations)

    def _observations(self, games: Any) -> jax.Array:
        """Every game's observation from the agent's seat, observed again only where the seat
        to act is another (``_view``)."""
        seat = self.loop.seat
        return reset_ended(
            games.observation,
            games.current_player != seat,
            lambda i: self.engine.observe(jax.tree_util.tree_map(lambda x: x[i], games), seat),
        )

    def _view(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self._state is not None
        games = self._state.games
        to_act = np.asarray(games.current_player)
        # The state keeps the observation of the seat to act, which after the loop's step is the
        # agent's (with self-play always); only a game that ended before the agent's first turn
        # shows another seat's, and only then are the games observed again.
        elsewhere = self.loop.seat is not None and bool((to_act != self.loop.seat).any())
        observations = np.asarray(
            self._agent_observations(games) if elsewhere else games.observation
        )
        infos = {"action_mask": np.asarray(games.legal_action_mask), "current_player": to_act}
        return observations, infos

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0] >> 1)
        self._state = self.loop.reset(self.loop.seeds(seed))
        return self._view()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions, dtype=np.int32)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"one action a game: expected shape ({self.num_envs},), got {actions.shape}"
            )
        if actions.min() < 0 or actions.max() >= self.engine.num_actions:
            raise ValueError(f"action ids are 0 to {self.engine.num_actions - 1}")
        self._state, result = self.loop.step(self._state, actions)
        observations, infos = self._view()
        done = np.asarray(result.done)
        if done.any():
            infos["final_obs"] = np.asarray(result.final_observation)
            infos["_final_obs"] = done
        rewards = np.asarray(result.reward, dtype=np.float32)
        return observations, rewards, done, np.zeros(self.num_envs, dtype=bool), infos
