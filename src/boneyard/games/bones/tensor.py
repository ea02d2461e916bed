"""The observation tensor straight from a Bones state (``BonesGame.state_observation_tensor``).

The same numbers as ``draw.observation_tensor(state.observation(seat))`` (the planes of
``draw.TENSOR_PLANES``), built from the state's fields instead of the observation dict; the
conformance suite checks the two equal at every step. Bones has perfect information, so the
fields show a seat nothing its observation does not.

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

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from boneyard.games.bones.rules import BonesState

PLANES = 11
BOARD_PLANES = 7
"""own_top, opponent_top, height_1, height_2, height_3_or_more, joined_right, joined_up."""
_REBUILD_AFTER = 8
"""More new moves than this since the last tensor: code the whole board again."""


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
        self.size = size = width * height
        self.square_bytes = tuple(
            tuple(_square_bytes(own, code) for code in range(48)) for own in (0, 1)
        )
        self.start = np.zeros(size, dtype=np.float32)
        self.start[list(start)] = 1.0
        self.empty = bytes(BOARD_PLANES * size)
        """The plane bytes of the empty board (both sides' views)."""
        self.tails: dict[tuple[int, int, bool], Any] = {}
        """The last four planes (start area after the first move, supplies, own turn) as a
        column per (moves, own seat, own turn)."""

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

    def board(self, state: BonesState) -> tuple[bytearray, bytearray]:
        """Every square's seven plane bytes, square after square, from each side's view."""
        if not state._pieces:
            return bytearray(self.empty), bytearray(self.empty)
        codes = [self.code(state, square) for square in range(self.size)]
        return tuple(  # type: ignore[return-value]
            bytearray(b"".join(table[code] for code in codes)) for table in self.square_bytes
        )


def encoder(state: BonesState) -> Encoder:
    """The game's encoder, made at the first use."""
    game = state.game
    enc: Encoder | None = game._tensor_encoder
    if enc is None:
        table = state._table
        enc = game._tensor_encoder = Encoder(table.width, table.height, table.start_squares)
    return enc


def state_tensor(state: BonesState, seat: int | None) -> Any:
    """``draw.observation_tensor(state.observation(seat))`` as a new flat float32 numpy array.

    The plane bytes live in ``state._tensor_memo`` (the number of moves they were made after,
    both sides' bytes, and numpy views of them). ``clone`` does not copy the memo, and a Bones
    state changes only by ``apply_action``, which adds to the history, so the move count tells
    when the memo is stale. Every number is exact in float32 (the supplies are rounded to float32
    on both roads), so the array holds the dict road's numbers exactly.
    """
    enc = encoder(state)
    history = state._history
    moves = len(history)
    memo = state._tensor_memo
    if memo is None or not 0 <= moves - memo[0] <= _REBUILD_AFTER:
        boards = enc.board(state)
        views = tuple(
            np.frombuffer(board, dtype=np.uint8).reshape(enc.size, BOARD_PLANES).T
            for board in boards
        )
        memo = state._tensor_memo = [moves, boards, views]
    elif memo[0] != moves:
        table = state._table
        width = enc.width
        first, second = table.first, table.second
        squares: set[int] = set()
        for action in history[memo[0] :]:
            for square in (first[action], second[action]):
                squares.add(square)
                if square % width:
                    squares.add(square - 1)
                if square >= width:
                    squares.add(square - width)
        white, black = memo[1]
        white_bytes, black_bytes = enc.square_bytes
        owners, heights = state._top_piece, state._heights
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
            at = square * BOARD_PLANES
            white[at : at + BOARD_PLANES] = white_bytes[code]
            black[at : at + BOARD_PLANES] = black_bytes[code]
        memo[0] = moves
    own = 0 if seat is None else seat
    out = np.empty((PLANES, enc.size), dtype=np.float32)
    out[:BOARD_PLANES] = memo[2][own]
    key = (moves, own, state._player == own)
    tail = enc.tails.get(key)
    if tail is None:
        pieces = state.game.pieces
        # The supplies as the dict road computes them (pieces still to place / the player's
        # pieces), rounded to float32 as it rounds them; then "own turn".
        own_supply = (pieces - (moves + 1 - own) // 2) / pieces
        opponent_supply = (pieces - (moves + own) // 2) / pieces
        tail = enc.tails[key] = np.array(
            [[0.0], [own_supply], [opponent_supply], [1.0 if key[2] else 0.0]], dtype=np.float32
        )
    out[BOARD_PLANES:] = tail
    if not moves:
        out[7] = enc.start
    return out.reshape(-1)
