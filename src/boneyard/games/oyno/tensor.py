"""The observation tensors straight from OYNO states (``state_observation_tensor`` of both games).

The same numbers as ``heuristic.duel_tensor`` and ``heuristic.puzzle_tensor`` of
``state.observation(seat)``, read from the states' bit masks instead of the position string of
the observation dict; the conformance suite checks the two roads equal at every step. Both OYNO
games have perfect information, so the fields show a seat nothing its observation does not.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from boneyard.games.oyno.duel import DuelState
    from boneyard.games.oyno.puzzle import PuzzleState
_BITS = tuple(bytes(byte >> bit & 1 for bit in range(8)) for byte in range(256))
"""Per byte of a bit mask: its eight cells as bytes, 1 where the bit is set."""


def _planes(masks: tuple[int, ...], cells: int) -> bytes:
    """The bits of each mask (``cells`` of them, cell a1 first) as bytes, plane after plane."""
    size = (cells + 7) // 8
    bits = _BITS
    return b"".join(
        [b"".join([bits[byte] for byte in mask.to_bytes(size, "little")])[:cells] for mask in masks]
    )


def puzzle_state_tensor(state: PuzzleState, seat: int | None) -> Any:
    """``puzzle_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    The planes from the state's bit masks (the puzzle has perfect information): up bones, down
    bones, empty resting cells, as ``position()`` shows them (the center is in no plane). Every
    number is 0 or 1: the planes are written as bytes and cast to float32 in one go.
    """
    geometry = state.game.geometry
    cells = geometry.cells
    rest = ((1 << cells) - 1) & ~(1 << geometry.center)
    occupied = state.occupied & rest
    up = state.up
    planes = _planes((occupied & up, occupied & ~up, rest & ~occupied), cells)
    return np.frombuffer(planes, dtype=np.uint8).astype(np.float32)


def duel_state_tensor(state: DuelState, seat: int | None) -> Any:
    """``duel_tensor(state.observation(seat))`` as a new flat float64 numpy array.

    The five planes from the state's bit masks as ``position()`` shows them (a bone being
    rolled is left out, so its cell shows empty; the center is in no plane), then the supplies
    and the player to move by the dict road's arithmetic.
    """
    game = state.game
    geometry = game.geometry
    cells = geometry.cells
    rest = ((1 << cells) - 1) & ~(1 << geometry.center)
    shown = rest & ~(1 << state.rolling) if state.rolling >= 0 else rest
    red = state.occupied[0] & shown
    white = state.occupied[1] & shown
    up = state.up
    planes = _planes((red & up, red & ~up, white & up, white & ~up, rest & ~(red | white)), cells)
    per_player = game.bones_per_player
    supply = state.supply
    tail = struct.pack(
        "3d",
        supply[0] / per_player,
        supply[1] / per_player,
        1.0 if state.current_player() == 1 else 0.0,
    )
    tensor = np.empty(5 * cells + 3, dtype=np.float64)
    tensor[: 5 * cells] = np.frombuffer(planes, dtype=np.uint8)
    tensor[5 * cells :] = np.frombuffer(tail, dtype=np.float64)
    return tensor
