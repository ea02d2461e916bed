"""The batch agent loop and the Gymnasium vector environment over the batch engines."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

from boneyard.jax.vector_env import BoneyardVectorEnv


def _play(envs: BoneyardVectorEnv, seed: int, steps: int) -> list[np.ndarray]:
    """Observations of ``steps`` steps of random play (a fixed action rng)."""
    rng = np.random.default_rng(0)
    observations, infos = envs.reset(seed=seed)
    seen = [observations]
    for _ in range(steps):
        actions = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
        observations, _, _, _, infos = envs.step(actions)
        seen.append(observations)
    return seen


def test_the_agent_moves_only_on_its_seat_and_games_reset_themselves() -> None:
    envs = BoneyardVectorEnv("oyno", num_envs=6, seat=1, size=3, bones_per_player=2)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=5)
    ended = 0
    for _ in range(80):
        assert (infos["current_player"] == 1).all()
        assert infos["action_mask"].any(axis=1).all()
        actions = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
        _, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any()
        assert set(rewards[~terminated].tolist()) <= {0.0}
        assert set(rewards[terminated].tolist()) <= {-1.0, 0.0, 1.0}
        if terminated.any():
            assert infos["_final_obs"].tolist() == terminated.tolist()
        ended += int(terminated.sum())
    assert ended > 6, "short games end and start again within the run"


def test_the_same_seeds_replay_the_same_games_and_other_seeds_differ() -> None:
    def run(seed: int) -> list[np.ndarray]:
        return _play(BoneyardVectorEnv("oyno_puzzle", num_envs=4, size=3, bones=4), seed, 20)

    first, again, other = run(3), run(3), run(4)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[0], other[0])


def test_one_seed_a_game_and_bad_actions_are_refused() -> None:
    envs = BoneyardVectorEnv("obonto", num_envs=2, seat=0)
    observations, _ = envs.reset(seed=[11, 11])
    assert np.array_equal(observations[0], observations[1])
    with pytest.raises(ValueError, match="one action a game"):
        envs.step([0])
    with pytest.raises(ValueError, match="action ids are 0 to 6560"):
        envs.step([0, 6561])
