"""Bones' observation tensor: from an observation, and straight from a state (the fast road).

``observation_tensor`` encodes an observation as the planes of ``TENSOR_PLANES``;
``state_tensor`` gives the same numbers straight from a state, built from the state's fields
instead of the observation dict; the conformance suite checks the two equal at every step.
Bones has perfect information, so the fields show a seat nothing its observation does not.

How: each square has a small code (colour shown, stack height capped at 3, joined to the right,
joined upwards), and a table gives the square's seven board planes (own_top .. joined_up) as
seven bytes for each side's view. The colour comes from the top piece's number (white places
the even-numbered pieces, black the odd ones); a square is joined to its neighbour exactly when
both show the same piece. The bytes of every square are kept on the state between calls, and
after a move only the squares the new piece covers and their left and lower neighbours (whose
"joined" planes look at them) are coded again, because an agent reads the tensor after every
move. One cast turns the bytes into the float32 planes.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from boneyard.games.bones.draw import _flat_heights, _flat_top, _parse_square, top_pieces
from boneyard.games.bones.observation import BonesObservation

if TYPE_CHECKING:
    from boneyard.games.bones.rules import BonesGame, BonesState

TENSOR_PLANES = (
    "own_top",
    "opponent_top",
    "height_1",
    "height_2",
    "height_3_or_more",
    "joined_right",
    "joined_up",
    "start_area",
    "own_supply",
    "opponent_supply",
    "own_turn",
)
"""The observation tensor's planes (each ``height`` x ``width``, rank 1 first), in order.

``own``/``opponent`` are from the observing seat's side (a spectator sees white's side).
``joined_right``/``joined_up``: the square and its right/upper neighbour show the same piece,
which is therefore completely visible (the piece boundaries). ``start_area`` marks the start
squares until the first piece is down. The supplies are the fraction of each player's pieces still
to place, on every square; ``own_turn`` is all ones when the observing side is to move.
"""


def observation_tensor_shape(game: BonesGame) -> tuple[int, ...]:
    return (len(TENSOR_PLANES), game.height, game.width)


def _float32(value: float) -> float:
    """``value`` rounded to the nearest float32 (the learning interfaces' precision), so that
    ``tensor.state_tensor`` gives exactly these numbers as a float32 array."""
    rounded: float = _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    return rounded


_FLOAT32 = struct.Struct("f")


def observation_tensor(game: BonesGame, observation: BonesObservation) -> list[float]:
    """The planes of ``TENSOR_PLANES``, flattened (plane, rank from 1, file from a).

    Every number is a float32 value (the supplies are rounded to it)."""
    width, height = observation["width"], observation["height"]
    size = width * height
    seat = observation["seat"]
    own = 0 if seat is None else seat
    own_letter, opponent_letter = ("W", "B") if own == 0 else ("B", "W")
    top = _flat_top(observation)
    heights = _flat_heights(observation)
    owners = top_pieces(observation)
    pieces = observation["pieces"]
    supply = observation["supply"]
    placed = [(len(pieces) + 1) // 2, len(pieces) // 2]
    planes: list[list[float]] = []
    planes.append([1.0 if c == own_letter else 0.0 for c in top])
    planes.append([1.0 if c == opponent_letter else 0.0 for c in top])
    planes.append([1.0 if h == 1 else 0.0 for h in heights])
    planes.append([1.0 if h == 2 else 0.0 for h in heights])
    planes.append([1.0 if h >= 3 else 0.0 for h in heights])
    planes.append(
        [
            1.0 if s % width < width - 1 and owners[s] >= 0 and owners[s] == owners[s + 1] else 0.0
            for s in range(size)
        ]
    )
    planes.append(
        [
            1.0 if s + width < size and owners[s] >= 0 and owners[s] == owners[s + width] else 0.0
            for s in range(size)
        ]
    )
    start = {_parse_square(name, width) for name in observation["start_area"]}
    planes.append([1.0 if not pieces and s in start else 0.0 for s in range(size)])
    for side in (own, 1 - own):
        total = supply[side] + placed[side]
        planes.append([_float32(supply[side] / total) if total else 0.0] * size)
    planes.append([1.0 if observation["current_player"] == own else 0.0] * size)
    return [value for plane in planes for value in plane]


PLANES = 11
BOARD_PLANES = 7
"""own_top, opponent_top, height_1, height_2, height_3_or_more, joined_right, joined_up."""
_REBUILD_AFTER = 8
"""More new moves than this since the last tensor: code the whole board again."""
_CODES = 48
"""Square codes: colour (3) * 16 + height (4) * 4 + joined right (2) * 2 + joined up (2)."""


def _square_bytes(own: int, code: int) -> bytes:
    colour, rest = divmod(code, 16)
    stack, joined = divmod(rest, 4)
    planes = (
        colour == 1 + own,
        colour == 2 - own,
        stack == 1,
        stack == 2,
        stack == 3,
        colour != 0 and joined & 2 != 0,
        colour != 0 and joined & 1 != 0,
    )
    return bytes(planes)


class Encoder:
    """The tables of one board size.

    A square's code is ``colour * 16 + min(height, 3) * 4 + joined_right * 2 + joined_up``,
    the colour 0 for empty, 1 white, 2 black; ``square_bytes[own][code]`` its seven board
    planes from seat ``own``'s side.
    """

    def __init__(self, width: int, height: int, start: tuple[int, ...]) -> None:
        self.width = width
        self.height = height
        self.size = size = width * height
        self.square_bytes = tuple(
            tuple(_square_bytes(own, code) for code in range(48)) for own in (0, 1)
        )
        self.start = np.zeros(size, dtype=np.float32)
        self.start[list(start)] = 1.0
        self.tables: dict[tuple[int, int, bool], Any] = {}
        """Every plane of a square by its code, per (moves, own seat, own turn)."""
        self.starts: dict[tuple[int, int, bool], Any] = {}
        """The whole tensor before the first move, per (0, own seat, own turn)."""
        self.start_mask = b""
        """The action mask before the first move (set by ``encoder``)."""
        self.touched: tuple[tuple[int, ...], ...] | None = None
        """Per placement, the squares whose code it may change (made at the first use)."""

    def code(self, state: BonesState, square: int) -> int:
        """The code of ``square``, from the state's fields."""
        owners = state._top_piece
        owner = owners[square]
        stack = state._heights[square]
        code = 12 if stack >= 3 else stack * 4
        if owner < 0:
            return code
        code += 32 if owner & 1 else 16
        width = self.width
        if square % width < width - 1 and owners[square + 1] == owner:
            code += 2
        if square + width < self.size and owners[square + width] == owner:
            code += 1
        return code


def encoder(state: BonesState) -> Encoder:
    """The game's encoder, made at the first use."""
    game = state.game
    enc: Encoder | None = game._tensor_encoder
    if enc is None:
        table = state._table
        enc = game._tensor_encoder = Encoder(table.width, table.height, table.start_squares)
        start_mask = bytearray(table.count)
        for action in table.start_actions:
            start_mask[action] = 1
        enc.start_mask = bytes(start_mask)
    return enc


def state_tensor(state: BonesState, seat: int | None) -> Any:
    """``observation_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    The square codes live in ``state._tensor_memo`` (the
    number of moves they were made after, the codes as a bytearray, and a numpy view of it).
    ``clone`` does not copy the memo, and a Bones state changes only by ``apply_action``, which
    adds to the history, so the move count tells when the memo is stale. One gather from the
    table of the position's (moves, own seat, own turn) makes the whole array. Every number is
    exact in float32 (the supplies are rounded to float32 on both roads), so the array holds
    the dict road's numbers exactly.
    """
    enc = state.game._tensor_encoder
    if enc is None:
        enc = encoder(state)
    moves = len(state._pieces)  # one piece per action: Bones has no chance
    own = 0 if seat is None else seat
    key = (moves, own, state._player == own)
    if not moves:
        start = enc.starts.get(key)
        if start is None:
            start = enc.starts[key] = _start_tensor(state, enc, key)
        return start.copy()
    memo = state._tensor_memo
    if memo is None or not 0 <= moves - memo[0] <= _REBUILD_AFTER:
        codes = bytearray(enc.code(state, square) for square in range(enc.size))
        view = np.frombuffer(codes, dtype=np.uint8)
        memo = state._tensor_memo = [moves, codes, view]
    elif memo[0] != moves:
        _update_codes(state, enc, memo)
    table = enc.tables.get(key)
    if table is None:
        table = enc.tables[key] = _table(state, enc, key)
    return table.take(memo[2], axis=1).reshape(-1)


def _update_codes(state: BonesState, enc: Encoder, memo: list[Any]) -> None:
    """Code again the squares the moves since the memo covered, and their left and lower
    neighbours (whose "joined" planes look at them)."""
    placed = state._pieces
    touched = enc.touched
    if touched is None:
        touched = enc.touched = _touched(state, enc)
    done = memo[0]
    if len(placed) - done == 1:
        squares: Any = touched[placed[done][0]]
    else:
        squares = set()
        for action, _, _ in placed[done:]:
            squares.update(touched[action])
    codes = memo[1]
    owners, heights = state._top_piece, state._heights
    width = enc.width
    size = enc.size
    for square in squares:
        # Encoder.code, inlined: this runs a few times a move.
        owner = owners[square]
        stack = heights[square]
        code = 12 if stack >= 3 else stack * 4
        if owner >= 0:
            code += 32 if owner & 1 else 16
            if square % width < width - 1 and owners[square + 1] == owner:
                code += 2
            if square + width < size and owners[square + width] == owner:
                code += 1
        codes[square] = code
    memo[0] = len(placed)


def _touched(state: BonesState, enc: Encoder) -> tuple[tuple[int, ...], ...]:
    """Per placement: the squares whose code it may change (its two squares and their left and
    lower neighbours)."""
    table = state._table
    width = enc.width
    out = []
    for action in range(table.count):
        squares: set[int] = set()
        for square in (table.first[action], table.second[action]):
            squares.add(square)
            if square % width:
                squares.add(square - 1)
            if square >= width:
                squares.add(square - width)
        out.append(tuple(sorted(squares)))
    return tuple(out)


def _tail(state: BonesState, key: tuple[int, int, bool]) -> list[float]:
    """Planes 7 to 10 after ``moves`` moves (start area: none), as one number each."""
    moves, own, own_turn = key
    pieces = state.game.pieces
    # The supplies as the dict road computes them (pieces still to place / the player's
    # pieces), rounded to float32 as it rounds them; then "own turn".
    own_supply = (pieces - (moves + 1 - own) // 2) / pieces
    opponent_supply = (pieces - (moves + own) // 2) / pieces
    return [0.0, own_supply, opponent_supply, 1.0 if own_turn else 0.0]


def _table(state: BonesState, enc: Encoder, key: tuple[int, int, bool]) -> Any:
    """Every plane of a square by its code (a column per code), for one (moves, own seat, own
    turn)."""
    board = np.frombuffer(b"".join(enc.square_bytes[key[1]]), dtype=np.uint8)
    table = np.empty((PLANES, _CODES), dtype=np.float32)
    table[:BOARD_PLANES] = board.reshape(_CODES, BOARD_PLANES).T
    table[BOARD_PLANES:] = np.array(_tail(state, key), dtype=np.float32)[:, None]
    return table


def _start_tensor(state: BonesState, enc: Encoder, key: tuple[int, int, bool]) -> Any:
    """The tensor of the empty board (before the first move)."""
    out = np.zeros((PLANES, enc.size), dtype=np.float32)
    out[7] = enc.start
    out[BOARD_PLANES + 1 :] = np.array(_tail(state, key)[1:], dtype=np.float32)[:, None]
    return out.reshape(-1)


def state_action_mask(state: BonesState) -> bytearray:
    """The action mask of the player to move, a byte per placement (``Game.state_action_mask``):
    the state's ``_allowed`` bytes after the first move
    (they mark exactly the placements of ``_legal``), the start placements before it."""
    if state._pieces:
        return bytearray(state._allowed)
    enc = state.game._tensor_encoder
    if enc is None:
        enc = encoder(state)
    return bytearray(enc.start_mask)


def observation_bounds(game: BonesGame) -> tuple[float, float]:
    """The least and greatest number the observation tensor can hold (its entries are flags
    and fractions of at most one), for the bounded spaces of the research interfaces."""
    return 0.0, 1.0
