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
_LIGHT_BITS = tuple(bytes(1 - (byte >> bit & 1) for bit in range(8)) for byte in range(256))
"""Per byte of the dark squares' bitboard: its eight squares as light (1) or dark (0) bytes."""
_ONES = b"\x01" * SQUARES


def state_tensor(state: ObontoState, seat: int | None) -> Any:
    """``observation_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    Read from the state's fields (Obonto has perfect information): every number is 0 or 1, so
    the planes are written as bytes (the dark squares' bitboard expanded by a table, the six
    animals, the turn and phase planes) and cast to float32 in one go.
    """
    observer = state._to_move if seat is None else seat
    planes = bytearray(PLANES * SQUARES)
    dark = state._dark.to_bytes(_DARK_BYTES, "little")
    planes[:SQUARES] = b"".join([_LIGHT_BITS[byte] for byte in dark])[:SQUARES]
    animals = state._animals
    for index in range(6):
        owner, kind = divmod(index, 3)
        plane = (1 if owner == observer else 4) + kind
        planes[plane * SQUARES + animals[index]] = 1
    if state.current_player() == observer:
        planes[7 * SQUARES : 8 * SQUARES] = _ONES
    if state._loser is not None and not state._over:
        planes[8 * SQUARES :] = _ONES
    return np.frombuffer(planes, dtype=np.uint8).astype(np.float32)
