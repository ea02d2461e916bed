"""The observation tensors of both OYNO games: from an observation, and straight from a state.

``duel_state_tensor`` and ``puzzle_state_tensor`` give the same numbers as ``duel_tensor`` and
``puzzle_tensor`` of ``state.observation(seat)``, read from the states' bit masks instead of the
position string of the observation dict; the conformance suite checks the two roads equal at every
step. Both OYNO games have perfect information, so the fields show a seat nothing its observation
does not.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.games.oyno.heuristic import cells_of
from boneyard.games.oyno.observation import DuelObservation, PuzzleObservation

if TYPE_CHECKING:
    from boneyard.games.oyno.duel import DuelState, Oyno
    from boneyard.games.oyno.puzzle import OynoPuzzle, PuzzleState
_ONE = struct.pack("<f", 1.0)
"""1.0 as the four bytes of a little-endian float32 (0.0 is four zero bytes)."""
_BITS = tuple(
    b"".join(_ONE if byte >> bit & 1 else bytes(4) for bit in range(8)) for byte in range(256)
)
"""Per byte of a bit mask: its eight cells as float32 numbers, 1.0 where the bit is set."""
_FLOAT32 = np.dtype("<f4")
_EXACT: dict[tuple[int, int], bytes | None] = {}
"""``supply / per_player`` as float32 bytes, or None where float32 cannot hold it exactly."""


def _planes(masks: tuple[int, ...], cells: int) -> bytes:
    """The bits of each mask (``cells`` of them, cell a1 first) as float32 bytes, plane after
    plane."""
    size = (cells + 7) // 8
    width = 4 * cells
    bits = _BITS
    return b"".join(
        [b"".join([bits[byte] for byte in mask.to_bytes(size, "little")])[:width] for mask in masks]
    )


def _fraction(supply: int, per_player: int) -> bytes | None:
    key = (supply, per_player)
    if key in _EXACT:
        return _EXACT[key]
    value = supply / per_player
    packed = struct.pack("<f", value)
    exact = packed if struct.unpack("<f", packed)[0] == value else None
    _EXACT[key] = exact
    return exact


def puzzle_state_tensor(state: PuzzleState, seat: int | None) -> Any:
    """``puzzle_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    The planes from the state's bit masks (the puzzle has perfect information): up bones, down
    bones, empty resting cells, as ``position()`` shows them (the center is in no plane). Every
    number is 0 or 1: the planes are written straight as float32 bytes, and the array is made
    on them in one call.
    """
    geometry = state.game.geometry
    cells = geometry.cells
    rest = ((1 << cells) - 1) & ~(1 << geometry.center)
    occupied = state.occupied & rest
    up = state.up
    planes = _planes((occupied & up, occupied & ~up, rest & ~occupied), cells)
    return np.ndarray(3 * cells, _FLOAT32, bytearray(planes))


def duel_state_tensor(state: DuelState, seat: int | None) -> Any:
    """``duel_tensor(state.observation(seat))`` as a new flat numpy array.

    The five planes from the state's bit masks as ``position()`` shows them (a bone being
    rolled is left out, so its cell shows empty; the center is in no plane), then the supplies
    and the player to move by the dict road's arithmetic. Float32 (made on the bytes in one
    call) where it holds the supplies' fractions exactly, as it does for the default eight bones
    a player; float64 otherwise, so that the numbers are the dict road's.
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
    red_supply = _fraction(supply[0], per_player)
    white_supply = _fraction(supply[1], per_player)
    white_moves = state.current_player() == 1
    if red_supply is not None and white_supply is not None:
        tail = red_supply + white_supply + (_ONE if white_moves else bytes(4))
        return np.ndarray(5 * cells + 3, _FLOAT32, bytearray(planes + tail))
    tensor = np.empty(5 * cells + 3, dtype=np.float64)
    tensor[: 5 * cells] = np.frombuffer(planes, dtype=_FLOAT32)
    tensor[5 * cells :] = (
        supply[0] / per_player,
        supply[1] / per_player,
        1.0 if white_moves else 0.0,
    )
    return tensor


def puzzle_tensor(observation: PuzzleObservation) -> list[float]:
    """Three planes of size x size, from a1: up bones, down bones, empty resting cells."""
    cells = cells_of(observation["position"])
    up = [1.0 if c == "U" else 0.0 for c in cells]
    down = [1.0 if c == "D" else 0.0 for c in cells]
    empty = [1.0 if c == "." else 0.0 for c in cells]
    return up + down + empty


def duel_tensor(observation: DuelObservation) -> list[float]:
    """Five planes of size x size from a1: red up, red down, white up, white down, empty; then
    both supplies (as fractions of bones_per_player) and the player to move (1.0 for white)."""
    cells = cells_of(observation["position"])
    planes: list[float] = []
    for char in "RrWw.":
        planes.extend(1.0 if c == char else 0.0 for c in cells)
    per_player = observation["bones_per_player"]
    supply = observation["supply"]
    planes.append(supply[0] / per_player)
    planes.append(supply[1] / per_player)
    planes.append(1.0 if observation["current_player"] == 1 else 0.0)
    return planes


def observation_bounds(game: object) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold, for both OYNO games
    (planes of flags, and supplies as fractions of the bones a player has), for the bounded
    spaces of the research interfaces."""
    return 0.0, 1.0


class PuzzleTensor:
    """The puzzle's tensors, as its spec names them (``core.hooks.Tensor``, ``StateTensor``)."""

    @staticmethod
    def observation_tensor_shape(game: OynoPuzzle) -> tuple[int, ...]:
        return (3, game.size, game.size)

    @staticmethod
    def observation_tensor(game: OynoPuzzle, observation: PuzzleObservation) -> list[float]:
        return puzzle_tensor(observation)

    @staticmethod
    def observation_bounds(game: OynoPuzzle) -> tuple[float, float]:
        return observation_bounds(game)

    @staticmethod
    def state_tensor(state: PuzzleState, seat: int | None) -> Any:
        from boneyard.games.oyno.puzzle import PuzzleState

        if not isinstance(state, PuzzleState):
            raise TypeError(f"not an oyno_puzzle state: {state!r}")
        return puzzle_state_tensor(state, seat)


class DuelTensor:
    """The two-player game's tensors, as its spec names them."""

    @staticmethod
    def observation_tensor_shape(game: Oyno) -> tuple[int, ...]:
        return (5 * game.size * game.size + 3,)

    @staticmethod
    def observation_tensor(game: Oyno, observation: DuelObservation) -> list[float]:
        return duel_tensor(observation)

    @staticmethod
    def observation_bounds(game: Oyno) -> tuple[float, float]:
        return observation_bounds(game)

    @staticmethod
    def state_tensor(state: DuelState, seat: int | None) -> Any:
        from boneyard.games.oyno.duel import DuelState

        if not isinstance(state, DuelState):
            raise TypeError(f"not an oyno state: {state!r}")
        return duel_state_tensor(state, seat)
