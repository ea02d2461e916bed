"""Replay the same random games through a batch engine and the rules engine, step by step.

The batch engine's games are stepped together as one vmapped batch. Each batch game has a rules
engine twin: the twin is dealt the chance outcomes the batch engine drew (its ``chance`` field,
in the rules engine's ids, checked to be outcomes the rules engine offers), and the action
chosen at random among the twin's legal actions is played in both. After ``init`` and after
every step the two must agree on: terminated, the player to move, the legal mask, the rewards
of the step (the returns on the step that ends the game, zero before) and the observation
tensor of every seat.
"""

from __future__ import annotations

import random
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.core.game import Game, State


def _force_chance(twin: State, outcomes: np.ndarray) -> None:
    for outcome in outcomes.tolist():
        if outcome < 0:
            continue
        assert twin.is_chance_node(), f"the batch engine drew {outcome} where the twin has none"
        offered = dict(twin.chance_outcomes())
        assert offered.get(outcome, 0.0) > 0.0, (
            f"the batch engine drew {outcome}, which the rules engine gives no probability "
            f"(offered {sorted(offered)})"
        )
        twin.apply_action(outcome)
    assert not twin.is_chance_node(), "the twin still waits for chance the batch engine skipped"


class Replay:
    """One compiled engine and its rules game, to replay batches of random games."""

    def __init__(self, env: Any, game: Game) -> None:
        self.env = env
        self.game = game
        self.init = jax.jit(jax.vmap(env.init))
        self.step = jax.jit(jax.vmap(env.step))
        self.observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))

    def run(self, games: int, seed: int) -> int:
        """Replay ``games`` games; return the number of steps compared."""
        env, game = self.env, self.game
        rng = random.Random(seed)
        key = jax.random.PRNGKey(seed)
        key, init_key = jax.random.split(key)
        batch = self.init(jax.random.split(init_key, games))
        twins = [game.new_initial_state() for _ in range(games)]
        for i, twin in enumerate(twins):
            if hasattr(batch, "_chance"):
                _force_chance(twin, np.asarray(batch._chance[i]))
        live = self._compare(batch, twins, list(range(games)), at_init=True)
        compared = games
        while live:
            actions = np.zeros(games, dtype=np.int32)
            for i in live:
                actions[i] = rng.choice(twins[i].legal_actions())
            key, step_key = jax.random.split(key)
            batch = self.step(batch, jnp.asarray(actions), jax.random.split(step_key, games))
            chance = np.asarray(batch._chance) if hasattr(batch, "_chance") else None
            for i in live:
                twins[i].apply_action(int(actions[i]))
                if chance is not None:
                    _force_chance(twins[i], chance[i])
            compared += len(live)
            live = self._compare(batch, twins, live)
        assert env.num_actions == game.num_distinct_actions()
        return compared

    def _compare(
        self, batch: Any, twins: list[State], live: list[int], at_init: bool = False
    ) -> list[int]:
        """Check the games in ``live`` against their twins; return those still going.

        ``at_init``: the batch is fresh from ``init``, whose rewards are zero even where the deal
        ended the game (pgx's init gives no reward)."""
        game = self.game
        terminated = np.asarray(batch.terminated)
        truncated = np.asarray(batch.truncated)
        player = np.asarray(batch.current_player)
        mask = np.asarray(batch.legal_action_mask)
        rewards = np.asarray(batch.rewards)
        observation = np.asarray(batch.observation)
        seats = game.num_players()
        seen = [np.asarray(self.observe(batch, seat)) for seat in range(seats)]
        shape = game.observation_tensor_shape()
        still = []
        for i in live:
            twin = twins[i]
            where = f"game {i}, history {twin.history()}"
            assert bool(terminated[i]) == twin.is_terminal(), where
            assert not truncated[i], where
            ended = twin.is_terminal() and not at_init
            expected = twin.returns() if ended else [0.0] * seats
            assert rewards[i].tolist() == expected, f"{where}: rewards {rewards[i]} != {expected}"
            if not twin.is_terminal():
                assert player[i] == twin.current_player(), where
                legal = np.zeros(game.num_distinct_actions(), dtype=bool)
                legal[twin.legal_actions()] = True
                assert np.array_equal(mask[i], legal), (
                    f"{where}: mask differs at {np.flatnonzero(mask[i] != legal).tolist()}"
                )
                still.append(i)
            else:
                assert mask[i].all(), f"{where}: a finished game's mask is all true"
            for seat in range(seats):
                wanted = np.asarray(
                    game.observation_tensor(twin.observation(seat)), dtype=np.float32
                ).reshape(shape)
                got = seen[seat][i]
                assert got.shape == wanted.shape, where
                assert np.array_equal(got, wanted), (
                    f"{where}: seat {seat} observation differs at "
                    f"{np.flatnonzero(got.reshape(-1) != wanted.reshape(-1)).tolist()}"
                )
            if not twin.is_terminal():
                assert np.array_equal(observation[i], seen[int(player[i])][i]), where
        return still
