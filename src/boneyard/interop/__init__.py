"""Research interfaces: every boneyard game as a PettingZoo, Gymnasium and OpenSpiel game.

The adapters live in their own modules and import their framework only when used, so
``import boneyard`` never needs the ``[rl]`` extra::

    from boneyard.interop import pettingzoo, gymnasium, openspiel

    env = pettingzoo.env("obonto")                            # AEC environment, all seats
    env = gymnasium.make("oyno_puzzle")                       # one learning agent
    openspiel.register(); pyspiel.load_game("boneyard_bones")  # OpenSpiel Python games

Everything here goes through the engine contract (``boneyard.core.game``) only: a seat sees
``state.observation(seat)`` and nothing else, encoded by the game's own
``observation_tensor`` hook (through ``Game.state_observation_tensor``, its fast road to the
same numbers, which the conformance suite checks equal at every step). This module holds the few
helpers the three adapters share.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from boneyard.core.game import Game, State
from boneyard.core.registry import load_game

__all__ = [
    "ENGINES",
    "action_mask",
    "action_mask_hook",
    "agent_name",
    "env_id",
    "observation_array",
    "observation_bounds",
    "observation_shape",
    "require_observation_shape",
    "resolve_game",
    "state_action_mask",
    "state_observation_array",
    "tensor_array",
]


ENGINES = ("python", "native")
"""The engines an interface can run a game on: the Python rules (the reference) or the native
ones in Rust (``boneyard.native``, the same contract and every step equal, many times faster)."""


def resolve_game(game: str | Game, params: dict[str, Any], engine: str = "python") -> Game:
    """A loaded game from a registry name and parameters on ``engine`` (``"python"`` or
    ``"native"``), or an already loaded game of either engine."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    if not isinstance(game, str):
        if params:
            raise ValueError(
                f"parameters {sorted(params)} given with an already loaded game {game!r}; "
                "pass the game's name instead, or load it with those parameters"
            )
        return game
    if engine == "native":
        from boneyard.native import load_game as load_native_game

        # A native game keeps the Game contract (boneyard.native.game), not its class.
        return cast(Game, load_native_game(game, **params))
    return load_game(game, **params)


def observation_shape(game: Game) -> tuple[int, ...] | None:
    """The game's observation tensor shape, or ``None`` when the game has no tensor hook."""
    try:
        shape = tuple(int(n) for n in game.observation_tensor_shape())
    except NotImplementedError:
        return None
    return shape


def observation_bounds(game: Game) -> tuple[float, float]:
    """The least and greatest number of the game's observation tensor, from the game's own
    tensor hook (its spec's ``tensor``); unbounded (``-inf``, ``inf``) for a game without one."""
    tensor = game.spec.tensor
    if tensor is None:
        return -math.inf, math.inf
    low, high = tensor.observation_bounds(game)
    return float(low), float(high)


def require_observation_shape(game: Game, interface: str) -> tuple[int, ...]:
    """The observation tensor shape; a game without one cannot be used by ``interface``."""
    shape = observation_shape(game)
    if shape is None:
        raise NotImplementedError(
            f"{game.name} has no observation tensor (Game.observation_tensor_shape / "
            f"observation_tensor), which {interface} needs"
        )
    return shape


_PACKERS: dict[int, struct.Struct] = {}
_INDEX_PACKERS: dict[int, struct.Struct] = {}
_SIZES: dict[tuple[int, ...], int] = {}
_FLOAT32 = np.dtype(np.float32)


def _size(shape: tuple[int, ...]) -> int:
    size = _SIZES[shape] = math.prod(shape)
    return size


def tensor_array(game: Game, raw: Sequence[float], shape: tuple[int, ...]) -> Any:
    """A game's tensor (a new numpy array, or a sequence of numbers) as float32 of ``shape``."""
    expected = _SIZES.get(shape) or _size(shape)
    size = raw.size if isinstance(raw, np.ndarray) else len(raw)
    if size != expected:
        raise ValueError(
            f"{game.name}'s observation tensor has {size} numbers; "
            f"observation_tensor_shape() is {shape}"
        )
    if isinstance(raw, np.ndarray):
        # A game's tensor hook returns a new array each call, so a float32 one is used as is.
        values = raw if raw.dtype == _FLOAT32 else raw.astype(np.float32)
        return values if values.shape == shape else values.reshape(shape)
    # A list of numbers: struct packs it (rounding each to float32, as numpy would) about
    # three times faster than numpy converts it, and the array is made on the new bytes.
    packer = _PACKERS.get(size)
    if packer is None:
        packer = _PACKERS[size] = struct.Struct(f"{size}f")
    return np.ndarray(shape, np.float32, bytearray(packer.pack(*raw)))


def observation_array(game: Game, observation: dict[str, Any], shape: tuple[int, ...]) -> Any:
    """``game.observation_tensor(observation)`` as a float32 array of ``shape``."""
    return tensor_array(game, game.observation_tensor(observation), shape)


def state_observation_array(
    game: Game, state: State, seat: int | None, shape: tuple[int, ...]
) -> Any:
    """What ``seat`` sees of ``state`` as a float32 array of ``shape``.

    The same numbers as ``observation_array(game, state.observation(seat), shape)``, by the
    game's fast road (``Game.state_observation_tensor``, which the conformance suite checks
    against the observation dict at every step), so no observation dict is built. ``seat`` must
    be a seat of the game or ``None`` (the adapters pass only those, so the road is taken
    without ``state_observation_tensor``'s check of the seat). A flat float32 array of the
    right size from the game (a new one each call, which the game's hook promises) is only
    reshaped.
    """
    raw = game._state_observation_tensor(state, seat)
    if type(raw) is np.ndarray and raw.dtype == _FLOAT32:
        if raw.shape == shape:
            return raw
        if raw.size == _SIZES.get(shape):
            return raw.reshape(shape)
    return tensor_array(game, raw, shape)


def action_mask(legal: list[int], num_actions: int) -> Any:
    """An int8 array of ``num_actions`` entries: 1 at the ids in ``legal``, 0 elsewhere."""
    count = len(legal)
    if count <= _FEW_LEGAL:
        # A few ids: set bytes one by one, then one numpy call (numpy calls cost more than
        # Python steps here).
        marks = bytearray(num_actions)
        for action in legal:
            marks[action] = 1
        return np.frombuffer(marks, dtype=np.int8)
    # Many: pack the ids with struct and index once, several times faster than letting numpy
    # convert a list of Python ints.
    mask = np.zeros(num_actions, dtype=np.int8)
    packer = _INDEX_PACKERS.get(count)
    if packer is None:
        packer = _INDEX_PACKERS[count] = struct.Struct(f"{count}q")
    mask[np.frombuffer(packer.pack(*legal), dtype=np.int64)] = 1
    return mask


_FEW_LEGAL = 48

MaskHook = Callable[[State], "bytearray | None"]
"""A game's own road to the action mask: ``Game.state_action_mask``."""


def action_mask_hook(game: Game) -> MaskHook | None:
    """``game.state_action_mask`` where the game has that faster road to the action mask of the
    player to move, else ``None`` (the mask is then made from ``state.legal_actions()``)."""
    if game.spec.action_mask is None:
        return None
    return game.state_action_mask


def state_action_mask(game: Game, state: State, hook: MaskHook | None = None) -> Any:
    """The action mask of the player to move in ``state`` (int8, 1 at the legal ids).

    ``hook``: ``action_mask_hook(game)``, looked up by the caller once; without it the mask is
    made from ``state.legal_actions()``.
    """
    if hook is not None:
        marks = hook(state)
        if marks is not None:
            return np.frombuffer(marks, dtype=np.int8)
    return action_mask(state.legal_actions(), game.info.num_distinct_actions)


def agent_name(seat: int) -> str:
    """PettingZoo's name of a seat: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


def env_id(name: str) -> str:
    """The Gymnasium id of a game: ``obonto`` -> ``boneyard/Obonto-v0``."""
    return "boneyard/" + "".join(part.capitalize() for part in name.split("_")) + "-v0"
