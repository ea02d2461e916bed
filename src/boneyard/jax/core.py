"""The batch-engine protocol: ``State`` and ``Env``, shaped after pgx's ``Env`` and ``State``.

A state is a frozen dataclass of fixed-shape JAX arrays (a pytree), so every function below can
be ``jax.jit``-ed and ``jax.vmap``-ed over a batch of states. The common fields and the meaning
of ``Env.init`` / ``Env.step`` / ``Env.observe`` are pgx's, so code written for pgx runs on
boneyard games:

- ``current_player``: the seat to act (at a terminal state, the seat that acted last; read
  ``terminated`` first);
- ``observation``: ``observe(state, current_player)``;
- ``rewards``: float32, one per seat, what this step gave each seat: the game's return on the
  step that ends the game, zero before (and zero again for a step on a finished state);
- ``terminated`` / ``truncated``: the game is over by its rules / by a cap outside them (every
  boneyard game ends by its own rules, so ``truncated`` stays false);
- ``legal_action_mask``: bool, one per action id of the rules engine; all true once terminated
  (as in pgx, so sampling from a finished state never divides by zero);
- ``_step_count``: steps taken.

Chance (a deal, a die, a wild roll) is drawn inside ``init`` / ``step`` from the key, with the
rules engine's probabilities; the outcomes drawn are kept in the state's ``chance`` field (the
rules engine's chance ids, ``-1`` for none), so a test can force the same outcomes on the rules
engine. An illegal action ends the game at once, as in pgx: the seat that chose it gets ``-1``
and the others share ``+1`` (each ``1 / (players - 1)``, so the rewards sum to zero).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, TypeVar, dataclass_transform

import jax
import jax.numpy as jnp

Array = jax.Array
T = TypeVar("T")

TRUE = jnp.bool_(True)
FALSE = jnp.bool_(False)


@dataclass_transform(frozen_default=True)
def state_class(cls: type[T]) -> type[T]:
    """Class decorator: a frozen dataclass registered as a JAX pytree (every field an array)."""
    made = dataclasses.dataclass(frozen=True)(cls)
    return jax.tree_util.register_dataclass(made)


@state_class
class State:
    """The fields every boneyard batch state has (pgx's names); games add their own."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array

    def replace(self: T, **changes: Any) -> T:
        """A copy with ``changes`` (states are immutable)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]


S = TypeVar("S", bound=State)


class Env:
    """A game as pure functions over ``State``: ``init``, ``step``, ``observe`` (pgx's ``Env``).

    A game module subclasses it and fills in ``_init``, ``_step`` and ``_observe``; this class
    does the shared work of pgx's ``Env``: a step on a finished state changes nothing but zeroes
    the rewards, an illegal action ends the game with a penalty for its chooser, a finished
    state's mask is all true, and the observation of the seat to act is kept in the state.
    """

    id: str = ""
    version: str = "v0"
    illegal_action_penalty: float = -1.0

    def __init__(self, num_players: int, num_actions: int) -> None:
        self._num_players = num_players
        self._num_actions = num_actions

    @property
    def num_players(self) -> int:
        return self._num_players

    @property
    def num_actions(self) -> int:
        """The size of ``legal_action_mask``: the rules engine's ``num_distinct_actions``."""
        return self._num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        state = self._init(jax.random.PRNGKey(0))
        return tuple(self._observe(state, jnp.int32(0)).shape)

    # ----- the protocol ----------------------------------------------------------------------

    def init(self, key: Array) -> Any:
        """The state at the start of a game, chance (a deal) drawn from ``key``."""
        state = self._init(key)
        state = self._finished_mask(state)
        return state.replace(observation=self._observe(state, state.current_player))

    def step(self, state: Any, action: Array, key: Array | None = None) -> Any:
        """The state after ``action`` by the seat to act; chance inside is drawn from ``key``."""
        if key is None:
            key = jax.random.PRNGKey(0)
        action = jnp.asarray(action, dtype=jnp.int32)
        illegal = ~state.legal_action_mask[action]
        mover = state.current_player
        over = state.terminated | state.truncated
        stepped = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        # a finished game keeps its state (rewards zeroed); the mask and the observation are
        # left out of this select, they are made again below (a per-byte cost on a batch)
        kept = {
            field.name: jnp.where(over, getattr(state, field.name), getattr(stepped, field.name))
            for field in dataclasses.fields(state)
            if field.name not in ("legal_action_mask", "observation", "rewards")
        }
        penalised = illegal & ~over
        rewards = jnp.where(over, 0.0, stepped.rewards)
        rewards = jnp.where(penalised, self._penalty(mover), rewards)
        state = stepped.replace(**kept)
        state = state.replace(
            rewards=rewards.astype(jnp.float32), terminated=state.terminated | penalised
        )
        state = self._finished_mask(state)
        return state.replace(observation=self._observe(state, state.current_player))

    def observe(self, state: Any, player_id: Array | int | None = None) -> Array:
        """What seat ``player_id`` sees (the seat to act by default), as the rules engine's
        ``observation_tensor`` of ``observation(seat)``, shaped ``observation_tensor_shape``."""
        seat = state.current_player if player_id is None else jnp.asarray(player_id, jnp.int32)
        return jax.lax.stop_gradient(self._observe(state, seat))

    # ----- for the games ---------------------------------------------------------------------

    def _init(self, key: Array) -> Any:
        raise NotImplementedError

    def _step(self, state: Any, action: Array, key: Array) -> Any:
        raise NotImplementedError

    def _observe(self, state: Any, seat: Array) -> Array:
        raise NotImplementedError

    def _penalty(self, mover: Array) -> Array:
        """The rewards of an illegal action by ``mover``."""
        penalty = self.illegal_action_penalty
        others = -penalty / max(self.num_players - 1, 1)
        return jnp.full(self.num_players, others, jnp.float32).at[mover].set(penalty)

    def _finished_mask(self, state: Any) -> Any:
        mask = jnp.where(state.terminated, True, state.legal_action_mask)
        return state.replace(legal_action_mask=mask)

    def base_fields(
        self, current_player: Array, terminated: Array, rewards: Array, mask: Array
    ) -> dict[str, Array]:
        """The common fields of a fresh state (the observation is filled in by ``init``)."""
        return {
            "current_player": jnp.asarray(current_player, jnp.int32),
            "observation": jnp.zeros(0, jnp.float32),
            "rewards": rewards.astype(jnp.float32),
            "terminated": jnp.asarray(terminated, jnp.bool_),
            "truncated": FALSE,
            "legal_action_mask": mask,
            "_step_count": jnp.int32(0),
        }


def random_legal_action(key: Array, mask: Array) -> Array:
    """A uniformly random legal action of one state's ``legal_action_mask``, drawn with one random
    number (a categorical over every action id would draw one per id: 43,923 for Bond O Cones).

    The r-th legal id is found in two levels (the mask as rows of about sqrt(n) ids: the row by
    the running count of the row sums, then the id within the row), because a running count over
    all n ids is slow on XLA's CPU backend; the row sums are added as bytes (a row has at most
    255 ids up to 65,025 actions), three times faster there than as 32-bit numbers.
    """
    n = mask.shape[0]
    width = max(1, math.isqrt(n - 1) + 1)
    rows = -(-n // width)
    small = jnp.uint8 if width <= 255 else jnp.int32
    grid = jnp.pad(mask, (0, rows * width - n)).reshape(rows, width).astype(small)
    sums = jnp.sum(grid, axis=1, dtype=small).astype(jnp.int32)
    before = jnp.cumsum(sums)
    pick = jax.random.randint(key, (), 0, jnp.maximum(before[-1], 1))
    row = jnp.argmax(before > pick)
    within = pick - (before[row] - sums[row])
    column = jnp.argmax(jnp.cumsum(grid[row].astype(jnp.int32)) > within)
    return (row * width + column).astype(jnp.int32)
