"""Factored actions: every engine's three heads map exactly to and from its flat ids, their
masks read exactly the flat mask, and sampling head by head picks every legal id and no other."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.jax.core import random_legal_action
from boneyard.jax.heads import ActionHeads, ActionSegment

GAMES = boneyard.jax.available_games()


@pytest.mark.parametrize("name", GAMES)
def test_heads_and_flat_ids_map_exactly_both_ways(name: str) -> None:
    env = boneyard.jax.make(name)
    heads = env.action_heads
    ids = jnp.arange(env.num_actions)
    kind, row, column = jax.jit(jax.vmap(heads.to_heads))(ids)
    assert np.array_equal(np.asarray(jax.jit(jax.vmap(heads.to_flat))(kind, row, column)), ids)
    sizes = heads.head_sizes
    for head, size in zip((kind, row, column), sizes, strict=True):
        assert int(head.min()) >= 0 and int(head.max()) < size
    assert sum(sizes) <= max(env.num_actions, 300)  # small heads where the flat space is large


def _states(name: str, games: int = 4, steps: int = 6) -> list[object]:
    env = boneyard.jax.make(name)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    pick = jax.jit(jax.vmap(random_legal_action))
    key = jax.random.PRNGKey(5)
    state = init(jax.random.split(key, games))
    states = [state]
    for _ in range(steps):
        key, action_key, step_key = jax.random.split(key, 3)
        actions = pick(jax.random.split(action_key, games), state.legal_action_mask)
        state = step(state, actions, jax.random.split(step_key, games))
        states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
def test_head_masks_read_the_flat_mask_exactly(name: str) -> None:
    env = boneyard.jax.make(name)
    heads = env.action_heads
    region = jax.jit(heads.region)
    kind_mask = jax.jit(heads.kind_mask)
    for batch in _states(name):
        for mask in np.asarray(batch.legal_action_mask):
            kinds = np.asarray(kind_mask(mask))
            for k, segment in enumerate(heads.segments):
                flat = mask[segment.offset : segment.offset + segment.size]
                assert kinds[k] == flat.any()
                grid = np.asarray(region(mask, k))
                inside = grid[: segment.rows, : segment.columns]
                assert np.array_equal(inside.reshape(-1), flat)
                assert not grid[segment.rows :].any() and not grid[:, segment.columns :].any()


@pytest.mark.parametrize("name", GAMES)
def test_sampling_head_by_head_picks_only_and_every_legal_id(name: str) -> None:
    env = boneyard.jax.make(name)
    heads = env.action_heads
    state = _states(name, games=1, steps=3)[-1]
    mask = state.legal_action_mask[0]
    legal = set(np.flatnonzero(np.asarray(mask)).tolist())
    keys = jax.random.split(jax.random.PRNGKey(0), 4000)
    picks = np.asarray(jax.jit(jax.vmap(heads.sample, in_axes=(0, None)))(keys, mask))
    assert set(picks.tolist()) <= legal
    if len(legal) <= 60:
        assert set(picks.tolist()) == legal


def test_sampling_follows_the_logits_of_each_head() -> None:
    heads = ActionHeads(
        [ActionSegment("pair", 0, 2, 3), ActionSegment("one", 6, 1, 2)], num_actions=8
    )
    mask = jnp.ones(8, bool)
    logits = (jnp.array([0.0, -jnp.inf]), jnp.array([-jnp.inf, 0.0]), jnp.array([0.0, 0.0, 5.0]))
    keys = jax.random.split(jax.random.PRNGKey(1), 500)
    picks = np.asarray(jax.vmap(lambda k: heads.sample(k, mask, logits))(keys))
    assert set(picks.tolist()) <= {3, 4, 5}  # kind "pair", row 1
    assert (picks == 5).mean() > 0.9


def test_segments_must_tile_the_ids() -> None:
    with pytest.raises(ValueError, match="starts at 5, expected 4"):
        ActionHeads([ActionSegment("a", 0, 2, 2), ActionSegment("b", 5, 1, 1)], num_actions=6)
    with pytest.raises(ValueError, match="the game has 9 ids"):
        ActionHeads([ActionSegment("a", 0, 2, 2)], num_actions=9)


def test_uniform_sampling_is_uniform_within_each_head() -> None:
    heads = ActionHeads(
        [ActionSegment("pair", 0, 2, 3), ActionSegment("one", 6, 1, 2)], num_actions=8
    )
    mask = jnp.ones(8, bool).at[2].set(False)
    keys = jax.random.split(jax.random.PRNGKey(2), 12000)
    picks = np.asarray(jax.jit(jax.vmap(heads.sample, in_axes=(0, None)))(keys, mask))
    share = np.bincount(picks, minlength=8) / len(picks)
    # kind 1/2 each; "pair": row 1/2 each, then its legal columns (2 in row 0, 3 in row 1)
    expected = np.array([1 / 8, 1 / 8, 0, 1 / 12, 1 / 12, 1 / 12, 1 / 4, 1 / 4])
    assert np.abs(share - expected).max() < 0.015
