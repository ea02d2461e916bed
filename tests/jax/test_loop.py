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


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_observations_are_the_agents_seats(seat: int | None) -> None:
    import jax

    envs = BoneyardVectorEnv("oyno", num_envs=8, seat=seat, size=3, bones_per_player=2)
    observe = jax.jit(jax.vmap(envs.engine.observe))
    rng = np.random.default_rng(2)
    observations, infos = envs.reset(seed=9)
    for _ in range(30):
        games = envs._state.games
        seats = games.current_player if seat is None else np.full(8, seat, np.int32)
        assert np.array_equal(observations, np.asarray(observe(games, seats)))
        actions = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
        observations, _, _, _, infos = envs.step(actions)


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


@pytest.mark.parametrize("seat", [1, None])
def test_an_ended_game_hands_over_its_last_observation_from_the_agents_seat(
    seat: int | None,
) -> None:
    import jax

    from boneyard.jax import make
    from boneyard.jax.core import random_legal_action
    from boneyard.jax.loop import BatchLoop

    env = make("oyno", size=3, bones_per_player=2)
    loop = BatchLoop(env, num_envs=8, seat=seat)
    state = loop.reset(loop.seeds(7))
    pick = jax.jit(jax.vmap(random_legal_action))
    one_step = jax.jit(jax.vmap(loop._one_step))
    observe = jax.jit(jax.vmap(env.observe))
    ended = 0
    for round_ in range(40):
        games = state.games
        keys = jax.random.split(jax.random.PRNGKey(round_), loop.num_envs)
        actions = pick(keys, games.legal_action_mask)
        # the reference: every game stepped, every game's observation from the agent's seat
        stepped, _, done, seats = one_step(games, actions, state.seeds, state.episodes)
        expected = np.asarray(observe(stepped, seats))
        state, result = loop.step(state, actions)
        done = np.asarray(done)
        assert np.asarray(result.done).tolist() == done.tolist()
        final = np.asarray(result.final_observation)
        assert np.array_equal(final[done], expected[done])
        # a game that goes on shows the observation the agent reads next
        going = ~done
        assert np.array_equal(final[going], np.asarray(state.games.observation)[going])
        ended += int(done.sum())
    assert ended > 4, "short games end within the run"
