"""Obonto's observation tensor: from an observation, and straight from a state (the fast road).

Nine 9x9 planes, flattened plane by plane, rank 1 first within a plane (index rank0 * 9 + file0):

0. light squares (1.0) versus dark ones (0.0)
1-3. the observer's lion, zebra, camel
4-6. the opponent's lion, zebra, camel
7. all 1.0 when the observer is the player to move, else 0.0
8. all 1.0 in the solo phase, else 0.0

The observer is the observation's ``seat``; for a spectator (``seat`` None) it is the seat to
move.

``state_tensor`` gives the same numbers as ``observation_tensor(state.observation(seat))``, read
from the state's fields instead of the observation dict; the conformance suite checks the two
roads equal at every step. Obonto has perfect information, so the fields show a seat nothing its
observation does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.games.obonto.notation import GRID, KINDS, SQUARES
from boneyard.games.obonto.observation import ObontoObservation

if TYPE_CHECKING:
    from boneyard.games.obonto.rules import ObontoGame, ObontoState
PLANES = 9
TENSOR_SHAPE = (PLANES, 9, 9)


def observation_tensor(game: ObontoGame, observation: ObontoObservation) -> list[float]:
    """The flat list of ``9 * 81`` floats described in the module docstring."""
    tensor = [0.0] * (PLANES * SQUARES)
    tensor[:SQUARES] = [1.0] * SQUARES
    for name in observation["dark"]:
        tensor[GRID.parse(name)] = 0.0
    seat = observation["seat"]
    if seat is None:
        seat = observation["to_move"]
    for owner, animals in enumerate(observation["animals"]):
        first_plane = 1 if owner == seat else 4
        for kind, name in animals.items():
            plane = first_plane + KINDS.index(kind)
            tensor[plane * SQUARES + GRID.parse(name)] = 1.0
    if observation["current_player"] == seat:
        tensor[7 * SQUARES : 8 * SQUARES] = [1.0] * SQUARES
    if observation["phase"] == "solo":
        tensor[8 * SQUARES :] = [1.0] * SQUARES
    return tensor


def observation_tensor_shape(game: ObontoGame) -> tuple[int, ...]:
    return TENSOR_SHAPE


_DARK_BYTES = (SQUARES + 7) // 8
_ONE = b"\x00\x00\x80\x3f"
"""1.0 as the four bytes of a little-endian float32 (0.0 is four zero bytes)."""
_ZERO = bytes(4)
_FLOAT32 = np.dtype("<f4")
_LIGHT = tuple(
    b"".join(_ZERO if byte >> bit & 1 else _ONE for bit in range(8)) for byte in range(256)
)
"""Per byte of the dark squares' bitboard: its eight squares as light (1.0) or dark (0.0)
float32 numbers, as bytes."""
_PLANE = 4 * SQUARES
"""Bytes of one float32 plane."""
_ONES = _ONE * SQUARES


def state_tensor(state: ObontoState, seat: int | None) -> Any:
    """``observation_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    Read from the state's fields (Obonto has perfect information):
    every number is 0 or 1, so the planes are written straight as the bytes of float32 numbers
    (the dark squares' bitboard expanded by a table, the six animals, the turn and phase
    planes) and the array is made on those bytes in one call.
    """
    observer = state._to_move if seat is None else seat
    planes = bytearray(PLANES * _PLANE)
    dark = state._dark.to_bytes(_DARK_BYTES, "little")
    planes[:_PLANE] = b"".join([_LIGHT[byte] for byte in dark])[:_PLANE]
    for index, square in enumerate(state._animals):
        owner, kind = divmod(index, 3)
        at = (((1 if owner == observer else 4) + kind) * SQUARES + square) * 4
        planes[at : at + 4] = _ONE
    if state.current_player() == observer:
        planes[7 * _PLANE : 8 * _PLANE] = _ONES
    if state._loser is not None and not state._over:
        planes[8 * _PLANE :] = _ONES
    return np.ndarray(PLANES * SQUARES, _FLOAT32, planes)


def observation_bounds(game: ObontoGame) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold (its entries are flags
    and fractions of at most one), for the bounded spaces of the research interfaces."""
    return 0.0, 1.0
