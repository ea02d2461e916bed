"""Batch engines in JAX: every game as pure functions over fixed-shape arrays.

>>> import jax
>>> import boneyard.jax
>>> env = boneyard.jax.make("obonto")
>>> state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 1024))

Each engine follows pgx's ``Env`` protocol (``init(key)``, ``step(state, action, key)``,
``observe(state, seat)``; states with ``current_player``, ``observation``, ``rewards``,
``terminated``, ``truncated``, ``legal_action_mask``), takes the rules engine's parameters, and
uses the rules engine's action ids and observation tensors; ``tests/jax`` replays random games
through both engines and compares every step. Needs the ``jax`` extra
(``pip install 'boneyard[jax]'``); nothing outside this package imports JAX.
"""

from __future__ import annotations

from typing import Any

try:
    import jax as _jax  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "boneyard.jax needs JAX: install the extra with pip install 'boneyard[jax]'"
    ) from error

from boneyard.core.errors import UnknownGameError
from boneyard.core.registry import game_specs
from boneyard.jax.core import Afterstate, Env, State


def available_games() -> tuple[str, ...]:
    """The games that have a batch engine (their spec's ``batch_engine``), sorted."""
    return tuple(spec.name for spec in game_specs() if spec.batch_engine is not None)


def make(name: str, **params: Any) -> Env:
    """The batch engine of game ``name`` with the rules engine's ``params`` (checked by it)."""
    spec = next((spec for spec in game_specs() if spec.name == name), None)
    if spec is None or spec.batch_engine is None:
        raise UnknownGameError(
            f"no batch engine for game {name!r}; batch engines exist for: "
            f"{', '.join(available_games())}"
        )
    engine: Env = spec.load_batch_engine()(**params)
    return engine


__all__ = ["Afterstate", "Env", "State", "available_games", "make"]
