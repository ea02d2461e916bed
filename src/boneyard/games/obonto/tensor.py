"""The observation tensor straight from an Obonto state (``ObontoGame.state_observation_tensor``).

The same numbers as ``features.observation_tensor(state.observation(seat))`` (the nine planes
its docstring lists), read from the state's fields instead of the observation dict; the
conformance suite checks the two roads equal at every step. Obonto has perfect information, so
the fields show a seat nothing its observation does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.games.obonto.features import PLANES
from boneyard.games.obonto.notation import SQUARES

if TYPE_CHECKING:
    from boneyard.games.obonto.rules import ObontoState
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
