"""The Bond O Cones batch engine's BondO walks equal the rules engine's on random boards.

Random games reach a Double BondO's long walks only now and then; here every walk length (1 to
8 king steps) is checked from many squares of crowded random boards against the rules engine's
``bondo_destinations``, both one game at a time and on a batch (where the long walks are
searched by the batch rule of ``_long_walks``).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

from boneyard.games.bondo_cones.board import BOARD, bondo_destinations
from boneyard.jax.bondo_cones import SQUARES, _from_rows, _long_walks, _to_rows, _walk_short


def _boards(count: int, seed: int) -> list[tuple[int, int, int]]:
    """(start, empty, target) bitboards: a cone on ``start``, the rest crowded at random."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        start = rng.randrange(SQUARES)
        fill = rng.uniform(0.2, 0.6)
        occupied = {sq for sq in range(SQUARES) if rng.random() < fill} | {start}
        theirs = {sq for sq in occupied if sq != start and rng.random() < 0.5}
        empty = BOARD & ~sum(1 << sq for sq in occupied)
        target = empty | sum(1 << sq for sq in theirs)
        boards.append((start, empty, target))
    return boards


def _bools(mask: int) -> np.ndarray:
    return np.array([(mask >> sq) & 1 for sq in range(SQUARES)], dtype=bool)


def _walks(start: jax.Array, steps: jax.Array, empty: jax.Array, target: jax.Array) -> jax.Array:
    empty_rows, target_rows = _to_rows(empty), _to_rows(target)
    short = _walk_short(start, jnp.minimum(steps, 4), empty_rows, target_rows)
    long_ = _long_walks(start, steps, empty_rows, target_rows, steps > 4)
    return _from_rows(jnp.where(steps > 4, long_, short))


_BATCH = jax.jit(jax.vmap(_walks))
_ONE = jax.jit(_walks)


@pytest.mark.parametrize("steps", range(1, 9))
def test_walks_equal_the_rules_engine(steps: int) -> None:
    boards = _boards(48, seed=steps)
    starts = jnp.asarray([start for start, _, _ in boards], dtype=jnp.int32)
    empty = jnp.asarray(np.stack([_bools(e) for _, e, _ in boards]))
    target = jnp.asarray(np.stack([_bools(t) for _, _, t in boards]))
    lengths = jnp.full(len(boards), steps, jnp.int32)
    batched = np.asarray(_BATCH(starts, lengths, empty, target))
    for i, (start, e, t) in enumerate(boards):
        wanted = _bools(bondo_destinations(start, steps, e, t))
        assert np.array_equal(batched[i], wanted), f"board {i}, {steps} steps (batch)"
        if i < 6:
            alone = np.asarray(_ONE(starts[i], lengths[i], empty[i], target[i]))
            assert np.array_equal(alone, wanted), f"board {i}, {steps} steps (one game)"
